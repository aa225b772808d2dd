//! A [`Duration`](std::time::Duration) in the files, as seconds: `#[serde(with = "seconds")]`.

use serde::{Deserialize, Deserializer, Serializer};
use std::time::Duration;

/// Writes the seconds.
pub(super) fn serialize<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(duration.as_secs_f64())
}

/// Reads the seconds; a negative or unending duration is an error.
pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
    Duration::try_from_secs_f64(f64::deserialize(deserializer)?).map_err(serde::de::Error::custom)
}
