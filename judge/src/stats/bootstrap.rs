//! The paired bootstrap of the relative difference between two arms.
//!
//! Interleaved collection gives natural pairs: round *i* holds one candidate and one baseline
//! batch, measured moments apart on the same machine state. Everything here works on the
//! per-round ratios `cᵢ / bᵢ`, so that what both arms of a round share cancels before any
//! statistic is taken.

use super::autocorrelation::lag1_autocorrelation;
use super::block_length::{block_length, block_variance_inflation};
use super::quantile::{median, quantile_sorted, sorted_copy};
use crate::rng::ResampleStream;

/// The number of bootstrap resamples rtcompare draws unless told otherwise.
///
/// The Monte-Carlo error of a bootstrap proportion shrinks like `1/√R`; at 5,000 resamples a
/// confidence near 95 % is known to about ±0.3 percentage points and the interval ends are
/// stable, which the bootstrap literature (Efron & Tibshirani; Davison & Hinkley) recommends for
/// tail quantities.
///
/// ```
/// use rtcompare_judge::stats::DEFAULT_RESAMPLES;
/// assert_eq!(DEFAULT_RESAMPLES, 5_000);
/// ```
pub const DEFAULT_RESAMPLES: usize = 5_000;

/// Replicates an interval end should have beyond it: a percentile end is interpolated between
/// the replicates around it, and with only a handful out there it jumps with the resampling seed.
const REPLICATES_BEYOND_AN_END: f64 = 100.0;

/// The most resamples [`resamples_for_level`] asks for: 100 replicates beyond each end up to a
/// level of `1 − 0.05 / 50` (0.999), 40 at `1 − 0.05 / 125`; about a second for a thousand
/// rounds on one core, paid only by the confirmation rounds of large suites.
///
/// ```
/// use rtcompare_judge::stats::{MAX_RESAMPLES, resamples_for_level};
/// assert_eq!(resamples_for_level(0.999_999), MAX_RESAMPLES);
/// ```
pub const MAX_RESAMPLES: usize = 200_000;

/// Resamples for an interval at `level`: [`DEFAULT_RESAMPLES`], or more when that would leave
/// fewer than 100 replicates beyond each end — at a Bonferroni-adjusted level such as
/// `1 − 0.05 / 125` a fixed 5,000 leaves one, and the end is noise. Capped at [`MAX_RESAMPLES`].
/// The interval ends' stability is measured in `judge/tests/synthetic/statistics.rs`.
///
/// ```
/// use rtcompare_judge::stats::{DEFAULT_RESAMPLES, resamples_for_level};
/// assert_eq!(resamples_for_level(0.95), DEFAULT_RESAMPLES);
/// assert_eq!(resamples_for_level(1.0 - 0.05 / 50.0), 200_000);
/// assert_eq!(resamples_for_level(1.0 - 0.05 / 125.0), 200_000); // capped
/// ```
pub fn resamples_for_level(level: f64) -> usize {
    let tail = ((1.0 - level) / 2.0).max(f64::MIN_POSITIVE);
    let wanted = (REPLICATES_BEYOND_AN_END / tail).round();
    if wanted.is_finite() { (wanted as usize).clamp(DEFAULT_RESAMPLES, MAX_RESAMPLES) } else { MAX_RESAMPLES }
}

/// The lag-1 autocorrelation of the ratio series above which rounds are resampled in blocks.
///
/// Below it, treating rounds as independent barely changes the interval; above it, an
/// independent bootstrap would claim more confidence than the data hold (in AR(1) simulations
/// reported for rtcompare's Go ancestor, false signals on identical inputs rose from the nominal
/// 10 % to 13.5 % at a correlation of 0.2 and to 21.7 % at 0.4).
///
/// ```
/// use rtcompare_judge::stats::BLOCK_THRESHOLD;
/// assert_eq!(BLOCK_THRESHOLD, 0.2);
/// ```
pub const BLOCK_THRESHOLD: f64 = 0.2;

/// The per-round ratios `candidate[i] / baseline[i]`.
///
/// A ratio below 1 means the candidate was faster in that round. Rounds beyond the shorter of
/// the two slices are ignored. A zero baseline value gives an infinite (or NaN) ratio; the median
/// and the bootstrap order such values consistently (`f64::total_cmp`) rather than failing.
///
/// ```
/// use rtcompare::stats::paired_ratios;
/// assert_eq!(paired_ratios(&[90.0, 110.0], &[100.0, 100.0]), vec![0.9, 1.1]);
/// ```
pub fn paired_ratios(candidate: &[f64], baseline: &[f64]) -> Vec<f64> {
    candidate.iter().zip(baseline).map(|(&c, &b)| ratio(c, b)).collect()
}

/// `candidate / baseline`, and exactly 1 when the two are equal: two functions that both
/// allocate nothing (a count metric of 0 against 0) are at parity, not at `0 / 0`.
///
/// ```
/// use rtcompare_judge::stats::ratio;
/// assert_eq!(ratio(0.0, 0.0), 1.0);
/// assert_eq!(ratio(3.0, 2.0), 1.5);
/// assert!(ratio(1.0, 0.0).is_infinite());
/// ```
pub fn ratio(candidate: f64, baseline: f64) -> f64 {
    if candidate == baseline { 1.0 } else { candidate / baseline }
}

/// How rounds are drawn for each bootstrap replicate.
///
/// ```
/// use rtcompare::stats::Resampling;
/// let scheme = Resampling::Blocks { len: 4 };
/// assert_ne!(scheme, Resampling::Iid);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resampling {
    /// Rounds drawn independently with replacement: right when neighbouring rounds are
    /// (nearly) uncorrelated.
    Iid,
    /// Circular block bootstrap: contiguous runs of `len` rounds starting anywhere, wrapping
    /// from the last round to the first, so that dependence between neighbours survives inside
    /// each block and every round is equally likely to be drawn.
    Blocks {
        /// Rounds per block (at least 1; 1 is the same as [`Resampling::Iid`]).
        len: usize,
    },
}

/// Picks the resampling scheme from the dependence the ratio series shows.
///
/// Blocks when the lag-1 autocorrelation of `ratios` exceeds [`BLOCK_THRESHOLD`], with the
/// length from [`block_length`] raised to at least 2 (the high autocorrelation has just ruled
/// out a block of one, which would be the independent bootstrap); independent rounds otherwise.
/// The ratio series is the one the bootstrap resamples, so its dependence is the one that
/// matters: what both arms of a round share has already cancelled in it.
///
/// ```
/// use rtcompare::stats::{Resampling, choose_resampling};
/// let alternating = [0.9, 1.1, 0.9, 1.1, 0.9, 1.1, 0.9, 1.1];
/// assert_eq!(choose_resampling(&alternating), Resampling::Iid);
/// let wave: Vec<f64> = (0..200).map(|i| 1.0 + 0.1 * (i as f64 / 10.0).sin()).collect();
/// assert!(matches!(choose_resampling(&wave), Resampling::Blocks { len } if len >= 2));
/// ```
pub fn choose_resampling(ratios: &[f64]) -> Resampling {
    if lag1_autocorrelation(ratios) > BLOCK_THRESHOLD {
        Resampling::Blocks { len: block_length(ratios).max(2) }
    } else {
        Resampling::Iid
    }
}

/// The estimated relative difference and its bootstrap interval.
///
/// ```
/// use rtcompare_judge::stats::Estimate;
/// let e = Estimate::new(0.08, 0.05, 0.11, 0.95);
/// assert!(e.excludes(0.0)); // the candidate is faster: no difference is ruled out
/// assert!(!e.excludes(0.1));
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    /// `d = 1 − median(cᵢ / bᵢ)`: positive when the candidate is faster (+0.08 = the candidate
    /// takes 8 % less time than the baseline in the typical round).
    pub difference: f64,
    /// Lower end of the percentile bootstrap interval for `difference`.
    pub low: f64,
    /// Upper end of the percentile bootstrap interval for `difference`.
    pub high: f64,
    /// Nominal coverage of the interval (0.95 = 95 %).
    pub level: f64,
}

impl Estimate {
    /// The estimate `difference` with the interval `[low, high]` at `level`.
    ///
    /// ```
    /// use rtcompare_judge::stats::Estimate;
    /// let e = Estimate::new(0.08, 0.05, 0.11, 0.95);
    /// assert_eq!((e.difference, e.low, e.high, e.level), (0.08, 0.05, 0.11, 0.95));
    /// ```
    pub fn new(difference: f64, low: f64, high: f64, level: f64) -> Estimate {
        Estimate { difference, low, high, level }
    }

    /// The standard error the interval implies, read as a normal interval: its width over
    /// `2 z`, with `z` the normal quantile of its level. NaN for an unknown interval.
    ///
    /// ```
    /// use rtcompare_judge::stats::Estimate;
    /// let e = Estimate::new(0.0, -0.0196, 0.0196, 0.95);
    /// assert!((e.standard_error() - 0.01).abs() < 1e-6);
    /// ```
    pub fn standard_error(&self) -> f64 {
        (self.high - self.low) / (2.0 * super::normal_quantile(0.5 + self.level / 2.0))
    }

    /// Whether `value` lies outside the interval `[low, high]`. `excludes(0.0)` asks whether a
    /// difference has been established at all. False when the interval is unknown (NaN).
    ///
    /// ```
    /// use rtcompare_judge::stats::Estimate;
    /// let e = Estimate::new(-0.02, -0.03, -0.01, 0.95);
    /// assert!(e.excludes(0.0) && e.excludes(-0.05) && !e.excludes(-0.02));
    /// ```
    pub fn excludes(&self, value: f64) -> bool {
        value < self.low || value > self.high
    }
}

/// The outcome of [`bootstrap_difference`]: the estimate and the evidence behind it.
///
/// ```
/// use rtcompare::stats::{Resampling, bootstrap_difference};
/// let ratios = [0.90, 0.92, 0.95, 0.91, 0.93, 0.94, 0.89, 0.92, 0.90, 0.93];
/// let boot = bootstrap_difference(&ratios, Resampling::Iid, 0.95, 1_000, 7);
/// assert_eq!(boot.replicates().len(), 1_000);
/// assert!(boot.estimate.excludes(0.0));
/// assert_eq!(boot.confidence(0.0), 1.0); // every replicate has the candidate faster
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub struct Bootstrap {
    /// The point estimate and its percentile interval.
    pub estimate: Estimate,
    /// How the rounds were resampled.
    pub scheme: Resampling,
    /// How many replicates were drawn.
    pub resamples: usize,
    /// The seed of the [`Dprng`](crate::Dprng) that drew them.
    pub seed: u64,
    /// The replicate differences `d* = 1 − median*`, smoothed, widened and sorted ascending.
    replicates: Vec<f64>,
    /// The standard deviation of the smoothing noise added to each replicate.
    smoothing: f64,
    /// The factor by which block replicates were widened around their median (1 for iid).
    widening: f64,
}

impl Bootstrap {
    /// The replicate differences `d*`, sorted ascending (empty when there were no rounds or no
    /// resamples). They already include the smoothing ([`Bootstrap::smoothing`]) and, for block
    /// resampling, the widening ([`Bootstrap::widening`]).
    ///
    /// ```
    /// use rtcompare::stats::{Resampling, bootstrap_difference};
    /// let boot = bootstrap_difference(&[1.0, 1.1, 0.9, 1.05], Resampling::Iid, 0.95, 200, 1);
    /// assert!(boot.replicates().windows(2).all(|w| w[0] <= w[1]));
    /// ```
    pub fn replicates(&self) -> &[f64] {
        &self.replicates
    }

    /// The standard deviation of the noise added to each replicate to smooth the lattice of
    /// replicate medians: `0.2 · IQR(ratios) / √n` (see [`bootstrap_difference`]). Zero when
    /// at least half of the rounds share one ratio (the IQR is then zero).
    ///
    /// ```
    /// use rtcompare::stats::{Resampling, bootstrap_difference};
    /// let ties = bootstrap_difference(&[1.0, 1.0, 1.0, 0.9, 1.1], Resampling::Iid, 0.95, 200, 1);
    /// assert_eq!(ties.smoothing(), 0.0);
    /// let spread = bootstrap_difference(&[0.9, 1.0, 1.1, 1.2], Resampling::Iid, 0.95, 200, 1);
    /// assert!(spread.smoothing() > 0.0);
    /// ```
    pub fn smoothing(&self) -> f64 {
        self.smoothing
    }

    /// The factor by which the spread of block-bootstrap replicates was widened to undo the
    /// block bootstrap's known underestimate of the variance (see [`bootstrap_difference`]);
    /// at least 1, exactly 1 for independent resampling, and at most about 3.55: `√ψ ≤ 2`
    /// times a fixed-b factor of at most 1.78 (blocks of up to half the rounds).
    ///
    /// ```
    /// use rtcompare::stats::{Resampling, bootstrap_difference};
    /// let boot = bootstrap_difference(&[1.0, 1.1, 0.9, 1.05], Resampling::Iid, 0.95, 200, 1);
    /// assert_eq!(boot.widening(), 1.0);
    /// ```
    pub fn widening(&self) -> f64 {
        self.widening
    }

    /// The confidence that the candidate beats the baseline by at least `threshold`: the share
    /// of replicates with `d* ≥ threshold`.
    ///
    /// The comparison is `≥` on purpose, so at `threshold = 0` the question is "at least as
    /// fast", not "faster": quantized timings tie often, and a replicate whose median ratio is
    /// exactly 1 counts towards it (replicates sit exactly on such values when at least half of
    /// the rounds tie, which also switches the smoothing off). Ask for a small positive threshold
    /// to mean strictly faster.
    /// A negative threshold is a tolerated slowdown: `-0.05` asks for the confidence that the
    /// candidate is at most 5 % slower. NaN when there are no replicates.
    ///
    /// ```
    /// use rtcompare::stats::{Resampling, bootstrap_difference};
    /// // Every round ties exactly: "at least as fast" is certain, "faster" is not.
    /// let boot = bootstrap_difference(&[1.0; 20], Resampling::Iid, 0.95, 500, 3);
    /// assert_eq!(boot.confidence(0.0), 1.0);
    /// assert_eq!(boot.confidence(0.001), 0.0);
    /// assert_eq!(boot.confidence(-0.05), 1.0);
    /// ```
    pub fn confidence(&self, threshold: f64) -> f64 {
        share_at_least(&self.replicates, threshold)
    }
}

/// Share of sorted `replicates` with `d* ≥ threshold`; NaN when there are none. Shared by every
/// resampling scheme so the threshold rule (ties count at 0) is written once.
pub(super) fn share_at_least(replicates: &[f64], threshold: f64) -> f64 {
    if replicates.is_empty() {
        return f64::NAN;
    }
    let below = replicates.partition_point(|&d| d < threshold);
    (replicates.len() - below) as f64 / replicates.len() as f64
}

/// The paired bootstrap of `d = 1 − median(ratios)` with a percentile interval at `level`.
///
/// Each of `resamples` replicates draws `ratios.len()` rounds as `scheme` says (independently,
/// or as circular blocks), takes their median and records `d* = 1 − median*`; the interval is
/// the `(1 − level)/2` and `(1 + level)/2` quantiles of the sorted `d*`. Each replicate carries
/// a little smoothing noise ([`Bootstrap::smoothing`]), block replicates are widened around their
/// median ([`Bootstrap::widening`]), and the same inputs, scheme and seed give the same bits on
/// every platform. Why each step, what it does to ties, and the coverage it was measured to
/// give: `docs/statistics.md`, "The interval", "Independent rounds or circular blocks" and
/// "Determinism and speed".
///
/// With no rounds, or no resamples, the replicates are empty and the interval ends are NaN.
///
/// ```
/// use rtcompare::stats::{Resampling, bootstrap_difference, paired_ratios};
/// let candidate = [95.0, 96.0, 94.0, 97.0, 95.5, 94.5, 96.5, 95.0];
/// let baseline = [100.0, 101.0, 99.0, 100.5, 100.0, 99.5, 101.5, 100.0];
/// let ratios = paired_ratios(&candidate, &baseline);
/// let boot = bootstrap_difference(&ratios, Resampling::Blocks { len: 2 }, 0.95, 2_000, 42);
/// let e = boot.estimate;
/// assert!(e.low <= e.difference && e.difference <= e.high);
/// assert!(e.difference > 0.04 && e.difference < 0.06);
/// ```
pub fn bootstrap_difference(ratios: &[f64], scheme: Resampling, level: f64, resamples: usize, seed: u64) -> Bootstrap {
    let smoothing = smoothing_width(ratios);
    let mut replicates = replicate_differences(ratios, scheme, resamples, seed, smoothing);
    let widening = match scheme {
        Resampling::Blocks { len } if len > 1 && !replicates.is_empty() => {
            let factor = block_variance_inflation(ratios, len).sqrt() * fixed_b_factor(len, ratios.len());
            widen(&mut replicates, factor);
            factor
        }
        _ => 1.0,
    };
    let estimate = Estimate {
        difference: 1.0 - median(ratios),
        low: quantile_sorted(&replicates, (1.0 - level) / 2.0),
        high: quantile_sorted(&replicates, (1.0 + level) / 2.0),
        level,
    };
    Bootstrap { estimate, scheme, resamples, seed, replicates, smoothing, widening }
}

/// The standard deviation `h = 0.2 · IQR / √n` of the smoothing noise (see
/// [`bootstrap_difference`]); zero for fewer than two ratios or a zero (or non-finite) IQR.
///
/// Why 0.2: adjacent replicate medians lie about `1.85·IQR/n` apart (the spacing of order
/// statistics at the middle of a normal sample, `√(2π)·σ/n` with `σ = IQR/1.349`), and noise
/// must span about one such step to smooth the lattice; `0.2·IQR/√n ≥ 1.85·IQR/n` from
/// n ≈ 86 on. Larger noise would only widen the interval.
fn smoothing_width(ratios: &[f64]) -> f64 {
    let sorted = sorted_copy(ratios);
    let iqr = quantile_sorted(&sorted, 0.75) - quantile_sorted(&sorted, 0.25);
    let width = 0.2 * iqr / (ratios.len() as f64).sqrt();
    if width.is_finite() && width > 0.0 { width } else { 0.0 }
}

/// How much wider than the normal approximation says an interval built from a block bootstrap
/// with blocks of `len` out of `n` rounds must be, from fixed-b asymptotics.
///
/// A block bootstrap estimates the variance from about `n / len` blocks, like a Bartlett-kernel
/// long-run variance estimate with bandwidth `len`; that estimate is itself noisy and centred
/// on the sample, so intervals built from it as if it were exact are too short. Kiefer &
/// Vogelsang (2005) derived the distribution of the resulting statistic with the bandwidth a
/// fixed share `β = len / n` of the sample, and fitted its 97.5 % quantile for the Bartlett
/// kernel as `1.96 + 2.9694β + 0.4160β² − 0.5324β³` (a Monte-Carlo check at n = 1000, done
/// while writing this, agreed within 0.03 for β up to 0.2). The factor is that quantile over
/// 1.96; it is calibrated for 95 % intervals and used at every level (about 1.05 for 7 blocks
/// in 200 rounds).
fn fixed_b_factor(len: usize, n: usize) -> f64 {
    let beta = (len as f64 / n as f64).min(1.0);
    let quantile = 1.96 + beta * (2.9694 + beta * (0.4160 - 0.5324 * beta));
    quantile / 1.96
}

/// Stretches sorted `replicates` around their median by `factor` (order is preserved).
fn widen(replicates: &mut [f64], factor: f64) {
    let centre = quantile_sorted(replicates, 0.5);
    for d in replicates {
        *d = centre + factor * (*d - centre);
    }
}

/// The sorted replicate differences `d*`, each with smoothing noise of standard deviation
/// `smoothing`.
fn replicate_differences(ratios: &[f64], scheme: Resampling, resamples: usize, seed: u64, smoothing: f64) -> Vec<f64> {
    if ratios.is_empty() {
        return Vec::new();
    }
    // Selection on integer keys is cheaper than on floats compared with `total_cmp`.
    let keys: Vec<i64> = ratios.iter().map(|&r| order_key(r)).collect();
    let mut rng = ResampleStream::new(seed);
    // One buffer for all replicates: this loop runs thousands of times per comparison.
    let mut buffer = Vec::with_capacity(keys.len());
    let mut replicates: Vec<f64> = (0..resamples)
        .map(|_| {
            buffer.clear();
            match scheme {
                Resampling::Iid | Resampling::Blocks { len: 0 | 1 } => draw_rounds(&keys, &mut rng, &mut buffer),
                Resampling::Blocks { len } => draw_blocks(&keys, len, &mut rng, &mut buffer),
            }
            let d = 1.0 - median_of_keys(&mut buffer);
            // Without smoothing no noise is drawn, so lattice values (and ties at 0) stay exact.
            if smoothing > 0.0 { d + smoothing * rng.triangular() } else { d }
        })
        .collect();
    replicates.sort_by(f64::total_cmp);
    replicates
}

/// An integer whose order is the IEEE total order of `x` (the order of [`f64::total_cmp`]):
/// negative floats have their magnitude bits flipped so that they count down. The map is its
/// own inverse, so [`from_order_key`] applies it again.
fn order_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

/// The float whose [`order_key`] is `key`.
fn from_order_key(key: i64) -> f64 {
    f64::from_bits((key ^ ((((key >> 63) as u64) >> 1) as i64)) as u64)
}

/// Appends `items.len()` items drawn independently with replacement.
fn draw_rounds(items: &[i64], rng: &mut ResampleStream, out: &mut Vec<i64>) {
    let n = items.len();
    out.extend((0..n).map(|_| items[rng.below(n)]));
}

/// Appends `items.len()` items as circular blocks of `len` consecutive items.
fn draw_blocks(items: &[i64], len: usize, rng: &mut ResampleStream, out: &mut Vec<i64>) {
    let n = items.len();
    while out.len() < n {
        let start = rng.below(n);
        let take = len.min(n - out.len());
        // The block wraps from the last item to the first: at most two contiguous pieces.
        let head = take.min(n - start);
        out.extend_from_slice(&items[start..start + head]);
        out.extend_from_slice(&items[..take - head]);
    }
}

/// The median (type 7, like [`median`]) of the values behind `keys`, reordering them; `keys` is
/// not empty.
///
/// A selection in O(n) instead of a sort: the upper middle key is selected, and for an even
/// count the lower middle is the largest key of the part below it.
fn median_of_keys(keys: &mut [i64]) -> f64 {
    let odd = keys.len() % 2 == 1;
    let (below, upper, _) = keys.select_nth_unstable(keys.len() / 2);
    let upper = from_order_key(*upper);
    if odd {
        return upper;
    }
    let lower = below.iter().copied().max().map_or(upper, from_order_key);
    lower + (upper - lower) * 0.5
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dprng;

    #[test]
    fn median_of_keys_agrees_with_median() {
        let mut rng = Dprng::new(5);
        for n in 1..40 {
            let values: Vec<f64> = (0..n).map(|_| (rng.below(7) as f64 - 3.0) * 0.5 + rng.f64()).collect();
            let mut keys: Vec<i64> = values.iter().map(|&v| order_key(v)).collect();
            assert_eq!(median_of_keys(&mut keys), median(&values), "n = {n}");
        }
    }

    #[test]
    fn order_keys_follow_the_total_order_and_invert() {
        let values = [f64::NEG_INFINITY, -2.5, -0.0, 0.0, 1e-300, 1.0, 3.5, f64::INFINITY];
        let keys: Vec<i64> = values.iter().map(|&v| order_key(v)).collect();
        assert!(keys.windows(2).all(|pair| pair[0] < pair[1]), "{keys:?}");
        for (&value, &key) in values.iter().zip(&keys) {
            assert_eq!(from_order_key(key).to_bits(), value.to_bits());
        }
    }

    #[test]
    fn blocks_are_contiguous_and_wrap() {
        let ratios: Vec<i64> = (0..10).collect();
        let mut rng = ResampleStream::new(1);
        let mut out = Vec::new();
        draw_blocks(&ratios, 4, &mut rng, &mut out);
        assert_eq!(out.len(), 10);
        for block in out.chunks(4) {
            for pair in block.windows(2) {
                assert_eq!(pair[1], (pair[0] + 1) % 10, "{out:?}");
            }
        }
    }

    #[test]
    fn iid_draws_stay_in_range_and_cover_it() {
        let mut rng = ResampleStream::new(2);
        let items: Vec<i64> = (0..7).collect();
        let mut seen = [0usize; 7];
        let mut out = Vec::new();
        for _ in 0..1_000 {
            out.clear();
            draw_rounds(&items, &mut rng, &mut out);
            assert_eq!(out.len(), 7);
            for &item in &out {
                seen[item as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&count| (850..1150).contains(&count)), "{seen:?}");
    }

    #[test]
    fn smoothing_width_follows_the_iqr() {
        assert_eq!(smoothing_width(&[]), 0.0);
        assert_eq!(smoothing_width(&[1.0; 9]), 0.0);
        let spread: Vec<f64> = (0..100).map(|i| 1.0 + f64::from(i) / 100.0).collect();
        let expected = 0.2 * 0.495 / 10.0;
        assert!((smoothing_width(&spread) - expected).abs() < 1e-12, "{}", smoothing_width(&spread));
    }

    #[test]
    fn triangular_noise_has_unit_variance() {
        let mut rng = ResampleStream::new(8);
        let draws: Vec<f64> = (0..100_000).map(|_| rng.triangular()).collect();
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        let variance = draws.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / draws.len() as f64;
        assert!(mean.abs() < 0.01 && (variance - 1.0).abs() < 0.02, "{mean} {variance}");
        assert!(draws.iter().all(|d| d.abs() <= 6f64.sqrt()));
    }

    #[test]
    fn fixed_b_factor_grows_with_the_share_of_a_block() {
        assert!((fixed_b_factor(1, 1_000_000) - 1.0).abs() < 1e-5);
        let typical = fixed_b_factor(7, 200);
        assert!((1.04..1.07).contains(&typical), "{typical}");
        assert!(fixed_b_factor(20, 100) > fixed_b_factor(10, 100));
    }

    #[test]
    fn empty_input_gives_nan_not_a_panic() {
        let boot = bootstrap_difference(&[], Resampling::Iid, 0.95, 100, 0);
        assert!(boot.replicates().is_empty());
        assert!(boot.estimate.difference.is_nan() && boot.estimate.low.is_nan());
        assert!(boot.confidence(0.0).is_nan());
        assert!(!boot.estimate.excludes(0.0));
        let none = bootstrap_difference(&[1.0, 2.0], Resampling::Iid, 0.95, 0, 0);
        assert!(none.replicates().is_empty() && none.estimate.high.is_nan());
    }

    #[test]
    fn one_round_and_short_blocks_work() {
        let boot = bootstrap_difference(&[0.8], Resampling::Blocks { len: 5 }, 0.95, 50, 0);
        assert!((boot.estimate.low - 0.2).abs() < 1e-12 && (boot.estimate.high - 0.2).abs() < 1e-12);
        let boot = bootstrap_difference(&[0.8, 1.2], Resampling::Blocks { len: 1 }, 0.9, 50, 0);
        assert_eq!(boot.replicates().len(), 50);
    }

    #[test]
    fn choose_resampling_follows_the_threshold() {
        let mut rng = Dprng::new(77);
        let independent: Vec<f64> = (0..300).map(|_| 1.0 + 0.01 * rng.f64()).collect();
        assert_eq!(choose_resampling(&independent), Resampling::Iid);
        let mut x = 0.0;
        let dependent: Vec<f64> = (0..300)
            .map(|_| {
                x = 0.7 * x + (rng.f64() - 0.5);
                1.0 + 0.01 * x
            })
            .collect();
        assert!(matches!(choose_resampling(&dependent), Resampling::Blocks { len } if len >= 2));
        assert_eq!(choose_resampling(&[1.0, 1.0, 1.0]), Resampling::Iid);
    }

    #[test]
    fn confidence_counts_ties_at_the_threshold() {
        // Half of the rounds tie at 1: the IQR is 0, no smoothing, replicates on the lattice.
        let ratios = [0.9, 1.0, 1.0, 1.0, 1.0, 1.1];
        let boot = bootstrap_difference(&ratios, Resampling::Iid, 0.95, 1_000, 8);
        // d* takes the values −0.1, 0 and 0.1 only; confidence must be monotone in the threshold.
        let at_zero = boot.confidence(0.0);
        let above_zero = boot.confidence(1e-9);
        assert!(at_zero > above_zero, "{at_zero} vs {above_zero}");
        assert_eq!(boot.confidence(-0.2), 1.0);
        assert_eq!(boot.confidence(0.2), 0.0);
    }
}
