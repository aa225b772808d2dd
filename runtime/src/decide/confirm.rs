//! The confirmation: a group-sequential one-sided t test of the screen's signal on fresh
//! processes alone.
//!
//! Each fresh process gives its own difference `d_j` (its rounds' median ratio); the `k`
//! differences are independent draws that carry the per-process effect, so the pooled interval
//! is Student's t on them with `k − 1` degrees of freedom ([`crate::stats::pool_processes`]).
//! The screen's own process is left out entirely: it was chosen because it signalled, and
//! counting it, in the estimate or in the spread, would make the test's level depend on that
//! choice. Looks come at [`MIN_FRESH_PROCESSES`], twice and three times as many (up to the
//! cap); look `j` judges the processes at level `1 − 2 α_j`, where `α_j` is its share of the
//! one-sided `α` by error spending, so its interval's far end is a one-sided bound at `1 − α_j`.
//! The look **confirms** when the pooled verdict (the parity rule, fast ends per process,
//! interval beyond the tolerance) repeats the signal; it **rules the signal out** when the
//! pooled verdict is the opposite outcome or the fresh processes' mean difference lies inside the
//! tolerance (a non-binding futility stop); otherwise it asks for
//! more. The logic is pure: processes come from a closure, so it is tested on synthetic
//! processes whose truth is known.

use super::looks::signal;
use super::spending::{GAMMA, Spender};
use crate::caveats::{established_lean, unconfirmed};
use crate::judge::judge_processes;
use crate::measure::{Measured, Metric};
use crate::stats::Outcome;
use crate::verdict::{Confirmation, Ending, JudgeOptions, Judgement, Report, Verdict};
use std::time::{Duration, Instant};

/// The fewest fresh processes a confirmation looks at, and the step between its looks. Four,
/// so the first look's t has three degrees of freedom: with two, its quantile at the first
/// look's share of the level is above 20 and nothing but a tie would confirm; and three fresh
/// processes that land in one exact speed class (a hash seed, an alignment) agree to the last
/// digit more often than four do.
pub const MIN_FRESH_PROCESSES: usize = 4;

/// The most wall time one comparison takes, as a multiple of its budget: the screen and its
/// confirmation together.
pub const TIME_CAP: u32 = 4;

/// The most a confirmation's two-sided level falls short of 1 (see [`confirmation_level`]).
const CONFIRMATION_SHORTFALL: f64 = 0.02;

/// The two-sided level of a pair's confirmation: `1 − min(0.02, 1 / registered)`, from
/// `registered`, the number of comparisons registered in the test binary, so each side is
/// tested at `α = min(1 %, 1 / (2 · registered))`. The registry is the same in every process
/// of a binary, so the level — and with it every verdict — does not depend on how the binary
/// was invoked: a name filter, `--format json`, or one test per process under nextest.
pub fn confirmation_level(registered: usize) -> f64 {
    1.0 - CONFIRMATION_SHORTFALL.min(1.0 / registered.max(1) as f64)
}

/// How many fresh processes a confirmation may take, and at what level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Fresh processes at the first look, and added at each later one.
    pub step: usize,
    /// Most fresh processes; the last look is at this many.
    pub cap: usize,
    /// Two-sided level of the whole confirmation, spent over the looks.
    pub level: f64,
}

impl Plan {
    /// Looks at `first`, `2 · first`, … up to `cap` processes (both raised to
    /// [`MIN_FRESH_PROCESSES`] when below it), at `level`.
    pub fn new(first: usize, cap: usize, level: f64) -> Plan {
        let step = first.max(MIN_FRESH_PROCESSES);
        Plan { step, cap: cap.max(step), level }
    }

    /// The number of fresh processes at each look.
    pub fn sizes(&self) -> Vec<usize> {
        let mut sizes: Vec<usize> = (self.step..self.cap).step_by(self.step.max(1)).collect();
        sizes.push(self.cap);
        sizes
    }
}

/// How much slower than the slowest so far the next fresh process is allowed for when asking
/// whether it fits in the time cap: process times vary by a tenth or two (start-up, a page-cache
/// miss, a busy core), and a cap is only honoured if the process that crosses it is never started.
const SLOWER_PROCESS: f64 = 1.25;

/// Confirms the screen's signal ([`signal`]) on fresh processes drawn from `measure`, which is
/// called with the index of each new process (0, 1, …) and may fail; its error is returned as
/// is. Before each process past the first look, `may_start` is asked whether another fits in the
/// comparison's time ([`TIME_CAP`]), given what one more costs at most so far: the longest
/// process with a margin for a slower one, and the longest look's judgement;
/// when it says no, the last look is taken with the processes at hand, spending what is left
/// of the level. `options` are the pair's judging options, used as they are but for the level.
pub fn confirm<E>(
    first: &Report,
    plan: &Plan,
    options: &JudgeOptions,
    metric: Metric,
    mut measure: impl FnMut(usize) -> Result<Measured, E>,
    mut may_start: impl FnMut(Duration) -> bool,
) -> Result<Confirmation, E> {
    let started = Instant::now();
    // A screen with nothing to confirm is taken as a parity to repeat.
    let side = signal(first).unwrap_or(Outcome::Parity);
    let sizes = plan.sizes();
    let mut spender = Spender::new(1.0 - plan.level, GAMMA);
    let mut measured: Vec<Measured> = Vec::new();
    let (mut longest_process, mut longest_look) = (Duration::ZERO, Duration::ZERO);
    for (look, &size) in sizes.iter().enumerate() {
        let mut cut = false;
        while measured.len() < size {
            if look > 0 && !may_start(longest_process.mul_f64(SLOWER_PROCESS) + longest_look) {
                cut = true;
                break;
            }
            let one = Instant::now();
            measured.push(measure(measured.len())?);
            longest_process = longest_process.max(one.elapsed());
        }
        let last = cut || look + 1 == sizes.len();
        let share = if last { spender.rest() } else { spender.look(size as f64 / plan.cap as f64) };
        let judging = Instant::now();
        let report = judge_processes(measured.clone(), metric, &JudgeOptions { level: 1.0 - share, ..options.clone() });
        longest_look = longest_look.max(judging.elapsed());
        let confirmed = report.verdict.outcome == side;
        let ending = if confirmed {
            Some(Ending::Confirmed)
        } else if ruled_out(side, &report) {
            Some(Ending::RuledOut)
        } else if cut {
            Some(Ending::TimeCap)
        } else if last {
            Some(Ending::LastLook)
        } else {
            None
        };
        if let Some(ending) = ending {
            let report = Report { duration: started.elapsed(), ..report };
            return Ok(Confirmation { report, confirmed, looks: look + 1, ending });
        }
    }
    unreachable!("the last look always ends the confirmation")
}

/// Whether the fresh processes rule `side` out: their pooled verdict says the opposite, or their
/// mean difference lies inside the tolerance, on the near side of the margin the test needs to
/// cross (the classic futility rule of stopping when the test statistic has the wrong sign).
/// Stopping for that never confirms anything, so it cannot raise the error rate; it costs a
/// little power only for a difference barely beyond the tolerance.
fn ruled_out(side: Outcome, pooled: &Report) -> bool {
    let (tolerance, mean) = (pooled.verdict.tolerance, pooled.estimate.difference);
    match side {
        Outcome::Loss => pooled.verdict.outcome == Outcome::Win || mean > -tolerance,
        Outcome::Win => pooled.verdict.outcome == Outcome::Loss || mean < tolerance,
        Outcome::Parity => true,
    }
}

/// The judgement of a screen and its confirmation: the verdict, and the caveat when the fresh
/// processes did not repeat the screen's signal. The one place a confirmation is joined to a
/// verdict; the screen's report is kept as it was judged.
///
/// A screen that was a parity leaning to a win or a loss ([`signal`]) becomes that win or loss
/// when the fresh processes establish it: the verdict is theirs, the figures beside it stay the
/// screen's (whose own verdict, `first.verdict`, stays a parity), and the caveats that explained
/// the parity give way to one saying what happened.
pub fn conclude(first: Report, found: Confirmation) -> Judgement {
    let side = signal(&first).unwrap_or(Outcome::Parity);
    let leaned = first.verdict.outcome == Outcome::Parity;
    let established = leaned && found.confirmed;
    let caveat = match (found.confirmed, leaned) {
        (false, _) => Some(unconfirmed(&first, side, &found.report, found.ending)),
        (true, true) => Some(established_lean(&first, side, &found.report)),
        (true, false) => None,
    };
    let kept = first.warnings.iter().filter(|c| !(established && c.kind().explains_parity())).cloned();
    let caveats = kept.chain(caveat).collect();
    let verdict = if established {
        Verdict { outcome: found.report.verdict.outcome, resolved: true, ..first.verdict.clone() }
    } else {
        first.verdict.clone()
    };
    Judgement { verdict, caveats, first, confirmation: Some(found) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::{Calibration, Samples, Series};
    use crate::stats::student_t_quantile;

    /// The t a pooled difference must reach at each look of the default plan (`α = 1 %` a side,
    /// looks at 4, 8 and 12): the figures `docs/statistics.md` gives.
    #[test]
    fn the_default_plans_boundaries() {
        let plan = Plan::new(1, 12, confirmation_level(50));
        let sizes = plan.sizes();
        let mut spender = Spender::new(1.0 - plan.level, GAMMA);
        let boundaries: Vec<f64> = sizes
            .iter()
            .enumerate()
            .map(|(look, &k)| {
                let share = if look + 1 == sizes.len() { spender.rest() } else { spender.look(k as f64 / 12.0) };
                // The look's two-sided share; each side gets half.
                student_t_quantile(1.0 - share / 2.0, (k - 1) as f64)
            })
            .collect();
        let expected = [8.9, 3.9, 3.1];
        for (t, e) in boundaries.iter().zip(expected) {
            assert!((t - e).abs() < 0.1, "{boundaries:?}");
        }
    }

    #[test]
    fn the_confirmation_level_depends_on_the_registered_comparisons() {
        assert!((confirmation_level(1) - 0.98).abs() < 1e-12);
        assert!((confirmation_level(50) - 0.98).abs() < 1e-12);
        assert!((confirmation_level(200) - 0.995).abs() < 1e-12);
    }

    #[test]
    fn a_plan_looks_at_multiples_of_its_first_size() {
        assert_eq!(Plan::new(1, 12, 0.98).sizes(), vec![4, 8, 12]);
        assert_eq!(Plan::new(5, 12, 0.98).sizes(), vec![5, 10, 12]);
        assert_eq!(Plan::new(1, 2, 0.98).sizes(), vec![4]);
    }

    /// One process's rounds of a candidate three times the baseline's cost, with a little
    /// round-to-round wobble and `process` percent more cost in the candidate: fixed figures, so
    /// these checks do not depend on how busy the machine is.
    fn three_times(process: usize) -> Measured {
        let series = |ns: f64, slot: u32| Series {
            per_op: (0..40).map(|i| ns * (1.0 + 0.002 * ((i * 7 + slot as usize) % 5) as f64)).collect(),
            position: (0..40).map(|round| round * 4 + slot).collect(),
            placements: Vec::new(),
        };
        let slow = 300.0 * (1.0 + 0.01 * process as f64);
        let samples = Samples {
            candidate_iters: 1000,
            baseline_iters: 1000,
            candidate: series(slow, 0),
            candidate_twin: series(slow, 1),
            baseline: series(100.0, 2),
            baseline_twin: series(100.0, 3),
        };
        let calibration = Calibration {
            resolution: 20.0,
            clock_step_ns: 20.0,
            candidate_iters: 1000,
            baseline_iters: 1000,
            target_batch_ns: 100_000.0,
            candidate_batch_ns: 300_000.0,
            baseline_batch_ns: 100_000.0,
        };
        Measured { candidate: "slow".into(), baseline: "fast".into(), calibration, samples }
    }

    /// The first round of [`three_times`].
    fn first_round() -> Report {
        let m = three_times(0);
        crate::judge(&m.candidate, &m.baseline, Metric::Time, m.calibration, m.samples, &JudgeOptions::default())
    }

    #[test]
    fn fresh_processes_confirm_a_far_loss() {
        let first = first_round();
        assert_eq!(first.verdict.outcome, Outcome::Loss);
        let fresh = |process: usize| -> Result<_, std::convert::Infallible> { Ok(three_times(process + 1)) };
        let plan = Plan::new(4, 8, 0.95);
        let found = confirm(&first, &plan, &JudgeOptions::default(), Metric::Time, fresh, |_| true).unwrap();
        assert!(found.confirmed);
    }

    /// `Judgement::over_processes`: the mean over every process once a confirmation ran.
    #[test]
    fn a_confirmed_verdict_averages_every_process() {
        let first = first_round();
        assert!(Judgement::of(first.clone()).over_processes().is_none());
        let fresh = |process: usize| -> Result<_, std::convert::Infallible> { Ok(three_times(process + 1)) };
        let plan = Plan::new(4, 4, 0.95);
        let found = confirm(&first, &plan, &JudgeOptions::default(), Metric::Time, fresh, |_| true).unwrap();
        let mean = conclude(first, found).over_processes().expect("confirmed");
        assert_eq!(mean.processes, 5);
        assert!(mean.difference < -1.0, "the candidate takes about 3x the time: {mean:?}");
    }
}
