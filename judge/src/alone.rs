//! A benchmark measured alone: its value per operation with an interval, and no verdict.
//!
//! A front-end benchmark (rtcompare-criterion's) in a run that names no git revision to compare
//! it with is measured as a worker measures a pair, its one routine in all four batches of each
//! round (its primary loop and its A/A twin, each cycling through its placement copies). A
//! round's four per-operation values are averaged, so that every round weighs the placements
//! alike; the estimate is the median of the rounds, and its interval is the judge's bootstrap of
//! a median ([`bootstrap_difference`]) taken over the rounds relative to that median: the same
//! resampling (independent rounds, or circular blocks where neighbouring rounds are correlated,
//! [`choose_resampling`]), smoothing and widening as a verdict's interval.

use crate::measure::{Metric, Samples, Series};
use crate::stats::{Resampling, Summary, bootstrap_difference, choose_resampling, ratio};
use serde::{Deserialize, Serialize};

/// The level of a measured-alone interval: 95 %, the level criterion prints its intervals at.
///
/// ```
/// assert_eq!(rtcompare_judge::alone::ALONE_LEVEL, 0.95);
/// ```
pub const ALONE_LEVEL: f64 = 0.95;

/// What measuring a routine alone found: the median value per operation over the rounds, the
/// interval of that median, and the rounds' spread.
///
/// ```
/// use rtcompare_judge::alone::{ALONE_LEVEL, measured_alone};
/// use rtcompare_judge::{Metric, Samples, Series};
/// let series = |per_op: Vec<f64>| Series { position: Vec::new(), per_op, placements: Vec::new() };
/// let rounds: Vec<f64> = (0..40).map(|i| 100.0 + (i % 7) as f64).collect();
/// let samples = Samples {
///     candidate_iters: 10,
///     baseline_iters: 10,
///     candidate: series(rounds.clone()),
///     candidate_twin: series(rounds.clone()),
///     baseline: series(rounds.clone()),
///     baseline_twin: series(rounds),
/// };
/// let alone = measured_alone(&samples, Metric::Time, ALONE_LEVEL, 2_000, 7);
/// assert_eq!(alone.median, 103.0);
/// assert!(alone.low <= alone.median && alone.median <= alone.high);
/// assert_eq!(alone.rounds(), 40);
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alone {
    /// What was measured; its unit is [`Metric::unit`].
    pub metric: Metric,
    /// The median over the rounds of each round's mean value per operation.
    pub median: f64,
    /// The lower end of the median's interval.
    pub low: f64,
    /// The upper end of the median's interval.
    pub high: f64,
    /// The interval's nominal coverage (0.95 = 95 %).
    pub level: f64,
    /// How the rounds were resampled for the interval.
    pub scheme: Resampling,
    /// The rounds' values per operation (each round's mean of its four batches): their count,
    /// quartiles and extremes.
    pub summary: Summary,
    /// Operations per batch, from calibration.
    pub iters: u64,
}

impl Alone {
    /// How many rounds were measured.
    ///
    /// ```
    /// use rtcompare_judge::alone::measured_alone;
    /// use rtcompare_judge::{Metric, Samples};
    /// assert_eq!(measured_alone(&Samples::default(), Metric::Time, 0.95, 100, 1).rounds(), 0);
    /// ```
    pub fn rounds(&self) -> usize {
        self.summary.count
    }
}

/// The routine of `samples` measured alone (all four of its series measure the same routine):
/// the median of the rounds' mean values per operation, with its bootstrap interval at `level`
/// from `resamples` replicates drawn with `seed`. With no rounds every figure is NaN.
///
/// ```
/// use rtcompare_judge::alone::measured_alone;
/// use rtcompare_judge::{Metric, Samples, Series};
/// let series = |per_op: Vec<f64>| Series { position: Vec::new(), per_op, placements: Vec::new() };
/// let samples = Samples {
///     candidate: series(vec![10.0, 12.0, 11.0]),
///     candidate_twin: series(vec![10.0, 12.0, 11.0]),
///     baseline: series(vec![14.0, 12.0, 11.0]),
///     baseline_twin: series(vec![14.0, 12.0, 11.0]),
///     ..Samples::default()
/// };
/// // The rounds' means are 12, 12 and 11.
/// assert_eq!(measured_alone(&samples, Metric::Time, 0.95, 500, 3).median, 12.0);
/// ```
pub fn measured_alone(samples: &Samples, metric: Metric, level: f64, resamples: usize, seed: u64) -> Alone {
    let rounds = round_means(samples);
    let summary = Summary::of(&rounds);
    let relative: Vec<f64> = rounds.iter().map(|&value| ratio(value, summary.median)).collect();
    let scheme = choose_resampling(&relative);
    // The bootstrap's estimate is `d = 1 − median(relative)`, so the median's interval is
    // `median · (1 − d)` at each end of `d`'s: its upper end gives the lower one.
    let estimate = bootstrap_difference(&relative, scheme, level, resamples, seed).estimate;
    Alone {
        metric,
        median: summary.median,
        low: summary.median * (1.0 - estimate.high),
        high: summary.median * (1.0 - estimate.low),
        level,
        scheme,
        summary,
        iters: samples.candidate_iters,
    }
}

/// Each complete round's mean value per operation over its four batches.
fn round_means(samples: &Samples) -> Vec<f64> {
    let all: [&Series; 4] = [&samples.candidate, &samples.candidate_twin, &samples.baseline, &samples.baseline_twin];
    let rounds = all.iter().map(|series| series.per_op.len()).min().unwrap_or(0);
    (0..rounds).map(|round| all.iter().map(|series| series.per_op[round]).sum::<f64>() / all.len() as f64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(per_op: Vec<f64>) -> Series {
        Series { position: Vec::new(), per_op, placements: Vec::new() }
    }

    fn samples(rounds: &[f64]) -> Samples {
        let s = || series(rounds.to_vec());
        Samples {
            candidate_iters: 8,
            baseline_iters: 8,
            candidate: s(),
            candidate_twin: s(),
            baseline: s(),
            baseline_twin: s(),
        }
    }

    #[test]
    fn the_interval_holds_the_median_and_narrows_with_more_rounds() {
        let wobble =
            |n: usize| -> Vec<f64> { (0..n).map(|i| 50.0 * (1.0 + 0.01 * ((i * 37 % 11) as f64 - 5.0))).collect() };
        let few = measured_alone(&samples(&wobble(30)), Metric::Time, ALONE_LEVEL, 2_000, 1);
        let many = measured_alone(&samples(&wobble(600)), Metric::Time, ALONE_LEVEL, 2_000, 1);
        for alone in [&few, &many] {
            assert!(alone.low < alone.median && alone.median < alone.high, "{alone:?}");
            assert!(alone.low >= alone.summary.min && alone.high <= alone.summary.max, "{alone:?}");
        }
        assert!(many.high - many.low < (few.high - few.low) / 2.0, "{few:?} {many:?}");
        assert_eq!((few.rounds(), few.iters, few.level), (30, 8, 0.95));
    }

    #[test]
    fn the_same_rounds_and_seed_give_the_same_interval() {
        let rounds: Vec<f64> = (0..100).map(|i| 1e6 + (i * 7919 % 101) as f64).collect();
        let a = measured_alone(&samples(&rounds), Metric::Time, 0.9, 1_000, 5);
        assert_eq!(a, measured_alone(&samples(&rounds), Metric::Time, 0.9, 1_000, 5));
    }

    #[test]
    fn a_round_is_the_mean_of_its_four_batches() {
        let mut mixed = samples(&[10.0, 20.0]);
        mixed.baseline_twin = series(vec![30.0, 40.0, 99.0]);
        assert_eq!(round_means(&mixed), [15.0, 25.0], "an incomplete round is left out");
    }

    #[test]
    fn identical_rounds_have_an_interval_of_no_width_and_none_has_nan() {
        let flat = measured_alone(&samples(&[7.0; 20]), Metric::Allocs, ALONE_LEVEL, 500, 2);
        assert_eq!((flat.low, flat.median, flat.high), (7.0, 7.0, 7.0));
        let zero = measured_alone(&samples(&[0.0; 20]), Metric::Allocs, ALONE_LEVEL, 500, 2);
        assert_eq!((zero.low, zero.median, zero.high), (0.0, 0.0, 0.0));
        let none = measured_alone(&Samples::default(), Metric::Time, ALONE_LEVEL, 500, 2);
        assert!(none.median.is_nan() && none.low.is_nan() && none.high.is_nan());
    }
}
