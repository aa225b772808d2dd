//! `cargo test --test perf` without `--release` builds the unoptimised test profile. Such a
//! binary builds the same test target optimised, in a target folder of its own, and runs that in
//! its place: the verdicts are about optimised code, and a loss fails the run (101). Where cargo
//! cannot be run it measures nothing and says which command to run instead (exit 2). With
//! `RTCOMPARE_DEBUG=1` it measures debug code on purpose, and even a clear loss passes, marked as
//! debug code (in an optimised build the variable changes nothing). Fixture:
//! tests/fixtures/verdicts/tests/known_answers.rs, built in the test profile (and in release for
//! the optimised build and the last test).

mod support;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use support::{
    Profile, fixture_binary, fixture_cargo, fixture_command, root, run, scratch_dir, stdout, take_turn, text,
};

/// Four times the reference's work: a loss in any build.
const LOSS: &str = "known_answers::four_times_the_work_vs_reference";

/// The line an unoptimised binary prints before it builds its optimised self.
const BUILDING: &str = "rtcompare: this is an unoptimised build; building the optimised one in ";

/// `cargo test` (no `--release`) of the fixture's known-answers target with a short budget and no colour.
fn debug_build(args: &[&str]) -> Command {
    let mut command = fixture_cargo(Profile::Unoptimised, "known_answers", args);
    command.env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1");
    command
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn an_unoptimised_build_run_by_cargo_measures_its_optimised_build() {
    let _turn = take_turn();
    let dir = scratch_dir("rebuilt-optimised");
    let dir = dir.path();
    let results = dir.join("perf.json");
    let output = run(debug_build(&["--exact", LOSS]).env("RTCOMPARE_RESULTS", &results));
    assert_eq!(output.status.code(), Some(101), "a loss of optimised code must fail the run:\n{}", text(&output));
    let out = stdout(&output);
    for part in [&format!("test {LOSS} ... FAILED"), "    loss (confirmed)", "test result: FAILED. 0 passed; 1 failed"]
    {
        assert!(out.contains(part), "missing {part:?}:\n{}", text(&output));
    }
    assert!(!out.contains("unoptimised") && !out.contains("RTCOMPARE_DEBUG"), "{}", text(&output));
    let err = stderr(&output);
    assert!(err.contains(BUILDING) && err.contains("rtcompare-optimised"), "{}", text(&output));
    let json = std::fs::read_to_string(&results).unwrap_or_else(|e| panic!("no results file: {e}\n{}", text(&output)));
    let file: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(file["environment"]["profile"]["debug_assertions"], false, "{json}");
    let comparison = &file["comparisons"][0];
    assert_eq!((&comparison["verdict"]["outcome"], &comparison["passed"]), (&Value::from("loss"), &Value::from(false)));
}

#[test]
fn listing_and_a_filter_that_selects_nothing_build_nothing() {
    let _turn = take_turn();
    // Listing measures nothing, so it works in any build (nextest lists with `--format terse`).
    let listed = run(&mut debug_build(&["--list", "--format", "terse"]));
    assert!(listed.status.success(), "{}", text(&listed));
    assert!(stdout(&listed).contains(&format!("{LOSS}: test\n")), "{}", text(&listed));
    assert!(!stderr(&listed).contains(BUILDING), "{}", text(&listed));

    let nothing = run(&mut debug_build(&["no_comparison_is_called_this"]));
    assert!(nothing.status.success(), "{}", text(&nothing));
    assert!(stdout(&nothing).contains("running 0 tests"), "{}", text(&nothing));
    assert!(!stderr(&nothing).contains(BUILDING), "{}", text(&nothing));

    // A malformed value is a settings error like any other.
    let malformed = run(debug_build(&["--exact", LOSS]).env("RTCOMPARE_DEBUG", "yes"));
    assert_eq!(malformed.status.code(), Some(2), "{}", text(&malformed));
    let err = stderr(&malformed);
    assert!(err.contains("invalid RTCOMPARE_DEBUG=\"yes\"") && err.contains("RTCOMPARE_DEBUG=1"), "{err}");
}

/// The unoptimised fixture binary started directly, as neither cargo nor nextest would: none of
/// the outer run's cargo or rtcompare variables.
fn direct(binary: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(binary);
    command.args(args).current_dir(root()).env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1");
    for (name, _) in std::env::vars() {
        if name.starts_with("RTCOMPARE_") || name.starts_with("CARGO") || name.starts_with("NEXTEST") {
            command.env_remove(name);
        }
    }
    command
}

#[test]
fn where_cargo_cannot_be_run_nothing_is_measured_and_the_command_is_named() {
    let _turn = take_turn();
    let binary = fixture_binary(Profile::Unoptimised, "known_answers");
    let package = root().join("tests/fixtures/verdicts");
    let dir = scratch_dir("unoptimised-refusal");
    let dir = dir.path();
    let results = dir.join("perf.json");
    let manifest = package.as_os_str();
    let cases: [(&[(&str, &std::ffi::OsStr)], &str); 3] = [
        (&[], "it was not started by cargo (CARGO_MANIFEST_DIR is not set)"),
        (
            &[("CARGO_MANIFEST_DIR", manifest), ("CARGO", "/no/such/cargo".as_ref())],
            "cargo could not be run (/no/such/cargo: ",
        ),
        // The optimised build it would start has this variable; one with debug assertions on too
        // must not build itself again.
        (
            &[("CARGO_MANIFEST_DIR", manifest), ("RTCOMPARE_OPTIMISED", dir.as_os_str())],
            "this is already the optimised build rtcompare made",
        ),
    ];
    for (variables, why) in cases {
        let output =
            run(direct(&binary, &["--exact", LOSS]).envs(variables.iter().copied()).env("RTCOMPARE_RESULTS", &results));
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        let err = stderr(&output);
        for part in [
            "error: this perf binary is an unoptimised build (debug assertions are on), so nothing was measured",
            &format!("\nrtcompare could not build and run the optimised one itself: {why}"),
            &format!("\n    cargo test --release --test known_answers -- --exact {LOSS}\n"),
            "set RTCOMPARE_DEBUG=1",
        ] {
            assert!(err.contains(part), "missing {part:?}:\n{}", text(&output));
        }
        assert!(!stdout(&output).contains("running"), "measured before refusing:\n{}", text(&output));
        assert!(!results.exists() && !dir.join("perf").exists(), "files were written:\n{}", text(&output));
    }
}

#[cfg(unix)]
#[test]
fn a_failed_optimised_build_is_an_error_naming_the_command() {
    let _turn = take_turn();
    let binary = fixture_binary(Profile::Unoptimised, "known_answers");
    let package = root().join("tests/fixtures/verdicts");
    // A cargo that reads the package and fails every build.
    let dir = scratch_dir("failing-cargo");
    let dir = dir.path();
    let failing = dir.join("cargo");
    let real = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    std::fs::write(&failing, format!("#!/bin/sh\n[ \"$1\" = metadata ] && exec '{real}' \"$@\"\nexit 1\n"))
        .unwrap_or_else(|e| panic!("{e}"));
    std::fs::set_permissions(&failing, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap_or_else(|e| panic!("{e}"));
    let output = run(direct(&binary, &["--exact", LOSS]).env("CARGO_MANIFEST_DIR", &package).env("CARGO", &failing));
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let err = stderr(&output);
    for part in [
        "error: this perf binary is an unoptimised build, and building its optimised one to measure instead did not \
         work: `CARGO_TARGET_DIR=",
        "rtcompare-optimised cargo test --no-run --message-format=json-render-diagnostics --manifest-path ",
        // The package by its package ID spec, which no dependency of the same name can share.
        " --package path+file://",
        "#rtcompare-fixture-verdicts@0.1.0 --test known_answers --release --no-default-features` in ",
        "failed (exit status: 1)",
        "set RTCOMPARE_DEBUG=1",
    ] {
        assert!(err.contains(part), "missing {part:?}:\n{}", text(&output));
    }
    assert!(!stdout(&output).contains("running"), "{}", text(&output));

    // A cargo that cannot even read the package names what it said.
    let output = run(direct(&binary, &["--exact", LOSS]).env("CARGO_MANIFEST_DIR", &package).env("CARGO", "false"));
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let err = stderr(&output);
    assert!(err.contains("did not work: `cargo metadata` in "), "{}", text(&output));
    assert!(err.contains(" failed: `cargo metadata --format-version 1 --manifest-path "), "{}", text(&output));
}

#[test]
fn with_rtcompare_debug_a_loss_in_debug_code_is_reported_and_passes() {
    let _turn = take_turn();
    let dir = scratch_dir("unoptimised-opt-in");
    let dir = dir.path();
    let results = dir.join("perf.json");
    // At the default budget: the confirmation's fresh processes of debug code start and calibrate
    // slowly, and at 300 ms a loaded machine left too few of them to confirm a fourfold loss.
    let mut command = debug_build(&["--exact", LOSS]);
    command.env("RTCOMPARE_TIME", "1s").env("RTCOMPARE_DEBUG", "1").env("RTCOMPARE_RESULTS", &results);
    let output = run(&mut command);
    assert!(output.status.success(), "{}", text(&output));
    assert!(!stderr(&output).contains(BUILDING), "{}", text(&output));
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
