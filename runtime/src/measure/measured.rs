//! One process's measurement of a comparison, as it is judged and as a worker process sends it
//! back.

use super::{Calibration, Samples};

/// What [`measure`](fn@crate::measure) collected in one process: everything [`crate::judge`] needs.
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
