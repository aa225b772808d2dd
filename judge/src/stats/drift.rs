//! Drift: a trend across a measurement run.
//!
//! The bootstrap treats the rounds as an unordered bag, so a machine that slowed down (or sped up)
//! while measuring leaves no trace in its interval. This module looks at the order the values were
//! measured in: a rank correlation between each value and its position in the run.

use super::normal::two_sided_normal_p;
use super::quantile::median;

/// The significance level at which [`detect_drift`] is used by rtcompare: a trend is reported
/// when a run without any trend would show one at least this strong in 5 % of cases.
///
/// ```
/// use rtcompare::stats::detect_drift;
/// use rtcompare_judge::stats::DRIFT_ALPHA;
/// let flat = [1.0, 1.2, 0.9, 1.1, 1.0, 0.95, 1.05, 1.1, 0.9, 1.0, 1.02, 0.98];
/// assert!(!detect_drift(&flat, DRIFT_ALPHA).drifted);
/// ```
pub const DRIFT_ALPHA: f64 = 0.05;

/// Fewer values than this are never called drifted: the normal approximation of the rank
/// correlation's distribution is not trustworthy below it, and such a short run says little.
const MIN_DRIFT_LEN: usize = 10;

/// The outcome of a drift test on one series.
///
/// ```
/// use rtcompare::stats::detect_drift;
/// let slowing: Vec<f64> = (0..50).map(|i| 100.0 + i as f64).collect();
/// let drift = detect_drift(&slowing, 0.05);
/// assert!(drift.drifted && drift.rho > 0.99);
/// assert!(drift.shift() > 0.2); // the second half is over 20 % slower than the first
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Drift {
    /// Spearman's rank correlation of the values with their position in the run, in [−1, 1]:
    /// positive when later values tend to be larger (for timings: the run slowed down).
    pub rho: f64,
    /// Two-sided p-value of `rho` under "no trend" (1.0 when the series is too short to test).
    pub p_value: f64,
    /// Whether `p_value` is below the level the test was run at.
    pub drifted: bool,
    /// Median of the first half of the series (the first `n / 2` values).
    pub first_half_median: f64,
    /// Median of the second half of the series (the last `n / 2` values; the middle value of an
    /// odd-length series belongs to neither half).
    pub second_half_median: f64,
}

impl Drift {
    /// The relative change from the first half to the second, `second / first − 1`
    /// (+0.05 = the second half's median is 5 % larger). NaN when a half is empty (fewer than two
    /// values) and infinite when the first half's median is zero.
    ///
    /// ```
    /// use rtcompare::stats::detect_drift;
    /// let stepped: Vec<f64> = [[100.0; 10], [105.0; 10]].concat();
    /// let d = detect_drift(&stepped, 0.05);
    /// assert_eq!((d.first_half_median, d.second_half_median), (100.0, 105.0));
    /// assert!((d.shift() - 0.05).abs() < 1e-12);
    /// ```
    pub fn shift(&self) -> f64 {
        self.second_half_median / self.first_half_median - 1.0
    }
}

/// Tests `series` (values in measurement order) for a monotone trend at significance `alpha`.
///
/// The statistic is Spearman's rank correlation `rho` between each value and its position:
/// the Pearson correlation of the values' ranks with the positions 1..n. Tied values get the
/// average of the ranks they span, because timings are quantized by the clock and tie often;
/// with average ranks, ties shrink the rank variance instead of inventing an order.
///
/// Without a trend, `z = rho·√(n − 1)` is approximately standard normal, and the p-value is the
/// two-sided tail `P(|Z| ≥ |z|)`. That approximation is used from 10 values on (its false-positive
/// rate is measured in this crate's tests); below 10 values the series is reported with
/// `p_value = 1` and not drifted. A constant series has `rho = 0` and `p_value = 1`.
///
/// Being a rank test, it detects any monotone trend, not only a linear one, and one outlier
/// cannot dominate it. It does not see a change that goes up and comes back down.
///
/// ```
/// use rtcompare::stats::detect_drift;
/// let steady = [5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0];
/// let drift = detect_drift(&steady, 0.05);
/// assert!(!drift.drifted);
/// assert_eq!(drift.shift(), 0.0);
/// ```
pub fn detect_drift(series: &[f64], alpha: f64) -> Drift {
    let n = series.len();
    let Trend { rho, lag1 } = rank_trend(series);
    // Neighbouring rounds share the machine's state, so their ranks are autocorrelated and the
    // rank correlation's spread under "no trend" grows by (1 + r1) / (1 − r1) — the
    // effective-sample-size correction of Bayley & Hammersley (1946), as Yue & Wang (2004)
    // apply it to rank trend tests. r1 is the lag-1 autocorrelation of the ranks once the fitted
    // trend is removed (so a real trend does not mask itself), plus the estimator's known bias
    // (1 + 3 r1) / n; negative values count as none (never a narrower test than for
    // independent rounds) and values near 1 are capped so the variance cannot blow up.
    let r1 = (lag1 + (1.0 + 3.0 * lag1) / n.max(1) as f64).clamp(0.0, 0.9);
    let inflation = (1.0 + r1) / (1.0 - r1);
    let z = rho * ((n.max(1) - 1) as f64 / inflation).sqrt();
    let p_value = if n < MIN_DRIFT_LEN { 1.0 } else { two_sided_normal_p(z) };
    let half = n / 2;
    Drift {
        rho,
        p_value,
        drifted: p_value < alpha,
        first_half_median: median(&series[..half]),
        second_half_median: median(&series[n - half..]),
    }
}

/// Spearman's rho of `series` against its positions, and the lag-1 autocorrelation of the ranks
/// around the fitted trend line.
struct Trend {
    rho: f64,
    lag1: f64,
}

/// Spearman's rho of `series` against its positions (0.0 when either has no variance), and the
/// lag-1 autocorrelation of the ranks around the fitted line.
fn rank_trend(series: &[f64]) -> Trend {
    let n = series.len();
    if n < 2 {
        return Trend { rho: 0.0, lag1: 0.0 };
    }
    let ranks = average_ranks(series);
    // Positions 1..n and the ranks both have mean (n + 1) / 2: average ranks preserve the sum.
    let centre = (n as f64 + 1.0) / 2.0;
    let mut cross = 0.0;
    let mut rank_square = 0.0;
    let mut position_square = 0.0;
    for (i, rank) in ranks.iter().enumerate() {
        let position = (i + 1) as f64 - centre;
        let rank = rank - centre;
        cross += position * rank;
        rank_square += rank * rank;
        position_square += position * position;
    }
    if rank_square == 0.0 {
        return Trend { rho: 0.0, lag1: 0.0 };
    }
    let slope = cross / position_square;
    let residuals: Vec<f64> =
        ranks.iter().enumerate().map(|(i, rank)| rank - centre - slope * ((i + 1) as f64 - centre)).collect();
    let energy: f64 = residuals.iter().map(|e| e * e).sum();
    let lagged: f64 = residuals.windows(2).map(|w| w[0] * w[1]).sum();
    let lag1 = if energy > 0.0 { lagged / energy } else { 0.0 };
    Trend { rho: cross / (rank_square * position_square).sqrt(), lag1 }
}

/// Ranks 1..n of `values` (in their original order), ties sharing the average of their ranks.
/// NaN sorts after every number, so it ranks last instead of breaking the sort.
fn average_ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut ranks = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let value = values[order[start]];
        let mut end = start + 1;
        // Equal by `==`, so +0.0 and −0.0 tie as the numbers they are.
        while end < order.len() && values[order[end]] == value {
            end += 1;
        }
        // Positions start..end hold ranks start+1..=end; their average is (start + 1 + end) / 2.
        let shared = (start + 1 + end) as f64 / 2.0;
        for &index in &order[start..end] {
            ranks[index] = shared;
        }
        start = end;
    }
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dprng;

    fn spearman_against_position(series: &[f64]) -> f64 {
        rank_trend(series).rho
    }

    #[test]
    fn average_ranks_share_ties() {
        assert_eq!(average_ranks(&[10.0, 20.0, 20.0, 5.0]), vec![2.0, 3.5, 3.5, 1.0]);
        assert_eq!(average_ranks(&[1.0, 1.0, 1.0]), vec![2.0, 2.0, 2.0]);
        assert_eq!(average_ranks(&[]), Vec::<f64>::new());
    }

    #[test]
    fn spearman_of_monotone_series_is_plus_or_minus_one() {
        let up: Vec<f64> = (0..20).map(|i| (i as f64).exp()).collect();
        let down: Vec<f64> = up.iter().rev().copied().collect();
        assert!((spearman_against_position(&up) - 1.0).abs() < 1e-12);
        assert!((spearman_against_position(&down) + 1.0).abs() < 1e-12);
    }

    #[test]
    fn short_and_constant_series_never_drift() {
        let short = detect_drift(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], 0.05);
        assert_eq!(short.p_value, 1.0);
        assert!(!short.drifted);
        assert!(short.rho > 0.99);
        let constant = detect_drift(&[7.0; 40], 0.05);
        assert_eq!((constant.rho, constant.p_value, constant.drifted), (0.0, 1.0, false));
        assert_eq!(constant.shift(), 0.0);
        let empty = detect_drift(&[], 0.05);
        assert!(!empty.drifted && empty.shift().is_nan());
    }

    #[test]
    fn halves_leave_out_the_middle_of_an_odd_series() {
        let drift = detect_drift(&[1.0, 2.0, 100.0, 3.0, 4.0], 0.05);
        assert_eq!((drift.first_half_median, drift.second_half_median), (1.5, 3.5));
    }

    /// AR(1) noise `x_t = φ x_{t−1} + e_t` with no trend, `n` values.
    fn ar1(rng: &mut Dprng, phi: f64, n: usize) -> Vec<f64> {
        let mut state = 0.0;
        (0..n)
            .map(|_| {
                let u1 = rng.f64().max(f64::MIN_POSITIVE);
                let normal = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * rng.f64()).cos();
                state = phi * state + normal;
                state
            })
            .collect()
    }

    /// The share of trend-free AR(1) series flagged: by [`detect_drift`], and by the same rank
    /// correlation read as if the rounds were independent (the test before the correction).
    fn false_positive_rates(phi: f64, n: usize, series: usize, seed: u64) -> (f64, f64) {
        let mut rng = Dprng::new(seed);
        let (mut corrected, mut uncorrected) = (0, 0);
        for _ in 0..series {
            let values = ar1(&mut rng, phi, n);
            corrected += usize::from(detect_drift(&values, DRIFT_ALPHA).drifted);
            let z = spearman_against_position(&values) * ((n - 1) as f64).sqrt();
            uncorrected += usize::from(two_sided_normal_p(z) < DRIFT_ALPHA);
        }
        (corrected as f64 / series as f64, uncorrected as f64 / series as f64)
    }

    /// Without a trend the test fires 5 % of the time, also when neighbouring rounds are
    /// correlated (AR(1) ρ = 0.4), where reading the rank correlation as if rounds were
    /// independent fires about three times as often. 8,000 series of 200 rounds per case: the
    /// rate's Monte-Carlo standard error is 0.24 pp, so 4–6 % is four standard errors each side.
    #[test]
    fn the_level_holds_with_and_without_autocorrelation() {
        for (phi, seed) in [(0.0, 1), (0.4, 2)] {
            let (rate, uncorrected) = false_positive_rates(phi, 200, 8_000, seed);
            println!(
                "drift false positives, AR(1) φ = {phi}, 200 rounds: {:.2} % (read as independent: {:.2} %)",
                rate * 100.0,
                uncorrected * 100.0
            );
            assert!((0.04..=0.06).contains(&rate), "φ = {phi}: rate {rate}");
            if phi > 0.0 {
                assert!(uncorrected > 0.12, "the uncorrected test should over-fire here: {uncorrected}");
            }
        }
    }

    /// Short runs keep the level within a wider band: the lag-1 estimate is rough over 60 rounds,
    /// and negative estimates count as none, so the test leans conservative without correlation.
    #[test]
    fn the_level_holds_roughly_for_short_runs() {
        for (phi, seed) in [(0.0, 3), (0.4, 4)] {
            let (rate, _) = false_positive_rates(phi, 60, 8_000, seed);
            println!("drift false positives, AR(1) φ = {phi}, 60 rounds: {:.2} %", rate * 100.0);
            assert!((0.035..=0.065).contains(&rate), "φ = {phi}: rate {rate}");
        }
    }

    /// The correction widens the test only as much as the correlation asks: a 10 % linear slowdown
    /// across 200 rounds of ±2 % AR(1) noise is still found almost always.
    #[test]
    fn a_trend_in_correlated_noise_is_still_found() {
        let mut rng = Dprng::new(9);
        let found = (0..500)
            .filter(|_| {
                let noise = ar1(&mut rng, 0.4, 200);
                let series: Vec<f64> =
                    noise.iter().enumerate().map(|(i, e)| 100.0 * (1.0 + 0.1 * i as f64 / 200.0 + 0.02 * e)).collect();
                detect_drift(&series, DRIFT_ALPHA).drifted
            })
            .count();
        assert!(found >= 490, "found {found} of 500");
    }

    /// Quantized timings tie a lot; the test must keep its level on them (average ranks).
    #[test]
    fn false_positive_rate_holds_on_heavily_tied_data() {
        let mut rng = Dprng::new(404);
        let series_count = 2_000;
        let flagged = (0..series_count)
            .filter(|_| {
                // Five distinct values only, like a clock that resolves a handful of ticks.
                let series: Vec<f64> = (0..100).map(|_| (rng.below(5) + 40) as f64).collect();
                detect_drift(&series, DRIFT_ALPHA).drifted
            })
            .count();
        let rate = flagged as f64 / series_count as f64;
        println!("drift false-positive rate on tied data: {:.2} %", rate * 100.0);
        assert!((0.035..=0.065).contains(&rate), "rate {rate}");
    }
}
