//! The expansion of `#[compare]` and `main!()` survives what users name and write, end to end
//! through `cargo test --release`:
//!
//! - tests/fixtures/verdicts/tests/hygiene.rs: functions named after every identifier the
//!   generated code once used (`same`, `start`, `total`, `iters`, `seed`, `meter`, `outputs`,
//!   `input`, `inputs`, `rng`, `arg`) as candidate, baseline and setup; a module shadowing
//!   `std`, `core`, `rtcompare`, `drop` and the primitive types; pairs whose return types
//!   differ; `crate = path` through a re-export.
//! - tests/fixtures/renamed: a crate that depends on rtcompare as `rtc`, with
//!   `#[compare(crate = rtc, ...)]` and `rtc::main!(crate = rtc)`.
//!
//! Every pair does identical work on both sides, so no verdict can fail the run.

mod support;

use support::{cargo, fixture, run, stdout, take_turn, text};

/// Every test of the hygiene fixture, sorted as `--list` prints them.
const HYGIENE: &[&str] = &[
    "hygiene::arg_vs_same::arg_vs_same",
    "hygiene::input_vs_inputs::input_vs_inputs",
    "hygiene::inputs_vs_rng::inputs_vs_rng/16",
    "hygiene::iters_vs_seed::iters_vs_seed/16",
    "hygiene::meter_vs_outputs::meter_vs_outputs",
    "hygiene::no_input::meter_vs_total",
    "hygiene::no_input::start_vs_base",
    "hygiene::outputs_vs_input::outputs_vs_input",
    "hygiene::returns::by_reference_vs_by_value/8",
    "hygiene::returns::owned_vs_borrowed",
    "hygiene::returns::vector_vs_boxed",
    "hygiene::rng_vs_arg::rng_vs_arg/16",
    "hygiene::same_vs_start::same_vs_start",
    "hygiene::seed_vs_meter::seed_vs_meter/16",
    "hygiene::shadowing::candidate_vs_baseline",
    "hygiene::start_vs_total::start_vs_total",
    "hygiene::through_reexport::candidate_vs_baseline",
    "hygiene::total_vs_iters::total_vs_iters",
];

#[test]
fn everyday_names_shadowed_paths_and_differing_returns_build_and_every_pair_runs() {
    let _turn = take_turn();
    let output = fixture("hygiene", &[]);
    assert!(output.status.success(), "{}", text(&output));
    let out = stdout(&output);
    let summary = format!("test result: ok. {} passed; 0 failed", HYGIENE.len());
    assert!(out.contains(&summary), "expected {summary:?}:\n{}", text(&output));
    for name in HYGIENE {
        assert!(out.contains(&format!("test {name} ... ok")), "{name} did not run and pass:\n{}", text(&output));
    }
}

#[test]
fn a_renamed_dependency_works_through_the_crate_key() {
    let _turn = take_turn();
    let manifest = "tests/fixtures/renamed/Cargo.toml";
    let mut command = cargo(&["test", "--release", "--manifest-path", manifest, "--test", "renamed"]);
    let output = run(command.env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1"));
    assert!(output.status.success(), "{}", text(&output));
    let out = stdout(&output);
    assert!(out.contains("test result: ok. 2 passed; 0 failed"), "{}", text(&output));
    for name in ["renamed::same_work_vs_reference", "renamed::fold_vs_fold_reference/8"] {
        assert!(out.contains(&format!("test {name} ... ok")), "{name} did not run and pass:\n{}", text(&output));
    }
}
