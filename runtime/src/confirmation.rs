//! Confirming a signal in fresh processes, sequentially: a first round that says win or loss, or
//! a parity that leans to one ([`Report::signal`]), is tested again on processes it did not come
//! from, and the verdict that can fail a test rests on their pooled interval, which carries the
//! variance *between* processes.
//!
//! A process draws per-process randomness once — hash seeds, address layout, allocator state —
//! and keeps it, so its rounds cannot average it out: one process, or two that agree by chance,
//! can show a difference identical code does not have. The confirmation therefore measures at
//! least three fresh processes ([`MIN_FRESH_PROCESSES`]), pools them with Student's t on their
//! own differences ([`crate::stats::pool_processes_with_spread_of`]), and adds processes while
//! the answer is close:
//!
//! - **looks** at `first`, `first + step`, … up to `cap` fresh processes;
//! - at each look the pooled verdict **confirms** the signal (same outcome), **rules it out**
//!   (the fresh processes' interval lies wholly on the near side of the tolerance, or the pooled
//!   verdict is the opposite outcome), or asks for more;
//! - each look spends a share of `α = 1 − level` in proportion to its number of processes (looks
//!   at 3, 6 and 9 processes get 3α/18, 6α/18 and 9α/18): the shares add up to α, so however
//!   many looks are taken the chance of confirming a false signal stays at most `α / 2` on each
//!   side (Bonferroni over the looks). An early look with few processes has few degrees of freedom
//!   and decides only large differences, so it gets the smallest share. Stopping early to rule
//!   a signal out can only lower the error.
//!
//! The first round is left out of the estimate — it was chosen because it signalled, and would
//! lean the mean its way — but its difference counts towards the spread between processes, so
//! the disagreement it shows cannot be hidden. The logic is pure: processes come from a closure,
//! so it can be tested on synthetic processes whose truth is known.

use crate::judge::judge_confirmation;
use crate::measure::{Measured, Metric};
use crate::stats::{Estimate, Outcome, paired_ratios, pool_processes};
use crate::verdict::{JudgeOptions, Report, Verdict};
use crate::warnings::{established_lean, unconfirmed};
use std::time::Instant;

/// How many fresh processes a confirmation may take, and at what level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Fresh processes at the first look (at least [`MIN_FRESH_PROCESSES`]).
    pub first: usize,
    /// Processes added at each further look (at least 1).
    pub step: usize,
    /// Most fresh processes; the last look is at this many.
    pub cap: usize,
    /// Two-sided level of the whole confirmation, shared out over the looks.
    pub level: f64,
}

impl Plan {
    /// The plan for a binary: looks at `first`, `first + 3`, … up to `cap` processes (both
    /// raised to [`MIN_FRESH_PROCESSES`] when below it), at `level`.
    ///
    /// Steps of three, not one or two: each look costs a share of the level, and a look one or
    /// two processes after the last narrows the interval less than its share widens the others.
    /// On the synthetic processes of `runtime/tests/confirmation.rs` (a 2 % slowdown at a parity
    /// of 1 % whose processes differ by twice the within-process error), looks at 3, 6, 9 and 12
    /// confirmed 94 % where 3, 5, 7, 9, 11 and 12 confirmed 92 %, with fewer processes.
    ///
    /// ```
    /// use rtcompare_runtime::confirmation::Plan;
    /// let plan = Plan::new(1, 9, 0.99);
    /// assert_eq!(plan.sizes(), vec![3, 6, 9]);
    /// assert!((plan.look_level(0) - (1.0 - 0.01 * 3.0 / 18.0)).abs() < 1e-12);
    /// assert!((plan.look_level(2) - (1.0 - 0.01 * 9.0 / 18.0)).abs() < 1e-12);
    /// ```
    pub fn new(first: usize, cap: usize, level: f64) -> Plan {
        let first = first.max(MIN_FRESH_PROCESSES);
        Plan { first, step: 3, cap: cap.max(first), level }
    }

    /// The number of fresh processes at each look.
    pub fn sizes(&self) -> Vec<usize> {
        let step = self.step.max(1);
        let mut sizes: Vec<usize> = (self.first..self.cap).step_by(step).collect();
        sizes.push(self.cap);
        sizes
    }

    /// The interval level of look `look` (counting from 0): the plan's shortfall `1 − level`,
    /// shared out over the looks in proportion to their numbers of processes.
    pub fn look_level(&self, look: usize) -> f64 {
        let sizes = self.sizes();
        let total: usize = sizes.iter().sum();
        let share = sizes.get(look).map_or(0.0, |&size| size as f64 / total as f64);
        1.0 - (1.0 - self.level) * share
    }
}

/// The fewest fresh processes a confirmation looks at: three, not two.
///
/// One more process is a coin flip of its per-process effect, and two are not much better on
/// code whose processes fall into a few speed classes (a hash seed, an alignment): a first round
/// and two fresh processes in the same class agree almost exactly, the spread between them is
/// nil, and Student's t confirms them whatever its level. A third fresh process has to land in
/// that class too. On section 14's simulation of such classes with no spread within them
/// (`docs/statistics.md`), identical code was confirmed for 10 of 271 signals with two and 3 of
/// 271 with three, where the promise is at most 2 %. The third process also buys degrees of
/// freedom: the first look's `t` falls from 22.3 (2 df at a tenth of α = 2 %) to 10.2 (3 df at
/// 3/30 of it, with looks at 3, 6, 9 and 12), so the first look confirms a far difference once
/// the processes' differences have a standard deviation below 0.17 of its margin over the
/// tolerance, instead of 0.06.
pub const MIN_FRESH_PROCESSES: usize = 3;

/// What a confirmation found.
#[derive(Clone, Debug, PartialEq)]
pub struct Confirmation {
    /// The pooled judgement of the fresh processes at the look that decided; its `duration` is
    /// the whole confirmation's.
    pub report: Report,
    /// Whether it repeated the first round's outcome.
    pub confirmed: bool,
    /// How many looks were taken.
    pub looks: usize,
    /// Whether a look decided: it confirmed the signal or ruled it out. False when the last
    /// look was reached with the processes still undecided, so more of them could still settle it.
    pub settled: bool,
}

/// Confirms the outcome of `first` (a win or a loss) on fresh processes drawn from `measure`,
/// which is called with the index of each new process (0, 1, …) and may fail; its error is
/// returned as is. `options` are the judging options of the pair, used as they are except for
/// the level, which is the plan's per look ([`Plan::look_level`]).
///
/// ```
/// use rtcompare_runtime::confirmation::{Plan, confirm};
/// use rtcompare_runtime::{Arm, JudgeOptions, Metric, Options, Outcome, compare, measure};
/// use std::time::Duration;
/// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
/// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let first = compare(Arm::from_fn("slow", slow), Arm::from_fn("fast", fast), &options);
/// assert_eq!(first.verdict.outcome, Outcome::Loss);
/// let fresh = |_process: usize| -> Result<_, String> {
///     Ok(measure(Arm::from_fn("slow", slow), Arm::from_fn("fast", fast), &options))
/// };
/// let found = confirm(&first, &Plan::new(2, 4, 0.95), &JudgeOptions::default(), Metric::Time, fresh).unwrap();
/// assert!(found.confirmed);
/// ```
pub fn confirm<E>(
    first: &Report,
    plan: &Plan,
    options: &JudgeOptions,
    metric: Metric,
    mut measure: impl FnMut(usize) -> Result<Measured, E>,
) -> Result<Confirmation, E> {
    let started = Instant::now();
    // A first round with nothing to confirm is taken as a parity to repeat.
    let signal = first.signal().unwrap_or(Outcome::Parity);
    let sizes = plan.sizes();
    let mut measured: Vec<Measured> = Vec::new();
    let mut look = 0;
    loop {
        while measured.len() < sizes[look] {
            measured.push(measure(measured.len())?);
        }
        // The pooled interval is Student's t, not a bootstrap: the level needs no more resamples.
        let options = JudgeOptions { level: plan.look_level(look), ..options.clone() };
        let report = judge_confirmation(measured.clone(), first.estimate.difference, metric, &options);
        let confirmed = report.verdict.outcome == signal;
        let settled = confirmed || ruled_out(signal, &report, &fresh_only(&measured, options.level));
        look += 1;
        if settled || look == sizes.len() {
            let report = Report { duration: started.elapsed(), ..report };
            return Ok(Confirmation { report, confirmed, looks: look, settled });
        }
    }
}

/// The first round's report with its confirmation joined to it: whether it was confirmed, the
/// fresh processes' judgement, and the warning when they did not repeat it. The one place a
/// verdict's confirmation is recorded, so a report is complete when it leaves here.
///
/// A first round that was a parity leaning to a win or a loss ([`Report::signal`]) becomes that
/// win or loss when the fresh processes establish it: the verdict is theirs, the figures beside it
/// stay the first round's (`verdict.first_round` says it was a parity), and the warnings that
/// explained the parity give way to one saying what happened.
pub fn conclude(first: Report, found: Confirmation) -> Report {
    let leaned = first.verdict.outcome == Outcome::Parity;
    let established = leaned && found.confirmed;
    let warning = match (found.confirmed, leaned) {
        (false, _) => Some(unconfirmed(&first, &found.report, found.settled)),
        (true, true) => Some(established_lean(&first, &found.report)),
        (true, false) => None,
    };
    let kept = first.warnings.into_iter().filter(|w| !(established && w.kind.explains_parity()));
    let warnings = kept.chain(warning).collect();
    let verdict = if established {
        Verdict { outcome: found.report.verdict.outcome, resolved: true, confirmed: Some(true), ..first.verdict }
    } else {
        Verdict { confirmed: Some(found.confirmed), ..first.verdict }
    };
    Report { verdict, warnings, confirmation: Some(Box::new(found.report)), ..first }
}

/// The t interval of the fresh processes alone, without the first round in their spread: valid
/// by itself, and the one to rule a signal out with (stopping for that never confirms anything,
/// so it needs no protection from the first round's disagreement, and a first round far off
/// would otherwise keep a clear "no" open until the last look).
fn fresh_only(measured: &[Measured], level: f64) -> Estimate {
    let groups: Vec<Vec<f64>> =
        measured.iter().map(|m| paired_ratios(&m.samples.candidate.per_op, &m.samples.baseline.per_op)).collect();
    let slices: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    pool_processes(&slices, level).estimate
}

/// Whether the fresh processes exclude `signal`: their pooled verdict says the opposite, or the
/// whole interval of the fresh processes alone lies on the near side of the tolerance, where
/// more processes would only narrow it further.
fn ruled_out(signal: Outcome, pooled: &Report, fresh: &Estimate) -> bool {
    let tolerance = pooled.verdict.tolerance;
    match signal {
        Outcome::Loss => pooled.verdict.outcome == Outcome::Win || fresh.low > -tolerance,
        Outcome::Win => pooled.verdict.outcome == Outcome::Loss || fresh.high < tolerance,
        Outcome::Parity => true,
    }
}
