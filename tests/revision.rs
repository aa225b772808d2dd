//! `#[compare]` without `baseline`: a function measured against itself at the git revision
//! `RTCOMPARE_BASELINE` names. Each test builds a throwaway git repository whose library does the
//! work and whose perf target, depending on this checkout of rtcompare by path, compares the
//! library's functions; it runs `cargo test --release --test perf` in it. The repositories'
//! current builds share the nested target folder of the other end-to-end tests, and their
//! baseline builds share `<that folder>/rtcompare-baseline/target`, so the dependencies are built
//! once per folder.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::{
    block, cargo, git, nested_target, parity_or_unconfirmed, root, run, stdout, take_turn, text, valgrind_or_skip,
    write,
};

/// The fixture's library: `work(n)` is a loop of `n` additions, so `work(3_000)` takes three
/// times as long as `work(1_000)` whatever the code's placement; `changed` does `changed` of
/// them and `unchanged` a thousand.
fn lib_rs(changed: u64, extra: &str) -> String {
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
{extra}"#
    )
}

/// The fixture's perf target: a comparison of each library function against itself at the
/// baseline revision.
fn perf_rs(extra: &str) -> String {
    format!(
        r#"use rtcompare::compare;

#[compare]
fn changed() -> u64 {{
    library::changed()
}}

#[compare]
fn unchanged() -> u64 {{
    library::unchanged()
}}
{extra}
rtcompare::main!();
"#
    )
}

/// A library function three times slower at the later commit when `n` is 3,000.
fn parse_rs(n: u64) -> String {
    format!("\npub fn parse() -> u64 {{\n    work({n})\n}}\n")
}

/// A comparison of `library::parse`, added to the perf target with the change.
const PARSE: &str = "
#[compare]
fn parse() -> u64 {
    library::parse()
}
";

/// `changed` judged on its instruction counts.
const COUNTED: &str = r#"
#[compare(metric = "instructions")]
fn counted() -> u64 {
    library::changed()
}
"#;

/// Comparisons with input, in each of the shapes a candidate can take it.
const WITH_INPUTS: &str = "
fn numbers(rng: &mut rtcompare::Dprng) -> Vec<u32> {
    rng.vec_u32(100)
}

fn sized(size: usize) -> Vec<u32> {
    (0..size as u32).collect()
}

#[compare(setup = numbers)]
fn sort(v: &mut Vec<u32>) {
    v.sort();
}

#[compare(setup = numbers)]
fn sorted_copy(v: &Vec<u32>) -> Vec<u32> {
    let mut copy = v.clone();
    copy.sort();
    copy
}

#[compare(setup = numbers)]
fn consume(v: Vec<u32>) -> usize {
    v.len()
}

#[compare(setup = sized, args = [10, 100])]
fn total(v: &Vec<u32>) -> u64 {
    v.iter().map(|&x| u64::from(x)).sum()
}
";

/// A fresh git repository `name` (also the package's name) under the nested target folder.
fn repository(name: &str) -> PathBuf {
    let dir = nested_target().join("revision-repositories").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    for folder in ["src", "tests"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    }
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n\
         [lib]\nname = \"library\"\n\n[dev-dependencies]\nrtcompare = {{ path = '{}' }}\n\n[[test]]\nname = \"perf\"\nharness = false\ntest = false\n",
        root().display()
    );
    write(&dir, "Cargo.toml", &manifest);
    // rtcompare's own lock file pins the same dependency versions, so nothing is resolved anew.
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).expect("rtcompare's Cargo.lock");
    write(&dir, "Cargo.lock", &lock);
    write(&dir, ".gitignore", "target/\n");
    git(&dir, &["init", "--quiet", "--initial-branch=master", "."]);
    dir
}

fn commit(dir: &Path, lib: &str, perf: &str, message: &str) {
    write(dir, "src/lib.rs", lib);
    write(dir, "tests/perf.rs", perf);
    git(dir, &["add", "--all"]);
    git(dir, &["commit", "--quiet", "--allow-empty", "-m", message]);
}

/// `cargo test --release --test perf` in `dir`, with `RTCOMPARE_BASELINE` when given.
fn perf(dir: &Path, baseline: Option<&str>, args: &[&str]) -> Output {
    perf_for(dir, baseline, args, "300ms")
}

/// [`perf`] with the budget `time`.
fn perf_for(dir: &Path, baseline: Option<&str>, args: &[&str], time: &str) -> Output {
    let mut all = vec!["test", "--release", "--test", "perf", "--"];
    all.extend_from_slice(args);
    let mut command = cargo(&all);
    command.current_dir(dir).env("RTCOMPARE_TIME", time).env("NO_COLOR", "1");
    if let Some(revision) = baseline {
        command.env("RTCOMPARE_BASELINE", revision);
    }
    run(&mut command)
}

/// Issue 30's "done when": a library function three times slower than at `HEAD~1`, one
/// unchanged, and a comparison added since `HEAD~1` of a function that got slower: the current
/// perf target is built against the old library, so the added comparison is measured too.
#[test]
fn a_slower_function_fails_as_a_confirmed_loss_even_when_its_comparison_is_new() {
    let _turn = take_turn();
    let dir = repository("rtcompare-revision-slower");
    commit(&dir, &lib_rs(1_000, &parse_rs(1_000)), &perf_rs(""), "Before");
    commit(&dir, &lib_rs(3_000, &parse_rs(3_000)), &perf_rs(PARSE), "Make two functions slower, compare `parse`");
    // At the default budget: at 300 ms a loaded machine can leave a confirmation too few lock-step
    // pairs to confirm even a threefold loss (seen once beside a build).
    let output = perf_for(&dir, Some("HEAD~1"), &[], "1s");
    let (out, everything) = (stdout(&output), text(&output));
    assert_eq!(output.status.code(), Some(101), "{everything}");
    assert!(everything.contains("building this `perf` target against its library"), "{everything}");
    for name in ["changed", "parse"] {
        let block = block(&out, &format!("perf::{name}_vs_baseline"));
        assert!(block.starts_with(&format!("test perf::{name}_vs_baseline ... FAILED")), "{everything}");
        assert!(block.contains(&format!("baseline  {name} at HEAD~1")), "{everything}");
        assert!(block.contains("    loss (confirmed)"), "{everything}");
    }
    let unchanged = block(&out, "perf::unchanged_vs_baseline");
    assert!(unchanged.starts_with("test perf::unchanged_vs_baseline ... ok"), "{everything}");
    assert!(parity_or_unconfirmed(unchanged), "{everything}");
    assert!(
        out.contains(
            "failures:\n    perf::changed_vs_baseline\n    perf::parse_vs_baseline\n\ntest result: FAILED. 1 passed; 2 failed"
        ),
        "{everything}"
    );
    assert!(!out.contains("new since the baseline revision"), "{everything}");

    // Without the variable, the comparisons are ignored, each with how to run it, and listed.
    let output = perf(&dir, None, &[]);
    let out = stdout(&output);
    assert!(output.status.success(), "{}", text(&output));
    assert!(out.contains("test perf::changed_vs_baseline ... ignored\n    compares this function against itself at a git revision: run with RTCOMPARE_BASELINE=<revision>"), "{}", text(&output));
    // The repository's one branch is `master`, and the hint names it.
    assert!(out.contains("e.g. `RTCOMPARE_BASELINE=master cargo test --release --test perf`"), "{}", text(&output));
    assert!(out.contains("0 passed; 0 failed; 3 ignored"), "{}", text(&output));
    let output = perf(&dir, Some("HEAD~1"), &["--list", "--format", "terse"]);
    let listed = stdout(&output);
    assert_eq!(
        listed.lines().filter(|l| l.ends_with(": test")).collect::<Vec<_>>(),
        ["perf::changed_vs_baseline: test", "perf::parse_vs_baseline: test", "perf::unchanged_vs_baseline: test"],
        "{}",
        text(&output)
    );
}

/// The pull request that adopts rtcompare: the commit under test adds rtcompare, its `[[test]]`
/// target and a perf test to a library whose commit before has none of them, and the package is
/// named `itoa`, as is a package rtcompare itself depends on (through serde_json). The baseline
/// build brings the target and the dev-dependency into the old manifest, saying so, names the
/// package so that Cargo cannot take it for the other `itoa`, and the function made three times
/// slower fails as a confirmed loss.
#[test]
fn the_pull_request_that_adopts_rtcompare_compares_against_the_commit_before_it() {
    let _turn = take_turn();
    let dir = repository("itoa");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("the fixture's manifest");
    let (library_only, _) = manifest.split_once("\n[dev-dependencies]").expect("the manifest's dev-dependencies");
    write(&dir, "Cargo.toml", &format!("{library_only}\n"));
    write(&dir, "src/lib.rs", &lib_rs(1_000, ""));
    git(&dir, &["add", "--all"]);
    git(&dir, &["commit", "--quiet", "-m", "A library, before rtcompare"]);
    write(&dir, "Cargo.toml", &manifest);
    // Where valgrind counts, the gate on instruction counts too (without it, such a test fails).
    let counting = valgrind_or_skip("the instruction counts against a revision");
    let counted = if counting { COUNTED } else { "" };
    commit(&dir, &lib_rs(3_000, ""), &perf_rs(counted), "Adopt rtcompare; make `changed` three times slower");
    let output = perf_for(&dir, Some("HEAD~1"), &[], "1s");
    let (out, everything) = (stdout(&output), text(&output));
    assert_eq!(output.status.code(), Some(101), "{everything}");
    assert!(
        everything.contains(
            "'s Cargo.toml the baseline build added the `[[test]]` target `perf` and the dev-dependency `rtcompare` \
             from the current manifest"
        ),
        "{everything}"
    );
    assert!(!everything.contains("ambiguous"), "{everything}");
    let changed = block(&out, "perf::changed_vs_baseline");
    assert!(changed.starts_with("test perf::changed_vs_baseline ... FAILED"), "{everything}");
    assert!(changed.contains("    loss (confirmed)"), "{everything}");
    let unchanged = block(&out, "perf::unchanged_vs_baseline");
    assert!(unchanged.starts_with("test perf::unchanged_vs_baseline ... ok"), "{everything}");
    assert!(parity_or_unconfirmed(unchanged), "{everything}");

    // The results file keys each comparison by a name free of the revision, which it records
    // beside it, with how long each took; instructions are counted in one process per build.
    let file = results_file(&everything);
    let commit = text_of(Command::new("git").current_dir(&dir).args(["rev-parse", "HEAD~1"]));
    for comparison in file["comparisons"].as_array().unwrap_or_else(|| panic!("no comparisons: {file}")) {
        assert_eq!(comparison["revision"], serde_json::json!({"name": "HEAD~1", "commit": commit.trim()}));
        assert!(comparison["duration_s"].as_f64().is_some_and(|s| s > 0.0), "{comparison}");
    }
    let total: f64 =
        file["comparisons"].as_array().into_iter().flatten().filter_map(|c| c["duration_s"].as_f64()).sum();
    assert_eq!(file["duration_s"].as_f64(), Some(total), "the run's duration is its comparisons'");
    if counting {
        let changed = file["comparisons"]
            .as_array()
            .and_then(|all| all.iter().find(|c| c["name"] == "perf::changed_vs_baseline"));
        let counts = changed.map(|c| &c["instructions"]).unwrap_or_else(|| panic!("no `changed` in {file}"));
        // Three times the additions: about three times the instructions per call.
        let change = counts["change"].as_f64().unwrap_or_else(|| panic!("not counted: {file}"));
        assert!((1.5..2.5).contains(&change), "instructions {change:+} in {counts}");
        assert_eq!(counts["agreement"], "agrees", "{counts}");
        assert!(changed.is_some_and(|c| c["failure"].as_str().is_some_and(|f| f.contains("instructions +"))), "{file}");
        let counted = block(&out, "perf::counted_vs_baseline");
        assert!(counted.starts_with("test perf::counted_vs_baseline ... FAILED"), "{everything}");
        assert!(counted.contains("    loss (confirmed): instructions +"), "{everything}");
    }
}

/// The results file a run wrote, as its line in the run's output `everything` names it.
fn results_file(everything: &str) -> serde_json::Value {
    let line = everything.lines().find_map(|line| line.strip_prefix("rtcompare: results file "));
    let line = line.unwrap_or_else(|| panic!("no results file in:\n{everything}"));
    let path = Path::new(line.split(" (").next().unwrap_or(line));
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What `command` printed on its standard output, having succeeded.
fn text_of(command: &mut Command) -> String {
    let output = run(command);
    assert!(output.status.success(), "{}", text(&output));
    stdout(&output)
}

/// A/A across builds: the library's functions did not change, so both pairs are parity. The
/// perf target also compares a function the old library lacks, so it does not build against
/// it: the commit's own perf target is measured instead, said in one line, and the added
/// comparison is new.
#[test]
fn an_unchanged_library_gives_parity_and_a_target_it_cannot_build_falls_back_to_its_own() {
    let _turn = take_turn();
    let dir = repository("rtcompare-revision-same");
    commit(&dir, &lib_rs(1_000, ""), &perf_rs(""), "Before");
    write(&dir, "NOTES.md", "A change that is not code.\n");
    commit(&dir, &lib_rs(1_000, &parse_rs(10)), &perf_rs(PARSE), "Add `parse` and its comparison");
    let output = perf(&dir, Some("HEAD~1"), &[]);
    let (out, everything) = (stdout(&output), text(&output));
    assert!(output.status.success(), "{everything}");
    assert!(everything.contains("rtcompare: this `perf` target does not build against commit "), "{everything}");
    assert!(everything.contains("measuring that commit's own `perf` target instead"), "{everything}");
    for name in ["perf::changed_vs_baseline", "perf::unchanged_vs_baseline"] {
        let block = block(&out, name);
        assert!(block.starts_with(&format!("test {name} ... ok")), "{everything}");
        assert!(parity_or_unconfirmed(block), "{everything}");
    }
    let parse = block(&out, "perf::parse_vs_baseline");
    assert!(parse.starts_with("test perf::parse_vs_baseline ... ok"), "{everything}");
    assert!(parse.contains("new: `parse` has no comparison at the baseline revision"), "{everything}");
    assert!(out.contains("1 new since the baseline revision"), "{everything}");
}

/// A build script that records whether the library was built with placement.md's recipe.
const BUILD_RS: &str = r#"fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let aligned = flags.contains("align-all-functions=6") && flags.contains("align-all-nofallthru-blocks=5");
    println!("cargo::rustc-env=BUILT_ALIGNED={aligned}");
}
"#;

const BUILT_ALIGNED_RS: &str = r#"
pub fn built_aligned() -> bool {
    env!("BUILT_ALIGNED") == "true"
}
"#;

const ALIGNED_PERF: &str = r#"
#[compare]
fn aligned() -> u64 {
    assert!(library::built_aligned(), "measured in a build whose code is not aligned");
    library::unchanged()
}
"#;

/// Both sides of a comparison against a revision are measured in builds with aligned code, the
/// current side in a build of its own: the compared function panics, failing its test, in any
/// process of a build made without the recipe. (Instructions are not counted: their process runs
/// the binary cargo built, whose layout counts do not depend on.)
#[test]
fn both_sides_are_measured_in_builds_whose_code_is_aligned() {
    let _turn = take_turn();
    let dir = repository("rtcompare-revision-aligned");
    write(&dir, "build.rs", BUILD_RS);
    let (lib, perf) = (lib_rs(1_000, BUILT_ALIGNED_RS), perf_rs(ALIGNED_PERF));
    commit(&dir, &lib, &perf, "Before");
    commit(&dir, &lib, &perf, "After, unchanged");
    let mut command = cargo(&["test", "--release", "--test", "perf"]);
    command.current_dir(&dir).env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1");
    command.env("RTCOMPARE_BASELINE", "HEAD~1").env("RTCOMPARE_INSTRUCTIONS", "off");
    let output = run(&mut command);
    let (out, everything) = (stdout(&output), text(&output));
    assert!(output.status.success(), "{everything}");
    assert!(everything.contains("building this `perf` target again with its code aligned"), "{everything}");
    let aligned = block(&out, "perf::aligned_vs_baseline");
    assert!(aligned.starts_with("test perf::aligned_vs_baseline ... ok"), "{everything}");
    assert!(parity_or_unconfirmed(aligned), "{everything}");
}

/// A baseline process that dies fails its own pair with its last words; the other pairs run.
#[test]
fn a_baseline_process_that_dies_fails_its_pair_and_the_others_still_run() {
    let _turn = take_turn();
    let dir = repository("rtcompare-revision-faults");
    let dies = |body: &str| format!("\npub fn dies() -> u64 {{\n    {body}\n}}\n");
    let compare_dies = "\n#[compare]\nfn dies() -> u64 {\n    library::dies()\n}\n";
    commit(&dir, &lib_rs(1_000, &dies("panic!(\"only at the baseline\")")), &perf_rs(compare_dies), "Panic");
    commit(&dir, &lib_rs(1_000, &dies("work(10)")), &perf_rs(compare_dies), "Stop panicking");
    let output = perf(&dir, Some("HEAD~1"), &[]);
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(101), "{}", text(&output));
    assert!(
        block(&out, "perf::dies_vs_baseline").starts_with("test perf::dies_vs_baseline ... FAILED"),
        "{}",
        text(&output)
    );
    assert!(
        out.contains("the baseline build (HEAD~1)'s process exited with code 101; its last words:"),
        "{}",
        text(&output)
    );
    assert!(out.contains("only at the baseline"), "{}", text(&output));
    for name in ["perf::changed_vs_baseline", "perf::unchanged_vs_baseline"] {
        assert!(block(&out, name).starts_with(&format!("test {name} ... ok")), "{}", text(&output));
    }
}

/// A baseline whose manifest takes rtcompare from a git repository, at a version that speaks
/// another child protocol, is built with this rtcompare (a `[patch]` of that source), so the
/// pairs run; without the patch the run stops at the protocol's version.
#[test]
fn a_baseline_on_another_rtcompare_is_built_with_this_one() {
    let _turn = take_turn();
    let elsewhere = nested_target().join("revision-repositories").join("rtcompare-elsewhere");
    let _ = std::fs::remove_dir_all(&elsewhere);
    let cloned = run(Command::new("git").args(["clone", "--quiet"]).arg(root()).arg(&elsewhere));
    assert!(cloned.status.success(), "{}", text(&cloned));
    let protocol = elsewhere.join("runtime/src/harness/protocol.rs");
    let source = std::fs::read_to_string(&protocol).expect("the clone's protocol.rs");
    let ours = "const PROTOCOL: u32 = 3;";
    assert!(source.contains(ours), "the protocol's version moved");
    write(&elsewhere, "runtime/src/harness/protocol.rs", &source.replace(ours, "const PROTOCOL: u32 = 999;"));
    git(&elsewhere, &["commit", "--quiet", "--all", "-m", "Speak another protocol"]);

    let dir = repository("rtcompare-revision-upgrade");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("the fixture's manifest");
    let on_git = format!("rtcompare = {{ git = 'file://{}' }}", elsewhere.display());
    let path_dependency = manifest.lines().find(|line| line.starts_with("rtcompare = ")).expect("rtcompare's line");
    write(&dir, "Cargo.toml", &manifest.replace(path_dependency, &on_git));
    commit(&dir, &lib_rs(1_000, ""), &perf_rs(""), "Take rtcompare from git");
    write(&dir, "Cargo.toml", &manifest);
    commit(&dir, &lib_rs(1_000, ""), &perf_rs(""), "Take rtcompare from its folder");
    let output = perf(&dir, Some("HEAD~1"), &[]);
    let (out, everything) = (stdout(&output), text(&output));
    assert!(output.status.success(), "{everything}");
    assert!(!everything.contains("speaks another version"), "{everything}");
    for name in ["perf::changed_vs_baseline", "perf::unchanged_vs_baseline"] {
        assert!(block(&out, name).starts_with(&format!("test {name} ... ok")), "{everything}");
    }
}

/// A revision git cannot resolve, a baseline that does not build, and a package outside any git
/// repository each stop the run with one error before anything is measured.
#[test]
fn bad_baselines_stop_the_run_before_anything_is_measured() {
    let _turn = take_turn();
    let dir = repository("rtcompare-revision-errors");
    commit(&dir, "this is not Rust\n", &perf_rs(WITH_INPUTS), "Broken");
    commit(&dir, &lib_rs(1_000, ""), &perf_rs(WITH_INPUTS), "Fixed");

    // Every way of taking input compiles without a baseline, and sizes name their tests.
    let output = perf(&dir, Some("HEAD~1"), &["--list", "--format", "terse"]);
    let listed = stdout(&output);
    for name in [
        "perf::consume_vs_baseline",
        "perf::sort_vs_baseline",
        "perf::sorted_copy_vs_baseline",
        "perf::total_vs_baseline/10",
        "perf::total_vs_baseline/100",
    ] {
        assert!(listed.contains(&format!("{name}: test\n")), "{name}: {}", text(&output));
    }

    let output = perf(&dir, Some("no-such-branch"), &[]);
    let everything = text(&output);
    assert_eq!(output.status.code(), Some(2), "{everything}");
    assert!(
        everything
            .contains("error: RTCOMPARE_BASELINE=no-such-branch: git cannot resolve `no-such-branch` to a commit"),
        "{everything}"
    );
    assert!(!stdout(&output).contains("running"), "{everything}");

    // A library that does not build: Cargo's error first, no other target tried, and what to do.
    let output = perf(&dir, Some("HEAD~1"), &[]);
    let everything = text(&output);
    assert_eq!(output.status.code(), Some(2), "{everything}");
    let error = everything.find("error: RTCOMPARE_BASELINE=HEAD~1: the baseline (commit ").map(|at| &everything[at..]);
    let error = error.unwrap_or_else(|| panic!("no baseline error in:\n{everything}"));
    assert!(error.contains(") does not build: `cargo test --no-run"), "{everything}");
    let cargos = error.lines().nth(1).unwrap_or_default();
    assert!(cargos.trim_start().starts_with("error: expected "), "Cargo's own error second: {everything}");
    assert!(error.contains("That commit's library does not build here"), "{everything}");
    assert!(!everything.contains("measuring that commit's own"), "{everything}");
    assert!(!stdout(&output).contains("running"), "{everything}");

    // The same binary, told its package is in a folder outside any repository.
    let binary = test_binary(&dir);
    let outside = nested_target().join("revision-repositories").join("not-a-repository");
    std::fs::create_dir_all(&outside).unwrap_or_else(|e| panic!("cannot create {}: {e}", outside.display()));
    let ceiling = outside.parent().map(Path::to_path_buf).unwrap_or_default();
    let output = run(Command::new(&binary)
        .env("RTCOMPARE_BASELINE", "HEAD")
        .env("CARGO_MANIFEST_DIR", &outside)
        .env("GIT_CEILING_DIRECTORIES", &ceiling)
        .env("NO_COLOR", "1"));
    let everything = text(&output);
    assert_eq!(output.status.code(), Some(2), "{everything}");
    assert!(everything.contains("comparing against a git revision needs a git repository, and "), "{everything}");
    assert!(!stdout(&output).contains("running"), "{everything}");
}

/// The perf test binary of the repository at `dir`, built if need be.
fn test_binary(dir: &Path) -> PathBuf {
    let output =
        run(cargo(&["test", "--release", "--test", "perf", "--no-run", "--message-format=json"]).current_dir(dir));
    assert!(output.status.success(), "{}", text(&output));
    stdout(&output)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| panic!("no test binary in:\n{}", text(&output)))
}
