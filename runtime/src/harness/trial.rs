//! Measuring one test: a comparison at one size, its confirmation in fresh processes, and the
//! pass/fail decision.

use super::error::HarnessError;
use super::plan::TrialPlan;
use super::worker::{WorkerRun, measure_in_worker};
use super::{Comparison, Expectation, Settings};
use crate::decide::{
    Confirmation, PROCESS_LEVEL, Plan, Role, TIME_CAP, conclude, confirmation_alpha, signal, without_room,
};
use crate::measure::counting_allocator_installed;
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

/// The share of the comparison's budget each confirmation process measures for: an eighth.
/// Shorter processes buy the test more processes in the same time, which it needs twice over:
/// its sureness is bounded by `2^−k` for `k` processes, and the spread between processes is
/// only averaged out by more of them. Against a quarter, an eighth gave the most power per
/// second on a memory-bound workload (`docs/statistics.md`, "The decision").
const CONFIRMATION_BUDGET_SHARE: f64 = 0.125;

/// What a fresh process costs beyond its share of the budget, allowed for when planning how
/// many fit: starting the process, its calibration and warm-up, and the parent reading its
/// samples. The plan also allows each process a quarter more time than that
/// ([`PLANNING_MARGIN`]), since a process whose end would pass the time cap is not started.
const PROCESS_OVERHEAD: Duration = Duration::from_millis(30);

/// How much longer than planned a fresh process is allowed to take.
const PLANNING_MARGIN: f64 = 1.25;

/// Measures one comparison (never two at once), confirms a win or a loss in fresh processes,
/// and decides whether its test passes. `registered` is the number of comparisons registered in
/// the binary, which sets the confirmation level ([`confirmation_level`]).
pub fn run_trial(comparison: Comparison, name: &str, settings: &Settings, registered: usize) -> TrialRecord {
    let _serial = MEASURING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let record = |report, failure| TrialRecord { name: name.to_owned(), comparison, report, failure };
    if let Some(problem) = unmeasurable(comparison) {
        return record(None, Some(problem));
    }
    let plan = TrialPlan::new(comparison, name, settings);
    let started = Instant::now();
    let first = match first_round(&plan) {
        Ok(Some(first)) => first,
        Ok(None) => return record(None, None),
        Err(why) => return record(None, Some(why.to_string())),
    };
    let deadline = started + plan.budget * TIME_CAP;
    let report = if settings.confirm && signal(&first).is_some() {
        let decision = confirmation_plan(&plan, registered, deadline);
        if !decision.decidable() {
            without_room(first, &decision)
        } else {
            match confirm(&plan, &first, &decision, deadline) {
                Ok(found) => conclude(first, found),
                Err(problem) => {
                    return record(Some(Report { duration: started.elapsed(), ..first }), Some(problem.to_string()));
                }
            }
        }
    } else {
        first
    };
    let report = Report { duration: started.elapsed(), ..report };
    // A verdict about an unoptimised build is reported, never enforced (`RTCOMPARE_DEBUG=1`).
    let expect = comparison.registration.settings.expect;
    let failure = failure(&report, expect).filter(|_| !settings.debug).map(|why| failure_message(&report, why));
    record(Some(report), failure)
}

/// The first round, judged: in lock-step processes against a git revision, in worker processes
/// when the run asks for several, else in this process. `None` when there is nothing to compare
/// against (a function new since the baseline revision); the error is the test's failure.
fn first_round(plan: &TrialPlan<'_>) -> Result<Option<Report>, HarnessError> {
    let (seed, processes) = (plan.settings.seed, plan.settings.processes);
    let measured = if plan.against_revision() || processes > 1 {
        match measure_series(plan, processes)? {
            Some(measured) => measured,
            None => return Ok(None),
        }
    } else {
        return match catch_unwind(AssertUnwindSafe(|| measure_first_round(plan))) {
            Ok(report) => Ok(Some(report)),
            Err(payload) => Err(HarnessError::Panicked(panic_text(&*payload).to_owned())),
        };
    };
    Ok(Some(judge_processes(measured, plan.metric(), &plan.judge_options(seed, PROCESS_LEVEL))))
}

/// Measures one comparison without judging it: a worker's round for the parent to judge, which
/// stops early as a fresh process does ([`Role::Fresh`]). A confirmation worker measures for its
/// share of the budget.
pub(crate) fn measure_for_worker(comparison: Comparison, name: &str, settings: &Settings) -> Measured {
    let plan = TrialPlan::new(comparison, name, settings);
    let (candidate, baseline) = plan.arms();
    measure(candidate, baseline, &plan.options(settings.worker_time.unwrap_or(plan.budget), settings.seed))
}

/// The first round in this process, measured and judged: the screen, whose looks stop it once
/// parity is established or a signal is seen ([`Role::Screen`]).
fn measure_first_round(plan: &TrialPlan<'_>) -> Report {
    let (candidate, baseline) = plan.arms();
    let options = Options { role: Role::Screen, ..plan.options(plan.budget, plan.settings.seed) };
    measure_and_judge(candidate, baseline, &options).1
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

/// Measures the comparison in `count` fresh processes (or lock-step pairs), one after another,
/// each for the comparison's whole budget with its own seed drawn from the run's. `None` when
/// the baseline build has no such comparison.
fn measure_series(plan: &TrialPlan<'_>, count: usize) -> Result<Option<Vec<Measured>>, HarnessError> {
    let mut all = Vec::with_capacity(count);
    for process in 0..count {
        match measure_fresh(plan, seeds::nth(plan.settings.seed, process), plan.budget) {
            Ok(Some(measured)) => all.push(measured),
            Ok(None) => return Ok(None),
            Err(problem) if count > 1 => {
                let what = if plan.against_revision() { "lock-step pair" } else { "worker process" };
                return Err(HarnessError::InSeries { what, process: process + 1, count, problem: Box::new(problem) });
            }
            Err(problem) => return Err(problem),
        }
    }
    Ok(Some(all))
}

/// The one way to measure the comparison afresh, for `budget` with `seed`: in a lock-step pair
/// of this build and the baseline's when it is against a git revision, else in a worker process
/// of this binary. `None` when the baseline build has no such comparison.
fn measure_fresh(plan: &TrialPlan<'_>, seed: u64, budget: Duration) -> Result<Option<Measured>, HarnessError> {
    if plan.against_revision() {
        super::lockstep::measure_against_revision(plan, seed, budget)
    } else {
        measure_in_worker(plan.name, plan.settings, WorkerRun { seed, budget, timeout: plan.timeout }).map(Some)
    }
}

/// How many fresh processes a confirmation takes: as many as fit before `deadline`, planned from
/// what one costs ([`CONFIRMATION_BUDGET_SHARE`] of the budget, [`PROCESS_OVERHEAD`],
/// [`PLANNING_MARGIN`]) before the first is started, so the time cap cannot move the test; at
/// most `RTCOMPARE_MAX_PROCESSES`. `registered` is the number of comparisons registered in the
/// binary, which sets the level ([`confirmation_alpha`]).
fn confirmation_plan(plan: &TrialPlan<'_>, registered: usize, deadline: Instant) -> Plan {
    let one = (plan.budget.mul_f64(CONFIRMATION_BUDGET_SHARE * 1.05) + PROCESS_OVERHEAD).mul_f64(PLANNING_MARGIN);
    let left = deadline.saturating_duration_since(Instant::now());
    let room = (left.as_secs_f64() / one.as_secs_f64()).floor() as usize;
    Plan {
        alpha: confirmation_alpha(registered),
        processes: room.min(plan.settings.max_processes),
        budget: plan.budget,
    }
}

/// The confirmation: the fresh processes `decision` plans, with fresh calibration and new seeds,
/// each for a share of the budget, until they confirm or rule out the first round's signal, or
/// another process would end past `deadline` ([`crate::decide::confirm`]).
fn confirm(
    plan: &TrialPlan<'_>,
    first: &Report,
    decision: &Plan,
    deadline: Instant,
) -> Result<Confirmation, HarnessError> {
    let settings = plan.settings;
    let seed = seeds::for_purpose(settings.seed, Purpose::Confirmation);
    let said = first_round_said(first.verdict.first_round, signal(first).unwrap_or(Outcome::Parity));
    let share = plan.budget.mul_f64(CONFIRMATION_BUDGET_SHARE);
    let fresh = |process: usize| {
        let measured = measure_fresh(plan, seeds::nth(seed, process), share)
            .and_then(|measured| measured.ok_or_else(|| HarnessError::MissingInBaseline(plan.name.to_owned())));
        measured.map_err(|problem| HarnessError::Unconfirmed {
            said: said.clone(),
            process: process + 1,
            problem: Box::new(problem),
        })
    };
    let options = plan.judge_options(seed, 1.0 - 2.0 * decision.alpha);
    let fits = |one_more: Duration| Instant::now() + one_more <= deadline;
    crate::decide::confirm(first, decision, &options, plan.metric(), fresh, fits)
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
