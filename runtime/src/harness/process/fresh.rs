//! Measuring a comparison afresh, in processes of its own: a worker of this binary, a lock-step
//! pair of this build and the baseline's when the comparison is against a git revision (or of
//! two processes of this binary when it is against another test), or a
//! counting process under callgrind for a pair judged on instructions. The first round of
//! `RTCOMPARE_PROCESSES=k`, every process of a confirmation and a front-end's benchmark measured
//! alone are measured here; what they measured is judged by the caller.

use super::client::measure_in_worker;
use super::counting::{CountIn, Counter};
use super::lockstep;
use crate::harness::error::{CountingError, HarnessError};
use crate::harness::plan::{ProcessPlan, TrialPlan};
use crate::harness::registry::Against;
use rtcompare_judge::alone::{ALONE_LEVEL, Alone, measured_alone};
use rtcompare_judge::decide::{FRESH_SHARE, Role, signal};
use rtcompare_judge::seeds;
use rtcompare_judge::{Measured, Outcome, Report};
use std::time::{Duration, Instant};

/// Measures the comparison in `count` fresh processes (or lock-step pairs), one after another,
/// each for the comparison's whole budget with its own seed drawn from the run's. `None` when
/// the baseline build has no such comparison.
pub(crate) fn series(plan: &TrialPlan<'_>, count: usize) -> Result<Option<Vec<Measured>>, HarnessError> {
    let mut all = Vec::with_capacity(count);
    for process in 0..count {
        match measure(plan, &plan.process(plan.budget, seeds::nth(plan.settings.seed, process), Role::Fresh)) {
            Ok(Some(measured)) => all.push(measured),
            Ok(None) => return Ok(None),
            Err(problem) if count > 1 => {
                let what = if plan.in_lockstep() { "lock-step pair" } else { "worker process" };
                return Err(HarnessError::InSeries { what, process: process + 1, count, problem: Box::new(problem) });
            }
            Err(problem) => return Err(problem),
        }
    }
    Ok(Some(all))
}

/// The test of `plan` measured alone, a front-end's benchmark in a run that names no revision:
/// a worker process of this binary measures it for the whole budget with the run's seed, its one
/// routine in all four batches of each round ([`Role::Pilot`] stops no collection early), and
/// its median per operation and that median's interval at [`ALONE_LEVEL`] are taken from the
/// rounds ([`measured_alone`]).
pub(crate) fn alone(plan: &TrialPlan<'_>) -> Result<Alone, HarnessError> {
    let seed = plan.settings.seed;
    let measured = measure_in_worker(plan, &plan.process(plan.budget, seed, Role::Pilot))?;
    let options = plan.judge_options(seed, ALONE_LEVEL);
    Ok(measured_alone(&measured.samples, plan.metric(), ALONE_LEVEL, options.resamples, options.seed))
}

/// A pair judged on instruction counts, counted in `count` processes: the run's counting process
/// with the run's seed, then counting processes of their own, each with its own seed.
pub(crate) fn counted_series(
    plan: &TrialPlan<'_>,
    counter: &Counter,
    count: usize,
) -> Result<Option<Vec<Measured>>, HarnessError> {
    let seed = plan.settings.seed;
    let Some(first) = counter.measure(plan, seed, CountIn::Run).map_err(HarnessError::Uncounted)? else {
        return Ok(None);
    };
    let mut all = vec![first];
    for process in 1..count {
        let measured =
            counter.measure(plan, seeds::nth(seed, process), CountIn::Fresh).and_then(|m| m.ok_or_else(gone));
        let numbered = |why| HarnessError::Uncounted(CountingError::in_process("counting process", process + 1, why));
        all.push(measured.map_err(numbered)?);
    }
    Ok(Some(all))
}

/// Why a count of a comparison the baseline build had a moment ago found none there.
fn gone() -> CountingError {
    CountingError::GoneFromBaseline
}

/// Fresh process `process` of a confirmation of `first`'s signal ([`rtcompare_judge::decide::Confirming`]):
/// the pilot (0) and every process after it measure [`FRESH_SHARE`] of the budget with the
/// `process`-th seed drawn from `seed`; it gives what it measured and the wall time it took. A
/// process that fails fails the confirmation, with what the first round said.
pub(crate) fn confirming(
    plan: &TrialPlan<'_>,
    first: &Report,
    seed: u64,
    process: usize,
) -> Result<(Measured, Duration), HarnessError> {
    let (said, side) = (first.verdict.outcome, signal(first).unwrap_or(Outcome::Parity));
    let role = if process == 0 { Role::Pilot } else { Role::Fresh };
    let share = plan.budget.mul_f64(FRESH_SHARE);
    timed(|| {
        let measured = measure(plan, &plan.process(share, seeds::nth(seed, process), role))
            .and_then(|measured| measured.ok_or_else(|| HarnessError::MissingInBaseline(plan.name.to_owned())));
        measured.map_err(|problem| HarnessError::Unconfirmed {
            said,
            side,
            process: process + 1,
            problem: Box::new(problem),
        })
    })
}

/// Fresh process `process` of a confirmation of a pair judged on instruction counts: a counting
/// process of its own with the `process`-th seed drawn from `seed`.
pub(crate) fn counted_confirming(
    plan: &TrialPlan<'_>,
    counter: &Counter,
    seed: u64,
    process: usize,
) -> Result<(Measured, Duration), HarnessError> {
    timed(|| {
        let measured =
            counter.measure(plan, seeds::nth(seed, process), CountIn::Fresh).and_then(|m| m.ok_or_else(gone));
        measured.map_err(|why| {
            HarnessError::Uncounted(CountingError::in_process("fresh counting process", process + 1, why))
        })
    })
}

/// The one way to measure the comparison afresh as `process` plans: in a lock-step pair of this
/// build and the baseline's when it is against a git revision, in a lock-step pair of two
/// processes of this binary when it is against another test, else in a worker process of this
/// binary. `None` when the baseline build has no such comparison.
fn measure(plan: &TrialPlan<'_>, process: &ProcessPlan) -> Result<Option<Measured>, HarnessError> {
    match plan.against() {
        Against::Revision => lockstep::measure_against_revision(plan, process),
        Against::Test(baseline) => lockstep::measure_against_test(plan, process, baseline).map(Some),
        Against::Function => measure_in_worker(plan, process).map(Some),
    }
}

/// A fresh process measured by `measure`, with the wall time it took.
fn timed<T, E>(measure: impl FnOnce() -> Result<T, E>) -> Result<(T, Duration), E> {
    let started = Instant::now();
    measure().map(|measured| (measured, started.elapsed()))
}
