//! criterion's measurements: the [`Measurement`] trait, its [`ValueFormatter`], and the default
//! [`WallTime`].
//!
//! rtcompare measures with its own meter (wall time by default), so a [`Measurement`]'s methods
//! are never called here. [`WallTime`] is that default; any other measurement, given with
//! [`Criterion::with_measurement`](crate::Criterion::with_measurement), compiles, and its
//! benchmarks are reported as not measurable by rtcompare, naming the measurement's type.

use crate::Throughput;
use std::time::{Duration, Instant};

/// Formats values of a [`Measurement`] for display, as in criterion. Implement it for a custom
/// measurement's formatter; rtcompare formats its own output and calls none of these.
pub trait ValueFormatter {
    /// The value with its unit, scaled by [`scale_values`](Self::scale_values).
    fn format_value(&self, value: f64) -> String {
        let mut values = [value];
        let unit = self.scale_values(value, &mut values);
        format!("{:>6.2} {unit}", values[0])
    }

    /// The value as a rate of `throughput`, scaled by
    /// [`scale_throughputs`](Self::scale_throughputs).
    fn format_throughput(&self, throughput: &Throughput, value: f64) -> String {
        let mut values = [value];
        let unit = self.scale_throughputs(value, throughput, &mut values);
        format!("{:>6.2} {unit}", values[0])
    }

    /// Scales `values` to a unit chosen from `typical_value` and returns the unit.
    fn scale_values(&self, typical_value: f64, values: &mut [f64]) -> &'static str;

    /// Turns `values` into rates of `throughput`, scaled to a unit chosen from
    /// `typical_value`, and returns the unit.
    fn scale_throughputs(&self, typical_value: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str;

    /// Scales `values` for machine-readable output and returns the unit.
    fn scale_for_machines(&self, values: &mut [f64]) -> &'static str;
}

/// Something criterion can measure, as in criterion: `start` before a run of iterations, `end`
/// after it, `add` and `zero` to sum runs, `to_f64` for the statistics.
///
/// rtcompare never calls these methods: it measures with its own meter. A `Criterion` given a
/// measurement other than [`WallTime`] still compiles, and each of its benchmarks is reported as
/// one rtcompare cannot measure, by the measurement's type name.
///
/// ```
/// use rtcompare_criterion::measurement::{Measurement, ValueFormatter, WallTime};
///
/// /// A count of calls instead of a time.
/// struct Calls;
///
/// impl Measurement for Calls {
///     type Intermediate = ();
///     type Value = u64;
///     fn start(&self) {}
///     fn end(&self, _: ()) -> u64 { 1 }
///     fn add(&self, a: &u64, b: &u64) -> u64 { a + b }
///     fn zero(&self) -> u64 { 0 }
///     fn to_f64(&self, value: &u64) -> f64 { *value as f64 }
///     fn formatter(&self) -> &dyn ValueFormatter {
///         WallTime.formatter()
///     }
/// }
///
/// let c = rtcompare_criterion::Criterion::default().with_measurement(Calls);
/// # drop(c);
/// ```
pub trait Measurement {
    /// The reading `start` returns and `end` takes.
    type Intermediate;
    /// A measured value.
    type Value;

    /// Takes the opening reading of a run.
    fn start(&self) -> Self::Intermediate;
    /// Takes the closing reading and returns the run's value.
    fn end(&self, i: Self::Intermediate) -> Self::Value;
    /// The sum of two values.
    fn add(&self, v1: &Self::Value, v2: &Self::Value) -> Self::Value;
    /// The value that adds nothing.
    fn zero(&self) -> Self::Value;
    /// The value as a number, for the statistics.
    fn to_f64(&self, value: &Self::Value) -> f64;
    /// The formatter of this measurement's values.
    fn formatter(&self) -> &dyn ValueFormatter;

    /// Whether this is [`WallTime`], the one measurement rtcompare takes as its own.
    #[doc(hidden)]
    fn __rtcompare_is_wall_time() -> bool
    where
        Self: Sized,
    {
        false
    }

    /// A value of `iter_custom`'s routine in nanoseconds, for [`WallTime`] alone (a `Duration`);
    /// `None` for any other measurement.
    #[doc(hidden)]
    fn __rtcompare_nanos(value: &Self::Value) -> Option<u64>
    where
        Self: Sized,
    {
        let _ = value;
        None
    }
}

/// Wall-clock time, criterion's default measurement and rtcompare's own `time` metric.
#[derive(Clone, Copy, Debug, Default)]
pub struct WallTime;

impl Measurement for WallTime {
    type Intermediate = Instant;
    type Value = Duration;

    fn start(&self) -> Instant {
        Instant::now()
    }
    fn end(&self, i: Instant) -> Duration {
        i.elapsed()
    }
    fn add(&self, v1: &Duration, v2: &Duration) -> Duration {
        v1.saturating_add(*v2)
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        // Exact up to 2^53 ns (about 104 days), as in criterion.
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &NanosFormatter
    }

    fn __rtcompare_is_wall_time() -> bool {
        true
    }

    fn __rtcompare_nanos(value: &Duration) -> Option<u64> {
        Some(u64::try_from(value.as_nanos()).unwrap_or(u64::MAX))
    }
}

/// [`WallTime`]'s formatter: nanoseconds, shown from picoseconds to seconds.
struct NanosFormatter;

/// Multiplies every value by `factor` and returns `unit`.
fn scaled(values: &mut [f64], factor: f64, unit: &'static str) -> &'static str {
    for value in values {
        *value *= factor;
    }
    unit
}

/// The largest of `units` (each a size and its name, smallest first) that `typical` reaches.
fn unit_for(typical: f64, units: &[(f64, &'static str)]) -> (f64, &'static str) {
    units.iter().rev().find(|(size, _)| typical >= *size).or(units.first()).copied().unwrap_or((1.0, ""))
}

impl ValueFormatter for NanosFormatter {
    fn scale_values(&self, typical_ns: f64, values: &mut [f64]) -> &'static str {
        let (size, unit) = unit_for(typical_ns, &[(1e-3, "ps"), (1.0, "ns"), (1e3, "µs"), (1e6, "ms"), (1e9, "s")]);
        scaled(values, 1.0 / size, unit)
    }

    fn scale_throughputs(&self, typical_ns: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        const BINARY: [(f64, &str); 4] =
            [(1.0, "B/s"), (1024.0, "KiB/s"), (1048576.0, "MiB/s"), (1073741824.0, "GiB/s")];
        const DECIMAL: [(f64, &str); 4] = [(1.0, "B/s"), (1e3, "KB/s"), (1e6, "MB/s"), (1e9, "GB/s")];
        const BITS: [(f64, &str); 4] = [(1.0, "b/s"), (1e3, "Kb/s"), (1e6, "Mb/s"), (1e9, "Gb/s")];
        const ELEMENTS: [(f64, &str); 4] = [(1.0, "elem/s"), (1e3, "Kelem/s"), (1e6, "Melem/s"), (1e9, "Gelem/s")];
        let (per_iteration, units) = match *throughput {
            Throughput::Bits(n) => (n, &BITS),
            Throughput::Bytes(n) => (n, &BINARY),
            Throughput::BytesDecimal(n) => (n, &DECIMAL),
            // As in criterion, elements are the primary rate of `ElementsAndBytes`.
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => (n, &ELEMENTS),
        };
        // A value is nanoseconds per iteration; its rate is units per second.
        let per_iteration = per_iteration as f64;
        let (size, unit) = unit_for(per_iteration * 1e9 / typical_ns, units);
        for value in values.iter_mut() {
            *value = per_iteration * 1e9 / *value / size;
        }
        unit
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

#[cfg(test)]
mod tests {
    use super::{Measurement, WallTime};
    use crate::Throughput;
    use std::time::Duration;

    #[test]
    fn wall_time_formats_nanoseconds() {
        let formatter = WallTime.formatter();
        let mut values = [1_500.0, 3_000.0];
        assert_eq!(formatter.scale_values(1_500.0, &mut values), "µs");
        assert_eq!(values, [1.5, 3.0]);
        assert_eq!(formatter.format_value(0.5).trim(), "500.00 ps");
        assert_eq!(formatter.format_value(2e9).trim(), "2.00 s");
    }

    #[test]
    fn wall_time_formats_rates() {
        let formatter = WallTime.formatter();
        // 2048 bytes in 1 µs: 2048 * 10^6 B/s, about 1.9 GiB/s.
        let mut values = [1_000.0];
        assert_eq!(formatter.scale_throughputs(1_000.0, &Throughput::Bytes(2048), &mut values), "GiB/s");
        assert!((values[0] - 2048e6 / 1073741824.0).abs() < 1e-9);
        let mut values = [1_000.0];
        assert_eq!(formatter.scale_throughputs(1_000.0, &Throughput::Elements(10), &mut values), "Melem/s");
        assert!((values[0] - 10.0).abs() < 1e-9);
    }

    #[test]
    fn only_wall_time_is_rtcompares_own() {
        assert!(WallTime::__rtcompare_is_wall_time());
        assert_eq!(WallTime::__rtcompare_nanos(&Duration::from_micros(3)), Some(3_000));
        assert_eq!(WallTime.to_f64(&Duration::from_nanos(1_234)), 1_234.0);
    }
}
