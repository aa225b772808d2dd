//! criterion's own benchmark files under rtcompare-criterion: tests/fixtures/criterion's
//! `benches/benchmarks/*.rs` are taken unchanged from criterion's repository (criterion 0.8.2,
//! tag `criterion-v0.8.2`, the commit its crates.io package names), and only the fixture's Cargo.toml line and its `bench_main.rs` (which leaves
//! out the one group that runs a Python program) are this project's. They build, are listed by
//! criterion's own ids, and the custom measurement among them is an error that names it.

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};
use support::{block, cargo, root, run, stdout, take_turn, text};

/// criterion's repository and the commit the files were taken from.
const SOURCE: &str = "https://github.com/criterion-rs/criterion.rs, commit 7f0d745532e3c7b2e11bbf9de9b911f91790d3b1";

/// Each file under `benches/benchmarks/` with its git blob id in criterion's repository at that
/// commit (`git ls-tree criterion-v0.8.2 benches/benchmarks/`).
const TAKEN: [(&str, &str); 10] = [
    ("async_measurement_overhead.rs", "0c9605a178c9804a303997e064e0d757fa3c8597"),
    ("compare_functions.rs", "c68cb44e0ec3b7fa78c59b34640d711438095a1e"),
    ("custom_measurement.rs", "623d004af54c12b9c7d9f90182b91657fdd20438"),
    ("iter_with_large_drop.rs", "ee01de057af030f3929d811b0806165a0d100c29"),
    ("iter_with_large_setup.rs", "fda92b0300c4a3e59e6b211851d2b56b0c17b46c"),
    ("iter_with_setup.rs", "c9b09dc5037941d790dbab59f45afc9b2fb76a09"),
    ("measurement_overhead.rs", "e4715c7249aa6ca61009f9f3f2535d719637f626"),
    ("sampling_mode.rs", "cc4d9d5e7802cc97f0f947b7724c0e79977c6edf"),
    ("special_characters.rs", "6140f9a4222cafd869cd03ef829fdd8f1d1e5e6d"),
    ("with_inputs.rs", "a8910e882439b6ed99924241b4884b27a13c5a90"),
];

fn fixture() -> PathBuf {
    root().join("tests").join("fixtures").join("criterion")
}

/// `cargo bench` of the fixture's bench target `target`, with `args` after `--`.
fn bench(target: &str, args: &[&str]) -> Output {
    let manifest = fixture().join("Cargo.toml");
    let manifest = manifest.to_str().expect("a UTF-8 path");
    let mut all = vec!["bench", "--manifest-path", manifest, "--bench", target, "--"];
    all.extend_from_slice(args);
    run(cargo(&all).env("NO_COLOR", "1"))
}

/// criterion's own "comparing functions" benchmark, unchanged, with `Recursive` named each
/// group's baseline in the fixture's manifest: the iterative Fibonacci of 20 (twenty additions)
/// against the recursive one (over ten thousand calls) is a confirmed win whatever the placement,
/// and passes; run alone, it still measures both, in two processes of the bench binary.
#[test]
fn criterions_comparing_functions_judge_each_function_against_the_groups_baseline() {
    let _turn = take_turn();
    let output = bench("bench_main", &["Fibonacci3/Iterative/20", "--exact"]);
    let (out, everything) = (stdout(&output), text(&output));
    assert!(output.status.success(), "{everything}");
    let block = block(&out, "Fibonacci3/Iterative/20");
    assert!(block.starts_with("test Fibonacci3/Iterative/20 ... ok\n    win (confirmed): "), "{everything}");
    assert!(block.contains("    baseline  Fibonacci3/Recursive/20  "), "{everything}");
    assert!(out.contains("1 passed; 0 failed; 0 ignored; 0 measured; 43 filtered out"), "{everything}");
}

#[test]
fn the_benchmark_files_are_criterions_own_unchanged() {
    for (file, blob) in TAKEN {
        let path = fixture().join("benches").join("benchmarks").join(file);
        let output = run(Command::new("git").arg("hash-object").arg(&path));
        assert!(output.status.success(), "{}", text(&output));
        assert_eq!(stdout(&output).trim(), blob, "{} is not the file of {SOURCE}", path.display());
    }
}

#[test]
fn criterions_own_benchmarks_build_and_are_listed_by_criterions_ids() {
    let _turn = take_turn();
    let output = bench("bench_main", &["--list", "--format", "terse"]);
    assert!(output.status.success(), "{}", text(&output));
    let listed: Vec<String> =
        stdout(&output).lines().filter_map(|line| line.strip_suffix(": test")).map(str::to_owned).collect();
    let overheads = [
        "iter",
        "iter_with_setup",
        "iter_with_large_setup",
        "iter_with_large_drop",
        "iter_batched_small_input",
        "iter_batched_large_input",
        "iter_batched_per_iteration",
        "iter_batched_ref_small_input",
        "iter_batched_ref_large_input",
        "iter_batched_ref_per_iteration",
    ];
    let mut expected: Vec<String> = [
        "Fibonacci/Recursive",
        "Fibonacci/Iterative",
        "Fibonacci3/Recursive/20",
        "Fibonacci3/Iterative/20",
        "Fibonacci3/Recursive/21",
        "Fibonacci3/Iterative/21",
        "iter_with_large_drop/large_drop",
        "iter_with_large_drop/small_drop",
        "iter_with_large_setup/large_setup",
        "iter_with_large_setup/small_setup",
        "iter_with_setup",
        "from_elem/1024",
        "from_elem/2048",
        "from_elem/4096",
        "from_elem/8192",
        "from_elem/16384",
        "from_elem_decimal/1024",
        "from_elem_decimal/2048",
        "from_elem_dual_throughput/1024",
        "from_elem_dual_throughput/2048",
        "\"*group/\"/\"*benchmark/\" '",
        "sampling_mode/Auto",
        "sampling_mode/Linear",
        "sampling_mode/Flat",
    ]
    .into_iter()
    .map(str::to_owned)
    .chain(overheads.iter().map(|o| format!("overhead/{o}")))
    .chain(overheads.iter().map(|o| format!("async overhead/{o}")))
    .collect();
    expected.sort();
    assert_eq!(listed, expected, "{}", text(&output));
}

#[test]
fn a_custom_measurement_is_an_error_naming_the_benchmark_and_the_measurement() {
    let _turn = take_turn();
    let output = bench("custom", &[]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("error: the benchmark `fibonacci_custom_measurement` (")
            && stderr.contains("custom_measurement.rs:")
            && stderr.contains("custom_measurement::HalfSeconds`, a custom criterion `Measurement`"),
        "{}",
        text(&output)
    );
}
