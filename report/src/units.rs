//! Human units: per-op values scaled for reading (`1.234 µs`, `1.50 KiB`) and shares as
//! percentages. One table of display units serves the text block, the warnings and the
//! pictures' axes, so they never disagree on where `ns` becomes `µs`.

use rtcompare_judge::Metric;
use rtcompare_judge::measure::ThroughputUnit;

/// A display unit: its name and its size in the metric's base unit (ns, bytes, allocations).
pub(crate) type Unit = (&'static str, f64);

/// The largest unit of `metric` that keeps `magnitude` at 1 or more; the base unit (`ns`, `B`,
/// `allocs`, `instructions`) below that.
pub(crate) fn display_unit(metric: Metric, magnitude: f64) -> Unit {
    const KIB: f64 = 1024.0;
    match metric {
        Metric::Time if magnitude >= 1e9 => ("s", 1e9),
        Metric::Time if magnitude >= 1e6 => ("ms", 1e6),
        Metric::Time if magnitude >= 1e3 => ("µs", 1e3),
        Metric::Time => ("ns", 1.0),
        Metric::AllocBytes if magnitude >= KIB * KIB => ("MiB", KIB * KIB),
        Metric::AllocBytes if magnitude >= KIB => ("KiB", KIB),
        Metric::AllocBytes => ("B", 1.0),
        Metric::Allocs => ("allocs", 1.0),
        Metric::Instructions => ("instructions", 1.0),
    }
}

/// Formats nanoseconds with a unit that keeps three or four significant digits.
///
/// ```
/// use rtcompare::report::format_ns;
/// assert_eq!(format_ns(12.345), "12.35 ns");
/// assert_eq!(format_ns(1_234.5), "1.234 µs");
/// assert_eq!(format_ns(2_500_000.0), "2.500 ms");
/// assert_eq!(format_ns(3.2e9), "3.200 s");
/// ```
pub fn format_ns(ns: f64) -> String {
    let (unit, size) = display_unit(Metric::Time, ns.abs());
    let value = ns / size;
    if size == 1.0 { format!("{value:.2} {unit}") } else { format!("{value:.3} {unit}") }
}

/// Formats a per-op value of any metric: a duration, bytes (B, KiB, MiB), an allocation count
/// or an instruction count.
///
/// ```
/// use rtcompare::Metric;
/// use rtcompare::report::format_value;
/// assert_eq!(format_value(1_500.0, Metric::Time), "1.500 µs");
/// assert_eq!(format_value(1_536.0, Metric::AllocBytes), "1.50 KiB");
/// assert_eq!(format_value(96.0, Metric::AllocBytes), "96 B");
/// assert_eq!(format_value(2.0, Metric::Allocs), "2 allocs");
/// assert_eq!(format_value(4_120.0, Metric::Instructions), "4120 instructions");
/// ```
pub fn format_value(value: f64, metric: Metric) -> String {
    match (metric, display_unit(metric, value.abs())) {
        (Metric::Time, _) => format_ns(value),
        // Whole bytes and counts read best without decimals.
        (_, (unit, 1.0)) => format!("{} {unit}", trim_count(value)),
        (_, (unit, size)) => format!("{:.2} {unit}", value / size),
    }
}

/// A rate in units per second: bytes with binary prefixes (`B/s`, `KiB/s`, `MiB/s`, `GiB/s`,
/// `TiB/s`), elements with decimal ones (`elem/s`, `Kelem/s`, `Melem/s`, `Gelem/s`), three or four
/// significant digits.
pub(crate) fn format_rate(per_second: f64, unit: ThroughputUnit) -> String {
    let (base, steps, names): (f64, usize, &[&str]) = match unit {
        ThroughputUnit::Bytes => (1024.0, 4, &["B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"]),
        ThroughputUnit::Elements => (1000.0, 4, &["elem/s", "Kelem/s", "Melem/s", "Gelem/s", "Telem/s"]),
    };
    let mut value = per_second;
    let mut step = 0;
    while value.abs() >= base && step < steps {
        value /= base;
        step += 1;
    }
    let decimals = match value.abs() {
        v if v >= 100.0 => 1,
        v if v >= 10.0 => 2,
        _ => 3,
    };
    format!("{value:.decimals$} {}", names[step])
}

/// Whole counts without decimals, fractional ones with two.
fn trim_count(value: f64) -> String {
    if value.fract() == 0.0 { format!("{value:.0}") } else { format!("{value:.2}") }
}

/// `0.0412` as `4.12 %`.
pub(crate) fn pct(value: f64) -> String {
    format!("{:.2} %", value * 100.0)
}

/// An interval's level as a percentage with no more digits than it needs and never rounded up to
/// 100: `0.95` as `95 %`, `0.9978` as `99.78 %`, `0.99997` as `99.997 %`.
pub(crate) fn level_pct(level: f64) -> String {
    let percent = level * 100.0;
    let digits = (0..=4)
        .find(|&d| format!("{percent:.d$}").parse::<f64>().is_ok_and(|p| p < 100.0 && (p - percent).abs() < 0.005));
    let text = format!("{percent:.*}", digits.unwrap_or(4));
    format!("{text} %")
}

/// A difference `d = 1 − candidate/baseline` as the change in the candidate's time (or count)
/// relative to the baseline's, criterion's sign: `-0.0412` (slower) as `+4.12 %`.
pub(crate) fn change_pct(difference: f64) -> String {
    // `0.0 - d` rather than `-d`: no change prints as `+0.00 %`, never `-0.00 %`.
    signed_pct(0.0 - difference)
}

/// An interval of the difference `[low, high]` as the interval of the change: `[-high, -low]`
/// with criterion's sign, `[+1.00 %, +7.00 %]` for `[-0.07, -0.01]`.
pub(crate) fn change_interval(low: f64, high: f64) -> String {
    format!("[{}, {}]", change_pct(high), change_pct(low))
}

/// How far apart an interval's ends may lie, as a factor between the ratios candidate / baseline
/// they stand for, before the interval says nothing a reader can use: two (`[+20 %, +140 %]`).
const WIDEST_MEANINGFUL: f64 = 2.0;

/// An interval of the change as [`change_interval`] writes it, unless its ends lie more than
/// [`WIDEST_MEANINGFUL`] apart: then only its end nearer to no change, and that the other is too
/// wide to mean anything (`[+20.00 %, too wide to bound]` for a loss measured in a few noisy
/// rounds), or nothing but that when it reaches both ways.
pub(crate) fn headline_interval(low: f64, high: f64) -> String {
    if low.is_nan() || high.is_nan() {
        // Too few processes for an interval at the level (four give none at 99 %): say so,
        // rather than print the NaN.
        return "[no interval at this level]".to_owned();
    }
    let (fastest, slowest) = (1.0 - high, 1.0 - low);
    let meaningful = (slowest / fastest).partial_cmp(&WIDEST_MEANINGFUL) != Some(std::cmp::Ordering::Greater);
    if meaningful || !fastest.is_finite() || !slowest.is_finite() {
        return change_interval(low, high);
    }
    if high < 0.0 {
        format!("[{}, too wide to bound]", change_pct(high))
    } else if low > 0.0 {
        format!("[too wide to bound, {}]", change_pct(low))
    } else {
        "[too wide to bound]".to_owned()
    }
}

/// `-0.0412` as `-4.12 %`, always with a sign.
pub(crate) fn signed_pct(value: f64) -> String {
    format!("{:+.2} %", value * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_wider_than_a_factor_of_two_gives_only_its_near_end() {
        assert_eq!(headline_interval(-0.07, -0.01), "[+1.00 %, +7.00 %]");
        assert_eq!(headline_interval(-9.35, -0.2), "[+20.00 %, too wide to bound]");
        assert_eq!(headline_interval(0.1, 0.9), "[too wide to bound, -10.00 %]");
        assert_eq!(headline_interval(-3.0, 0.5), "[too wide to bound]");
        // A factor of two exactly still means something: [+20 %, +140 %].
        assert_eq!(headline_interval(-1.4, -0.2), "[+20.00 %, +140.00 %]");
        assert_eq!(headline_interval(f64::NAN, f64::NAN), "[no interval at this level]");
    }

    #[test]
    fn a_change_has_criterions_sign() {
        assert_eq!(change_pct(-0.0412), "+4.12 %");
        assert_eq!(change_interval(-0.07, -0.01), "[+1.00 %, +7.00 %]");
        assert_eq!(change_pct(0.0), "+0.00 %");
    }

    #[test]
    fn a_level_shows_the_digits_it_needs_and_never_100() {
        assert_eq!(level_pct(0.95), "95 %");
        assert_eq!(level_pct(0.9978), "99.78 %");
        assert_eq!(level_pct(0.99997), "99.997 %");
        assert_eq!(level_pct(1.0 - 0.05 * 0.7311), "96.34 %");
    }

    #[test]
    fn each_metric_switches_units_where_the_next_one_reaches_one() {
        assert_eq!(display_unit(Metric::Time, 999.0), ("ns", 1.0));
        assert_eq!(display_unit(Metric::Time, 1e3), ("µs", 1e3));
        assert_eq!(display_unit(Metric::AllocBytes, 1023.0), ("B", 1.0));
        assert_eq!(display_unit(Metric::AllocBytes, 1024.0 * 1024.0), ("MiB", 1024.0 * 1024.0));
        assert_eq!(display_unit(Metric::Allocs, 1e9), ("allocs", 1.0));
        assert_eq!(format_value(-2048.0, Metric::AllocBytes), "-2.00 KiB");
        assert_eq!(format_value(0.5, Metric::Allocs), "0.50 allocs");
        assert_eq!((pct(0.0412), signed_pct(-0.0412)), ("4.12 %".to_owned(), "-4.12 %".to_owned()));
    }

    #[test]
    fn rates_switch_prefixes_where_the_next_one_reaches_one() {
        assert_eq!(format_rate(1023.0, ThroughputUnit::Bytes), "1023.0 B/s");
        assert_eq!(format_rate(1024.0, ThroughputUnit::Bytes), "1.000 KiB/s");
        assert_eq!(format_rate(4096.0 * 1e9 / 250.0, ThroughputUnit::Bytes), "15.26 GiB/s");
        assert_eq!(format_rate(2e12 * 1024.0, ThroughputUnit::Bytes), "1862.6 TiB/s");
        assert_eq!(format_rate(999.0, ThroughputUnit::Elements), "999.0 elem/s");
        assert_eq!(format_rate(1000.0, ThroughputUnit::Elements), "1.000 Kelem/s");
        assert_eq!(format_rate(0.5, ThroughputUnit::Elements), "0.500 elem/s");
    }

    #[test]
    fn rates_keep_three_or_four_significant_digits() {
        assert_eq!(format_rate(512.0, ThroughputUnit::Bytes), "512.0 B/s");
        assert_eq!(format_rate(3.5 * 1024.0 * 1024.0 * 1024.0, ThroughputUnit::Bytes), "3.500 GiB/s");
        assert_eq!(format_rate(12_500_000.0, ThroughputUnit::Elements), "12.50 Melem/s");
    }
}
