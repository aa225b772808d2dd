//! The duration syntax rtcompare accepts wherever a person writes a time: the `time = "..."` key
//! of `#[compare]`, checked at compile time by the macro crate, and the `RTCOMPARE_TIME` and
//! `RTCOMPARE_TIMEOUT` variables, read at run time by the runtime. A crate of its own because a
//! proc-macro crate can export nothing but macros, and the runtime is too large a build to pull
//! into the compiler's process: one parser, one set of units, one wording of every mistake.
//!
//! An internal crate of rtcompare: its version moves together with rtcompare's (each rtcompare
//! release depends on exactly its own release of this crate), and it is not stable on its own.

/// Nanoseconds in a duration written as a number and a unit (`800ns`, `250us`, `250µs`,
/// `1.5s`, `2m`), or why the text is not one. The result is at least 1 ns and below 10¹⁶ ns
/// (about 115 days).
///
/// ```
/// use rtcompare_duration::nanos;
/// assert_eq!(nanos("1.5s"), Ok(1_500_000_000));
/// assert_eq!(nanos(" 250µs "), Ok(250_000));
/// assert!(nanos("10").unwrap_err().to_string().contains("with a unit"));
/// ```
pub fn nanos(text: &str) -> Result<u64, DurationError> {
    let text = text.trim();
    let digits_end = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(digits_end);
    let unit_nanos = match unit.trim() {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "m" | "min" => 60e9,
        _ => {
            return Err(DurationError::NoUnit);
        }
    };
    let value: f64 = number.parse().map_err(|_| DurationError::NotANumber(number.to_owned()))?;
    let total = value * unit_nanos;
    if (1.0..1e16).contains(&total) { Ok(total as u64) } else { Err(DurationError::OutOfRange) }
}

/// Why a text is not a duration; its message says how to write one.
///
/// ```
/// use rtcompare_duration::{DurationError, nanos};
/// assert_eq!(nanos("0s"), Err(DurationError::OutOfRange));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// The text has no unit, or one this syntax does not know.
    #[error("expected a duration with a unit, such as \"500ms\" or \"2s\" (units: ns, us, ms, s, m)")]
    NoUnit,
    /// What precedes the unit is not a number.
    #[error("{0:?} is not a number; write e.g. \"2s\"")]
    NotANumber(String),
    /// The duration is zero, or 100 days or more.
    #[error("the duration must be positive and below 100 days")]
    OutOfRange,
}

#[cfg(test)]
mod tests {
    use super::nanos;

    #[test]
    fn every_unit_and_every_mistake() {
        let cases = [("800ns", 800), ("250us", 250_000), ("500ms", 500_000_000), ("1m", 60_000_000_000)];
        for (text, expected) in cases {
            assert_eq!(nanos(text), Ok(expected), "{text}");
        }
        assert_eq!(nanos("2min"), nanos("2m"));
        for (text, why) in [("2 fortnights", "with a unit"), ("1.2.3s", "not a number"), ("0s", "positive")] {
            assert!(nanos(text).unwrap_err().to_string().contains(why), "{text}");
        }
    }
}
