//! Instruction counts beside time, end to end: the fixture target `counted` (a quarter more work
//! with one extra call, the same work, and a memory walk that differs in time alone) run as a
//! user runs it, with valgrind found, missing, failing and turned off. The counts are exact, so
//! they are asserted to the instruction; time verdicts only where the difference is far outside
//! any noise (the walk's large ring is tens of times slower). Then the pairs judged on their
//! counts (`metric = "instructions"`): a confirmed loss of 3 % at a parity of 1 % fails its test,
//! the same work is a parity, and without counting both fail saying why.
//!
//! These tests need valgrind on PATH (`.ci/run` installs it): without it each says it was
//! skipped, and fails under CI (`CI=true`).

mod support;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};
use support::{Profile, fixture_binary, run, scratch_dir, take_turn, text, valgrind_or_skip};

/// The fixture binary with the outer run's settings removed, a results file in `dir`, and `path`
/// as its PATH.
fn counted(dir: &Path, path: &str, args: &[&str]) -> Command {
    let mut command = Command::new(fixture_binary(Profile::Release, "counted"));
    for (name, _) in std::env::vars() {
        if name.starts_with("RTCOMPARE_") {
            command.env_remove(name);
        }
    }
    command.args(args).env("PATH", path).env("NO_COLOR", "1").env("RTCOMPARE_RESULTS", dir.join("results.json"));
    command.env_remove("GITHUB_STEP_SUMMARY").env_remove("NEXTEST_RUN_ID");
    command
}

/// The results file's comparison named `name`.
fn comparison(dir: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(dir.join("results.json")).unwrap_or_else(|e| panic!("no results file: {e}"));
    let file: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let all = file["comparisons"].as_array().cloned().unwrap_or_default();
    all.into_iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no comparison {name}"))
}

fn number(value: &Value) -> f64 {
    value.as_f64().unwrap_or_else(|| panic!("not a number: {value}"))
}

/// What the agreement must be for a time verdict `outcome` and an instruction `change` against
/// `tolerance`, as the docs define it.
fn expected_agreement(outcome: &str, change: f64, tolerance: f64) -> &'static str {
    let instructions = if change > tolerance {
        "loss"
    } else if change < -tolerance {
        "win"
    } else {
        "parity"
    };
    match (outcome, instructions) {
        (time, counted) if time == counted => "agrees",
        ("parity", _) => "instructions_only",
        (_, "parity") => "time_only",
        _ => "opposite",
    }
}

fn system_path() -> String {
    std::env::var("PATH").unwrap_or_default()
}

/// The per-call counts of a comparison: candidate, its twin, baseline, its twin.
fn per_call(c: &Value) -> [f64; 4] {
    let i = &c["instructions"];
    ["candidate", "candidate_twin", "baseline", "baseline_twin"].map(|arm| number(&i[arm]))
}

#[test]
fn counts_are_exact_name_the_added_function_and_tell_time_from_memory() {
    if !valgrind_or_skip("counts_are_exact_name_the_added_function_and_tell_time_from_memory") {
        return;
    }
    let _turn = take_turn();
    let (first, second) = (scratch_dir("counted-1"), scratch_dir("counted-2"));
    let (first, second) = (first.path(), second.path());
    let path = system_path();
    let out = run(counted(first, &path, &[]).env("RTCOMPARE_VERBOSE", "1"));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("instructions not counted"), "{}", text(&out));

    let spin = comparison(first, "counted::spin_5000_vs_spin_4000");
    let i = &spin["instructions"];
    assert_eq!(i["source"], "callgrind", "{}", text(&out));
    let change = number(&i["change"]);
    assert!((change - 0.25).abs() <= 0.005, "spin(5_000) against spin(4_000): {change}");
    assert_eq!(i["stable"], true);
    let outcome = spin["verdict"]["outcome"].as_str().unwrap_or_default().to_owned();
    let tolerance = number(&spin["verdict"]["tolerance"]);
    assert_eq!(i["agreement"], expected_agreement(&outcome, change, tolerance), "{i}");
    let functions = i["functions"].as_array().cloned().unwrap_or_default();
    let extra = functions.iter().find(|f| f["name"].as_str().is_some_and(|n| n.ends_with("::extra_step")));
    let extra = extra.unwrap_or_else(|| panic!("no extra_step among {functions:?}"));
    assert!(number(&extra["candidate"]) > 0.0 && number(&extra["baseline"]) == 0.0, "{extra}");

    let same = comparison(first, "counted::spin_4000_again_vs_spin_4000");
    let change = number(&same["instructions"]["change"]);
    assert!(change.abs() <= 0.001, "identical work: {change}");

    // The large ring is tens of times slower and runs the same instructions.
    let walk = comparison(first, "counted::walk_64_mib_vs_walk_16_kib");
    assert_eq!(walk["verdict"]["outcome"], "loss", "{}", text(&out));
    let change = number(&walk["instructions"]["change"]);
    assert!(change.abs() <= 0.005, "the walks: {change}");
    assert_eq!(walk["instructions"]["agreement"], "time_only");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("(time only: memory, cache or layout)"), "{}", text(&out));
    assert!(stdout.contains("instructions per call (callgrind, valgrind "), "verbose shows the counts:\n{stdout}");
    // A failed walk says where the instructions went: nowhere new.
    assert!(stdout.contains("per call (time only: memory, cache or layout)"), "{stdout}");

    // A second process counts the same, to the instruction.
    let again = run(&mut counted(second, &path, &["--exact", "counted::spin_5000_vs_spin_4000"]));
    let repeat = comparison(second, "counted::spin_5000_vs_spin_4000");
    assert_eq!(per_call(&repeat), per_call(&spin), "{}", text(&again));
}

/// A fixture run of the walk alone with `path` as PATH and `instructions` as
/// RTCOMPARE_INSTRUCTIONS (unset when `None`).
fn walk_with(dir: &Path, path: &str, instructions: Option<&str>) -> Output {
    // At the default budget: each fresh process builds the 64 MiB ring before it measures, and a
    // shorter budget can leave the confirmation too few of them to confirm the loss.
    let mut command = counted(dir, path, &["--exact", "counted::walk_64_mib_vs_walk_16_kib"]);
    if let Some(value) = instructions {
        command.env("RTCOMPARE_INSTRUCTIONS", value);
    }
    run(&mut command)
}

fn lines_saying(output: &Output, what: &str) -> usize {
    String::from_utf8_lossy(&output.stdout).lines().filter(|l| l.contains(what)).count()
}

#[test]
fn without_valgrind_or_with_a_broken_one_the_time_verdict_stands_and_one_line_says_why() {
    if !valgrind_or_skip("without_valgrind_or_with_a_broken_one_the_time_verdict_stands_and_one_line_says_why") {
        return;
    }
    let _turn = take_turn();
    let dir = scratch_dir("counted-missing");
    let dir = dir.path();
    // No valgrind on this PATH.
    let empty = scratch_dir("counted-empty-path");
    let empty = empty.path();
    let missing = walk_with(dir, &empty.to_string_lossy(), None);
    assert_eq!(missing.status.code(), Some(101), "the walk's loss still fails:\n{}", text(&missing));
    assert_eq!(
        lines_saying(&missing, "warning: instructions not counted: valgrind is not on PATH"),
        1,
        "{}",
        text(&missing)
    );
    assert!(String::from_utf8_lossy(&missing.stdout).contains("apt-get install valgrind"), "{}", text(&missing));
    let walk = comparison(dir, "counted::walk_64_mib_vs_walk_16_kib");
    assert_eq!((walk["verdict"]["outcome"].as_str(), walk["instructions"].is_null()), (Some("loss"), true));
    assert!(walk["instructions_not_counted"].as_str().is_some_and(|why| why.contains("not on PATH")), "{walk}");

    // A valgrind that says its version and refuses to run anything.
    let broken = scratch_dir("counted-broken-valgrind");
    let broken = broken.path();
    let script = broken.join("valgrind");
    std::fs::write(&script, "#!/bin/sh\n[ \"$1\" = --version ] && { echo valgrind-3.19.0; exit 0; }\necho 'valgrind: Bad option: --tool=callgrind' >&2\nexit 1\n")
        .unwrap_or_else(|e| panic!("{e}"));
    make_executable(&script);
    let refused = walk_with(dir, &broken.to_string_lossy(), None);
    assert_eq!(refused.status.code(), Some(101), "{}", text(&refused));
    assert_eq!(
        lines_saying(&refused, "warning: instructions not counted: valgrind refused to start: Bad option"),
        1,
        "{}",
        text(&refused)
    );

    // Required, and missing: the run stops before measuring.
    let required = walk_with(dir, &empty.to_string_lossy(), Some("callgrind"));
    assert_eq!(required.status.code(), Some(2), "{}", text(&required));
    assert!(String::from_utf8_lossy(&required.stderr).contains("RTCOMPARE_INSTRUCTIONS=callgrind requires counting"));
    assert!(!String::from_utf8_lossy(&required.stdout).contains("test counted::"), "{}", text(&required));

    // Off: nothing counted, nothing said.
    let off = walk_with(dir, &empty.to_string_lossy(), Some("off"));
    assert_eq!(off.status.code(), Some(101), "{}", text(&off));
    assert_eq!(lines_saying(&off, "instructions"), 0, "{}", text(&off));
    let walk = comparison(dir, "counted::walk_64_mib_vs_walk_16_kib");
    assert!(walk["instructions"].is_null() && walk["instructions_not_counted"].is_null(), "{walk}");

    // A bad value stops the run with the accepted ones.
    let bad = walk_with(dir, &system_path(), Some("yes"));
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("invalid RTCOMPARE_INSTRUCTIONS=\"yes\""), "{}", text(&bad));
}

/// A run of the two pairs judged on instruction counts, in `dir`, with `path` as PATH and
/// `instructions` as RTCOMPARE_INSTRUCTIONS (unset when `None`).
fn judged_on_counts(dir: &Path, path: &str, instructions: Option<&str>) -> Output {
    let mut command = counted(dir, path, &["counted::instructions_spin_"]);
    if let Some(value) = instructions {
        command.env("RTCOMPARE_INSTRUCTIONS", value);
    }
    run(&mut command)
}

#[test]
fn a_pair_judged_on_its_counts_fails_on_a_confirmed_loss_of_three_percent() {
    if !valgrind_or_skip("a_pair_judged_on_its_counts_fails_on_a_confirmed_loss_of_three_percent") {
        return;
    }
    let _turn = take_turn();
    let dir = scratch_dir("counted-metric");
    let dir = dir.path();
    let out = judged_on_counts(dir, &system_path(), None);
    assert_eq!(out.status.code(), Some(101), "the loss fails the run:\n{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("test counted::instructions_spin_4120_vs_spin_4000 ... FAILED"), "{}", text(&out));
    assert!(stdout.contains("test counted::instructions_spin_4000_vs_spin_4000 ... ok"), "{}", text(&out));
    assert!(stdout.contains("`instructions_spin_4120` executes more instructions than `spin_4000`"), "{stdout}");

    let loss = comparison(dir, "counted::instructions_spin_4120_vs_spin_4000");
    assert_eq!((loss["metric"].as_str(), loss["unit"].as_str()), (Some("instructions"), Some("instructions")));
    assert_eq!((loss["verdict"]["outcome"].as_str(), loss["passed"].as_bool()), (Some("loss"), Some(false)));
    assert!(loss["instructions"].is_null(), "no count beside time: the verdict is the count: {loss}");
    // Exact counts: every round of every process counts the same per call, and the ratio lies a
    // little under 1.03 (the call around the loop is the same in both).
    let summary = |arm: &str| {
        let s = &loss["first"][format!("{arm}_summary")];
        assert_eq!(number(&s["min"]), number(&s["max"]), "every round counts the same: {s}");
        number(&s["median"])
    };
    let (candidate, baseline) = (summary("candidate"), summary("baseline"));
    let ratio = candidate / baseline;
    assert!(ratio > 1.02 && ratio < 1.03, "4,120 steps against 4,000: {ratio}");
    // Confirmed in the fewest counting processes that can confirm at 1 % (seven) and one more,
    // all of which counted exactly what the first round did.
    let confirmation = &loss["confirmation"];
    assert_eq!(confirmation["confirmed"], true, "{confirmation}");
    assert_eq!(confirmation["planned"], 8, "{confirmation}");
    let differences = confirmation["report"]["process_differences"].as_array().cloned().unwrap_or_default();
    assert_eq!(differences.len(), 8, "{confirmation}");
    let first_difference = 1.0 - ratio;
    for d in &differences {
        assert!((number(d) - first_difference).abs() < 1e-12, "{d} against {first_difference}");
    }

    let same = comparison(dir, "counted::instructions_spin_4000_vs_spin_4000");
    assert_eq!(same["verdict"]["outcome"], "parity", "{same}");
    assert_eq!((same["verdict"]["resolved"].as_bool(), same["passed"].as_bool()), (Some(true), Some(true)));
    assert_eq!(number(&same["verdict"]["ratio"]), 1.0, "the same loop counts the same: {same}");
}

#[test]
fn a_pair_judged_on_its_counts_fails_where_nothing_counts() {
    if !valgrind_or_skip("a_pair_judged_on_its_counts_fails_where_nothing_counts") {
        return;
    }
    let _turn = take_turn();
    let dir = scratch_dir("counted-metric-uncounted");
    let dir = dir.path();
    let empty = scratch_dir("counted-metric-empty-path");
    let empty = empty.path();
    let missing = judged_on_counts(dir, &empty.to_string_lossy(), None);
    assert_eq!(missing.status.code(), Some(101), "{}", text(&missing));
    let stdout = String::from_utf8_lossy(&missing.stdout);
    assert!(stdout.contains("test counted::instructions_spin_4000_vs_spin_4000 ... FAILED"), "{}", text(&missing));
    let said = "`metric = \"instructions\"` is judged on instruction counts: ";
    let same = comparison(dir, "counted::instructions_spin_4000_vs_spin_4000");
    let failure = same["failure"].as_str().unwrap_or_default();
    assert!(failure.starts_with(said) && failure.contains("valgrind is not on PATH"), "{failure}");

    let off = judged_on_counts(dir, &system_path(), Some("off"));
    assert_eq!(off.status.code(), Some(101), "{}", text(&off));
    let same = comparison(dir, "counted::instructions_spin_4000_vs_spin_4000");
    let failure = same["failure"].as_str().unwrap_or_default();
    assert!(
        failure.starts_with(said) && failure.contains("RTCOMPARE_INSTRUCTIONS=off turns counting off"),
        "{failure}"
    );
}

#[cfg(unix)]
fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
}
