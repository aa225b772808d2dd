//! A/A validation: how much the harness invents on identical code.
//!
//! One arm is measured as two copies (the second a distinct copy of its batch loop at another
//! address) in the same interleaved rounds as the real comparison. Any difference between the
//! copies is made by the machine and the harness, not by the code: code placement, the order
//! within a round, sampling noise at this sample size. The figures here say how large such an
//! invented difference gets, so that a real comparison can be read against it.

use crate::stats::{
    DRIFT_ALPHA, Resampling, bootstrap_difference, choose_resampling, detect_drift, lag1_autocorrelation, median,
    paired_ratios, quantile_sorted,
};

/// Settings of [`validate_harness`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValidationOptions {
    /// Nominal coverage of the bootstrap interval (only used for the interval the bootstrap
    /// computes along the way; the floor is always the 90th percentile).
    pub level: f64,
    /// Bootstrap resamples of the A/A difference.
    pub resamples: usize,
    /// Seed of the bootstrap's generator.
    pub seed: u64,
    /// The relative difference that would count as a signal in a real comparison (the parity
    /// threshold); [`Validation::false_signal_rate`] is measured against it.
    pub tolerance: f64,
}

/// What the harness invents on identical code, measured on one arm against its twin: each
/// report has one per arm ([`Validations`](crate::verdict::Validations)).
///
/// ```
/// use rtcompare::{Arm, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let candidate = &report.validation.candidate;
/// assert!(candidate.noise_floor >= 0.0);
/// assert!((0.0..=1.0).contains(&candidate.tie_rate));
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Validation {
    /// `1 − median(primaryᵢ / twinᵢ)`: the difference the A/A comparison itself reports.
    pub apparent_difference: f64,
    /// The 90th percentile of `|d*|` over the bootstrap replicates of the A/A difference. It
    /// holds both the systematic bias between the two copies (placement) and the sampling noise
    /// at this sample size; roughly one A/A comparison in ten reports more than it. Reported as
    /// how large an A/A difference gets in a run this long; the verdict's floor is the twins'
    /// difference itself (`apparent_difference`), because the verdict's interval already carries
    /// the sampling error.
    pub noise_floor: f64,
    /// The share of rounds in which both copies measured exactly the same value: high when the
    /// clock is coarse relative to a batch, which makes medians jump in quanta.
    pub tie_rate: f64,
    /// The share of the three series — primary, twin and their per-round ratio — in which
    /// [`detect_drift`] finds a trend at [`DRIFT_ALPHA`] (0, ⅓, ⅔ or 1).
    pub drift_rate: f64,
    /// The lag-1 autocorrelation of the primary copy's per-op values.
    pub autocorrelation: f64,
    /// The share of A/A bootstrap replicates with `|d*| > tolerance`: how often identical code
    /// would look like a win or loss at the parity threshold.
    pub false_signal_rate: f64,
    /// The resampling scheme chosen for the A/A ratios, by the same rule as the real comparison.
    pub scheme: Resampling,
}

impl Validation {
    /// Whether a measured `difference` clears the noise floor: `|difference| > noise_floor`.
    /// False when the floor is unknown (NaN).
    ///
    /// ```
    /// use rtcompare::{Arm, Options, compare};
    /// use std::time::Duration;
    /// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
    /// let report = compare(Arm::from_fn("add", || 1 + 1), Arm::from_fn("mul", || 2 * 1), &options);
    /// let v = &report.validation.candidate;
    /// assert_eq!(v.resolves(2.0 * v.noise_floor), v.noise_floor.is_finite());
    /// assert!(!v.resolves(v.noise_floor / 2.0));
    /// ```
    pub fn resolves(&self, difference: f64) -> bool {
        difference.abs() > self.noise_floor
    }
}

/// Validates the harness on one arm measured twice per round: `primary[i]` and `twin[i]` are the
/// per-op values of the two copies in round `i` (rounds beyond the shorter slice are ignored).
///
/// The A/A ratios `primaryᵢ / twinᵢ` go through exactly the analysis a real comparison gets —
/// the same resampling rule ([`choose_resampling`]), the same paired bootstrap of
/// `1 − median` — and the figures of [`Validation`] are read off the result. The seed fixes the
/// result: the same samples and options give the same validation.
pub fn validate_harness(primary: &[f64], twin: &[f64], options: &ValidationOptions) -> Validation {
    let rounds = primary.len().min(twin.len());
    let (primary, twin) = (&primary[..rounds], &twin[..rounds]);
    let ratios = paired_ratios(primary, twin);
    let scheme = choose_resampling(&ratios);
    let boot = bootstrap_difference(&ratios, scheme, options.level, options.resamples, options.seed);
    // Sorted, because the floor is a quantile of them.
    let mut magnitudes: Vec<f64> = boot.replicates().iter().map(|d| d.abs()).collect();
    magnitudes.sort_by(f64::total_cmp);
    Validation {
        apparent_difference: boot.estimate.difference,
        noise_floor: quantile_sorted(&magnitudes, 0.9),
        tie_rate: share(primary.iter().zip(twin), rounds, |(p, t)| p == t),
        drift_rate: drift_rate(&[primary, twin, &ratios]),
        autocorrelation: lag1_autocorrelation(primary),
        false_signal_rate: share(magnitudes.iter(), magnitudes.len(), |&&m| m > options.tolerance),
        scheme,
    }
}

/// How far one copy of identical code ran from its twin: `1 − median(primaryᵢ / twinᵢ)` over
/// the rounds both have, the A/A difference itself (NaN without rounds). The verdict's A/A floor
/// is built from it (`judge`); [`Validation::noise_floor`] adds the sampling error on top.
pub fn twin_difference(primary: &[f64], twin: &[f64]) -> f64 {
    let rounds = primary.len().min(twin.len());
    1.0 - median(&paired_ratios(&primary[..rounds], &twin[..rounds]))
}

/// How far apart one arm's placement copies ran: the same code at each of the code offsets the
/// linker could give it. Only the arms `#[compare]` registers have several copies; an arm built
/// by hand has one, and its report none of these.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlacementSpread {
    /// Each copy's median per-op value, its primary and twin rounds pooled, in offset order.
    pub medians: Vec<f64>,
    /// `max / min − 1` of the medians: how much placement alone moves this code.
    pub spread: f64,
    /// The largest copy's sampling error of its median, relative to it (its IQR × √(π/2) / √n):
    /// a spread within a few of these is noise, not placement.
    pub noise: f64,
}

impl PlacementSpread {
    /// Whether placement moved the code by more than `tolerance`, and by clearly more than the
    /// copies' own sampling noise (four standard errors: the range of four noisy medians rarely
    /// reaches that by chance).
    pub fn exceeds(&self, tolerance: f64) -> bool {
        self.spread > tolerance && self.spread > 4.0 * self.noise
    }
}

/// Compares an arm's placement copies: `primary[k]` and `twin[k]` are copy `k`'s per-op values
/// (in the rounds that ran it) in the primary and twin routines. `None` for fewer than two
/// copies, or when a copy has fewer than three values (a batch too small to visit them all in
/// few rounds).
pub fn placement_spread(primary: &[Vec<f64>], twin: &[Vec<f64>]) -> Option<PlacementSpread> {
    let copies = primary.len().min(twin.len());
    if copies < 2 {
        return None;
    }
    let mut medians = Vec::with_capacity(copies);
    let mut noise: f64 = 0.0;
    for k in 0..copies {
        let values: Vec<f64> = primary[k].iter().chain(&twin[k]).copied().collect();
        if values.len() < 3 {
            return None;
        }
        let summary = crate::stats::Summary::of(&values);
        let error = summary.relative_iqr() * (std::f64::consts::PI / 2.0).sqrt() / (values.len() as f64).sqrt();
        noise = noise.max(error);
        medians.push(summary.median);
    }
    let low = medians.iter().copied().fold(f64::INFINITY, f64::min);
    let high = medians.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let spread = if low > 0.0 { high / low - 1.0 } else { 0.0 };
    Some(PlacementSpread { medians, spread, noise })
}

/// The share of `items` (of which there are `count`) that satisfy `test`; NaN when there are none.
fn share<T>(items: impl Iterator<Item = T>, count: usize, test: impl Fn(&T) -> bool) -> f64 {
    if count == 0 {
        return f64::NAN;
    }
    items.filter(|item| test(item)).count() as f64 / count as f64
}

/// The share of `series` in which a trend is detected at [`DRIFT_ALPHA`].
fn drift_rate(series: &[&[f64]]) -> f64 {
    share(series.iter(), series.len(), |s| detect_drift(s, DRIFT_ALPHA).drifted)
}

#[cfg(test)]
mod tests {
    // Built by hand here: the types are `#[non_exhaustive]` for users, whose reports carry them.
    #[test]
    fn a_difference_resolves_beyond_the_noise_floor_either_way() {
        let v = Validation {
            apparent_difference: 0.004,
            noise_floor: 0.01,
            tie_rate: 0.0,
            drift_rate: 0.0,
            autocorrelation: 0.1,
            false_signal_rate: 0.0,
            scheme: Resampling::Iid,
        };
        assert!(v.resolves(0.05) && v.resolves(-0.05) && !v.resolves(0.005));
    }

    #[test]
    fn placement_exceeds_a_tolerance_only_beyond_the_copies_noise() {
        let p = PlacementSpread { medians: vec![100.0, 100.0, 108.0, 100.0], spread: 0.08, noise: 0.005 };
        assert!(p.exceeds(0.04) && !p.exceeds(0.1));
        // 5 % apart, but within four of the copies' standard errors: noise, not placement.
        let noisy = PlacementSpread { medians: vec![100.0, 105.0], spread: 0.05, noise: 0.02 };
        assert!(!noisy.exceeds(0.04));
    }

    use super::*;
    use crate::rng::Dprng;

    fn noisy(n: usize, rng: &mut Dprng, scale: f64) -> Vec<f64> {
        (0..n).map(|_| 100.0 * (1.0 + scale * (rng.f64() - 0.5))).collect()
    }

    #[test]
    fn placement_bias_raises_the_floor() {
        let mut rng = Dprng::new(3);
        let primary = noisy(300, &mut rng, 0.02);
        let twin_same = noisy(300, &mut rng, 0.02);
        // The twin sits at an unlucky address: 3 % slower on identical code.
        let twin_slow: Vec<f64> = twin_same.iter().map(|t| t * 1.03).collect();
        let options = ValidationOptions::default();
        let fair = validate_harness(&primary, &twin_same, &options);
        let biased = validate_harness(&primary, &twin_slow, &options);
        println!("floor fair {:.4}, biased {:.4}", fair.noise_floor, biased.noise_floor);
        assert!(fair.noise_floor < 0.005, "{fair:?}");
        assert!(biased.noise_floor > 0.025 && biased.apparent_difference > 0.025, "{biased:?}");
        assert!(!biased.resolves(0.02) && biased.resolves(0.06));
    }

    #[test]
    fn ties_drift_and_false_signals_are_counted() {
        // A quantized clock: values land on a few ticks and tie between the copies.
        let mut rng = Dprng::new(4);
        let primary: Vec<f64> = (0..200).map(|_| (100 + rng.below(2)) as f64).collect();
        let twin: Vec<f64> = (0..200).map(|_| (100 + rng.below(2)) as f64).collect();
        let v = validate_harness(&primary, &twin, &ValidationOptions::default());
        assert!((0.4..0.6).contains(&v.tie_rate), "{v:?}");
        assert_eq!(v.false_signal_rate, 0.0);
        // Both copies slow down during the run: primary and twin drift, their ratio does not.
        let drifting: Vec<f64> = primary.iter().enumerate().map(|(i, p)| p + i as f64).collect();
        let twin_drifting: Vec<f64> = twin.iter().enumerate().map(|(i, t)| t + i as f64).collect();
        let v = validate_harness(&drifting, &twin_drifting, &ValidationOptions::default());
        assert!((v.drift_rate - 2.0 / 3.0).abs() < 1e-12, "{v:?}");
        assert!(v.autocorrelation > 0.9);
        // A tolerance below the noise: most replicates are false signals.
        let options = ValidationOptions { tolerance: 0.0, ..ValidationOptions::default() };
        let noisy_v = validate_harness(&noisy(200, &mut rng, 0.2), &noisy(200, &mut rng, 0.2), &options);
        assert!(noisy_v.false_signal_rate > 0.9, "{noisy_v:?}");
    }

    #[test]
    fn placement_spread_tells_a_slow_offset_from_noise() {
        let mut rng = Dprng::new(5);
        let copies = |rng: &mut Dprng, slow: f64| -> Vec<Vec<f64>> {
            (0..4).map(|k| noisy(100, rng, 0.04).iter().map(|v| if k == 2 { v * slow } else { *v }).collect()).collect()
        };
        // Identical copies with ±2 % round noise: the medians differ by sampling error only.
        let (primary, twin) = (copies(&mut rng, 1.0), copies(&mut rng, 1.0));
        let even = placement_spread(&primary, &twin).unwrap();
        assert!(even.spread < 0.01 && !even.exceeds(0.01), "{even:?}");
        // One offset 10 % slower: well beyond the noise and the tolerance.
        let (primary, twin) = (copies(&mut rng, 1.1), copies(&mut rng, 1.1));
        let uneven = placement_spread(&primary, &twin).unwrap();
        assert!((uneven.spread - 0.1).abs() < 0.01 && uneven.exceeds(0.04), "{uneven:?}");
        assert!(!uneven.exceeds(0.15), "a 10 % spread does not exceed a 15 % tolerance");
    }

    #[test]
    fn placement_spread_needs_a_few_values_per_copy() {
        // One value per copy in each routine: two in all, too few for a median worth comparing.
        let few = vec![vec![1.0], vec![1.0]];
        assert!(placement_spread(&few, &few).is_none());
    }

    #[test]
    fn empty_input_gives_unknowns_not_a_panic() {
        let v = validate_harness(&[], &[1.0], &ValidationOptions::default());
        assert!(v.noise_floor.is_nan() && v.tie_rate.is_nan() && v.false_signal_rate.is_nan());
        assert!(!v.resolves(1.0));
    }

    #[test]
    fn validation_options_default_to_the_parity_and_level() {
        let options = ValidationOptions { seed: 9, ..ValidationOptions::default() };
        assert_eq!((options.level, options.tolerance), (0.95, 0.04));
    }

    #[test]
    fn a_quiet_twin_gives_a_low_floor_and_no_false_signals() {
        let mut rng = Dprng::new(1);
        let primary: Vec<f64> = (0..200).map(|_| 100.0 + rng.f64()).collect();
        let twin: Vec<f64> = (0..200).map(|_| 100.0 + rng.f64()).collect();
        let v = validate_harness(&primary, &twin, &ValidationOptions::default());
        assert!(v.noise_floor < 0.005 && v.false_signal_rate == 0.0 && v.drift_rate < 0.5);
    }

    #[test]
    fn the_twin_difference_is_the_a_a_difference_itself() {
        let twin = [100.0, 102.0, 98.0];
        let slower: Vec<f64> = twin.iter().map(|t| t * 1.03).collect();
        assert!((twin_difference(&slower, &twin) + 0.03).abs() < 1e-12);
        assert!(twin_difference(&[], &[]).is_nan());
    }

    #[test]
    fn a_slow_copy_spreads_the_placement() {
        let fast = vec![100.0; 20];
        let slow = vec![188.0; 20];
        let primary = [fast.clone(), fast.clone(), slow.clone(), fast.clone()];
        let twin = [fast.clone(), fast.clone(), slow, fast];
        let p = placement_spread(&primary, &twin).expect("four copies");
        assert_eq!(p.medians, [100.0, 100.0, 188.0, 100.0]);
        assert!((p.spread - 0.88).abs() < 1e-12 && p.noise == 0.0);
        assert!(placement_spread(&[], &[]).is_none());
    }

    #[test]
    fn identical_series_resolve_any_difference_but_none() {
        let a = [10.0, 10.1, 9.9, 10.0, 10.2, 9.8, 10.0, 10.1, 9.9, 10.0];
        let v = validate_harness(&a, &a, &ValidationOptions::default());
        assert_eq!(v.noise_floor, 0.0); // identical series: every ratio is exactly 1
        assert!(v.resolves(-0.01) && !v.resolves(0.0));
    }

    #[test]
    fn a_five_percent_difference_clears_what_the_harness_invents() {
        let primary = [100.0, 101.0, 99.0, 100.5, 100.0, 99.5, 101.5, 100.0, 98.5, 100.2, 99.8, 100.1];
        let twin = [100.2, 100.8, 99.3, 100.1, 100.4, 99.9, 101.0, 100.3, 98.9, 100.0, 99.5, 100.6];
        let v = validate_harness(&primary, &twin, &ValidationOptions::default());
        assert!(v.noise_floor > 0.0 && v.noise_floor < 0.02);
        // A 5 % difference clears what this harness invents on identical code; none does not.
        assert!(v.resolves(0.05) && !v.resolves(0.0));
    }
}
