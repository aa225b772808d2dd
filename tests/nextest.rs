//! The fixture's three known pairs under cargo nextest, which runs each test in a process of its
//! own: the run's results file, Markdown summary and Bencher Metric Format file hold all three
//! comparisons, and two shards' files hold them once each between them; on GitHub Actions the
//! failing test's process annotates its line, and the run's pull-request comment holds its loss
//! and its win. Skipped, saying so, when `cargo-nextest` is not installed.

mod support;

use serde_json::Value;
use std::path::Path;
use std::process::Command;
use support::{cargo, run, scratch_dir, take_turn, text};

const PAIRS: [&str; 3] = [
    "known_answers::four_times_the_work_vs_reference",
    "known_answers::quarter_of_the_work_vs_reference",
    "known_answers::same_work_vs_reference",
];

/// `cargo nextest run --release` of the fixture's known answers with `args`, writing its files
/// into `dir`. The four-times-the-work pair is a confirmed loss, so the run fails (nextest stops
/// at a first failure without `--no-fail-fast`); the files are what is checked.
fn nextest(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["nextest", "run", "--release", "--no-fail-fast", "-p", "rtcompare-fixture-verdicts"];
    all.extend_from_slice(&["--test", "known_answers"]);
    all.extend_from_slice(args);
    let mut command: Command = cargo(&all);
    command
        .env("RTCOMPARE_TIME", "300ms")
        .env("NO_COLOR", "1")
        .env("RTCOMPARE_RESULTS", dir.join("perf.json"))
        .env("RTCOMPARE_MARKDOWN", dir.join("perf.md"))
        .env("RTCOMPARE_BMF", dir.join("bmf.json"))
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", support::root());
    run(&mut command)
}

/// The comparisons' names in the results file, the names the Markdown summary's rows give, and
/// the BMF file's entries.
fn files(dir: &Path) -> (Vec<String>, Vec<String>, usize) {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
    };
    let results: Value = serde_json::from_str(&read("perf.json")).expect("the results file is JSON");
    let names = results["comparisons"].as_array().expect("comparisons").iter();
    let names = names.map(|c| c["name"].as_str().expect("a name").to_owned()).collect();
    let summary = read("perf.md");
    let rows = PAIRS.iter().filter(|pair| summary.contains(&format!("| `{pair}` |"))).map(|p| p.to_string()).collect();
    let bmf: Value = serde_json::from_str(&read("bmf.json")).expect("the BMF file is JSON");
    (names, rows, bmf.as_object().map_or(0, |entries| entries.len()))
}

fn nextest_installed() -> bool {
    let installed = cargo(&["nextest", "--version"]).output().is_ok_and(|output| output.status.success());
    if !installed {
        println!("skipped: cargo-nextest is not installed (`cargo install cargo-nextest` runs this test)");
    }
    installed
}

#[test]
fn a_nextest_run_and_its_shards_write_every_comparison_once() {
    let _turn = take_turn();
    if !nextest_installed() {
        return;
    }
    let all: Vec<String> = PAIRS.iter().map(|p| p.to_string()).collect();
    let whole = scratch_dir("nextest-whole");
    let whole = whole.path();
    let output = nextest(whole, &[]);
    assert!(text(&output).contains("3 tests run"), "{}", text(&output));
    assert_eq!(files(whole), (all.clone(), all.clone(), 6), "{}", text(&output));
    // On GitHub Actions the failing test's process annotates its line, and nextest shows it.
    assert!(
        text(&output)
            .contains("::error file=tests/fixtures/verdicts/tests/known_answers.rs,line=11,title=rtcompare%3A"),
        "{}",
        text(&output)
    );
    // One pull-request comment for the run, holding the loss and the win.
    let comment = std::fs::read_to_string(whole.join("perf-comment.md")).expect("the run's comment");
    for pair in [PAIRS[0], PAIRS[1]] {
        assert!(comment.contains(&format!("| `{pair}` |")), "{pair} missing from:\n{comment}");
    }
    assert!(comment.contains("Not listed: 1 at parity."), "{comment}");

    let mut sharded: Vec<String> = Vec::new();
    for shard in ["count:1/2", "count:2/2"] {
        let dir = scratch_dir(&format!("nextest-shard-{}", &shard[6..7]));
        let dir = dir.path();
        let output = nextest(dir, &["--partition", shard]);
        let (names, rows, bmf) = files(dir);
        assert!(!names.is_empty(), "{shard} ran nothing: {}", text(&output));
        assert_eq!((&rows, bmf), (&names, 2 * names.len()), "{shard}: {}", text(&output));
        sharded.extend(names);
    }
    sharded.sort();
    assert_eq!(sharded, all, "the shards hold every comparison once between them");
}
