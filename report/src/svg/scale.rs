//! The picture's two horizontal scales, from data to x: the difference's, linear
//! ([`LinearScale`]), and the arms' values', linear or logarithmic in the metric's unit
//! ([`ValueScale`]), each with round ticks and their labels.

use crate::units::{Unit, display_unit};
use rtcompare_judge::Metric;
use rtcompare_judge::stats::{quantile_sorted, sorted_copy};
use rtcompare_judge::verdict::Report;

/// Width of the whole picture.
pub(super) const WIDTH: f64 = 900.0;
/// Left edge of the plots: room for the arms' names.
pub(super) const LEFT: f64 = 180.0;
/// Right edge of the plots: room for the count of values beyond the axis.
pub(super) const RIGHT: f64 = WIDTH - 85.0;

/// A number with as many decimals as the tick step needs.
pub(super) fn trim_number(value: f64, step: f64) -> String {
    let decimals = if step > 0.0 { (-step.log10().floor()).max(0.0) as usize } else { 0 };
    let text = format!("{value:.decimals$}");
    // `-0` reads oddly on an axis.
    if text.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        text.trim_start_matches('-').to_owned()
    } else {
        text
    }
}

/// A linear map from data to the plots' x range, with round tick values.
pub(super) struct LinearScale {
    pub(super) low: f64,
    pub(super) high: f64,
    pub(super) step: f64,
}

impl LinearScale {
    /// Fits `values`, padded by `pad` of their span on each side.
    pub(super) fn fitting(values: &[f64], pad: f64) -> LinearScale {
        let finite = values.iter().copied().filter(|v| v.is_finite());
        let (low, high) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
        let (low, high) = if low.is_finite() { (low, high) } else { (0.0, 1.0) };
        // Equal values still get an axis: ±10 % around them.
        let (low, high) =
            if high > low { (low, high) } else { (low - low.abs().max(1.0) * 0.1, high + high.abs().max(1.0) * 0.1) };
        let span = high - low;
        let (low, high) = (low - pad * span, high + pad * span);
        LinearScale { low, high, step: nice_step((high - low) / 6.0) }
    }

    pub(super) fn x(&self, value: f64) -> f64 {
        LEFT + (value - self.low) / (self.high - self.low) * (RIGHT - LEFT)
    }

    pub(super) fn ticks(&self) -> Vec<f64> {
        let first = (self.low / self.step).ceil() as i64;
        let last = (self.high / self.step).floor() as i64;
        (first..=last).map(|k| k as f64 * self.step).collect()
    }
}

/// 1, 2 or 5 times a power of ten, the closest at or above `raw`.
fn nice_step(raw: f64) -> f64 {
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|&s| s >= raw).unwrap_or(10.0 * power)
}

/// 1, 2 or 5 times a power of ten, the closest at or below `raw`.
fn nice_below(raw: f64) -> f64 {
    let power = 10f64.powf(raw.log10().floor());
    [5.0, 2.0, 1.0].into_iter().map(|m| m * power).find(|&s| s <= raw).unwrap_or(power)
}

/// The value axis: linear, or logarithmic when the arms are more than 30x apart; in the
/// metric's unit scaled for reading (µs, KiB, ...).
pub(super) struct ValueScale {
    pub(super) metric: Metric,
    pub(super) low: f64,
    pub(super) high: f64,
    pub(super) log: bool,
    pub(super) step: f64,
    pub(super) unit: Unit,
}

impl ValueScale {
    pub(super) fn new(report: &Report) -> ValueScale {
        let c = sorted_copy(&report.samples.candidate.per_op);
        let b = sorted_copy(&report.samples.baseline.per_op);
        let all: Vec<f64> = c.iter().chain(&b).copied().filter(|v| v.is_finite()).collect();
        let low = all.iter().copied().fold(f64::INFINITY, f64::min);
        let max = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // A few far outliers would squeeze every other dot into a corner: the axis ends at the
        // arms' 99th percentiles unless the maximum is barely beyond them.
        let tail = quantile_sorted(&c, 0.99).max(quantile_sorted(&b, 0.99));
        let high = if max <= tail * 1.25 { max } else { tail };
        let linear = LinearScale::fitting(&[low, high], 0.05);
        let log = low > 0.0 && high / low > 30.0;
        let (low, high) = match (log, low >= 0.0) {
            // Ends on 1-2-5 values, so both ends carry a tick.
            (true, _) => (nice_below(low / 1.1), nice_step(high * 1.1)),
            // Padding must not invent negative times or counts.
            (false, true) => (linear.low.max(0.0), linear.high),
            (false, false) => (linear.low, linear.high),
        };
        let unit = unit(report.metric, high);
        // Round ticks in the unit shown (1 KiB, not 1000 bytes).
        let step = nice_step((high - low) / unit.1 / 6.0) * unit.1;
        ValueScale { metric: report.metric, low, high, log, step, unit }
    }

    pub(super) fn x(&self, value: f64) -> f64 {
        let (value, low, high) = if self.log {
            (value.max(self.low).ln(), self.low.ln(), self.high.ln())
        } else {
            (value, self.low, self.high)
        };
        LEFT + (value - low) / (high - low) * (RIGHT - LEFT)
    }

    pub(super) fn ticks(&self) -> Vec<f64> {
        if !self.log {
            return LinearScale { low: self.low, high: self.high, step: self.step }.ticks();
        }
        let decades = (self.low.log10().floor() as i32)..=(self.high.log10().ceil() as i32);
        let few = self.high / self.low < 1000.0;
        let multiples: &[f64] = if few { &[1.0, 2.0, 5.0] } else { &[1.0] };
        decades
            .flat_map(|d| multiples.iter().map(move |m| m * 10f64.powi(d)))
            .filter(|t| *t >= self.low && *t <= self.high)
            .collect()
    }

    /// A tick's label: in the axis's unit on a linear axis; with its own unit on a logarithmic
    /// one, which spans several (`500 ns`, `1 µs`, `10 µs`).
    pub(super) fn label(&self, value: f64) -> String {
        if !self.log {
            return trim_number(value / self.unit.1, self.step / self.unit.1);
        }
        // A hair above the value, so that 1000 ns lands in µs despite rounding.
        let (name, scale) = unit(self.metric, value * (1.0 + 1e-9));
        let number = trim_number(value / scale, value / scale);
        if name.is_empty() { number } else { format!("{number} {name}") }
    }

    pub(super) fn title(&self) -> String {
        let quantity = match self.metric {
            Metric::Time => "time per operation",
            Metric::AllocBytes => "bytes allocated per operation",
            Metric::Allocs => "allocations per operation",
            Metric::Instructions => "instructions per operation",
        };
        match (self.log, self.unit.0) {
            (true, _) => format!("{quantity} (logarithmic scale)"),
            (false, "") => quantity.to_owned(),
            (false, name) => format!("{quantity} ({name})"),
        }
    }
}

/// The axis unit for values up to `high`: the shared display unit, except that the axis names
/// base bytes in full and leaves counts unnamed (the title says what is counted).
fn unit(metric: Metric, high: f64) -> Unit {
    match display_unit(metric, high) {
        (_, 1.0) if metric == Metric::AllocBytes => ("bytes", 1.0),
        _ if matches!(metric, Metric::Allocs | Metric::Instructions) => ("", 1.0),
        unit => unit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(nice_step(0.7), 1.0);
        assert_eq!(nice_step(13.0), 20.0);
        assert_eq!(nice_step(0.031), 0.05);
        assert_eq!(nice_below(0.54), 0.5);
        assert_eq!(nice_below(37.0), 20.0);
        assert_eq!(trim_number(2.5, 0.5), "2.5");
        assert_eq!(trim_number(-0.0001, 1.0), "0");
        assert_eq!(trim_number(1500.0, 500.0), "1500");
    }
}
