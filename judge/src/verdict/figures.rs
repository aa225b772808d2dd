//! The figures of one judged round a user reads beside its outcome: the [`Verdict`], the
//! confidence per threshold, the A/A validations, the drift tests and how the interval was
//! resampled.

use crate::stats::{Drift, Outcome, Resampling};
use crate::validate::{PlacementSpread, Validation};
use serde::{Deserialize, Serialize};

/// The verdict and the figures it rests on.
///
/// ```
/// use rtcompare::{Arm, Options, Outcome, compare};
/// use std::time::Duration;
/// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
/// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
/// let options = Options { budget: Duration::from_millis(100), ..Options::default() };
/// let verdict = compare(Arm::from_fn("fast", fast), Arm::from_fn("slow", slow), &options).verdict;
/// assert_eq!((verdict.outcome, verdict.resolved), (Outcome::Win, true));
/// assert!(verdict.ratio < 1.0 - verdict.tolerance);
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// Win, parity or loss.
    pub outcome: Outcome,
    /// For a win or a loss: always true. For parity: true when the whole interval lies within
    /// ±`parity_band` (parity established), false when it is too wide to tell (inconclusive).
    pub resolved: bool,
    /// Ratio of medians, candidate over baseline (below 1 = candidate ahead).
    pub ratio: f64,
    /// Ratio of the arms' fast ends (their minimums for up to ten rounds, about their 10th
    /// percentiles for hundreds; see [`crate::stats::fast_end`]), candidate over baseline.
    pub best_ratio: f64,
    /// What the median ratio and the interval were judged against:
    /// `max(parity, noise, clock floor / median, A/A floor, builds floor)`, with twice the A/A
    /// floor when the floor exceeds the parity.
    pub tolerance: f64,
    /// What the ratio of fast ends was judged against: `max(parity, clock floor / fast end)`.
    pub best_tolerance: f64,
    /// The spread contained in `tolerance` (by default the spread of the median per-round
    /// ratio, see [`Spread::RoundMedian`](crate::stats::Spread::RoundMedian)).
    pub noise: f64,
    /// The A/A floor the difference had to clear: how far each arm ran from its own twin in the
    /// same process, the larger arm's, averaged over the processes pooled.
    pub floor: f64,
    /// For arms from two builds (against a git revision): what placement alone can put between
    /// them, the larger arm's spread of its copies at each code offset where that clearly
    /// exceeds the parity (the median over the processes); 0 for arms from one build. Two builds
    /// lay out identical code apart in ways the twins of one build share and so cannot show.
    #[serde(default)]
    pub builds_floor: f64,
    /// The band the whole interval must lie within for parity to be established: the parity
    /// setting itself. Parity is not established when either floor or the clock's resolution
    /// exceeds it either: a band wider than the parity would call a difference the user cares
    /// about "no difference".
    pub parity_band: f64,
}

/// The confidence that the candidate beats the baseline by at least `threshold`.
///
/// ```
/// use rtcompare::{Arm, JudgeOptions, Options, judge, measure};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let m = measure(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let margins = JudgeOptions { thresholds: vec![0.05, -0.02], ..JudgeOptions::default() };
/// let report = judge(&m.candidate, &m.baseline, options.metric, m.calibration, m.samples, &margins);
/// assert_eq!(report.confidence.len(), 2);
/// assert!(report.confidence.iter().all(|c| (0.0..=1.0).contains(&c.confidence)));
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThresholdConfidence {
    /// Relative margin (0.05 = 5 % faster; negative = tolerated slowdown).
    pub threshold: f64,
    /// Share of bootstrap replicates with `d* ≥ threshold`.
    pub confidence: f64,
}

/// A/A validation of both arms.
///
/// ```
/// use rtcompare::{Arm, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let validation = &report.validation;
/// assert!(validation.candidate.noise_floor >= 0.0 && validation.baseline.noise_floor >= 0.0);
/// // Arms built by hand have one placement copy.
/// assert!(validation.candidate_placement.is_none());
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Validations {
    /// The candidate against its twin.
    pub candidate: Validation,
    /// The baseline against its twin.
    pub baseline: Validation,
    /// The candidate's placement copies against each other; `None` for an arm with one copy.
    pub candidate_placement: Option<PlacementSpread>,
    /// The baseline's placement copies against each other.
    pub baseline_placement: Option<PlacementSpread>,
}

/// Drift tests of each series and of the per-round ratio.
///
/// ```
/// use rtcompare::{Arm, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let drift = &report.drift;
/// assert!([&drift.candidate, &drift.baseline, &drift.ratio].iter().all(|d| (0.0..=1.0).contains(&d.p_value)));
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DriftTests {
    /// The candidate's per-op values against measurement position.
    #[serde(serialize_with = "with_shift")]
    pub candidate: Drift,
    /// The baseline's per-op values against measurement position.
    #[serde(serialize_with = "with_shift")]
    pub baseline: Drift,
    /// The per-round ratio against round number.
    #[serde(serialize_with = "with_shift")]
    pub ratio: Drift,
}

/// A drift test as the files write it: with its shift ([`Drift::shift`]), the figure a drift
/// caveat is decided on, beside the medians it comes from (and ignored when read back).
fn with_shift<S: serde::Serializer>(drift: &Drift, serializer: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Shifted<'a> {
        #[serde(flatten)]
        drift: &'a Drift,
        shift: f64,
    }
    Shifted { drift, shift: drift.shift() }.serialize(serializer)
}

/// How the interval was resampled.
///
/// ```
/// use rtcompare::{Arm, JudgeOptions, Options, compare};
/// use std::time::Duration;
/// let judge = JudgeOptions { seed: 42, ..JudgeOptions::default() };
/// let options = Options { budget: Duration::from_millis(50), judge, ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// assert_eq!((report.resampling.seed, report.resampling.processes), (42, 1));
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResamplingInfo {
    /// Independent rounds, or contiguous blocks of rounds (of the first process, when pooled).
    pub scheme: Resampling,
    /// Number of bootstrap replicates.
    pub resamples: usize,
    /// Seed of the resampling.
    pub seed: u64,
    /// True for a count metric whose every round gave the same value in both arms: the figures
    /// are exact and the interval is a single point, not an estimate.
    pub exact: bool,
    /// Processes whose rounds were pooled (1: the rounds of one process).
    pub processes: usize,
}
