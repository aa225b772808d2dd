//! Measuring one test: a comparison at one size, its confirmation in fresh processes, and the
//! pass/fail decision, made once here. A pair judged on instruction counts takes the same path,
//! each of its processes a count under callgrind (`counting.rs`).

use super::client::measure_in_worker;
use super::counting::{Counter, Counting, Counts};
use super::error::HarnessError;
use super::plan::{ProcessPlan, TrialPlan};
use super::{Comparison, Expectation, Settings};
use crate::decide::{
    Confirmation, FRESH_SHARE, PROCESS_LEVEL, Plan, Role, TIME_CAP, conclude, fitting, signal, without_room,
};
use crate::measure::Metric;
use crate::measure::counting_allocator_installed;
use crate::report::{Failure, Test, failure_message, uncounted_message};
use crate::seeds::{self, Purpose};
use crate::verdict::Judgement;
use crate::{Measured, Outcome, Report, judge_processes, measure_and_judge};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Measurements never overlap, whatever `--test-threads` says.
static MEASURING: Mutex<()> = Mutex::new(());

/// Measures one comparison (never two at once), confirms a win or a loss in fresh processes,
/// and decides whether its test passes. `registered` is the number of comparisons registered in
/// the binary, which sets the confirmation level ([`confirmation_alpha`](crate::decide::confirmation_alpha)); `progress` draws the
/// progress of what this process measures itself.
pub(crate) fn run_trial(
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    registered: usize,
    counter: &Counter,
    progress: Option<fn(f64)>,
) -> Test {
    let _serial = MEASURING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let failed = |judgement, problem: String| Test { judgement, failure: Some(problem), ..facts(comparison, name) };
    if let Some(problem) = unmeasurable(comparison) {
        return failed(None, problem);
    }
    let plan = TrialPlan::new(comparison, name, settings, progress);
    let on_counts = plan.metric() == Metric::Instructions;
    let started = Instant::now();
    let first = match first_round(&plan, counter) {
        Ok(Some(first)) => Report { duration: started.elapsed(), ..first },
        Ok(None) => return facts(comparison, name),
        Err(why) => return failed(None, why.to_string()),
    };
    let deadline = started + plan.budget * TIME_CAP;
    let judgement = if settings.confirm && signal(&first).is_some() {
        let most = settings.max_processes;
        let decision = if plan.metric().is_count() {
            Plan::of_counts(registered, most, plan.budget)
        } else {
            Plan::of_time(registered, most, plan.budget, left(deadline))
        };
        let found = if !decision.decidable() {
            None
        } else if on_counts {
            Some(confirm_counts(&plan, &first, &decision, counter))
        } else {
            Some(confirm(&plan, &first, &decision, deadline))
        };
        match found {
            None => without_room(first, &decision),
            Some(Ok(found)) => conclude(first, found),
            Some(Err(problem)) => return failed(Some(Judgement::of(first)), problem.to_string()),
        }
    } else {
        Judgement::of(first)
    };
    // A pair judged on its counts has no time verdict to count beside.
    let beside = if on_counts { None } else { counter.count(&plan, &judgement) };
    let (instructions, not_counted) = match beside {
        Some(Counting::Counted(counts)) => (Some(counts), None),
        Some(Counting::NotCounted(why)) => (None, Some(why)),
        None => (None, None),
    };
    let fails = failure(&judgement, comparison.registration.settings.expect);
    // A verdict about an unoptimised build is reported, never enforced (`RTCOMPARE_DEBUG=1`).
    let mut failure =
        fails.filter(|_| !settings.debug).map(|why| failure_message(&judgement, why, instructions.as_ref()));
    if counter.required()
        && let Some(why) = &not_counted
    {
        failure.get_or_insert_with(|| uncounted_message(why));
    }
    Test {
        judgement: Some(judgement),
        fails,
        failure,
        instructions,
        instructions_not_counted: not_counted,
        ..facts(comparison, name)
    }
}

/// What the attribute of the test `name` declared, before anything is measured: a test that
/// passed with nothing to compare against.
fn facts(comparison: Comparison, name: &str) -> Test {
    let registration = comparison.registration;
    Test {
        name: name.to_owned(),
        module_path: registration.module_path.to_owned(),
        candidate: registration.candidate.to_owned(),
        baseline: registration.baseline.to_owned(),
        metric: registration.settings.metric,
        expect: match registration.settings.expect {
            Expectation::NoLoss => "no_loss",
            Expectation::Win => "win",
        }
        .to_owned(),
        size: comparison.size,
        work: comparison.work(),
        file: registration.file.to_owned(),
        line: registration.line,
        judgement: None,
        fails: None,
        failure: None,
        instructions: None,
        instructions_not_counted: None,
    }
}

/// The first round, judged: counted under callgrind for a pair judged on instructions, in
/// lock-step processes against a git revision, in worker processes when the run asks for
/// several, else in this process. `None` when there is nothing to compare against (a function
/// new since the baseline revision); the error is the test's failure.
fn first_round(plan: &TrialPlan<'_>, counter: &Counter) -> Result<Option<Report>, HarnessError> {
    let (seed, processes) = (plan.settings.seed, plan.settings.processes);
    let measured = if plan.metric() == Metric::Instructions {
        count_series(plan, counter, processes)?
    } else if plan.against_revision() || processes > 1 {
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

/// The first round in this process, measured and judged: the screen, whose looks stop it once
/// parity is established or a signal is seen ([`Role::Screen`]).
fn measure_first_round(plan: &TrialPlan<'_>) -> Report {
    let (candidate, baseline) = plan.arms();
    let options = plan.options(&plan.process(plan.budget, plan.settings.seed, Role::Screen));
    measure_and_judge(candidate, baseline, &options).1
}

/// Why a comparison cannot be measured in this binary at all.
fn unmeasurable(comparison: Comparison) -> Option<String> {
    let metric = comparison.registration.settings.metric;
    (metric.needs_counting_allocator() && !counting_allocator_installed()).then(|| {
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
        match measure_fresh(plan, &plan.process(plan.budget, seeds::nth(plan.settings.seed, process), Role::Fresh)) {
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

/// A pair judged on instruction counts, counted in `count` processes: the run's counting process
/// with the run's seed, then counting processes of their own, each with its own seed.
fn count_series(plan: &TrialPlan<'_>, counter: &Counter, count: usize) -> Result<Vec<Measured>, HarnessError> {
    let seed = plan.settings.seed;
    let mut all = vec![counter.measure(plan, seed, Counts::InRun).map_err(HarnessError::Uncounted)?];
    for process in 1..count {
        let measured = counter.measure(plan, seeds::nth(seed, process), Counts::Fresh);
        all.push(measured.map_err(|why| HarnessError::Uncounted(format!("counting process {}: {why}", process + 1)))?);
    }
    Ok(all)
}

/// The one way to measure the comparison afresh as `process` plans: in a lock-step pair of this
/// build and the baseline's when it is against a git revision, else in a worker process of this
/// binary. `None` when the baseline build has no such comparison.
fn measure_fresh(plan: &TrialPlan<'_>, process: &ProcessPlan) -> Result<Option<Measured>, HarnessError> {
    if plan.against_revision() {
        super::lockstep::measure_against_revision(plan, process)
    } else {
        measure_in_worker(plan, process).map(Some)
    }
}

/// The confirmation of a pair judged on instruction counts: the processes `decision` plans, each
/// a counting process of its own with a seed of its own, tested as time's fresh processes are
/// ([`crate::decide::confirm`]). Counts that do not vary from process to process confirm a
/// difference beyond the tolerance on the fewest processes the level allows.
fn confirm_counts(
    plan: &TrialPlan<'_>,
    first: &Report,
    decision: &Plan,
    counter: &Counter,
) -> Result<Confirmation, HarnessError> {
    let seed = seeds::for_purpose(plan.settings.seed, Purpose::Confirmation);
    let fresh = |process: usize| {
        timed(|| {
            let measured = counter.measure(plan, seeds::nth(seed, process), Counts::Fresh);
            measured.map_err(|why| HarnessError::Uncounted(format!("fresh counting process {}: {why}", process + 1)))
        })
    };
    let options = plan.judge_options(seed, 1.0 - 2.0 * decision.alpha);
    // Room for every planned process, and the pilot before them.
    let room = |_each: Duration| decision.processes + 1;
    crate::decide::confirm(first, decision, &options, Metric::Instructions, fresh, room)
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
    let (said, side) = (first.verdict.outcome, signal(first).unwrap_or(Outcome::Parity));
    let share = plan.budget.mul_f64(FRESH_SHARE);
    let fresh = |process: usize| {
        // The pilot runs its whole share: what it costs plans the processes after it.
        let role = if process == 0 { Role::Pilot } else { Role::Fresh };
        timed(|| {
            let measured = measure_fresh(plan, &plan.process(share, seeds::nth(seed, process), role))
                .and_then(|measured| measured.ok_or_else(|| HarnessError::MissingInBaseline(plan.name.to_owned())));
            measured.map_err(|problem| HarnessError::Unconfirmed {
                said,
                side,
                process: process + 1,
                problem: Box::new(problem),
            })
        })
    };
    let options = plan.judge_options(seed, 1.0 - 2.0 * decision.alpha);
    let room = |each: Duration| fitting(left(deadline), each);
    crate::decide::confirm(first, decision, &options, plan.metric(), fresh, room)
}

/// The time left before `deadline`.
fn left(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

/// A fresh process measured by `measure`, with the wall time it took.
fn timed<T, E>(measure: impl FnOnce() -> Result<T, E>) -> Result<(T, Duration), E> {
    let started = Instant::now();
    measure().map(|measured| (measured, started.elapsed()))
}

pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)")
}

/// Why the test fails, or `None` when it passes. Only a confirmed loss fails (an unconfirmed one
/// passes with a warning); with `expect = "win"`, anything but a confirmed win fails.
fn failure(judgement: &Judgement, expect: Expectation) -> Option<Failure> {
    let confirmed = judgement.confirmed() != Some(false);
    match (expect, judgement.verdict.outcome) {
        (Expectation::NoLoss, Outcome::Loss) if confirmed => Some(Failure::Loss),
        (Expectation::NoLoss, _) => None,
        (Expectation::Win, Outcome::Win) if confirmed => None,
        (Expectation::Win, _) => Some(Failure::NoWin),
    }
}
