//! The round's checks of its own measurement, beside the comparison: each arm against its A/A
//! twin ([`validate_both`]), the floors a difference must clear over the processes measured
//! ([`Floors`]), and the drift of each series ([`drift_tests`]).

use crate::measure::Samples;
use crate::seeds::{self, Purpose};
use crate::stats::{DRIFT_ALPHA, detect_drift, paired_ratios, quantile_sorted, sorted_copy};
use crate::validate::{ValidationOptions, placement_spread, twin_difference, validate_harness};
use crate::verdict::{DriftTests, JudgeOptions, Validations};

pub(super) fn drift_tests(samples: &Samples) -> DriftTests {
    let (c, b) = (&samples.candidate.per_op, &samples.baseline.per_op);
    DriftTests {
        candidate: detect_drift(c, DRIFT_ALPHA),
        baseline: detect_drift(b, DRIFT_ALPHA),
        ratio: detect_drift(&paired_ratios(c, b), DRIFT_ALPHA),
    }
}

/// What a difference must clear before it is the code's: the A/A floor of the twins
/// ([`placement_floor`]) and, for arms from two builds, the builds floor ([`builds_floor`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Floors {
    /// The A/A floor ([`placement_floor`]).
    pub aa: f64,
    /// The builds floor ([`builds_floor`]); 0 for arms from one build.
    pub builds: f64,
}

impl Floors {
    /// The floors over `processes`, judged with `options`.
    pub(super) fn of(processes: &[&Samples], options: &JudgeOptions) -> Floors {
        let builds = if options.across_builds { builds_floor(processes, options.parity) } else { 0.0 };
        Floors { aa: placement_floor(processes), builds }
    }
}

/// What placement alone can put between arms from two builds: each build lays out its code
/// anew, and an arm's copies — the same code at each code offset — show how far a layout alone
/// moves it (`PlacementSpread::spread`, max over min of the copies' medians, so already the
/// distance between the two extremes). The larger arm's spread where it clearly exceeds `parity`
/// (`PlacementSpread::exceeds`), else 0; the median over processes, which all run the same two
/// binaries. The twins of one build share its layout, so the A/A floor cannot see this: itoa's
/// `u64[0]` was a confirmed 8–13 % loss against a release whose code for it was the same
/// instruction for instruction, each build's copies 14–17 % apart (bench/criterion/results).
pub(super) fn builds_floor(processes: &[&Samples], parity: f64) -> f64 {
    let per_process: Vec<f64> = processes
        .iter()
        .map(|s| {
            let arms = [
                placement_spread(&s.candidate.placements, &s.candidate_twin.placements),
                placement_spread(&s.baseline.placements, &s.baseline_twin.placements),
            ];
            arms.into_iter().flatten().filter(|p| p.exceeds(parity)).map(|p| p.spread).fold(0.0, f64::max)
        })
        .collect();
    if per_process.is_empty() { 0.0 } else { crate::stats::median(&per_process) }
}

/// The A/A floor of a verdict: how far identical code ran from its own twin in the same process
/// — the larger of the two arms' A/A differences, each from the median of the twins' per-round
/// log ratios, so one round that lost the CPU cannot set it — over the processes measured; NaN
/// when an arm has no rounds.
///
/// Over several processes it is the root mean square of the processes' own differences, less
/// what their sampling error adds to it (`E[d²] = δ² + σ²/n`): where the code sits can move the
/// twins apart in some processes and not in others, and a verdict must clear what placement does
/// in any of them (a placement-sensitive identical pair was confirmed as a loss in two of six
/// fresh folders with the median over processes), so each process's own difference counts, not
/// that of the pooled rounds, in which twins that sit apart by a different amount in each process
/// (a layout draw) would cancel. Its sampling error does not count: the verdict's interval
/// already carries it, and a mean of the processes' `|d|` grew with it as processes shortened —
/// ten-round processes of a noisy workload put it above the parity, doubling the tolerance, with
/// no placement effect at all. For one process it is that process's difference (no error can be
/// told apart from one draw), as for a screen.
pub(super) fn placement_floor(processes: &[&Samples]) -> f64 {
    let arm = |primary: fn(&Samples) -> (&[f64], &[f64])| {
        if let [one] = processes {
            let (primary, twin) = primary(one);
            return twin_difference(primary, twin).abs();
        }
        let gaps: Vec<(f64, f64)> = processes.iter().map(|s| twin_gap(primary(s))).collect();
        let k = gaps.len() as f64;
        let square = gaps.iter().map(|(d, _)| d * d).sum::<f64>() / k;
        let error = gaps.iter().map(|(_, variance)| variance).sum::<f64>() / k;
        // An arm without rounds has no floor; `max` would turn its NaN into zero.
        let excess = square - error;
        if excess.is_nan() { f64::NAN } else { excess.max(0.0).sqrt().exp_m1() }
    };
    let candidate = arm(|s| (&s.candidate.per_op, &s.candidate_twin.per_op));
    let baseline = arm(|s| (&s.baseline.per_op, &s.baseline_twin.per_op));
    if candidate.is_nan() || baseline.is_nan() { f64::NAN } else { candidate.max(baseline) }
}

/// One arm's A/A difference in one process, on the log scale — the median of its twins'
/// per-round log ratios — and that median's sampling variance: `π/2 · σ²/n`, with `σ` read
/// robustly off the ratios' interquartile range (`IQR / 1.349` for normal rounds).
pub(super) fn twin_gap((primary, twin): (&[f64], &[f64])) -> (f64, f64) {
    let rounds = primary.len().min(twin.len());
    let logs: Vec<f64> = paired_ratios(&primary[..rounds], &twin[..rounds]).iter().map(|r| r.ln()).collect();
    let sorted = sorted_copy(&logs);
    let sigma = (quantile_sorted(&sorted, 0.75) - quantile_sorted(&sorted, 0.25)) / 1.349;
    let variance = std::f64::consts::FRAC_PI_2 * sigma * sigma / rounds as f64;
    (quantile_sorted(&sorted, 0.5), variance)
}

pub(super) fn validate_both(samples: &Samples, options: &JudgeOptions) -> Validations {
    // The floor is a 90th percentile of the replicates: more resamples for an extreme interval
    // level would not move it.
    let validation_options = |purpose: Purpose| ValidationOptions {
        level: options.level,
        resamples: options.resamples.min(crate::stats::DEFAULT_RESAMPLES),
        seed: seeds::for_purpose(options.seed, purpose),
        tolerance: options.parity,
    };
    Validations {
        candidate: validate_harness(
            &samples.candidate.per_op,
            &samples.candidate_twin.per_op,
            &validation_options(Purpose::CandidateValidation),
        ),
        baseline: validate_harness(
            &samples.baseline.per_op,
            &samples.baseline_twin.per_op,
            &validation_options(Purpose::BaselineValidation),
        ),
        candidate_placement: placement_spread(&samples.candidate.placements, &samples.candidate_twin.placements),
        baseline_placement: placement_spread(&samples.baseline.placements, &samples.baseline_twin.placements),
    }
}
