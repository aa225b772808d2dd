//! Confirming a signal in fresh processes, sequentially: a first round that says win or loss is
//! tested again on processes it did not come from, and the verdict that can fail a test rests on
//! their pooled interval, which carries the variance *between* processes.
//!
//! A process draws per-process randomness once — hash seeds, address layout, allocator state —
//! and keeps it, so its rounds cannot average it out: one process, or two that agree by chance,
//! can show a difference identical code does not have. The confirmation therefore measures at
//! least two fresh processes, pools them with Student's t on their own differences
//! ([`crate::stats::pool_processes_with_spread_of`]), and adds processes while the answer is
//! close:
//!
//! - **looks** at `first`, `first + step`, … up to `cap` fresh processes;
//! - at each look the pooled verdict **confirms** the signal (same outcome), **rules it out**
//!   (the fresh processes' interval lies wholly on the near side of the tolerance, or the pooled
//!   verdict is the opposite outcome), or asks for more;
//! - each look spends a share of `α = 1 − level` ([`Spending`]): the shares add up to α, so
//!   however many looks are taken the chance of confirming a false signal stays at most `α / 2`
//!   on each side (Bonferroni over the looks). Stopping early to rule a signal out can only
//!   lower the error. An early look with few processes has few degrees of freedom and decides
//!   only large differences, so for a signal near the tolerance it gets the smallest share; for
//!   one the first round put far beyond the tolerance it gets half, so that two processes can
//!   decide it. The first round is independent of the fresh processes, so choosing the shares
//!   from it leaves the bound as it is.
//!
//! The first round is left out of the estimate — it was chosen because it signalled, and would
//! lean the mean its way — but its difference counts towards the spread between processes, so
//! the disagreement it shows cannot be hidden. The logic is pure: processes come from a closure,
//! so it can be tested on synthetic processes whose truth is known.

use crate::judge::judge_confirmation;
use crate::measure::{Measured, Metric};
use crate::stats::{Estimate, Outcome, paired_ratios, pool_processes};
use crate::verdict::{CLEAR_BEYOND_TOLERANCE, JudgeOptions, Report, Verdict};
use crate::warnings::unconfirmed;
use std::time::Instant;

/// How many fresh processes a confirmation may take, and at what level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Fresh processes at the first look (at least 2: one more process is a coin flip).
    pub first: usize,
    /// Processes added at each further look (at least 1).
    pub step: usize,
    /// Most fresh processes; the last look is at this many.
    pub cap: usize,
    /// Two-sided level of the whole confirmation, shared out over the looks.
    pub level: f64,
    /// How the shortfall `1 − level` is shared out over the looks.
    pub spending: Spending,
}

/// How a [`Plan`] shares its shortfall `α = 1 − level` out over its looks. Either way the shares
/// add up to α.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spending {
    /// Each look in proportion to its number of processes: at 2, 4, 6 and 8 processes, α/10,
    /// α/5, 3α/10 and 2α/5. A signal near the tolerance is decided, if at all, by the later looks,
    /// which this keeps strongest.
    Proportional,
    /// Half of α at the first look ([`FRONT_SHARE`]), the rest over the later looks in
    /// proportion to their processes. For a signal the first round put far beyond the tolerance:
    /// at the proportional α/10 two processes need `t` on two degrees of freedom at 22.6 (for
    /// α = 2 %), so workloads whose processes differ by a few tenths of a percent took four
    /// processes to confirm even a difference five times the tolerance; at α/2 it is 9.9.
    FrontLoaded,
}

/// The share of α a [`Spending::FrontLoaded`] plan spends at its first look.
pub const FRONT_SHARE: f64 = 0.5;

impl Plan {
    /// The plan for a binary: looks at `first`, `first + 2`, … up to `cap` processes (each at
    /// least 2), at `level`, spent in proportion ([`Spending::Proportional`]).
    ///
    /// ```
    /// use rtcompare_runtime::confirmation::Plan;
    /// let plan = Plan::new(2, 6, 0.99);
    /// assert_eq!(plan.sizes(), vec![2, 4, 6]);
    /// assert!((plan.look_level(0) - (1.0 - 0.01 / 6.0)).abs() < 1e-12);
    /// assert!((plan.look_level(2) - (1.0 - 0.01 / 2.0)).abs() < 1e-12);
    /// ```
    pub fn new(first: usize, cap: usize, level: f64) -> Plan {
        let first = first.max(2);
        Plan { first, step: 2, cap: cap.max(first), level, spending: Spending::Proportional }
    }

    /// This plan with the spending that suits the first round `first`: front-loaded
    /// ([`Spending::FrontLoaded`]) when its whole interval lies beyond twice the tolerance
    /// ([`Report::clears`]), proportional otherwise. The first round was measured in another
    /// process than every fresh one, so a plan chosen from it keeps each look's level honest.
    ///
    /// ```
    /// use rtcompare_runtime::confirmation::{Plan, Spending};
    /// use rtcompare_runtime::{Arm, Options, compare};
    /// use std::time::Duration;
    /// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
    /// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
    /// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
    /// let first = compare(Arm::from_fn("slow", slow), Arm::from_fn("fast", fast), &options);
    /// let plan = Plan::new(2, 8, 0.98).for_signal(&first);
    /// assert_eq!(plan.spending, Spending::FrontLoaded);
    /// assert!((plan.look_level(0) - 0.99).abs() < 1e-12);
    /// ```
    pub fn for_signal(self, first: &Report) -> Plan {
        let far = first.clears(CLEAR_BEYOND_TOLERANCE);
        Plan { spending: if far { Spending::FrontLoaded } else { Spending::Proportional }, ..self }
    }

    /// The number of fresh processes at each look.
    pub fn sizes(&self) -> Vec<usize> {
        let step = self.step.max(1);
        let mut sizes: Vec<usize> = (self.first..self.cap).step_by(step).collect();
        sizes.push(self.cap);
        sizes
    }

    /// The interval level of look `look` (counting from 0): the plan's shortfall `1 − level`
    /// times the look's share ([`Spending`]).
    pub fn look_level(&self, look: usize) -> f64 {
        1.0 - (1.0 - self.level) * self.share(look)
    }

    /// The share of the shortfall look `look` spends; 0 past the last look.
    fn share(&self, look: usize) -> f64 {
        let sizes = self.sizes();
        let Some(&size) = sizes.get(look) else { return 0.0 };
        let in_proportion = |among: &[usize]| size as f64 / among.iter().sum::<usize>() as f64;
        match self.spending {
            Spending::Proportional => in_proportion(&sizes),
            Spending::FrontLoaded if sizes.len() == 1 => 1.0,
            Spending::FrontLoaded if look == 0 => FRONT_SHARE,
            Spending::FrontLoaded => (1.0 - FRONT_SHARE) * in_proportion(&sizes[1..]),
        }
    }
}

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
    let signal = first.verdict.outcome;
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
        look += 1;
        if confirmed || ruled_out(signal, &report, &fresh_only(&measured, options.level)) || look == sizes.len() {
            let report = Report { duration: started.elapsed(), ..report };
            return Ok(Confirmation { report, confirmed, looks: look });
        }
    }
}

/// The first round's report with its confirmation joined to it: whether it was confirmed, the
/// fresh processes' judgement, and the warning when they did not repeat it. The one place a
/// verdict's confirmation is recorded, so a report is complete when it leaves here.
pub fn conclude(first: Report, found: Confirmation) -> Report {
    let warning = (!found.confirmed).then(|| unconfirmed(&first, &found.report));
    let warnings = first.warnings.into_iter().chain(warning).collect();
    let verdict = Verdict { confirmed: Some(found.confirmed), ..first.verdict };
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Whatever the spending and the number of looks, the looks' shares add up to the whole
    /// shortfall, which is what keeps the bound of `α / 2` a side (Bonferroni over the looks).
    #[test]
    fn the_shares_add_up_to_the_whole_shortfall() {
        for spending in [Spending::Proportional, Spending::FrontLoaded] {
            for cap in [2, 3, 4, 7, 8, 20] {
                let plan = Plan { spending, ..Plan::new(2, cap, 0.98) };
                let looks = plan.sizes().len();
                let spent: f64 = (0..looks).map(|look| 1.0 - plan.look_level(look)).sum();
                assert!((spent - 0.02).abs() < 1e-12, "{spending:?}, cap {cap}: {spent}");
                assert_eq!(plan.look_level(looks), 1.0, "nothing is spent past the last look");
            }
        }
        let front = Plan { spending: Spending::FrontLoaded, ..Plan::new(2, 8, 0.98) };
        let levels: Vec<f64> = (0..4).map(|look| 1.0 - front.look_level(look)).collect();
        let expected = [0.01, 0.01 * 4.0 / 18.0, 0.01 * 6.0 / 18.0, 0.01 * 8.0 / 18.0];
        assert!(levels.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-12), "{levels:?}");
    }
}
