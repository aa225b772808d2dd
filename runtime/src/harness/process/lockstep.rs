//! Measuring a function against itself at a git revision: two children in lock-step, one of
//! this build and one of the baseline build, each running batches on command.
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
use crate::harness::rebuild::revision::{Baseline, how_to_run, prepared};
use crate::measure::Options;
use crate::measure::{Arm, Halt, Meter, PLACEMENTS};
use rtcompare_judge::Measured;
use std::cell::RefCell;
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
    measure_pair(plan, baseline, plan.options(process))
}

/// One pair: this build's process and the baseline's, measured in lock-step with `options`.
fn measure_pair(plan: &TrialPlan<'_>, baseline: &Baseline, options: Options) -> Result<Option<Measured>, HarnessError> {
    let (debug, timeout) = (plan.settings.debug, plan.timeout);
    let cpu = current_cpu();
    let current = Child::start(Command::new(&baseline.this_build), Process::ThisBuild, cpu, debug)?;
    let revision = Process::Baseline(baseline.revision.clone());
    let before = Child::start(Command::new(&baseline.binary), revision, cpu, debug)?;
    let watchdog = Watchdog::start(timeout, &[current.watched(), before.watched()]);
    let sides = [Side::shared(current), Side::shared(before)];
    let result = measure_sides(plan, baseline, &options, &sides);
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

/// The pair's measurement, once both processes announced whether they have the test.
fn measure_sides(
    plan: &TrialPlan<'_>,
    baseline: &Baseline,
    options: &Options,
    [current, before]: &[Rc<RefCell<Side>>; 2],
) -> Result<Option<Measured>, HarnessError> {
    let name = plan.name;
    let has = |side: &Rc<RefCell<Side>>| -> Result<bool, HarnessError> {
        Ok(side.borrow_mut().child.hello()?.iter().any(|test| test == name))
    };
    if !has(current)? {
        return Err(HarnessError::MissingHere(name.to_owned()));
    }
    if !has(before)? {
        return Ok(None);
    }
    let candidate = plan.comparison.registration.candidate;
    let arms = (
        remote_arm(name, candidate.to_owned(), current),
        remote_arm(name, format!("{candidate} at {}", baseline.revision), before),
    );
    try_measure(arms.0, arms.1, options).map(Some).map_err(|Halt| {
        // The side whose batch halted the measurement kept why.
        let failure = [current, before].into_iter().find_map(|side| side.borrow_mut().failure.take());
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
