//! Human units for per-op values.

use crate::Metric;

/// Formats nanoseconds with a unit that keeps three or four significant digits.
///
/// ```
/// use rtcompare_runtime::report::format_ns;
/// assert_eq!(format_ns(12.345), "12.35 ns");
/// assert_eq!(format_ns(1_234.5), "1.234 µs");
/// assert_eq!(format_ns(2_500_000.0), "2.500 ms");
/// assert_eq!(format_ns(3.2e9), "3.200 s");
/// ```
pub fn format_ns(ns: f64) -> String {
    let (value, unit) = match ns.abs() {
        x if x >= 1e9 => (ns / 1e9, "s"),
        x if x >= 1e6 => (ns / 1e6, "ms"),
        x if x >= 1e3 => (ns / 1e3, "µs"),
        _ => (ns, "ns"),
    };
    if unit == "ns" { format!("{value:.2} {unit}") } else { format!("{value:.3} {unit}") }
}

/// Formats a per-op value of any metric: a duration, bytes (B, KiB, MiB) or an allocation
/// count.
///
/// ```
/// use rtcompare_runtime::{report::format_value, Metric};
/// assert_eq!(format_value(1_500.0, Metric::Time), "1.500 µs");
/// assert_eq!(format_value(1_536.0, Metric::AllocBytes), "1.50 KiB");
/// assert_eq!(format_value(96.0, Metric::AllocBytes), "96 B");
/// assert_eq!(format_value(2.0, Metric::Allocs), "2 allocs");
/// ```
pub fn format_value(value: f64, metric: Metric) -> String {
    match metric {
        Metric::Time => format_ns(value),
        Metric::AllocBytes => match value.abs() {
            x if x >= 1024.0 * 1024.0 => format!("{:.2} MiB", value / (1024.0 * 1024.0)),
            x if x >= 1024.0 => format!("{:.2} KiB", value / 1024.0),
            _ => format!("{} B", trim_count(value)),
        },
        Metric::Allocs => format!("{} allocs", trim_count(value)),
    }
}

/// Whole counts without decimals, fractional ones with two.
fn trim_count(value: f64) -> String {
    if value.fract() == 0.0 { format!("{value:.0}") } else { format!("{value:.2}") }
}
