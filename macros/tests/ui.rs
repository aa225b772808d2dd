//! Every malformed `#[compare]` and `main!()` is a compile error on the offending token, and a
//! rejected one is the only error: the function is still emitted as written. One case per rule
//! in `tests/ui/`.
//!
//! What is pinned, and against which compiler:
//!
//! - [`each_case_fails_with_our_message_where_it_belongs`] runs on any compiler. It checks all
//!   cases in one scratch crate (`cargo check --keep-going --message-format=short`, one binary
//!   per case) and compares each case's errors with [`CASES`]: the first error is at the
//!   expected line and column and carries our message (only the place, for the one error rustc
//!   words at our span), and a rejected attribute raises no other error. Those are the parts
//!   rtcompare decides. The short format (`file:line:col: error[code]: message`, one line per
//!   diagnostic) is the compiler's machine-oriented rendering, not its prose.
//! - [`snapshots_match_the_pinned_compiler`] compares the full rendered output, rustc's notes
//!   and help included, with the `.stderr` snapshot beside each case (trybuild). That wording
//!   belongs to rustc and changes between releases, so it runs only on the compiler the
//!   snapshots were recorded with, [`PINNED`], and on any other prints
//!   "skipped: snapshots recorded with rustc 1.95.0" and passes. Re-record them with
//!   `TRYBUILD=overwrite cargo test -p rtcompare-macros --test ui` on the new compiler and move
//!   the pin with them.
//!
//! The two tests take turns, so the two nested builds never compete for the machine.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The compiler the `.stderr` snapshots were recorded with.
const PINNED: &str = "1.95.0";

/// What a case's first error must say.
enum Message {
    /// A message rtcompare words: the error's text must contain it.
    Ours(&'static str),
    /// An error rustc words at a span rtcompare chose: only its place is pinned.
    Rustc,
}

use Message::{Ours, Rustc};

/// One case of `tests/ui/`: file stem, line and column of the first error, its message, and
/// whether it must be the only error (true for every rejected attribute; false where rustc's
/// type checker reports the error and may add follow-ups of its own).
struct Case(&'static str, u32, u32, Message, bool);

/// Every case, with the rule it covers.
const CASES: &[Case] = &[
    // Parsing (attr.rs): each key once, each value of its kind.
    Case("unknown_key", 5, 27, Ours("unknown key `speed` in #[compare]; the keys are: baseline, setup,"), true),
    Case("duplicate_key", 5, 27, Ours("`baseline` is given twice; keep one"), true),
    Case("key_without_value", 5, 11, Ours("`baseline` needs a value: a function path"), true),
    Case("baseline_not_a_path", 3, 22, Ours("`baseline` expects a function path, e.g. `baseline = old_sort`"), true),
    Case("setup_not_a_path", 7, 35, Ours("`setup` expects a function path, e.g. `setup = random_input`"), true),
    Case("crate_not_a_path", 5, 19, Ours("`crate` expects the path of rtcompare"), true),
    Case("name_not_a_string", 5, 34, Ours("`name` expects a string"), true),
    Case("wrong_value_type", 5, 36, Ours("`parity` expects a number between 0 and 1"), true),
    Case("parity_out_of_range", 5, 36, Ours("`parity` must be at least 0 and below 1"), true),
    Case("time_not_a_string", 5, 34, Ours("`time` expects a duration string"), true),
    Case("bad_time", 5, 34, Ours("`time`: expected a duration with a unit"), true),
    Case("time_not_a_number", 5, 34, Ours("`time`: \"1.5.2\" is not a number"), true),
    Case("time_out_of_range", 5, 34, Ours("`time`: the duration must be positive and below 100 days"), true),
    Case(
        "bad_metric",
        7,
        36,
        Ours("`metric` is \"time\", \"alloc_bytes\", \"allocs\" or \"instructions\", not \"memory\""),
        true,
    ),
    Case("bad_expect", 5, 36, Ours("`expect` is \"no_loss\" or \"win\", not \"faster\""), true),
    Case("thresholds_not_a_list", 5, 40, Ours("`thresholds` expects a list of numbers"), true),
    Case("threshold_out_of_range", 5, 47, Ours("a threshold is a number between -1 and 1"), true),
    Case("args_not_a_list", 11, 49, Ours("`args` expects a list of sizes"), true),
    Case("empty_args", 11, 49, Ours("`args` needs at least one size"), true),
    Case("bad_args_value", 11, 54, Ours("a size is a non-negative whole number"), true),
    Case("duplicate_size", 11, 59, Ours("the size 10 is listed twice; keep one"), true),
    Case("ignore_with_value", 5, 27, Ours("`ignore` takes no value; write just `ignore`"), true),
    Case("types_not_a_list", 5, 35, Ours("`types` expects a list of types, e.g. `types = [u32, u64, String]`"), true),
    Case("empty_types", 5, 35, Ours("`types` needs at least one type"), true),
    Case("duplicate_type", 5, 49, Ours("this type is listed twice in `types`; keep one"), true),
    Case("throughput_not_a_call", 5, 40, Ours("`throughput` is `bytes(N)` or `elements(N)`"), true),
    Case("throughput_unknown_unit", 5, 40, Ours("`throughput` is `bytes(N)` or `elements(N)`"), true),
    Case(
        "throughput_without_amount",
        5,
        45,
        Ours("`bytes` needs how many bytes one call processes: `bytes(4096)`"),
        true,
    ),
    Case("throughput_zero", 5, 49, Ours("`elements(N)` needs a whole number above 0"), true),
    Case("threads_zero", 5, 37, Ours("`threads` is how many threads run each batch at once, from 1 to 1024"), true),
    Case("threads_not_a_number", 5, 37, Ours("`threads` expects a number of threads, e.g. `threads = 4`"), true),
    Case("block_on_not_a_path", 5, 38, Ours("`block_on` expects a function path, e.g. `block_on = on_tokio`"), true),
    // Validation (valid.rs): the item, the baseline, the candidate's inputs.
    Case("not_a_function", 6, 8, Ours("#[compare] goes on a free function (the candidate)"), true),
    Case("generic_candidate", 12, 8, Ours("#[compare] needs a concrete function"), true),
    Case("method_candidate", 11, 13, Ours("#[compare] goes on a free function, not a method"), true),
    Case(
        "types_on_concrete_candidate",
        5,
        27,
        Ours("`types` instantiates a generic candidate, but `new` has no"),
        true,
    ),
    Case("types_two_parameters", 6, 11, Ours("with `types`, the candidate has exactly one type parameter"), true),
    Case("types_baseline_with_arguments", 5, 25, Ours("with `types`, `baseline` is instantiated with each type"), true),
    Case("throughput_arg_without_args", 5, 46, Ours("`arg` is the size from `args`, and this pair has none"), true),
    Case("throughput_with_alloc_metric", 5, 46, Ours("`throughput` is a rate over time"), true),
    Case(
        "threads_with_alloc_metric",
        5,
        51,
        Ours("`threads` measures time: the allocation counters cannot tell"),
        true,
    ),
    Case(
        "threads_with_instructions",
        5,
        52,
        Ours("`threads` measures time: callgrind runs threads one at a time"),
        true,
    ),
    Case("throughput_with_instructions", 5, 52, Ours("`throughput` is a rate over time"), true),
    Case("block_on_blocking_candidate", 9, 38, Ours("`block_on` runs the futures of an async pair, but `new`"), true),
    Case("args_without_setup", 5, 27, Ours("`args` are passed to a setup function"), true),
    Case(
        "keep_input_without_setup",
        5,
        27,
        Ours("`keep_input` keeps the input `setup` builds for the whole process"),
        true,
    ),
    Case(
        "keep_input_of_a_fresh_input",
        11,
        44,
        Ours("`keep_input` keeps one input for the whole process, shared by every call"),
        true,
    ),
    Case("candidate_takes_arguments", 8, 8, Ours("#[compare] calls the candidate with no arguments unless"), true),
    Case("setup_without_argument", 9, 35, Ours("with `setup`, the candidate takes the input it builds"), true),
    Case("setup_two_arguments", 12, 8, Ours("with `setup`, the candidate takes exactly one argument"), true),
    // Type checks of the generated code, spanned at the paths in the attribute.
    Case("baseline_other_input", 12, 22, Ours("the baseline takes `&[u64]`, but the candidate takes `&[u32]`"), false),
    Case("baseline_takes_an_argument", 7, 22, Rustc, false),
    Case("setup_wrong_signature", 11, 35, Ours("is not a setup function for a comparison without `args`"), false),
    Case("setup_ignores_size", 11, 35, Ours("is not a setup function for a comparison with `args`"), false),
    Case("block_on_blocking_baseline", 11, 22, Ours("`block_on` runs futures, but this function returns `u64`"), false),
    Case("block_on_wrong_signature", 9, 38, Rustc, false),
    // main!() (attr.rs)
    Case(
        "main_with_arguments",
        1,
        18,
        Ours("unknown key `threads` in rtcompare::main!(); it takes `allocator ="),
        true,
    ),
    Case("main_bad_allocator_key", 1, 18, Ours("unknown key `alloc` in rtcompare::main!()"), true),
    Case("main_duplicate_key", 1, 50, Ours("`allocator` is given twice; keep one"), true),
    Case("main_allocator_not_a_path", 1, 30, Ours("`allocator` expects a unit struct"), true),
];

/// One nested build at a time.
static TURN: Mutex<()> = Mutex::new(());

fn ui_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui")
}

/// The stems of the case files in `tests/ui/`, sorted.
fn case_files() -> Vec<String> {
    let entries = std::fs::read_dir(ui_dir()).unwrap_or_else(|e| panic!("cannot read tests/ui: {e}"));
    let mut stems: Vec<String> = entries
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            (path.extension()? == "rs").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    stems.sort();
    stems
}

#[test]
fn every_case_file_has_an_expectation_and_every_expectation_a_file() {
    let mut listed: Vec<String> = CASES.iter().map(|case| case.0.to_owned()).collect();
    listed.sort();
    assert_eq!(case_files(), listed, "tests/ui/*.rs and CASES in tests/ui.rs must name the same cases");
}

/// One error as the short format prints it: line, column, and the text after `error`.
struct Reported {
    line: u32,
    column: u32,
    text: String,
}

/// Parses `…/tests/ui/<case>.rs:<line>:<column>: error…: <message>` lines into errors per case.
fn errors_by_case(output: &str) -> Vec<(String, Reported)> {
    output
        .lines()
        .filter_map(|line| {
            let (location, rest) = line.split_once(": error")?;
            let mut parts = location.rsplitn(3, ':');
            let column = parts.next()?.parse().ok()?;
            let line_number = parts.next()?.parse().ok()?;
            let file = Path::new(parts.next()?);
            if file.parent()?.file_name()? != "ui" {
                return None;
            }
            let case = file.file_stem()?.to_str()?.to_owned();
            Some((case, Reported { line: line_number, column, text: rest.to_owned() }))
        })
        .collect()
}

/// A crate with one binary per case, depending on rtcompare by path, in this build's
/// temporary directory; the workspace's lock file keeps it on the versions the workspace uses.
fn scratch_crate() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rtcompare-ui-cases");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let mut manifest = format!(
        "[package]\nname = \"rtcompare-ui-cases\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [workspace]\n\n[dependencies]\nrtcompare = {{ path = {:?} }}\n",
        root.display().to_string()
    );
    for case in case_files() {
        let path = ui_dir().join(format!("{case}.rs"));
        manifest.push_str(&format!("\n[[bin]]\nname = {case:?}\npath = {:?}\n", path.display().to_string()));
    }
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap_or_else(|e| panic!("cannot write the manifest: {e}"));
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap_or_else(|e| panic!("no Cargo.lock: {e}"));
    dir
}

#[test]
fn each_case_fails_with_our_message_where_it_belongs() {
    let _turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = scratch_crate();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .current_dir(&dir)
        .args(["check", "--bins", "--keep-going", "--message-format=short", "--color=never"])
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .unwrap_or_else(|e| panic!("could not run cargo: {e}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "every case must fail to compile:\n{stderr}");
    let errors = errors_by_case(&stderr);
    let mut wrong = Vec::new();
    for Case(case, line, column, message, only) in CASES {
        let found: Vec<&Reported> = errors.iter().filter(|(c, _)| c == case).map(|(_, e)| e).collect();
        let Some(first) = found.first() else {
            wrong.push(format!("{case}: no error at all"));
            continue;
        };
        if (first.line, first.column) != (*line, *column) {
            wrong.push(format!("{case}: first error at {}:{}, expected {line}:{column}", first.line, first.column));
        }
        if let Ours(text) = message
            && !first.text.contains(text)
        {
            wrong.push(format!("{case}: first error says {:?}, expected it to contain {text:?}", first.text));
        }
        if *only && found.len() > 1 {
            let all: Vec<&str> = found.iter().map(|e| e.text.as_str()).collect();
            wrong.push(format!("{case}: {} errors where the attribute's should be the only one: {all:?}", found.len()));
        }
    }
    assert!(wrong.is_empty(), "{}\n\ncompiler output:\n{stderr}", wrong.join("\n"));
}

/// The version of the compiler cargo uses, e.g. `1.95.0`.
fn rustc_version() -> Option<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(rustc).arg("-V").output().ok()?;
    // `rustc 1.95.0 (59807616e 2026-04-14)`
    String::from_utf8_lossy(&output.stdout).split_whitespace().nth(1).map(str::to_owned)
}

#[test]
fn snapshots_match_the_pinned_compiler() {
    let version = rustc_version();
    if version.as_deref() != Some(PINNED) {
        println!(
            "skipped: snapshots recorded with rustc {PINNED}, this is rustc {}; \
             each_case_fails_with_our_message_where_it_belongs still checks every case",
            version.as_deref().unwrap_or("of unknown version")
        );
        return;
    }
    let _turn = TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
