//! Statistical properties of the engine, measured on synthetic data from a seeded generator.
//!
//! Every check simulates many data sets with a known truth, measures a rate, prints it (run with
//! `--nocapture` to see the figures) and asserts that it lies in the accepted range. The data are
//! deterministic, so these tests never flake; the ranges are wide enough for the Monte-Carlo
//! error of the number of data sets used (stated next to each), not tuned to a lucky seed.
//!
//! `synthetic::calibration` measures the same figures with more data sets and sizes.

use super::{normal, paired_rounds};
use rtcompare_judge::Dprng;
use rtcompare_judge::stats::{
    DRIFT_ALPHA, Resampling, bootstrap_difference, choose_resampling, detect_drift, paired_ratios,
};
use rtcompare_judge::validate::{ValidationOptions, validate_harness};

/// Resamples per bootstrap in the coverage loops: fewer than the product's 5,000 to keep this
/// file fast; the interval ends move by far less than the coverage's own Monte-Carlo error.
const RESAMPLES: usize = 2_000;

/// The share of `data_sets` simulated comparisons whose 95 % interval covers the true
/// difference, with the resampling scheme chosen from the data as in the product.
fn coverage(data_sets: usize, n: usize, rho: f64, seed: u64) -> (f64, usize) {
    let delta = 0.05;
    let mut rng = Dprng::new(seed);
    let mut covered = 0;
    let mut blocked = 0;
    for set in 0..data_sets {
        let (candidate, baseline) = paired_rounds(n, delta, rho, 0.03, &mut rng);
        let ratios = paired_ratios(&candidate, &baseline);
        let scheme = choose_resampling(&ratios);
        blocked += usize::from(scheme != Resampling::Iid);
        let estimate = bootstrap_difference(&ratios, scheme, 0.95, RESAMPLES, set as u64).estimate;
        covered += usize::from(!estimate.excludes(delta));
    }
    (covered as f64 / data_sets as f64, blocked)
}

/// 4,000 data sets: the Monte-Carlo standard error of a 95 % coverage is 0.34 points.
#[test]
fn interval_coverage_at_nominal_95_percent() {
    let (rate, blocked) = coverage(4_000, 200, 0.0, 1);
    println!("coverage, independent rounds (n = 200, 4,000 data sets): {:.2} % ({blocked} used blocks)", rate * 100.0);
    assert!((0.94..=0.97).contains(&rate), "coverage {rate}");
}

/// Same with AR(1) ρ = 0.4 log-noise, resampled in blocks as `choose_resampling` decides.
#[test]
fn interval_coverage_under_ar1_autocorrelation() {
    let (rate, blocked) = coverage(4_000, 200, 0.4, 2);
    println!("coverage, AR(1) rho 0.4 (n = 200, 4,000 data sets): {:.2} % ({blocked} used blocks)", rate * 100.0);
    assert!(blocked > 3_900, "blocks chosen in only {blocked} data sets");
    assert!((0.93..=0.97).contains(&rate), "coverage {rate}");
}

/// Identical arms with AR(1) ρ = 0.4 noise: how often a 95 % interval excludes 0, with the
/// chosen (block) scheme and with the independent bootstrap forced. 1,000 data sets.
#[test]
fn block_resampling_keeps_false_signals_near_nominal() {
    let mut rng = Dprng::new(3);
    let (mut chosen, mut forced_iid) = (0, 0);
    let data_sets = 1_000;
    for set in 0..data_sets {
        let (candidate, baseline) = paired_rounds(200, 0.0, 0.4, 0.03, &mut rng);
        let ratios = paired_ratios(&candidate, &baseline);
        let signal = |scheme| bootstrap_difference(&ratios, scheme, 0.95, RESAMPLES, set).estimate.excludes(0.0);
        chosen += usize::from(signal(choose_resampling(&ratios)));
        forced_iid += usize::from(signal(Resampling::Iid));
    }
    let (chosen, forced_iid) = (chosen as f64 / data_sets as f64, forced_iid as f64 / data_sets as f64);
    println!(
        "false signals at 95 % on AR(1) rho 0.4: chosen scheme {:.1} %, forced iid {:.1} %",
        chosen * 100.0,
        forced_iid * 100.0
    );
    assert!(chosen <= 0.08, "chosen {chosen}");
    assert!(forced_iid >= chosen + 0.03, "iid {forced_iid} vs chosen {chosen}");
}

/// 10,000 i.i.d. series of 200 values: the standard error of a 5 % rate is 0.22 points.
#[test]
fn drift_false_positive_rate_is_nominal() {
    let mut rng = Dprng::new(4);
    let series_count = 10_000;
    let flagged = (0..series_count)
        .filter(|_| {
            let series: Vec<f64> = (0..200).map(|_| 100.0 * (0.02 * normal(&mut rng)).exp()).collect();
            detect_drift(&series, DRIFT_ALPHA).drifted
        })
        .count();
    let rate = flagged as f64 / series_count as f64;
    println!("drift false-positive rate (n = 200, 10,000 series): {:.2} %", rate * 100.0);
    assert!((0.04..=0.06).contains(&rate), "rate {rate}");
}

/// A 5 % linear slowdown across 200 rounds with 2 % log-normal noise. 1,000 series.
#[test]
fn drift_power_on_a_five_percent_trend() {
    let mut rng = Dprng::new(5);
    let series_count = 1_000;
    let n = 200;
    let mut shifts = 0.0;
    let detected = (0..series_count)
        .filter(|_| {
            let series: Vec<f64> = (0..n)
                .map(|i| 100.0 * (1.0 + 0.05 * i as f64 / (n - 1) as f64) * (0.02 * normal(&mut rng)).exp())
                .collect();
            let drift = detect_drift(&series, DRIFT_ALPHA);
            shifts += drift.shift();
            drift.drifted && drift.rho > 0.0
        })
        .count();
    let power = detected as f64 / series_count as f64;
    println!(
        "drift power, 5 % trend, 2 % noise, n = 200: {:.1} % (mean half-to-half shift {:+.2} %)",
        power * 100.0,
        shifts / series_count as f64 * 100.0
    );
    assert!(power >= 0.9, "power {power}");
}

#[test]
fn bootstrap_is_deterministic_bit_for_bit() {
    let mut rng = Dprng::new(6);
    let (candidate, baseline) = paired_rounds(301, 0.02, 0.5, 0.05, &mut rng);
    let ratios = paired_ratios(&candidate, &baseline);
    for scheme in [Resampling::Iid, choose_resampling(&ratios), Resampling::Blocks { len: 7 }] {
        let first = bootstrap_difference(&ratios, scheme, 0.95, 5_000, 99);
        let second = bootstrap_difference(&ratios, scheme, 0.95, 5_000, 99);
        let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(first.replicates()), bits(second.replicates()), "{scheme:?}");
        let e = (first.estimate, second.estimate);
        assert_eq!(
            (e.0.difference.to_bits(), e.0.low.to_bits(), e.0.high.to_bits()),
            (e.1.difference.to_bits(), e.1.low.to_bits(), e.1.high.to_bits())
        );
        assert_eq!(first, second);
        let other_seed = bootstrap_difference(&ratios, scheme, 0.95, 5_000, 100);
        assert_ne!(bits(first.replicates()), bits(other_seed.replicates()), "{scheme:?}");
    }
    let options = ValidationOptions { seed: 5, ..ValidationOptions::default() };
    let validation = validate_harness(&candidate, &baseline, &options);
    assert_eq!(validation, validate_harness(&candidate, &baseline, &options));
    println!("determinism: identical bootstraps and validations for the same data and seed");
}

/// On identical code the A/A floor (a 90th percentile) should be exceeded by the difference of an
/// independent A/A run less often than one time in ten: the floor also carries the run's own
/// apparent difference, so it is conservative, and the calibration example measured 5.45 % over
/// 2,000 pairs. 1,000 pairs here: the Monte-Carlo error is 0.7 pp, so 3–8.5 % is about ±4 errors.
#[test]
fn aa_noise_floor_is_exceeded_rarely() {
    let mut rng = Dprng::new(7);
    let data_sets = 1_000;
    let options = ValidationOptions { resamples: RESAMPLES, ..ValidationOptions::default() };
    let mut exceeded = 0;
    let mut floors = 0.0;
    for set in 0..data_sets {
        let (primary, twin) = paired_rounds(200, 0.0, 0.0, 0.03, &mut rng);
        let floor = validate_harness(&primary, &twin, &ValidationOptions { seed: set, ..options }).noise_floor;
        let (a, b) = paired_rounds(200, 0.0, 0.0, 0.03, &mut rng);
        let fresh = validate_harness(&a, &b, &ValidationOptions { resamples: 0, ..options });
        floors += floor;
        exceeded += usize::from(fresh.apparent_difference.abs() > floor);
    }
    let rate = exceeded as f64 / data_sets as f64;
    println!(
        "A/A: mean floor {:.3} % (3 % noise, n = 200); independent A/A runs above it: {:.1} %",
        floors / data_sets as f64 * 100.0,
        rate * 100.0
    );
    assert!((0.03..=0.085).contains(&rate), "rate {rate}");
}

/// At a Bonferroni-adjusted level the interval end comes from the few most extreme replicates;
/// with a fixed 5,000 resamples at `1 − 0.05 / 125` there is about one beyond each end, and the
/// end moves with the resampling seed. `resamples_for_level` asks for 200,000 there (its cap, 40
/// beyond each end): the same data, resampled with six seeds, then give ends that move by less
/// than a tenth of the interval's width.
#[test]
fn adjusted_interval_ends_do_not_depend_on_the_resampling_seed() {
    use rtcompare_judge::stats::{DEFAULT_RESAMPLES, resamples_for_level};
    let mut rng = Dprng::new(81);
    let ratios: Vec<f64> = (0..200).map(|_| (0.02 * normal(&mut rng)).exp()).collect();
    let level = 1.0 - 0.05 / 125.0;
    let movement = |resamples: usize| {
        let ends: Vec<(f64, f64)> = (0..6)
            .map(|seed| {
                let e = bootstrap_difference(&ratios, Resampling::Iid, level, resamples, seed).estimate;
                (e.low, e.high)
            })
            .collect();
        let spread = |end: fn(&(f64, f64)) -> f64| {
            let values: Vec<f64> = ends.iter().map(end).collect();
            values.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                - values.iter().copied().fold(f64::INFINITY, f64::min)
        };
        let width = ends.iter().map(|(low, high)| high - low).sum::<f64>() / ends.len() as f64;
        spread(|e| e.0).max(spread(|e| e.1)) / width
    };
    let (fixed, scaled) = (movement(DEFAULT_RESAMPLES), movement(resamples_for_level(level)));
    println!(
        "adjusted ends (level {level:.4}) move by {:.1} % of the width with {DEFAULT_RESAMPLES} resamples, {:.1} % with {}",
        fixed * 100.0,
        scaled * 100.0,
        resamples_for_level(level)
    );
    assert!(scaled < 0.1, "ends moved by {scaled} of the width");
    assert!(fixed > scaled, "the fixed count should be the noisier: {fixed} against {scaled}");
}
