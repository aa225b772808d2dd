//! Measuring a function against itself at a git revision: two children in lock-step, one of
//! this build and one of the baseline build, each running batches on command. A front-end's
//! benchmark paired with another benchmark of the binary is measured the same way, by two
//! children of this binary, each entering one of the two tests (one process cannot be inside
//! two of the user's benchmark routines at once).
//!
//! This build's process runs the binary `revision.rs` prepared beside the baseline, its code
//! aligned as the baseline's is. The test process starts both (`client.rs`), and each announces
//! the tests it has. The test process then runs the ordinary protocol — calibration, warm-up, rounds of {candidate,
//! candidate twin, baseline, baseline twin} in a seeded random order — over arms whose batches
//! are run by those processes ([`Request::Run`]): the candidate's by this build's process, the
//! baseline's by the baseline build's. Only one process runs at a time, so the rounds stay
//! interleaved and paired in time; each build is measured in a fresh process of its own (no
//! build is favoured by running in the test process), and each against its own A/A twin, so
//! what placement does to either build shows in the A/A figures. What comes back is an ordinary
//! [`Measured`], judged like any other.
//!
//! Both processes of a pair are pinned to one CPU, the one the test process was on when it
//! started them (Linux; elsewhere the scheduler places them), so that both builds run where the
//! other ran (`docs/design.md`, "Lock-step processes", says why).

use super::client::Child;
use crate::child::Watchdog;
use crate::compare::try_measure;
use crate::harness::error::{HarnessError, Process};
use crate::harness::plan::{ProcessPlan, TrialPlan};
use crate::harness::protocol::{Request, Twin};
use crate::harness::rebuild::revision::{how_to_run, prepared};
use crate::measure::Options;
use crate::measure::{Arm, Halt, Meter, PLACEMENTS};
use rtcompare_judge::Measured;
use std::cell::RefCell;
use std::path::Path;
use std::process::Command;
use std::rc::Rc;

/// Measures `process`, one process's plan of `plan`'s test, as a lock-step pair of processes.
/// `None` when the baseline build has no such comparison: the function is new since the baseline
/// revision.
pub(crate) fn measure_against_revision(
    plan: &TrialPlan<'_>,
    process: &ProcessPlan,
) -> Result<Option<Measured>, HarnessError> {
    let Some(baseline) = prepared() else { return Err(HarnessError::NoRevision(how_to_run().to_owned())) };
    let (test, candidate) = (plan.name, plan.comparison.registration.candidate);
    let revision = &baseline.revision;
    let sides = [
        Place { program: &baseline.this_build, process: Process::ThisBuild, test, arm: candidate.to_owned() },
        Place {
            program: &baseline.binary,
            process: Process::Baseline(revision.clone()),
            test,
            arm: format!("{candidate} at {revision}"),
        },
    ];
    measure_pair(plan, sides, plan.options(process))
}

/// Measures `process`, one process's plan of `plan`'s test, against the test `baseline` of this
/// binary (a front-end's benchmark paired with another): a lock-step pair of two processes of
/// this binary, each entering one of the two tests.
pub(crate) fn measure_against_test(
    plan: &TrialPlan<'_>,
    process: &ProcessPlan,
    baseline: &str,
) -> Result<Measured, HarnessError> {
    let this = std::env::current_exe().map_err(HarnessError::OwnBinary)?;
    let sides = [plan.name, baseline].map(|test| Place {
        program: &this,
        process: Process::Entering(test.to_owned()),
        test,
        arm: test.to_owned(),
    });
    measure_pair(plan, sides, plan.options(process))?.ok_or_else(|| HarnessError::MissingHere(baseline.to_owned()))
}

/// Where one arm of a lock-step pair runs: the binary its process runs, what that process is
/// called where it fails, the test it enters, and the arm's name.
struct Place<'a> {
    program: &'a Path,
    process: Process,
    test: &'a str,
    arm: String,
}

/// One pair, measured in lock-step with `options`: the candidate's process at `current` and
/// the baseline's at `before`. `None` when `before`'s process has no such test.
fn measure_pair(
    plan: &TrialPlan<'_>,
    [current, before]: [Place<'_>; 2],
    options: Options,
) -> Result<Option<Measured>, HarnessError> {
    let (debug, timeout) = (plan.settings.debug, plan.timeout);
    let cpu = current_cpu();
    let start = |place: &Place<'_>| Child::start(Command::new(place.program), place.process.clone(), cpu, debug);
    let (now, then) = (start(&current)?, start(&before)?);
    let watchdog = Watchdog::start(timeout, &[now.watched(), then.watched()]);
    let sides = [Side::shared(now), Side::shared(then)];
    let result = measure_sides(&options, [&current, &before], &sides);
    // Under the watchdog still: a process that will not end is killed too.
    for side in &sides {
        side.borrow_mut().child.finish();
    }
    let timed_out = watchdog.stop();
    match result {
        Err(_) if timed_out => Err(HarnessError::TimedOut { process: Process::Pair, after: timeout }),
        other => other,
    }
}

/// The pair's measurement, once both processes announced whether they have their test.
fn measure_sides(
    options: &Options,
    [current, before]: [&Place<'_>; 2],
    [now, then]: &[Rc<RefCell<Side>>; 2],
) -> Result<Option<Measured>, HarnessError> {
    let has = |side: &Rc<RefCell<Side>>, test: &str| -> Result<bool, HarnessError> {
        Ok(side.borrow_mut().child.hello()?.iter().any(|known| known == test))
    };
    if !has(now, current.test)? {
        return Err(HarnessError::MissingHere(current.test.to_owned()));
    }
    if !has(then, before.test)? {
        return Ok(None);
    }
    let arms = (remote_arm(current.test, current.arm.clone(), now), remote_arm(before.test, before.arm.clone(), then));
    try_measure(arms.0, arms.1, options).map(Some).map_err(|Halt| {
        // The side whose batch halted the measurement kept why.
        let failure = [now, then].into_iter().find_map(|side| side.borrow_mut().failure.take());
        failure.unwrap_or(HarnessError::Halted)
    })
}

/// An arm named `name` whose batches `side` runs: every placement copy of the test's primary
/// routine and of its twin forwards to the process.
fn remote_arm(test: &str, name: String, side: &Rc<RefCell<Side>>) -> Arm<'static> {
    let copy = |routine: Twin, copy: usize| {
        let (side, test) = (Rc::clone(side), test.to_owned());
        move |iters: u64, seed: u64, meter: Meter| -> Result<u64, Halt> {
            let request = Request::Run { test: test.clone(), routine, copy, iters, seed, metric: meter.metric() };
            let mut side = side.borrow_mut();
            side.child.run(&request).map_err(|problem| {
                side.failure = Some(problem);
                Halt
            })
        }
    };
    Arm::from_copies(
        name,
        (0..PLACEMENTS).map(|k| copy(Twin::Primary, k)).collect(),
        (0..PLACEMENTS).map(|k| copy(Twin::Twin, k)).collect(),
    )
}

/// One process of a lock-step pair, and why its batch halted the measurement, once one did.
struct Side {
    child: Child,
    failure: Option<HarnessError>,
}

impl Side {
    fn shared(child: Child) -> Rc<RefCell<Side>> {
        Rc::new(RefCell::new(Side { child, failure: None }))
    }
}

/// The CPU this thread is running on (field 39 of `/proc/thread-self/stat`), where Linux tells.
fn current_cpu() -> Option<usize> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may contain spaces; the
    // processor is the 39th field overall, the 37th after the name.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(36)?.parse().ok()
}

/// Pins the calling thread to `cpu`; false when that is not possible. A lock-step child pins
/// itself (`server.rs`) before it says anything.
#[cfg(target_os = "linux")]
pub(crate) fn pin_to(cpu: usize) -> bool {
    /// `cpu_set_t`: 1,024 bits.
    const WORDS: usize = 16;
    unsafe extern "C" {
        fn sched_setaffinity(pid: i32, size: usize, mask: *const u64) -> i32;
    }
    if cpu >= WORDS * 64 {
        return false;
    }
    let mut mask = [0u64; WORDS];
    mask[cpu / 64] = 1 << (cpu % 64);
    // SAFETY: `mask` is a live, initialised `cpu_set_t`-sized buffer (1,024 bits) for the whole
    // call, and `size` is its size in bytes; pid 0 names the calling thread. The call only
    // reads the mask and changes this thread's scheduling, nothing Rust relies on.
    unsafe { sched_setaffinity(0, std::mem::size_of_val(&mask), mask.as_ptr()) == 0 }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn pin_to(_cpu: usize) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_can_be_pinned_to_the_cpu_it_is_on() {
        // In a thread of its own, so the test's other threads keep their CPUs.
        let pinned = std::thread::spawn(|| match current_cpu() {
            Some(cpu) => pin_to(cpu) && current_cpu() == Some(cpu),
            None => !cfg!(target_os = "linux"),
        });
        assert_eq!(pinned.join().ok(), Some(true));
    }
}
