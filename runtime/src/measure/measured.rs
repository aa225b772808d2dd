//! One process's measurement of a comparison, as it is judged and as a worker process sends it
//! back.

use super::{Calibration, Samples};

/// What [`measure`](fn@crate::measure) collected in one process: everything [`crate::judge`] needs.
/// Serialisable, so that processes can send it to the one that judges
/// ([`judge_processes`](crate::judge_processes)).
///
/// ```
/// use rtcompare_runtime::{Arm, JudgeOptions, Measured, Metric, Options, judge_processes, measure};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
/// let one = || measure(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let processes: Vec<Measured> = vec![one(), one()];
/// let report = judge_processes(processes, Metric::Time, &JudgeOptions::default());
/// assert_eq!(report.resampling.processes, 2);
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    /// The candidate's name.
    pub candidate: String,
    /// The baseline's name.
    pub baseline: String,
    /// Batch sizing.
    pub calibration: Calibration,
    /// The interleaved rounds.
    pub samples: Samples,
}
