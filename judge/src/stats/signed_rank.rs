//! Wilcoxon's signed-rank test, exact, with the Hodges–Lehmann estimate and its exact confidence
//! bounds: the test the confirmation judges fresh processes by.
//!
//! Each process gives one value `y_j`. The test asks whether the centre of their distribution
//! lies above a margin `m`, and rests on one assumption only: each `y_j` is symmetric about a
//! common centre (its own spread may differ). It needs no normality, so a per-process effect in
//! a few discrete classes (a hash seed, an alignment) cannot fool it the way it fools a t test
//! on four processes whose values happen to land in one class: with `k` values the test can never
//! be surer than `2^−k`, the chance that all of them fall on one side by luck.
//!
//! The statistic is counted on the **Walsh averages** `(y_i + y_j) / 2`, `i ≤ j`: the number that
//! lie strictly above `m` is Wilcoxon's `W+` of `y − m` when no two values tie, and never more
//! than it when some do, so ties (quantised medians, exact classes) only make the test more
//! cautious. The count only grows as any `y_j` grows, so the test holds its level for every centre
//! at or below `m`, not only at `m` itself. Its null distribution is that of `W+` for `k`
//! values, computed exactly (`2^k` sign patterns, counted by their rank sums). The
//! Hodges–Lehmann estimate is the median of the Walsh averages, and the bounds are order
//! statistics of them, so estimate, bounds and test agree by construction (Hodges & Lehmann,
//! 1963; Hollander, Wolfe & Chicken, *Nonparametric Statistical Methods*, 2014, §3.1–3.3).

use super::quantile::sorted_copy;

/// The exact distribution of Wilcoxon's signed-rank statistic `W+` for `n` values under the null
/// hypothesis (each sign positive or negative at even odds, independently).
///
/// ```
/// use rtcompare_judge::stats::SignedRank;
/// let five = SignedRank::new(5);
/// // All five values above the margin: one sign pattern in 32.
/// assert_eq!(five.upper_tail(15), 1.0 / 32.0);
/// assert_eq!(five.critical(0.05), Some(15));
/// assert_eq!(five.critical(0.01), None);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SignedRank {
    /// `P(W+ ≥ w)` for `w = 0 ..= n(n+1)/2`.
    upper: Vec<f64>,
}

impl SignedRank {
    /// The distribution for `n` values (exact; `n` up to a few hundred).
    pub fn new(n: usize) -> SignedRank {
        let most = n * (n + 1) / 2;
        // ways[w]: sign patterns of the ranks so far whose positive ranks sum to w.
        let mut ways = vec![0.0f64; most + 1];
        ways[0] = 1.0;
        for rank in 1..=n {
            for w in (rank..=most).rev() {
                ways[w] += ways[w - rank];
            }
        }
        let patterns = 2f64.powi(n as i32);
        let mut upper = vec![0.0; most + 2];
        for w in (0..=most).rev() {
            upper[w] = upper[w + 1] + ways[w] / patterns;
        }
        upper.truncate(most + 1);
        SignedRank { upper }
    }

    /// The number of values.
    pub fn values(&self) -> usize {
        // most = n(n+1)/2 + 1 entries.
        let most = self.upper.len() - 1;
        ((((8 * most + 1) as f64).sqrt() - 1.0) / 2.0).round() as usize
    }

    /// `P(W+ ≥ w)` under the null hypothesis.
    pub fn upper_tail(&self, w: usize) -> f64 {
        self.upper.get(w).copied().unwrap_or(0.0)
    }

    /// The smallest count `c` with `P(W+ ≥ c) ≤ alpha`: the test at level `alpha` rejects when
    /// `W+ ≥ c`. `None` when no count is that unlikely — `alpha` below `2^−n`, the chance of
    /// every sign being positive.
    pub fn critical(&self, alpha: f64) -> Option<usize> {
        (0..self.upper.len()).find(|&w| self.upper[w] <= alpha)
    }

    /// The exact size of the test at level `alpha`: the chance under the null hypothesis that
    /// the count reaches the critical value, `P(W+ ≥ critical(alpha))`; 0 when no count can
    /// reject. At most `alpha`, and below it wherever the distribution has no count whose tail
    /// is exactly `alpha` — the rate a test that rejects as it should reaches at the edge of its
    /// null hypothesis, and what a critical count one too low would exceed.
    ///
    /// ```
    /// use rtcompare_judge::stats::SignedRank;
    /// let ten = SignedRank::new(10);
    /// // The critical count at 1 % is 50, whose tail is 10 sign patterns of 1,024.
    /// assert_eq!(ten.size(0.01), 10.0 / 1024.0);
    /// assert_eq!(ten.size(0.01), ten.upper_tail(ten.critical(0.01).unwrap()));
    /// // One count lower would reject more often than 1 %.
    /// assert!(ten.upper_tail(49) > 0.01);
    /// assert_eq!(SignedRank::new(5).size(0.01), 0.0, "five values cannot reach 1 %");
    /// ```
    pub fn size(&self, alpha: f64) -> f64 {
        self.critical(alpha).map_or(0.0, |count| self.upper_tail(count))
    }
}

/// The fewest values with which the signed-rank test can reject at level `alpha`: all of them
/// on one side has probability `2^−n`, so `n = ⌈log₂(1/alpha)⌉`.
///
/// ```
/// use rtcompare_judge::stats::fewest_for_level;
/// assert_eq!(fewest_for_level(0.01), 7);
/// assert_eq!(fewest_for_level(1.0 / 64.0), 6);
/// ```
pub fn fewest_for_level(alpha: f64) -> usize {
    let mut n = 1;
    while 0.5f64.powi(n as i32) > alpha && n < 64 {
        n += 1;
    }
    n
}

/// The Walsh averages `(y_i + y_j) / 2` for `i ≤ j`, sorted.
fn walsh_averages(values: &[f64]) -> Vec<f64> {
    let mut averages = Vec::with_capacity(values.len() * (values.len() + 1) / 2);
    for (i, &a) in values.iter().enumerate() {
        for &b in &values[i..] {
            averages.push((a + b) / 2.0);
        }
    }
    sorted_copy(&averages)
}

/// What the signed-rank analysis of some values says: the Hodges–Lehmann estimate and the
/// Walsh averages behind every bound and test.
///
/// ```
/// use rtcompare_judge::stats::SignedRankAnalysis;
/// let values = [0.051, 0.047, 0.055, 0.049, 0.053, 0.050, 0.046, 0.052, 0.054, 0.048];
/// let a = SignedRankAnalysis::of(&values);
/// assert!((a.estimate() - 0.0505).abs() < 0.001);
/// // Ten values all above 4 %: beyond it at 1 % (one pattern in 1,024 would do this by luck).
/// assert!(a.above(0.04, 0.01));
/// assert!(!a.above(0.05, 0.01));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SignedRankAnalysis {
    walsh: Vec<f64>,
    null: SignedRank,
}

impl SignedRankAnalysis {
    /// Analyses `values`, one per process (NaNs are left out).
    pub fn of(values: &[f64]) -> SignedRankAnalysis {
        let kept: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
        SignedRankAnalysis { walsh: walsh_averages(&kept), null: SignedRank::new(kept.len()) }
    }

    /// The number of values analysed.
    pub fn values(&self) -> usize {
        self.null.values()
    }

    /// The Hodges–Lehmann estimate of the centre: the median of the Walsh averages (NaN for no
    /// values).
    pub fn estimate(&self) -> f64 {
        super::quantile_sorted(&self.walsh, 0.5)
    }

    /// How many Walsh averages lie strictly above `margin`: `W+` of the values less `margin`.
    pub fn count_above(&self, margin: f64) -> usize {
        self.walsh.len() - self.walsh.partition_point(|&w| w <= margin)
    }

    /// How many Walsh averages lie strictly below `margin`.
    pub fn count_below(&self, margin: f64) -> usize {
        self.walsh.partition_point(|&w| w < margin)
    }

    /// Whether the test rejects "the centre is at most `margin`" at level `alpha`.
    pub fn above(&self, margin: f64, alpha: f64) -> bool {
        self.null.critical(alpha).is_some_and(|c| self.count_above(margin) >= c)
    }

    /// Whether the test rejects "the centre is at least `margin`" at level `alpha`.
    pub fn below(&self, margin: f64, alpha: f64) -> bool {
        self.null.critical(alpha).is_some_and(|c| self.count_below(margin) >= c)
    }

    /// The one-sided p-value of "the centre is at most `margin`": `P(W+ ≥ observed)`.
    pub fn p_above(&self, margin: f64) -> f64 {
        self.null.upper_tail(self.count_above(margin))
    }

    /// The lower confidence bound at `1 − alpha`: the largest centre the test at `alpha` would
    /// still reject as too low, the `c`-th largest Walsh average. `−∞` when `alpha` is below what
    /// the values can reach.
    pub fn lower_bound(&self, alpha: f64) -> f64 {
        match self.null.critical(alpha) {
            Some(c) if c >= 1 && c <= self.walsh.len() => self.walsh[self.walsh.len() - c],
            _ => f64::NEG_INFINITY,
        }
    }

    /// The upper confidence bound at `1 − alpha`, the mirror of [`Self::lower_bound`]; `+∞` when
    /// `alpha` is below what the values can reach.
    pub fn upper_bound(&self, alpha: f64) -> f64 {
        match self.null.critical(alpha) {
            Some(c) if c >= 1 && c <= self.walsh.len() => self.walsh[c - 1],
            _ => f64::INFINITY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dprng;

    #[test]
    fn the_null_distribution_matches_the_tables() {
        // n = 10: the one-sided critical values of the tables are 47 at 2.5 % (P = 0.0244) and
        // 50 at 1 % (P = 0.0098).
        let ten = SignedRank::new(10);
        assert!((ten.upper_tail(47) - 0.0244).abs() < 5e-5, "{}", ten.upper_tail(47));
        assert!((ten.upper_tail(50) - 0.0098).abs() < 5e-5, "{}", ten.upper_tail(50));
        assert_eq!((ten.critical(0.025), ten.critical(0.01)), (Some(47), Some(50)));
        assert_eq!(ten.upper_tail(0), 1.0);
        assert_eq!(ten.upper_tail(55), 1.0 / 1024.0);
        assert_eq!(ten.values(), 10);
        // The distribution is symmetric about n(n+1)/4.
        for w in 0..=55 {
            let below = 1.0 - ten.upper_tail(w + 1);
            assert!((below - ten.upper_tail(55 - w)).abs() < 1e-12);
        }
    }

    #[test]
    fn the_count_above_a_margin_is_wilcoxons_statistic() {
        let mut rng = Dprng::new(5);
        for _ in 0..200 {
            let values: Vec<f64> = (0..9).map(|_| rng.f64() - 0.4).collect();
            let margin = 0.05;
            let shifted: Vec<f64> = values.iter().map(|v| v - margin).collect();
            let mut order: Vec<usize> = (0..shifted.len()).collect();
            order.sort_by(|&a, &b| shifted[a].abs().total_cmp(&shifted[b].abs()));
            let w_plus: usize = order.iter().enumerate().filter(|&(_, &i)| shifted[i] > 0.0).map(|(r, _)| r + 1).sum();
            assert_eq!(SignedRankAnalysis::of(&values).count_above(margin), w_plus);
        }
    }

    /// The test rejects a true centre at its level, and the bounds cover it at theirs: 20,000
    /// seeded sets of twelve values, symmetric about 0 (normal, and a coin flip between two
    /// exact classes with a little noise), tested at 5 % against the true centre.
    #[test]
    fn the_test_and_the_bounds_hold_their_level_for_symmetric_values() {
        let mut rng = Dprng::new(9);
        let sets = 20_000;
        for shape in ["normal", "coin flip"] {
            let (mut rejected, mut below_lower) = (0, 0);
            for _ in 0..sets {
                let values: Vec<f64> = (0..12)
                    .map(|_| match shape {
                        "normal" => normal(&mut rng),
                        _ => (if rng.f64() < 0.5 { -1.0 } else { 1.0 }) + 0.01 * normal(&mut rng),
                    })
                    .collect();
                let a = SignedRankAnalysis::of(&values);
                rejected += usize::from(a.above(0.0, 0.05));
                below_lower += usize::from(a.lower_bound(0.05) > 0.0);
            }
            let rate = rejected as f64 / sets as f64;
            // Twelve values reach 4.6 % at the critical count for 5 %; three Monte-Carlo errors.
            assert!(rate <= 0.05 + 3.0 * (0.05f64 * 0.95 / sets as f64).sqrt(), "{shape}: {rate}");
            assert!(rate > 0.03, "{shape}: the test is not that cautious: {rate}");
            assert_eq!(rejected, below_lower, "{shape}: the bound and the test agree");
        }
    }

    #[test]
    fn all_values_on_one_side_give_the_smallest_p_value_and_no_fewer_values_can() {
        let values = [0.2, 0.3, 0.25, 0.21, 0.28, 0.3, 0.22];
        let a = SignedRankAnalysis::of(&values);
        assert_eq!(a.p_above(0.0), 0.5f64.powi(7));
        assert!(a.above(0.0, 0.01) && !a.above(0.0, 0.005));
        assert_eq!(fewest_for_level(0.01), 7);
        assert_eq!(a.lower_bound(0.005), f64::NEG_INFINITY);
        assert_eq!(a.upper_bound(0.001), f64::INFINITY);
    }

    #[test]
    fn ties_only_make_the_test_more_cautious() {
        // Six identical values at 1: every Walsh average is 1, none above 1.
        let tied = SignedRankAnalysis::of(&[1.0; 6]);
        assert_eq!(tied.count_above(1.0), 0);
        assert!(!tied.above(1.0, 0.5));
        assert!(tied.above(0.99, 1.0 / 64.0));
        assert_eq!(tied.estimate(), 1.0);
    }

    fn normal(rng: &mut Dprng) -> f64 {
        let u = 1.0 - rng.f64();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * rng.f64()).cos()
    }
}
