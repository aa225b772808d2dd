//! rtcompare-criterion: a criterion suite, unchanged but for its dependency line, judged against
//! the git revision `RTCOMPARE_BASELINE` names under `cargo bench`, or a group's functions
//! against the baseline function its manifest names. Each test builds a throwaway
//! git repository whose library does the work and whose `benches/suite.rs` is written for
//! criterion; its `criterion` dev-dependency is this checkout's rtcompare-criterion, renamed into
//! place. The commit before is the same suite on the real criterion, the way a project is before
//! it switches: its baseline build takes rtcompare-criterion in criterion's place.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::{
    block, cargo, git, nested_target, parity_or_unconfirmed, root, run, scratch_dir, stdout, take_turn, text, write,
};

/// The library: `work(n)` is a loop of `n` additions, so `work(3_000)` takes three times as long
/// as `work(1_000)` whatever the code's placement; `changed` does `changed` of them, `unchanged`
/// a thousand.
fn lib_rs(changed: u64) -> String {
    format!(
        r#"use std::hint::black_box;

pub fn work(n: u64) -> u64 {{
    let mut total = 0u64;
    for i in 0..black_box(n) {{
        total = total.wrapping_add(black_box(i));
    }}
    total
}}

pub fn changed() -> u64 {{
    work({changed})
}}

pub fn unchanged() -> u64 {{
    work(1_000)
}}
"#
    )
}

/// The suite, as criterion's users write one: a function, a group over inputs with a throughput,
/// a batched setup and a custom timing loop.
const SUITE: &str = r#"use criterion::{black_box, criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use std::time::Instant;

fn single(c: &mut Criterion) {
    c.bench_function("changed", |b| b.iter(library::changed));
    c.bench_function("unchanged", |b| b.iter(|| library::unchanged()));
}

fn grouped(c: &mut Criterion) {
    let mut group = c.benchmark_group("work");
    for n in [1_000u64, 2_000] {
        group.throughput(Throughput::Elements(n));
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| b.iter(|| library::work(black_box(n))));
    }
    group.finish();
}

fn shaped(c: &mut Criterion) {
    c.bench_function("batched changed", |b| {
        b.iter_batched(|| vec![1u64; 64], |v| library::changed() + v.len() as u64, BatchSize::SmallInput)
    });
    c.bench_function("custom unchanged", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(library::unchanged());
            }
            start.elapsed()
        })
    });
}

criterion_group!(benches, single, grouped, shaped);
criterion_main!(benches);
"#;

/// A fresh git repository `name` (also the package's name) under the nested target folder, its
/// `criterion` dev-dependency `criterion` as written in the manifest.
fn repository(name: &str) -> PathBuf {
    let dir = nested_target().join("criterion-repositories").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for folder in ["src", "benches"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    }
    // rtcompare's own lock file pins the same dependency versions, so nothing is resolved anew.
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).expect("rtcompare's Cargo.lock");
    write(&dir, "Cargo.lock", &lock);
    write(&dir, ".gitignore", "target/\n");
    git(&dir, &["init", "--quiet", "--initial-branch=master", "."]);
    dir
}

/// The manifest with `criterion` as its dev-dependency's entry.
fn manifest(name: &str, criterion: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n\
         [lib]\nname = \"library\"\n\n[dev-dependencies]\ncriterion = {criterion}\n\n[[bench]]\nname = \"suite\"\n\
         harness = false\n"
    )
}

/// The dependency line that switches a suite to rtcompare-criterion.
fn switched() -> String {
    format!("{{ package = \"rtcompare-criterion\", path = '{}' }}", root().join("criterion").display())
}

fn commit(dir: &Path, manifest: &str, lib: &str, message: &str) {
    write(dir, "Cargo.toml", manifest);
    write(dir, "src/lib.rs", lib);
    write(dir, "benches/suite.rs", SUITE);
    git(dir, &["add", "--all"]);
    git(dir, &["commit", "--quiet", "--allow-empty", "-m", message]);
}

/// `cargo bench --bench suite` in `dir`, with `RTCOMPARE_BASELINE` when given.
fn bench(dir: &Path, baseline: Option<&str>, args: &[&str]) -> Output {
    let mut all = vec!["bench", "--bench", "suite", "--"];
    all.extend_from_slice(args);
    let mut command = cargo(&all);
    command.current_dir(dir).env("NO_COLOR", "1");
    if let Some(revision) = baseline {
        command.env("RTCOMPARE_BASELINE", revision);
    }
    run(&mut command)
}

/// The figures of a block's `time:   [low median high]` line, in nanoseconds.
fn time_line(block: &str) -> [f64; 3] {
    let line = block.lines().find_map(|l| l.strip_prefix("    time:   [")).unwrap_or_else(|| panic!("{block}"));
    let words: Vec<&str> = line.trim_end_matches(']').split(' ').collect();
    let figures: Vec<f64> = words
        .chunks(2)
        .map(|pair| {
            let scale = match pair.get(1).copied() {
                Some("ns") => 1.0,
                Some("µs") => 1e3,
                Some("ms") => 1e6,
                Some("s") => 1e9,
                other => panic!("no unit {other:?} in {block}"),
            };
            pair[0].parse::<f64>().unwrap_or_else(|e| panic!("{e}: {block}")) * scale
        })
        .collect();
    figures.try_into().unwrap_or_else(|f| panic!("not three figures {f:?}: {block}"))
}

/// Issue 48: the library function three times slower than at `HEAD~1`, where the suite still ran
/// on criterion itself; `cargo bench` against `HEAD~1` fails exactly the benchmarks that call it,
/// each as a confirmed loss, and passes the others.
#[test]
fn a_criterion_suite_fails_exactly_the_benchmarks_of_a_slower_function() {
    let _turn = take_turn();
    let name = "rtcompare-criterion-slower";
    let dir = repository(name);
    commit(&dir, &manifest(name, "\"0.5\""), &lib_rs(1_000), "Before, on criterion");
    commit(&dir, &manifest(name, &switched()), &lib_rs(3_000), "Switch to rtcompare-criterion; make `changed` slower");
    let output = bench(&dir, Some("HEAD~1"), &[]);
    let (out, everything) = (stdout(&output), text(&output));
    assert_eq!(output.status.code(), Some(101), "{everything}");
    assert!(everything.contains("replaced `criterion` by `rtcompare-criterion`"), "{everything}");
    for name in ["changed", "batched changed"] {
        let block = block(&out, name);
        assert!(block.starts_with(&format!("test {name} ... FAILED")), "{everything}");
        assert!(block.contains(&format!("baseline  {name} at HEAD~1")), "{everything}");
        assert!(block.contains("    loss (confirmed)"), "{everything}");
    }
    for name in ["unchanged", "custom unchanged", "work/1000", "work/2000"] {
        let block = block(&out, name);
        assert!(block.starts_with(&format!("test {name} ... ok")), "{everything}");
        assert!(parity_or_unconfirmed(block), "{everything}");
    }
    assert!(out.contains("test result: FAILED. 4 passed; 2 failed"), "{everything}");

    // Without a revision each benchmark is measured alone and passes, its time per iteration
    // printed with its interval, and the run says once how to compare with a revision.
    let files = scratch_dir("criterion-alone");
    let (results, bmf) = (files.path().join("suite.json"), files.path().join("suite-bmf.json"));
    let mut command = cargo(&["bench", "--bench", "suite"]);
    command.current_dir(&dir).env("NO_COLOR", "1").env("RTCOMPARE_RESULTS", &results).env("RTCOMPARE_BMF", &bmf);
    let output = run(&mut command);
    let (out, everything) = (stdout(&output), text(&output));
    assert!(output.status.success(), "{everything}");
    assert!(out.contains("6 passed; 0 failed; 0 ignored"), "{everything}");
    let mut medians = std::collections::BTreeMap::new();
    for name in ["changed", "unchanged", "batched changed", "custom unchanged", "work/1000", "work/2000"] {
        let block = block(&out, name);
        assert!(block.starts_with(&format!("test {name} ... ok\n    time:   [")), "{everything}");
        let [low, median, high] = time_line(block);
        assert!(0.0 < low && low <= median && median <= high, "{block}");
        assert!(block.contains("    measured alone: median of "), "{block}");
        assert_eq!(block.contains("    thrpt:  ["), name.starts_with("work/"), "{block}");
        medians.insert(name, median);
    }
    // `changed` does three times the additions of `unchanged` at HEAD: whatever the placement,
    // it reads at least 1.5 times as slow; only a load that halved the speed of `unchanged`
    // for its whole second, and not that of `changed`, could reverse it.
    assert!(medians["changed"] >= 1.5 * medians["unchanged"], "{medians:?}\n{everything}");
    let hint = "rtcompare: 6 benchmarks measured alone, without a verdict; to compare each with itself at a git \
                revision, run with RTCOMPARE_BASELINE=<revision>, e.g. `RTCOMPARE_BASELINE=master cargo bench --bench \
                suite`";
    assert_eq!(out.matches(hint).count(), 1, "{everything}");
    assert!(!out.contains("ignored\n"), "{everything}");
    // The results file has each one's figures and no verdict; the BMF file its median.
    let read = |path: &Path| -> serde_json::Value {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}\n{everything}", path.display()));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let (results, bmf) = (read(&results), read(&bmf));
    let comparisons = results["comparisons"].as_array().expect("comparisons");
    assert_eq!(comparisons.len(), 6, "{results:#}");
    for comparison in comparisons {
        let (name, alone) = (comparison["name"].as_str().expect("a name"), &comparison["alone"]);
        assert_eq!((&comparison["passed"], &comparison["verdict"]), (&true.into(), &serde_json::Value::Null));
        let figure = |field: &str| alone[field].as_f64().unwrap_or_else(|| panic!("no {field}: {comparison:#}"));
        assert!(figure("low") <= figure("median") && figure("median") <= figure("high"), "{comparison:#}");
        // Printed as `time:` rounds it: the file keeps every digit.
        let printed = time_line(block(&out, name))[1];
        assert!((printed - figure("median")).abs() <= figure("median") * 1e-3, "{printed} {comparison:#}");
        assert_eq!(bmf[name]["latency"]["value"], alone["summary"]["median"], "{bmf:#}");
    }

    // Measured alone, none is ignored: `--ignored` selects none of them, as libtest would.
    let output = bench(&dir, None, &["--ignored"]);
    assert!(stdout(&output).contains("0 passed; 0 failed; 0 ignored; 0 measured; 6 filtered out"), "{}", text(&output));

    // Listed by criterion's ids, without running a benchmark.
    let output = bench(&dir, Some("HEAD~1"), &["--list", "--format", "terse"]);
    let listed: Vec<String> = stdout(&output).lines().filter(|l| l.ends_with(": test")).map(str::to_owned).collect();
    let expected = ["batched changed", "changed", "custom unchanged", "unchanged", "work/1000", "work/2000"];
    assert_eq!(listed, expected.map(|n| format!("{n}: test")), "{}", text(&output));
}

/// criterion's "comparing functions": each group runs the same input through two functions, one
/// of which does three times the work of the other whatever the code's placement.
const COMPARING: &str = r#"use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

fn comparing(c: &mut Criterion) {
    let mut group = c.benchmark_group("sum");
    for n in [1_000u64] {
        group.bench_with_input(BenchmarkId::new("one pass", n), &n, |b, &n| b.iter(|| library::work(n)));
        group.bench_with_input(BenchmarkId::new("three passes", n), &n, |b, &n| b.iter(|| library::work(3 * n)));
    }
    group.finish();
    let mut group = c.benchmark_group("faster");
    group.bench_function("three passes", |b| b.iter(|| library::work(3_000)));
    group.bench_function("one pass", |b| b.iter(|| library::work(1_000)));
    group.finish();
}

criterion_group!(benches, comparing);
criterion_main!(benches);
"#;

/// Issue 48: a group's baseline function named in `[package.metadata.rtcompare.group-baselines]`
/// makes each other function of the group a pair against it, input by input, with no change to
/// the bench file: three times the work is a confirmed loss that fails, a third of it a
/// confirmed win that passes, and the baseline functions themselves are measured alone. A group
/// the manifest names and the suite does not have stops the run with an error naming both.
#[test]
fn a_groups_baseline_named_in_the_manifest_pairs_its_other_functions_with_it() {
    let _turn = take_turn();
    let name = "rtcompare-criterion-groups";
    let dir = repository(name);
    let baselines = "\n[package.metadata.rtcompare.group-baselines]\nsum = \"one pass\"\nfaster = \"three passes\"\n";
    write(&dir, "Cargo.toml", &(manifest(name, &switched()) + baselines));
    write(&dir, "src/lib.rs", &lib_rs(1_000));
    write(&dir, "benches/suite.rs", COMPARING);
    let output = bench(&dir, None, &[]);
    let (out, everything) = (stdout(&output), text(&output));
    assert_eq!(output.status.code(), Some(101), "{everything}");
    let slower = block(&out, "sum/three passes/1000");
    assert!(slower.starts_with("test sum/three passes/1000 ... FAILED"), "{everything}");
    assert!(slower.contains("    baseline  sum/one pass/1000  "), "{everything}");
    assert!(slower.contains("    loss (confirmed)"), "{everything}");
    let faster = block(&out, "faster/one pass");
    assert!(faster.starts_with("test faster/one pass ... ok"), "{everything}");
    assert!(faster.contains("    baseline  faster/three passes  "), "{everything}");
    assert!(faster.contains("    win (confirmed)"), "{everything}");
    for alone in ["sum/one pass/1000", "faster/three passes"] {
        assert!(block(&out, alone).starts_with(&format!("test {alone} ... ok\n    time:   [")), "{everything}");
    }
    assert!(out.contains("test result: FAILED. 3 passed; 1 failed"), "{everything}");

    write(&dir, "Cargo.toml", &(manifest(name, &switched()) + &baselines.replace("faster =", "fastest =")));
    let output = bench(&dir, None, &[]);
    let everything = text(&output);
    assert!(!output.status.success(), "{everything}");
    let said = "error: [package.metadata.rtcompare.group-baselines] names the group `fastest`, and no benchmark is in a \
                group of that name; its groups are: `faster`, `sum`";
    assert!(String::from_utf8_lossy(&output.stderr).contains(said), "{everything}");
    assert!(!stdout(&output).contains("test "), "nothing is measured: {everything}");
}
