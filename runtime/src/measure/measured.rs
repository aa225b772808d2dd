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
    /// Whether the collection went on for a second budget because the first one leaned to a
    /// win or a loss without deciding it ([`Options::extend`](crate::Options::extend)). Its
    /// interval is then judged at [`EXTENDED_LEVEL`](crate::EXTENDED_LEVEL), which pays for the
    /// second look.
    #[serde(default)]
    pub extended: bool,
}
