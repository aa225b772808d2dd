//! Measuring one test: a comparison at one size, its confirmation in fresh processes, and the
//! pass/fail decision.

use super::error::HarnessError;
use super::options::{judge_options, options};
use super::worker::{WorkerRun, measure_in_worker};
use super::{Comparison, Expectation, Settings};
use crate::decide::{Confirmation, PROCESS_LEVEL, Plan, Role, TIME_CAP, conclude, confirmation_level, signal};
use crate::measure::{Arm, counting_allocator_installed};
use crate::report::{Failure, failure_message, first_round_said};
use crate::seeds::{self, Purpose};
use crate::{Measured, Options, Outcome, Report, judge_processes, measure, measure_and_judge};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Measurements never overlap, whatever `--test-threads` says.
static MEASURING: Mutex<()> = Mutex::new(());

/// The result of one test.
#[derive(Clone, Debug)]
pub struct TrialRecord {
    /// The libtest name.
    pub name: String,
    /// What was compared.
    pub comparison: Comparison,
    /// The report, or `None` when measuring failed before one existed (a panic, a missing
    /// counting allocator) or, in a test that passed, when there was nothing to compare against:
    /// a comparison against a git revision at which the function is new.
    pub report: Option<Report>,
    /// Why the test failed, or `None` when it passed.
    pub failure: Option<String>,
}

impl TrialRecord {
    /// Whether the test passed.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// The share of the comparison's budget each confirmation process measures for: a quarter, so
/// the screen and twelve fresh processes fit in [`TIME_CAP`] budgets.
const CONFIRMATION_BUDGET_SHARE: f64 = 0.25;

/// Measures one comparison (never two at once), confirms a win or a loss in fresh processes,
/// and decides whether its test passes. `registered` is the number of comparisons registered in
/// the binary, which sets the confirmation level ([`confirmation_level`]).
pub fn run_trial(comparison: Comparison, name: &str, settings: &Settings, registered: usize) -> TrialRecord {
    let _serial = MEASURING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let record = |report, failure| TrialRecord { name: name.to_owned(), comparison, report, failure };
    if let Some(problem) = unmeasurable(comparison) {
        return record(None, Some(problem));
    }
    let started = Instant::now();
    let first = if comparison.registration.settings.revision {
        // Against a git revision: measured in lock-step processes of both builds.
        match super::lockstep::measure_against_revision(comparison, name, settings, settings.seed, settings.processes) {
            Ok(Some(measured)) => judged(measured, comparison, name, settings.seed, PROCESS_LEVEL),
            Ok(None) => return record(None, None),
            Err(why) => return record(None, Some(why.to_string())),
        }
    } else if settings.processes > 1 {
        match measure_in_workers(comparison, name, settings, settings.seed, settings.processes) {
            Ok(measured) => judged(measured, comparison, name, settings.seed, PROCESS_LEVEL),
            Err(why) => return record(None, Some(why.to_string())),
        }
    } else {
        match catch_unwind(AssertUnwindSafe(|| measure_first_round(comparison, name, settings))) {
            Ok(report) => report,
            Err(payload) => {
                return record(None, Some(format!("a measured function panicked: {}", panic_text(&*payload))));
            }
        }
    };
    let expect = comparison.registration.settings.expect;
    let report = if settings.confirm && signal(&first).is_some() {
        let deadline = started + budget_of(comparison, settings) * TIME_CAP;
        match confirm(&first, comparison, name, settings, registered, deadline) {
            Ok(found) => conclude(first, found),
            Err(problem) => {
                return record(Some(Report { duration: started.elapsed(), ..first }), Some(problem.to_string()));
            }
        }
    } else {
        first
    };
    let report = Report { duration: started.elapsed(), ..report };
    // A verdict about an unoptimised build is reported, never enforced (`RTCOMPARE_DEBUG=1`).
    let failure = failure(&report, expect).filter(|_| !settings.debug).map(|why| failure_message(&report, why));
    record(Some(report), failure)
}

/// Measures one comparison without judging it: a worker's round for the parent to judge, which
/// stops early as a fresh process does ([`Role::Fresh`]).
pub(crate) fn measure_for_worker(comparison: Comparison, name: &str, settings: &Settings) -> Measured {
    let (candidate, baseline) = arms(comparison);
    measure(candidate, baseline, &options(comparison, name, settings))
}

/// The first round in this process, measured and judged: the screen, whose looks stop it once
/// parity is established or a signal is seen ([`Role::Screen`]).
fn measure_first_round(comparison: Comparison, name: &str, settings: &Settings) -> Report {
    let (candidate, baseline) = arms(comparison);
    measure_and_judge(candidate, baseline, &Options { role: Role::Screen, ..options(comparison, name, settings) }).1
}

/// The comparison's budget: the attribute's `time`, or the run's.
fn budget_of(comparison: Comparison, settings: &Settings) -> Duration {
    comparison.registration.settings.time.unwrap_or(settings.time)
}

/// Why a comparison cannot be measured in this binary at all.
fn unmeasurable(comparison: Comparison) -> Option<String> {
    let metric = comparison.registration.settings.metric;
    (metric.is_count() && !counting_allocator_installed()).then(|| {
        format!(
            "`metric = \"{}\"` needs rtcompare's counting allocator, which `rtcompare::main!()` installs; this \
             binary has another global allocator. Use `rtcompare::main!()` (with `allocator = YourAllocator` to \
             keep yours)",
            metric.as_str()
        )
    })
}

fn arms(comparison: Comparison) -> (Arm<'static>, Arm<'static>) {
    let registration = comparison.registration;
    let batches = registration.batches;
    let size = comparison.size.unwrap_or(0);
    (
        Arm::from_placed(registration.candidate, batches.candidate, batches.candidate_twin, size),
        Arm::from_placed(registration.baseline, batches.baseline, batches.baseline_twin, size),
    )
}

/// Judges the rounds of one process, or pools those of several.
fn judged(measured: Vec<Measured>, comparison: Comparison, name: &str, seed: u64, level: f64) -> Report {
    let options = judge_options(comparison, name, seed, level);
    judge_processes(measured, comparison.registration.settings.metric, &options)
}

/// Measures the comparison in `count` fresh worker processes, one after another, each with its
/// own seed derived from `seed` and the comparison's whole budget.
fn measure_in_workers(
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    seed: u64,
    count: usize,
) -> Result<Vec<Measured>, HarnessError> {
    let budget = budget_of(comparison, settings);
    (0..count)
        .map(|process| {
            let run =
                WorkerRun { seed: seeds::nth(seed, process), budget: None, timeout: settings.worker_timeout(budget) };
            measure_in_worker(name, settings, run).map_err(|problem| HarnessError::InSeries {
                what: "worker process",
                process: process + 1,
                count,
                problem: Box::new(problem),
            })
        })
        .collect()
}

/// The confirmation: fresh processes, fresh calibration, new seeds, each for a share of the
/// budget, looked at sequentially until they confirm or rule out the first round's signal, or
/// another process would end past `deadline` ([`crate::decide::confirm`]).
fn confirm(
    first: &Report,
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    registered: usize,
    deadline: Instant,
) -> Result<Confirmation, HarnessError> {
    let seed = seeds::for_purpose(settings.seed, Purpose::Confirmation);
    let said = first_round_said(first.verdict.first_round, signal(first).unwrap_or(Outcome::Parity));
    let budget = budget_of(comparison, settings);
    let share = budget.mul_f64(CONFIRMATION_BUDGET_SHARE);
    let plan = Plan::new(settings.processes, settings.max_processes, confirmation_level(registered));
    let fresh = |process: usize| {
        let seed = seeds::nth(seed, process);
        let measured = if comparison.registration.settings.revision {
            fresh_lockstep_pair(comparison, name, settings, seed, share)
        } else {
            let run = WorkerRun { seed, budget: Some(share), timeout: settings.worker_timeout(budget) };
            measure_in_worker(name, settings, run)
        };
        measured.map_err(|problem| HarnessError::Unconfirmed {
            said: said.clone(),
            process: process + 1,
            problem: Box::new(problem),
        })
    };
    let options = judge_options(comparison, name, seed, plan.level);
    let fits = |one_more: Duration| Instant::now() + one_more <= deadline;
    crate::decide::confirm(first, &plan, &options, comparison.registration.settings.metric, fresh, fits)
}

/// One fresh lock-step pair of a comparison against a git revision, for `share` of the budget.
fn fresh_lockstep_pair(
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    seed: u64,
    share: std::time::Duration,
) -> Result<Measured, HarnessError> {
    let settings = Settings { worker_time: Some(share), ..settings.clone() };
    super::lockstep::measure_against_revision(comparison, name, &settings, seed, 1)?
        .and_then(|pairs| pairs.into_iter().next())
        .ok_or_else(|| HarnessError::MissingInBaseline(name.to_owned()))
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)")
}

/// Why the test fails, or `None` when it passes. Only a confirmed loss fails (an unconfirmed one
/// passes with a warning); with `expect = "win"`, anything but a confirmed win fails.
pub(crate) fn failure(report: &Report, expect: Expectation) -> Option<Failure> {
    let v = &report.verdict;
    let confirmed = v.confirmed != Some(false);
    match (expect, v.outcome) {
        (Expectation::NoLoss, Outcome::Loss) if confirmed => Some(Failure::Loss),
        (Expectation::NoLoss, _) => None,
        (Expectation::Win, Outcome::Win) if confirmed => None,
        (Expectation::Win, _) => Some(Failure::NoWin),
    }
}
