//! Aggregating trials into the figures of one table row.

use crate::outcome::{Outcome, Settle, Trial};

/// The figures of one cell (workload × k × condition × parity, or a criterion setting).
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// Trials run.
    pub trials: usize,
    /// Reported losses (first round).
    pub losses: usize,
    /// Reported wins.
    pub wins: usize,
    /// Reported parity.
    pub parity: usize,
    /// Runs without a verdict.
    pub failed: usize,
    /// Losses confirmed in fresh processes: the ones that fail a test. A first-round loss, or a
    /// first-round parity that leaned to the loss.
    pub confirmed_losses: usize,
    /// Wins confirmed in fresh processes: the ones reported as wins.
    pub confirmed_wins: usize,
    /// A true slowdown reported as a win, or a true speed-up as a loss (first round).
    pub direction_errors: usize,
    /// Direction errors that a fresh process confirmed: what a user would be told.
    pub confirmed_direction_errors: usize,
    /// First-round parities that leaned to a win or a loss and went to fresh processes, which
    /// did not establish it: the verdict stayed parity, at the cost of a confirmation.
    pub unestablished_leans: usize,
    /// Median of `|estimate − truth|` in percentage points, when any trial had an estimate: the
    /// change the block prints.
    pub median_error_pp: Option<f64>,
    /// Trials whose block printed an interval (a confirmation ran), when the truth is known.
    pub intervals: usize,
    /// Of those, the ones whose printed interval holds the truth.
    pub covered: usize,
    /// Median wall-clock seconds per verdict.
    pub median_wall_s: Option<f64>,
    /// The longest wall-clock seconds of one verdict, process start to exit: beside the cap, as
    /// the cost a user waits for, output files and process start included.
    pub longest_wall_s: Option<f64>,
    /// The longest comparison duration rtcompare recorded (`duration_s`), confirmation
    /// included: what the cap on a comparison's time (4× its budget) is checked against.
    pub longest_duration_s: Option<f64>,
    /// Every trial's wall-clock seconds, in trial order: the time targets pool them across
    /// cells, which the cells' medians cannot do. Not written to the JSON (the figures above
    /// summarise them).
    pub walls_s: Vec<f64>,
    /// Trials with a verdict that no fresh processes confirmed as a win or a loss.
    pub unconfirmed: usize,
    /// Of those, the ones reported as an established parity (`verdict.resolved`): for a
    /// difference beyond the parity, the report issue 36 rules out.
    pub established_parity: usize,
    /// Of those, the others that carry a figure saying what would settle them ([`Settle`]).
    pub unconfirmed_settled: usize,
    /// Of those, the others without such a figure.
    pub unconfirmed_unsettled: usize,
    /// The settling figures of the unconfirmed trials, in trial order.
    pub settles: Vec<Settle>,
    /// The one-sided level of every confirmation that ran, in trial order.
    pub alphas: Vec<f64>,
}

impl Figures {
    /// The trials confirmed as the change injected: a loss for a slowdown (`k > 0`), a win for a
    /// speed-up; none for `k = 0`.
    pub fn confirmed_as_injected(&self, k: i64) -> usize {
        match k.signum() {
            1 => self.confirmed_losses,
            -1 => self.confirmed_wins,
            _ => 0,
        }
    }
}

/// Aggregates `trials` of a cell with injected difference `k` (percent) against the true
/// difference `truth` (as `d`, positive when the candidate is faster).
pub fn aggregate(trials: &[Trial], k: i64, truth: Option<f64>) -> Figures {
    let count = |o: Outcome| trials.iter().filter(|t| t.outcome == o).count();
    let wrong_way = |o: Outcome| (k > 0 && o == Outcome::Win) || (k < 0 && o == Outcome::Loss);
    let direction_errors = trials.iter().filter(|t| wrong_way(t.outcome)).count();
    let confirmed_direction_errors = trials.iter().filter(|t| t.confirmed.is_some_and(wrong_way)).count();
    let errors: Vec<f64> = match truth {
        Some(truth) => trials.iter().filter_map(|t| t.difference).map(|d| (d - truth).abs() * 100.0).collect(),
        None => Vec::new(),
    };
    let intervals: Vec<(f64, f64)> =
        truth.map_or_else(Vec::new, |_| trials.iter().filter_map(|t| t.interval).collect());
    let covered =
        truth.map_or(0, |truth| intervals.iter().filter(|(low, high)| (*low..=*high).contains(&truth)).count());
    let walls: Vec<f64> = trials.iter().map(|t| t.wall_s).collect();
    let unconfirmed = || trials.iter().filter(|t| t.outcome != Outcome::Failed && t.confirmed.is_none());
    Figures {
        trials: trials.len(),
        losses: count(Outcome::Loss),
        wins: count(Outcome::Win),
        parity: count(Outcome::Parity),
        failed: count(Outcome::Failed),
        confirmed_losses: trials.iter().filter(|t| t.confirmed == Some(Outcome::Loss)).count(),
        confirmed_wins: trials.iter().filter(|t| t.confirmed == Some(Outcome::Win)).count(),
        direction_errors,
        confirmed_direction_errors,
        unestablished_leans: trials.iter().filter(|t| t.leaned && t.confirmed.is_none()).count(),
        median_error_pp: median(&errors),
        intervals: intervals.len(),
        covered,
        median_wall_s: median(&walls),
        longest_wall_s: longest(walls.iter().copied()),
        longest_duration_s: longest(trials.iter().filter_map(|t| t.duration_s)),
        walls_s: walls,
        unconfirmed: unconfirmed().count(),
        established_parity: unconfirmed().filter(|t| t.established_parity()).count(),
        unconfirmed_settled: unconfirmed().filter(|t| !t.established_parity() && t.settle.is_some()).count(),
        unconfirmed_unsettled: unconfirmed().filter(|t| !t.established_parity() && t.settle.is_none()).count(),
        settles: unconfirmed().filter_map(|t| t.settle).collect(),
        alphas: trials.iter().filter_map(|t| t.alpha).collect(),
    }
}

/// The largest finite value; `None` for none.
fn longest(values: impl Iterator<Item = f64>) -> Option<f64> {
    values.filter(|v| v.is_finite()).max_by(f64::total_cmp)
}

/// The median (mean of the middle two for an even count); `None` for no values.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len().is_multiple_of(2) { (sorted[mid - 1] + sorted[mid]) / 2.0 } else { sorted[mid] })
}

/// The injected difference as `d`: the candidate costs `1 + k/100` of the baseline.
pub fn injected(k: i64) -> f64 {
    -(k as f64) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trial(outcome: Outcome, confirmed: bool, difference: f64, wall_s: f64) -> Trial {
        let confirmed = confirmed.then_some(outcome);
        // The comparison itself takes a second less than its process.
        Trial { confirmed, duration_s: Some(wall_s - 1.0), ..Trial::bare(outcome, Some(difference), wall_s) }
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
    }

    #[test]
    fn counts_outcomes_errors_and_directions() {
        let trials = [
            trial(Outcome::Loss, true, -0.021, 1.0),
            trial(Outcome::Loss, false, -0.019, 2.0),
            trial(Outcome::Win, true, 0.01, 3.0),
            Trial::bare(Outcome::Failed, None, 4.0),
            // A first-round parity that leaned to a loss, which fresh processes established.
            Trial { confirmed: Some(Outcome::Loss), leaned: true, ..trial(Outcome::Parity, false, -0.02, 5.0) },
            // One that leaned and was not established: a parity, counted apart.
            Trial { leaned: true, ..trial(Outcome::Parity, false, -0.02, 6.0) },
        ];
        let f = aggregate(&trials, 2, Some(-0.02));
        assert_eq!((f.trials, f.losses, f.wins, f.parity, f.failed), (6, 2, 1, 2, 1));
        assert_eq!((f.confirmed_losses, f.confirmed_wins), (2, 1));
        assert_eq!(f.unestablished_leans, 1, "the established lean is a confirmed loss, not counted here");
        assert_eq!((f.direction_errors, f.confirmed_direction_errors), (1, 1));
        let error = f.median_error_pp.expect("errors");
        assert!((error - 0.1).abs() < 1e-9, "{error}");
        assert_eq!((f.median_wall_s, f.longest_wall_s), (Some(3.5), Some(6.0)));
        assert_eq!(f.longest_duration_s, Some(5.0), "the longest comparison, apart from its process");
        assert_eq!(f.walls_s, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "every trial's, in order");
        // The same outcomes for a speed-up: the losses are the direction errors now.
        let speedup = aggregate(&trials, -2, None);
        assert_eq!(
            (speedup.direction_errors, speedup.confirmed_direction_errors),
            (2, 2),
            "the leaned loss counts once confirmed"
        );
        assert_eq!(aggregate(&trials, 0, None).direction_errors, 0);
    }

    #[test]
    fn unconfirmed_trials_are_established_parities_or_carry_a_settling_figure_or_not() {
        let settle = Settle { processes: 30, seconds: Some(5.5), budget_s: 1.6 };
        let trials = [
            // Confirmed: not counted.
            Trial { alpha: Some(0.00025), ..trial(Outcome::Loss, true, -0.05, 4.0) },
            // A first-round loss the fresh processes did not confirm, with what would settle it.
            Trial { settle: Some(settle), alpha: Some(0.00025), ..trial(Outcome::Loss, false, -0.045, 4.0) },
            // A parity that leaned and was not established, likewise.
            Trial { leaned: true, settle: Some(settle), ..trial(Outcome::Parity, false, -0.045, 4.0) },
            // An established parity: the report that must not happen beyond the parity.
            Trial { resolved: Some(true), ..trial(Outcome::Parity, false, -0.035, 0.5) },
            // An inconclusive parity without a settling figure.
            Trial { resolved: Some(false), ..trial(Outcome::Parity, false, -0.035, 1.0) },
            Trial::bare(Outcome::Failed, None, 1.0),
        ];
        let f = aggregate(&trials, 5, None);
        assert_eq!(f.unconfirmed, 4, "the failed run has no verdict to leave unconfirmed");
        assert_eq!((f.established_parity, f.unconfirmed_settled, f.unconfirmed_unsettled), (1, 2, 1));
        assert_eq!(f.settles, [settle, settle]);
        assert_eq!(f.alphas, [0.00025, 0.00025]);
        assert_eq!((f.confirmed_as_injected(5), f.confirmed_as_injected(-5), f.confirmed_as_injected(0)), (1, 0, 0));
        assert!(!trials[2].established_parity(), "a parity is established only when resolved");
    }

    #[test]
    fn counts_the_printed_intervals_that_hold_the_truth() {
        let with =
            |low: f64, high: f64| Trial { interval: Some((low, high)), ..trial(Outcome::Loss, true, -0.05, 1.0) };
        let trials =
            [with(-0.06, -0.045), with(-0.07, -0.051), with(-0.05, -0.04), trial(Outcome::Loss, false, -0.05, 1.0)];
        let f = aggregate(&trials, 5, Some(-0.05));
        assert_eq!((f.intervals, f.covered), (3, 2), "the second ends short of the truth; the last printed none");
        assert_eq!(aggregate(&trials, 5, None).intervals, 0, "without a truth nothing is counted");
    }

    #[test]
    fn a_cell_without_trials_has_no_wall_times() {
        let f = aggregate(&[], 0, None);
        assert_eq!((f.trials, f.median_wall_s, f.longest_wall_s, f.longest_duration_s), (0, None, None, None));
        assert!(f.walls_s.is_empty());
    }

    #[test]
    fn injected_difference_has_rtcompare_sign() {
        assert_eq!(injected(2), -0.02);
        assert_eq!(injected(-10), 0.1);
    }
}
