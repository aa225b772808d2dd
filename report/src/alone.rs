//! How a benchmark measured alone reads: the block under its libtest line, in the shape
//! criterion prints (`time:   [low estimate high]`, then `thrpt:` for a benchmark with a
//! throughput), and the line that says what the figures are.

use super::run::Test;
use super::text::quantity;
use crate::units::{format_rate, format_value, level_pct};
use rtcompare_judge::alone::Alone;
use rtcompare_judge::measure::Work;

/// The block printed under a benchmark measured alone, a line each: its value per operation as
/// `[low median high]`, its rate the same way where it has a throughput (slowest first, as
/// criterion orders it), and what they are.
///
/// ```
/// use rtcompare_judge::alone::measured_alone;
/// use rtcompare_judge::{Metric, Samples, Series};
/// let series = |per_op: Vec<f64>| Series { position: Vec::new(), per_op, placements: Vec::new() };
/// let rounds: Vec<f64> = (0..50).map(|i| 1_200.0 + (i % 5) as f64).collect();
/// let samples = Samples {
///     candidate: series(rounds.clone()),
///     candidate_twin: series(rounds.clone()),
///     baseline: series(rounds.clone()),
///     baseline_twin: series(rounds),
///     ..Samples::default()
/// };
/// let lines = rtcompare_report::alone_lines(&measured_alone(&samples, Metric::Time, 0.95, 1_000, 1), None);
/// assert!(lines[0].starts_with("    time:   [1.20") && lines[0].ends_with(" µs]"), "{lines:?}");
/// assert!(lines[1].contains("median of 50 rounds"), "{lines:?}");
/// ```
pub fn alone_lines(alone: &Alone, work: Option<Work>) -> Vec<String> {
    let value = |v: f64| format_value(v, alone.metric);
    let label = format!("{}:", quantity(alone.metric));
    let mut lines =
        vec![format!("    {label:<7} [{} {} {}]", value(alone.low), value(alone.median), value(alone.high))];
    if let Some(work) = work {
        let rate = |ns: f64| format_rate(work.per_second(ns), work.unit);
        lines.push(format!("    thrpt:  [{} {} {}]", rate(alone.high), rate(alone.median), rate(alone.low)));
    }
    lines.push(format!(
        "    measured alone: median of {} rounds with its {} interval; no verdict",
        alone.rounds(),
        level_pct(alone.level)
    ));
    lines
}

/// The tests of a run that were measured alone, in order.
pub(crate) fn measured_alone(tests: &[Test]) -> impl Iterator<Item = (&Test, &Alone)> {
    tests.iter().filter_map(|test| Some((test, test.alone.as_ref()?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;
    use rtcompare_judge::measure::ThroughputUnit;

    #[test]
    fn the_block_reads_as_criterion_s_with_the_interval_around_the_median() {
        let alone = fixtures::alone(1_234.5);
        let lines = alone_lines(&alone, None);
        assert_eq!(lines.len(), 2, "{lines:?}");
        let figures: Vec<&str> =
            lines[0].trim_start_matches("    time:   [").trim_end_matches(" µs]").split(" µs ").collect();
        let figures: Vec<f64> = figures.iter().map(|f| f.parse().unwrap()).collect();
        assert_eq!(figures.len(), 3, "{lines:?}");
        assert!(figures[0] <= figures[1] && figures[1] <= figures[2], "{lines:?}");
        assert_eq!(figures[1], 1.234, "the median, in µs to four digits: {lines:?}");
        assert_eq!(
            lines[1],
            format!("    measured alone: median of {} rounds with its 95 % interval; no verdict", fixtures::ROUNDS)
        );
    }

    #[test]
    fn a_throughput_adds_the_rates_slowest_first() {
        let alone = fixtures::alone(1_000.0);
        let work = Work { unit: ThroughputUnit::Elements, per_call: 10 };
        let lines = alone_lines(&alone, Some(work));
        assert_eq!(lines.len(), 3, "{lines:?}");
        let rate = |ns: f64| format_rate(work.per_second(ns), work.unit);
        assert_eq!(lines[1], format!("    thrpt:  [{} {} {}]", rate(alone.high), rate(alone.median), rate(alone.low)));
        assert!(lines[1].contains(" 10.00 Melem/s "), "ten elements a microsecond: {lines:?}");
    }
}
