//! The options a round is judged with, and the A/A validation's defaults taken from them.

use crate::stats::Spread;
use crate::validate::ValidationOptions;

/// How the collected samples are judged.
///
/// ```
/// use rtcompare::JudgeOptions;
/// let strict = JudgeOptions { parity: 0.01, thresholds: vec![0.05], seed: 7, ..JudgeOptions::default() };
/// assert_eq!((strict.level, JudgeOptions::default().parity), (0.95, 0.04));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeOptions {
    /// Smallest relative difference that counts as a win or a loss.
    pub parity: f64,
    /// Which spread widens the median tolerance.
    pub spread: Spread,
    /// Confidence level of the difference's interval.
    pub level: f64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Thresholds to report the confidence for (share of replicates with `d* ≥ t`).
    pub thresholds: Vec<f64>,
    /// Seed of every resampling, so the same samples always give the same report.
    pub seed: u64,
    /// Whether the arms ran in two builds (a comparison against a git revision). Each build
    /// lays out its code anew, so the verdict must also clear what placement alone moves the
    /// arms, as their copies show it ([`Verdict::builds_floor`](crate::Verdict::builds_floor)).
    pub across_builds: bool,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            parity: 0.04,
            spread: Spread::RoundMedian,
            level: 0.95,
            resamples: crate::stats::DEFAULT_RESAMPLES,
            thresholds: Vec::new(),
            seed: 0,
            across_builds: false,
        }
    }
}

// Beside `JudgeOptions`, whose defaults it takes, so that validation needs nothing of the
// verdict's: the verdict holds validations, not the other way round.
impl Default for ValidationOptions {
    /// The judging defaults' level, resamples and seed, and their parity threshold as the
    /// tolerance.
    fn default() -> Self {
        let judging = JudgeOptions::default();
        ValidationOptions {
            level: judging.level,
            resamples: judging.resamples,
            seed: judging.seed,
            tolerance: judging.parity,
        }
    }
}
