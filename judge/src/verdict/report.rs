//! One round of a comparison judged: the [`Report`], and when its win or loss is beyond doubt.

use super::caveat::Caveat;
use super::figures::{DriftTests, ResamplingInfo, ThresholdConfidence, Validations, Verdict};
use super::seconds;
use crate::measure::{Calibration, Metric, Samples};
use crate::stats::{Estimate, Outcome, Summary};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// One round of a comparison judged: its samples, every figure behind its verdict, and its
/// caveats. The first round of a comparison, the pooled fresh processes of its confirmation, and
/// what rtcompare's `compare` and [`judge`](crate::judge()) return.
///
/// ```
/// use rtcompare::{Arm, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let report = compare(Arm::from_fn("add", || 1 + 1), Arm::from_fn("mul", || 2 * 1), &options);
/// assert_eq!((report.candidate.as_str(), report.baseline.as_str()), ("add", "mul"));
/// assert_eq!(report.samples.rounds(), report.samples.candidate.per_op.len());
/// assert!(report.estimate.low <= report.estimate.difference && report.estimate.difference <= report.estimate.high);
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The candidate's name.
    pub candidate: String,
    /// The baseline's name.
    pub baseline: String,
    /// What was measured.
    pub metric: Metric,
    /// Batch sizing.
    pub calibration: Calibration,
    /// The candidate's per-op summary.
    pub candidate_summary: Summary,
    /// The baseline's per-op summary.
    pub baseline_summary: Summary,
    /// The verdict.
    pub verdict: Verdict,
    /// The paired difference `d = 1 − median(c_i / b_i)` with its interval.
    pub estimate: Estimate,
    /// Confidence per requested threshold.
    pub confidence: Vec<ThresholdConfidence>,
    /// A/A validation of both arms.
    pub validation: Validations,
    /// Drift tests.
    pub drift: DriftTests,
    /// How the interval was resampled.
    pub resampling: ResamplingInfo,
    /// Each process's own difference `d_j` when rounds from several processes were pooled
    /// (`RTCOMPARE_PROCESSES`); empty for one process.
    pub process_differences: Vec<f64>,
    /// The caveats on the verdict, in the order the outputs show them; see [`Caveat`].
    pub warnings: Vec<Caveat>,
    /// Wall-clock time of the round (calibration, collection and analysis); in the files, in
    /// seconds (`duration_s`).
    #[serde(rename = "duration_s", with = "seconds")]
    pub duration: Duration,
    /// The raw samples, in measurement order (last in the files, being the longest part).
    pub samples: Samples,
}

/// How many tolerances the whole interval of a win or a loss must clear to be beyond doubt: a
/// fresh process stops early on it, and few rounds are then no cause for a warning.
///
/// ```
/// use rtcompare_judge::verdict::CLEAR_BEYOND_TOLERANCE;
/// assert_eq!(CLEAR_BEYOND_TOLERANCE, 2.0);
/// ```
pub const CLEAR_BEYOND_TOLERANCE: f64 = 2.0;

impl Report {
    /// The same report, with `duration` as its wall-clock time: a round's time is known only
    /// once the caller that measured and judged it has it back.
    ///
    /// ```
    /// use rtcompare::{Arm, Options, compare};
    /// use std::time::Duration;
    /// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
    /// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
    /// assert_eq!(report.with_duration(Duration::from_secs(3)).duration, Duration::from_secs(3));
    /// ```
    pub fn with_duration(self, duration: Duration) -> Report {
        Report { duration, ..self }
    }

    /// Whether the verdict is a win or a loss whose whole interval lies beyond `factor` times the
    /// tolerance; at twice the tolerance ([`CLEAR_BEYOND_TOLERANCE`]) the harness calls it beyond
    /// doubt.
    ///
    /// ```
    /// use rtcompare::{Arm, Options, compare};
    /// use std::time::Duration;
    /// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
    /// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
    /// let options = Options { budget: Duration::from_millis(100), ..Options::default() };
    /// let report = compare(Arm::from_fn("fast", fast), Arm::from_fn("slow", slow), &options);
    /// assert!(report.clears(2.0), "three times the work is beyond doubt");
    /// ```
    pub fn clears(&self, factor: f64) -> bool {
        clears(&self.verdict, &self.estimate, factor)
    }
}

/// Whether `verdict` is a win or a loss whose interval, `estimate`, lies wholly beyond `factor`
/// times its tolerance.
pub(super) fn clears(verdict: &Verdict, estimate: &Estimate, factor: f64) -> bool {
    match verdict.outcome {
        Outcome::Loss => estimate.high < -factor * verdict.tolerance,
        Outcome::Win => estimate.low > crate::stats::win_margin(factor * verdict.tolerance),
        Outcome::Parity => false,
    }
}
