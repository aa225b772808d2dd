//! `cargo test --test perf` without `--release` builds the unoptimised test profile. Such a
//! binary measures nothing and says which command to run instead; with `RTCOMPARE_DEBUG=1` it
//! measures debug code on purpose, and even a clear loss passes, marked as debug code (in an
//! optimised build the variable changes nothing). Fixture:
//! tests/fixtures/verdicts/tests/known_answers.rs, built in the test profile (and in release for the last test).

mod support;

use serde_json::Value;
use support::{Profile, fixture_cargo, fixture_command, run, scratch_dir, stdout, take_turn, text};

/// Four times the reference's work: a loss in any build.
const LOSS: &str = "known_answers::four_times_the_work_vs_reference";

/// `cargo test` (no `--release`) of the fixture's known-answers target with a short budget and no colour.
fn debug_build(args: &[&str]) -> std::process::Command {
    let mut command = fixture_cargo(Profile::Unoptimised, "known_answers", args);
    command.env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1");
    command
}

#[test]
fn an_unoptimised_build_measures_nothing_and_names_the_command_to_run() {
    let _turn = take_turn();
    let dir = scratch_dir("unoptimised-refusal");
    let results = dir.join("perf.json");
    let output = run(debug_build(&["--exact", LOSS]).env("RTCOMPARE_RESULTS", &results));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    for part in [
        "error: this perf binary is an unoptimised build (debug assertions are on), so nothing was measured",
        &format!("\n    cargo test --release --test known_answers -- --exact {LOSS}\n"),
        "set RTCOMPARE_DEBUG=1",
    ] {
        assert!(stderr.contains(part), "missing {part:?}:\n{}", text(&output));
    }
    assert!(!stdout(&output).contains("running"), "measured before refusing:\n{}", text(&output));
    assert!(!results.exists() && !dir.join("perf").exists(), "files were written:\n{}", text(&output));

    // Listing measures nothing, so it works in any build (nextest lists with `--format terse`).
    let listed = run(&mut debug_build(&["--list", "--format", "terse"]));
    assert!(listed.status.success(), "{}", text(&listed));
    assert!(stdout(&listed).contains(&format!("{LOSS}: test\n")), "{}", text(&listed));

    // A malformed value is a settings error like any other.
    let malformed = run(debug_build(&["--exact", LOSS]).env("RTCOMPARE_DEBUG", "yes"));
    assert_eq!(malformed.status.code(), Some(2), "{}", text(&malformed));
    let stderr = String::from_utf8_lossy(&malformed.stderr);
    assert!(stderr.contains("invalid RTCOMPARE_DEBUG=\"yes\"") && stderr.contains("RTCOMPARE_DEBUG=1"), "{stderr}");
}

#[test]
fn with_rtcompare_debug_a_loss_in_debug_code_is_reported_and_passes() {
    let _turn = take_turn();
    let dir = scratch_dir("unoptimised-opt-in");
    let results = dir.join("perf.json");
    let output = run(debug_build(&["--exact", LOSS]).env("RTCOMPARE_DEBUG", "1").env("RTCOMPARE_RESULTS", &results));
    assert!(output.status.success(), "{}", text(&output));
    let out = stdout(&output);
    for part in [
        &format!("test {LOSS} ... ok"),
        // The confirmation ran in a worker process, which measured debug code too.
        "    loss (confirmed)",
        "    unoptimised code (RTCOMPARE_DEBUG=1): these figures describe a debug build, and in an optimised build \
         this verdict would fail the test; here it is reported and the test passes",
        "test result: ok. 1 passed; 0 failed",
        "none of them failed a test",
    ] {
        assert!(out.contains(part), "missing {part:?}:\n{}", text(&output));
    }
    let json = std::fs::read_to_string(&results).unwrap_or_else(|e| panic!("no results file: {e}\n{}", text(&output)));
    let file: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(file["environment"]["profile"]["debug_assertions"], true, "{json}");
    let comparison = &file["comparisons"][0];
    assert_eq!((&comparison["verdict"]["outcome"], &comparison["passed"]), (&Value::from("loss"), &Value::from(true)));
}

#[test]
fn in_an_optimised_build_rtcompare_debug_changes_nothing() {
    let _turn = take_turn();
    let output = run(fixture_command("known_answers", &["--exact", LOSS]).env("RTCOMPARE_DEBUG", "1"));
    assert_eq!(output.status.code(), Some(101), "a loss in release code must still fail:\n{}", text(&output));
    let out = stdout(&output);
    assert!(
        out.contains(&format!("test {LOSS} ... FAILED")) && out.contains("    loss (confirmed)"),
        "{}",
        text(&output)
    );
    assert!(!out.contains("unoptimised") && !out.contains("RTCOMPARE_DEBUG"), "{}", text(&output));
}
