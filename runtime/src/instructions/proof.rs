//! The proof on this machine: this test binary runs one of its own tests under callgrind, the
//! way the harness will run a perf binary, through [`Valgrind::command`], and reads the dumps
//! with [`read_dumps`] and [`counted`]. The counted test issues the requests around batches of
//! two functions of known cost, `spin(5_000)` plus an `extra_step` against `spin(4_000)`.
//!
//! These tests need valgrind: without it each says it was skipped, and fails under CI
//! (`CI=true`).

use std::ffi::CString;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use super::per_call::{counted, label};
use super::profile::{Profile, read_dumps};
use super::requests;
use super::valgrind::{self, Failure, LOG_FILE, Valgrind};
use crate::child::{Watchdog, Watched};
use rtcompare_judge::counts::{self, Counted, Routines};
use std::io::Write;

/// The batch sizes: two give the count per call, the third checks that counts are linear.
const SIZES: [u64; 3] = [4, 8, 16];

/// A batch loop and the function it calls.
type Loop = (fn(fn() -> u64, u64) -> u64, fn() -> u64);

/// The comparison's number in the dumps' labels.
const COMPARISON: u64 = 0;

#[inline(never)]
fn spin(n: u64) -> u64 {
    let mut sum = 0u64;
    for i in 0..n {
        sum = sum.wrapping_add(black_box(i));
    }
    sum
}

#[inline(never)]
fn extra_step(x: u64) -> u64 {
    black_box(x).rotate_left(7) ^ 0x5555
}

#[inline(never)]
fn candidate() -> u64 {
    extra_step(spin(black_box(5_000)))
}

#[inline(never)]
fn baseline() -> u64 {
    spin(black_box(4_000))
}

/// A batch: collection switched on around `calls` calls of `f`, as the harness's meter will.
#[inline(never)]
fn batch(f: fn() -> u64, calls: u64) -> u64 {
    let mut kept = 0;
    requests::toggle_collect();
    for _ in 0..calls {
        kept ^= black_box(f)();
    }
    requests::toggle_collect();
    kept
}

/// The same loop at another address, as a twin is.
#[inline(never)]
fn batch_twin(f: fn() -> u64, calls: u64) -> u64 {
    let mut kept = black_box(1);
    requests::toggle_collect();
    for _ in 0..calls {
        kept ^= black_box(f)();
    }
    requests::toggle_collect();
    kept
}

/// The program the proof counts: a warm-up call of each loop, uncounted, then each loop in
/// batches of every size, each batch dumped under its label.
#[test]
#[ignore = "the program instructions::proof runs under callgrind; it fails when run natively"]
fn counted_program() {
    assert!(
        requests::running_on_valgrind() > 0,
        "this test is run under callgrind by the tests of instructions::proof"
    );
    let loops: Routines<Loop> = Routines {
        candidate: (batch, candidate),
        candidate_twin: (batch_twin, candidate),
        baseline: (batch, baseline),
        baseline_twin: (batch_twin, baseline),
    };
    for (_, (run, f)) in loops.named() {
        black_box(f());
        black_box(run(*f, 1));
    }
    // The command starts valgrind uninstrumented, as the counting process runs its warm-up.
    requests::start_instrumentation();
    requests::zero_stats();
    for (name, (run, f)) in loops.named() {
        for calls in SIZES {
            requests::zero_stats();
            black_box(run(*f, calls));
            let label = CString::new(label(COMPARISON, name, calls)).unwrap_or_else(|e| panic!("{e}"));
            requests::dump_stats_at(&label);
        }
    }
}

/// A program that dies under callgrind.
#[test]
#[ignore = "the program instructions::proof runs under callgrind to see it crash"]
fn crashing_program() {
    assert!(
        requests::running_on_valgrind() > 0,
        "this test is run under callgrind by the tests of instructions::proof"
    );
    std::process::abort();
}

/// Valgrind from PATH; where there is none, `None` and a line saying the test `test` was
/// skipped, except under CI (`CI=true`, which `.ci/run` and GitHub Actions set), where the test
/// fails: CI installs valgrind, and a skipped test there would hide that it did not.
fn valgrind_or_skip(test: &str) -> Option<Valgrind> {
    match valgrind::find(std::env::var_os("PATH").as_deref()) {
        Ok(valgrind) => Some(valgrind),
        Err(failure) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("{test} needs valgrind, and CI=true requires it: {failure}")
        }
        Err(failure) => {
            // Past libtest's capture, which holds what a passing test prints with `eprintln!`.
            let _ = writeln!(std::io::stderr(), "skipped: {test} needs valgrind ({failure}); .ci/run installs it");
            None
        }
    }
}

/// Runs this binary's test `test` under callgrind with its dumps in `dumps`: how it ended, and
/// how long it took.
fn run_under_callgrind(valgrind: &Valgrind, dumps: &Path, test: &str) -> (Result<(), Failure>, Duration) {
    let program = std::env::current_exe().unwrap_or_else(|e| panic!("this test binary's path: {e}"));
    let name = format!("{}::{test}", module_path!().split_once("::").map_or("", |(_, path)| path));
    let mut command = valgrind.command(dumps, &program);
    command.args([name.as_str(), "--exact", "--ignored", "--test-threads=1"]);
    let started = Instant::now();
    let mut process = Watched::start(&mut command).unwrap_or_else(|e| panic!("valgrind does not start: {e}"));
    let watchdog = Watchdog::start(Duration::from_secs(300), &[&process]);
    let ending = process.wait();
    assert!(!watchdog.stop(), "the counting process ran for more than 300 s");
    let log = std::fs::read_to_string(dumps.join(LOG_FILE)).unwrap_or_default();
    (valgrind::classify(ending.how(), &log, &ending.last_words().join("\n")), started.elapsed())
}

/// Counts the program once: its dumps and what they count.
fn count_once(valgrind: &Valgrind, _name: &str) -> (Vec<Profile>, Counted) {
    let dumps = tempfile::tempdir().expect("a temporary folder");
    let dumps = dumps.path();
    let (ended, took) = run_under_callgrind(valgrind, dumps, "counted_program");
    ended.unwrap_or_else(|failure| panic!("{failure}"));
    eprintln!(
        "one callgrind process of the counted program took {:.2} s (valgrind {})",
        took.as_secs_f64(),
        valgrind.version
    );
    let profiles = read_dumps(dumps).unwrap_or_else(|e| panic!("{e}"));
    let got = counted(&profiles, COMPARISON, (SIZES[0], SIZES[1]), 10).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("per call {:?}, change {:+.4}, functions {:?}", got.per_call, got.change, got.functions);
    (profiles, got)
}

fn total(profiles: &[Profile], routine: &str, calls: u64) -> u64 {
    let wanted = label(COMPARISON, routine, calls);
    let dump =
        profiles.iter().find(|p| p.label() == Some(wanted.as_str())).unwrap_or_else(|| panic!("no dump {wanted}"));
    dump.totals[dump.event("Ir").unwrap_or_else(|| panic!("{wanted} counts no Ir"))]
}

#[test]
fn callgrind_counts_each_arm_exactly_and_names_the_function_that_was_added() {
    let Some(valgrind) = valgrind_or_skip("callgrind_counts_each_arm_exactly_and_names_the_function_that_was_added")
    else {
        return;
    };
    let (first_profiles, first) = count_once(&valgrind, "callgrind-proof-1");
    let (second_profiles, second) = count_once(&valgrind, "callgrind-proof-2");

    // The same counts in a second process, to the instruction.
    assert_eq!(first.per_call, second.per_call, "counts per call differ between two runs");
    for (routine, _) in first.per_call.named() {
        for calls in SIZES {
            assert_eq!(
                total(&first_profiles, routine, calls),
                total(&second_profiles, routine, calls),
                "{routine} {calls}"
            );
        }
        // Exactly linear in the batch size: 16 calls add twice what 8 add over 4.
        let [a, b, c] = SIZES.map(|calls| total(&first_profiles, routine, calls));
        assert_eq!(c - b, 2 * (b - a), "{routine}: {a}, {b}, {c} instructions for {SIZES:?} calls");
    }

    // The parser's own costs add up to callgrind's totals in every dump.
    for profile in &first_profiles {
        let own: u64 = profile.functions.values().map(|f| f.exclusive[0]).sum();
        assert_eq!(own, profile.totals[0], "{:?}: exclusive costs against totals", profile.trigger);
    }

    // spin(5_000) against spin(4_000): a quarter more instructions per call.
    assert!((first.change - 0.25).abs() <= 0.005, "change {:+.4} per call, {:?}", first.change, first.per_call);
    assert!(first.stable, "the twins count what their arms count: {:?}", first.per_call);
    assert_eq!(first.agreement(rtcompare_judge::stats::Outcome::Loss, 0.01), counts::Agreement::Agrees);

    let names: Vec<&str> = first.functions.iter().map(|f| f.name.as_str()).collect();
    let extra = first
        .functions
        .iter()
        .find(|f| f.name.ends_with("::extra_step"))
        .unwrap_or_else(|| panic!("no extra_step in {names:?}"));
    assert!(extra.candidate > 0.0 && extra.baseline == 0.0, "{extra:?}");
    let spin =
        first.functions.iter().find(|f| f.name.ends_with("::spin")).unwrap_or_else(|| panic!("no spin in {names:?}"));
    assert!((spin.candidate / spin.baseline - 1.25).abs() < 0.001, "{spin:?}");
    assert!(
        !names.iter().any(|n| n.ends_with("::batch") || n.ends_with("::counted_program")),
        "the frames around the batch are not changes: {names:?}"
    );
}

#[test]
fn a_program_that_dies_under_callgrind_is_a_failure_naming_the_signal() {
    let Some(valgrind) = valgrind_or_skip("a_program_that_dies_under_callgrind_is_a_failure_naming_the_signal") else {
        return;
    };
    let dumps = tempfile::tempdir().expect("a temporary folder");
    let dumps = dumps.path();
    let (ended, _) = run_under_callgrind(&valgrind, dumps, "crashing_program");
    match ended {
        Err(Failure::Crashed { signal, .. }) => assert_eq!(signal, "SIGABRT"),
        other => panic!("expected a crash, got {other:?}"),
    }
}
