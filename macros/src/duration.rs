//! Compile-time check of `time = "..."` values: the same units the `RTCOMPARE_TIME` variable
//! accepts.

/// Nanoseconds in a duration like `500ms` or `2s`, or why it is not one.
pub(crate) fn nanos(text: &str) -> Result<u64, String> {
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
            return Err("expected a duration with a unit, such as \"500ms\" or \"2s\" (units: ns, us, ms, s, m)".into());
        }
    };
    let value: f64 = number.parse().map_err(|_| format!("{number:?} is not a number; write e.g. \"2s\""))?;
    let total = value * unit_nanos;
    if (1.0..1e16).contains(&total) {
        Ok(total as u64)
    } else {
        Err("the duration must be positive and below 100 days".into())
    }
}
