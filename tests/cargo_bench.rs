//! `cargo bench` runs the comparisons as `cargo test` does, through a real `cargo bench` on the
//! fixture crate tests/fixtures/verdicts: a `[[bench]] harness = false` target gets the same
//! blocks, files and exit code (a confirmed 4x loss fails the run), and `cargo bench --test`
//! runs a `[[test]]` target, with filters, `--exact` and `--list` as under `cargo test`. Cargo
//! passes `--bench` to both, which a harness of benchmarks alone would read as "skip every test".

mod support;

use std::process::Output;
use support::{cargo, run, scratch_dir, stdout, take_turn, text};

/// `cargo bench -p rtcompare-fixture-verdicts <args>` with a short budget and no colour.
fn bench(args: &[&str], results: Option<&std::path::Path>) -> Output {
    let mut all = vec!["bench", "-p", "rtcompare-fixture-verdicts"];
    all.extend_from_slice(args);
    let mut command = cargo(&all);
    command.env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1");
    if let Some(results) = results {
        command.env("RTCOMPARE_RESULTS", results);
    }
    run(&mut command)
}

// One test function, so the measurements run one after another and never beside a build.
#[test]
fn cargo_bench_runs_the_comparisons_and_fails_on_a_confirmed_loss() {
    let _turn = take_turn();
    let dir = scratch_dir("cargo-bench");
    let dir = dir.path();
    let results = dir.join("bench_target.json");
    let all = bench(&["--bench", "bench_target"], Some(&results));
    let out = stdout(&all);
    assert_eq!(all.status.code(), Some(101), "{}", text(&all));
    assert!(out.contains("test bench_target::four_times_the_work_vs_reference ... FAILED"), "{}", text(&all));
    assert!(out.contains("    loss (confirmed): time +"), "{}", text(&all));
    assert!(out.contains("test bench_target::quarter_of_the_work_vs_reference ... ok"), "{}", text(&all));
    assert!(out.contains("    win ("), "{}", text(&all));
    assert!(out.contains("test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured"), "{}", text(&all));
    assert!(!out.contains("ignored\n"), "no comparison may be skipped as a non-benchmark:\n{}", text(&all));
    let file =
        std::fs::read_to_string(&results).unwrap_or_else(|e| panic!("{}: {e}\n{}", results.display(), text(&all)));
    let file: serde_json::Value = serde_json::from_str(&file).expect("the results file is JSON");
    assert_eq!(file["comparisons"].as_array().map(Vec::len), Some(2), "{file:#}");

    // A `[[test]]` target under `cargo bench --test`, one comparison selected by exact name.
    let name = "known_answers::quarter_of_the_work_vs_reference";
    let one = bench(&["--test", "known_answers", "--", "--exact", name], None);
    assert!(one.status.success(), "{}", text(&one));
    assert!(stdout(&one).contains(&format!("test {name} ... ok\n    win (")), "{}", text(&one));
    assert!(stdout(&one).contains("1 passed; 0 failed; 0 ignored; 0 measured; 2 filtered out"), "{}", text(&one));
}

#[test]
fn cargo_bench_lists_and_filters_as_cargo_test_does() {
    let _turn = take_turn();
    let listed = bench(&["--bench", "bench_target", "--", "--list", "--format", "terse"], None);
    assert!(listed.status.success(), "{}", text(&listed));
    assert_eq!(
        stdout(&listed),
        "bench_target::four_times_the_work_vs_reference: test\n\
         bench_target::quarter_of_the_work_vs_reference: test\n"
    );
    let filtered = bench(&["--bench", "bench_target", "--", "--list", "--format", "terse", "quarter"], None);
    assert_eq!(stdout(&filtered), "bench_target::quarter_of_the_work_vs_reference: test\n", "{}", text(&filtered));
}
