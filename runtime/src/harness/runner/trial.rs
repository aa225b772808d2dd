//! Measuring one test: a comparison at one size, its confirmation in fresh processes, and the
//! pass/fail decision, made once here. A pair judged on instruction counts takes the same path,
//! each of its processes a count under callgrind (`counting/`).

use crate::child::panic_text;
use crate::compare::measure_and_judge;
use crate::harness::error::HarnessError;
use crate::harness::invocation::measured_alone;
use crate::harness::plan::TrialPlan;
use crate::harness::process::counting::{BesideTime, Counter};
use crate::harness::process::fresh;
use crate::harness::registry::{Comparison, Expectation};
use crate::harness::settings::Settings;
use crate::measure::counting_allocator_installed;
use rtcompare_judge::decide::{
    Confirmation, Confirming, PROCESS_LEVEL, Plan, Role, Step, TIME_CAP, conclude, signal, without_room,
};
use rtcompare_judge::measure::Metric;
use rtcompare_judge::seeds::{self, Purpose};
use rtcompare_judge::verdict::Judgement;
use rtcompare_judge::{Outcome, Report, judge_processes};
use rtcompare_report::{Failure, Revision, Test, failure_message, uncounted_message};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Measurements never overlap, whatever `--test-threads` says.
static MEASURING: Mutex<()> = Mutex::new(());

/// Measures one comparison (never two at once), confirms a win or a loss in fresh processes,
/// and decides whether its test passes. `registered` is the number of comparisons registered in
/// the binary, which sets the confirmation level
/// ([`confirmation_alpha`](rtcompare_judge::decide::confirmation_alpha)); `progress` draws the progress of
/// what this process measures itself.
pub(crate) fn run_trial(
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    registered: usize,
    counter: &Counter,
    progress: Option<fn(f64)>,
) -> Test {
    let _serial = MEASURING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let started = Instant::now();
    let test = if measured_alone(comparison, settings) {
        alone_trial(comparison, name, settings, progress)
    } else {
        judged_trial(comparison, name, settings, registered, counter, progress)
    };
    Test { duration_s: started.elapsed().as_secs_f64(), ..test }
}

/// [`run_trial`]'s test of a front-end's benchmark in a run that names no revision: measured
/// alone in a worker process for its budget, and passed; failed only when it could not be
/// measured.
fn alone_trial(comparison: Comparison, name: &str, settings: &Settings, progress: Option<fn(f64)>) -> Test {
    let plan = TrialPlan::new(comparison, name, settings, progress);
    match fresh::alone(&plan) {
        Ok(alone) => Test { alone: Some(alone), ..facts(comparison, name) },
        Err(why) => Test { failure: Some(why.to_string()), ..facts(comparison, name) },
    }
}

/// [`run_trial`]'s test, measured, judged and counted.
fn judged_trial(
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    registered: usize,
    counter: &Counter,
    progress: Option<fn(f64)>,
) -> Test {
    let failed = |judgement, problem: String| Test { judgement, failure: Some(problem), ..facts(comparison, name) };
    if let Some(problem) = unmeasurable(comparison) {
        return failed(None, problem);
    }
    let plan = TrialPlan::new(comparison, name, settings, progress);
    let on_counts = plan.metric() == Metric::Instructions;
    let started = Instant::now();
    let first = match first_round(&plan, counter) {
        Ok(Some(first)) => first.with_duration(started.elapsed()),
        Ok(None) => return facts(comparison, name),
        Err(why) => return failed(None, why.to_string()),
    };
    let deadline = started + plan.budget * TIME_CAP;
    let (judgement, problem) = judgement_of(&plan, first, settings, registered, counter, deadline);
    if let Some(problem) = problem {
        return failed(Some(judgement), problem.to_string());
    }
    // A pair judged on its counts has no time verdict to count beside.
    let beside = if on_counts { None } else { counter.count(&plan, &judgement) };
    let (instructions, not_counted) = match beside {
        Some(BesideTime::Counted(counts)) => (Some(counts), None),
        Some(BesideTime::NotCounted(why)) => (None, Some(why)),
        None => (None, None),
    };
    let fails = failure(&judgement, comparison.registration.settings.expect, settings.fail_out_of_time);
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

/// The judgement of the first round `first`: confirmed in fresh processes before `deadline`
/// where it signalled and the run confirms (`RTCOMPARE_CONFIRM`), else as it stands; with a fresh
/// process that failed, the first round's judgement and that failure.
fn judgement_of(
    plan: &TrialPlan<'_>,
    first: Report,
    settings: &Settings,
    registered: usize,
    counter: &Counter,
    deadline: Instant,
) -> (Judgement, Option<HarnessError>) {
    if !settings.confirm || signal(&first).is_none() {
        return (Judgement::of(first), None);
    }
    let most = settings.max_processes;
    let decision = if plan.metric().is_count() {
        Plan::of_counts(registered, most, plan.budget)
    } else {
        Plan::of_time(registered, most, plan.budget, left(deadline))
    };
    if !decision.decidable() {
        return (without_room(first, &decision), None);
    }
    match confirm(plan, &first, &decision, counter, deadline) {
        Ok(found) => (conclude(first, found), None),
        Err(problem) => (Judgement::of(first), Some(problem)),
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
        alone: None,
        revision: registration
            .settings
            .revision
            .then(crate::harness::rebuild::revision::prepared)
            .flatten()
            .map(|baseline| Revision { name: baseline.revision.clone(), commit: baseline.commit.clone() }),
        duration_s: 0.0,
    }
}

/// The first round, judged: counted under callgrind for a pair judged on instructions, in
/// lock-step processes against a git revision or another test, in worker processes when the run asks for
/// several, else in this process. `None` when there is nothing to compare against (a function
/// new since the baseline revision); the error is the test's failure.
fn first_round(plan: &TrialPlan<'_>, counter: &Counter) -> Result<Option<Report>, HarnessError> {
    let (seed, processes) = (plan.settings.seed, plan.settings.processes);
    let measured = if plan.metric() == Metric::Instructions {
        match fresh::counted_series(plan, counter, processes)? {
            Some(measured) => measured,
            None => return Ok(None),
        }
    } else if plan.in_lockstep() || processes > 1 {
        match fresh::series(plan, processes)? {
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

/// The confirmation: the fresh processes `decision` plans ([`Confirming`]), each a worker or a
/// lock-step pair measuring a share of the budget with a seed of its own, until they confirm or
/// rule out the first round's signal, or another would end past `deadline`; for a pair judged on
/// instruction counts, each a counting process of its own, all of them planned whatever the time
/// (counts that do not vary from process to process confirm a difference beyond the tolerance on
/// the fewest processes the level allows).
fn confirm(
    plan: &TrialPlan<'_>,
    first: &Report,
    decision: &Plan,
    counter: &Counter,
    deadline: Instant,
) -> Result<Confirmation, HarnessError> {
    let seed = seeds::for_purpose(plan.settings.seed, Purpose::Confirmation);
    let options = plan.judge_options(seed, 1.0 - 2.0 * decision.alpha);
    let on_counts = plan.metric() == Metric::Instructions;
    let mut confirming = Confirming::start(first, decision, &options, plan.metric());
    loop {
        let left = if on_counts { Duration::MAX } else { left(deadline) };
        match confirming.next(left) {
            Step::Measure(process) if on_counts => {
                let (measured, cost) = fresh::counted_confirming(plan, counter, seed, process)?;
                confirming.record(measured, cost);
            }
            Step::Measure(process) => {
                let (measured, cost) = fresh::confirming(plan, first, seed, process)?;
                confirming.record(measured, cost);
            }
            Step::Done(found) => return Ok(*found),
        }
    }
}

/// The time left before `deadline`.
fn left(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

/// Why the test fails, or `None` when it passes. Only a confirmed loss fails (an unconfirmed one
/// passes with a warning), and, where `out_of_time` fails them (`RTCOMPARE_OUT_OF_TIME=fail`), a
/// loss the time cap left undecided; with `expect = "win"`, anything but a confirmed win fails.
fn failure(judgement: &Judgement, expect: Expectation, out_of_time: bool) -> Option<Failure> {
    let confirmed = judgement.confirmed() != Some(false);
    match (expect, judgement.verdict.outcome) {
        (Expectation::NoLoss, Outcome::Loss) if confirmed => Some(Failure::Loss),
        (Expectation::NoLoss, Outcome::Loss) if out_of_time && judgement.out_of_time() => Some(Failure::LossOutOfTime),
        (Expectation::NoLoss, _) => None,
        (Expectation::Win, Outcome::Win) if confirmed => None,
        (Expectation::Win, _) => Some(Failure::NoWin),
    }
}
