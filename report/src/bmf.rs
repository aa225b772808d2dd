//! The Bencher Metric Format file (`RTCOMPARE_BMF`), which `bencher run --adapter json` reads: a
//! JSON object keyed by benchmark name, each holding one measure with its value and bounds.
//! Format: <https://bencher.dev/docs/reference/bencher-metric-format/>; fields in
//! `docs/results-schema.md`.
//!
//! Each arm of each measured comparison is one benchmark, `<test name>/candidate` and
//! `<test name>/baseline`. Its measure is `latency` (Bencher's built-in measure, in
//! nanoseconds) for time, and `alloc_bytes` or `allocs` for the allocation metrics; `value` is
//! the arm's median per-operation value over the rounds, `lower_value` and `upper_value` its
//! first and third quartiles. A pair with `throughput` adds a second measure per arm,
//! `bytes_per_second` or `elements_per_second`: the rate at the median, and at the third and first
//! quartiles (the slower quartile is the lower rate). A comparison whose instructions were
//! counted adds `instructions` per arm: its instructions per call, exact, so without bounds. A
//! benchmark measured alone (no `RTCOMPARE_BASELINE`) is one benchmark, `<test name>`, with the
//! same measures: its median over the rounds and their quartiles (the interval of its median,
//! which the console prints, is in the results file).

use super::tracking::ArmEntry;
use rtcompare_judge::Metric;
use serde_json::{Map, Value, json};

/// The measure an arm is reported under: Bencher's `latency` for time (nanoseconds, its unit),
/// the metric's own name for the counted metrics.
pub(crate) fn measure(metric: Metric) -> &'static str {
    match metric {
        Metric::Time => "latency",
        Metric::AllocBytes | Metric::Allocs | Metric::Instructions => metric.as_str(),
    }
}

/// The arms (from [`super::tracking::arm_entries`]) in the Bencher Metric Format, as JSON text
/// (`{}` when nothing was measured).
pub(crate) fn render(arms: &[ArmEntry]) -> String {
    let mut benchmarks = Map::new();
    for arm in arms {
        let metric = json!({ "value": arm.median, "lower_value": arm.q1, "upper_value": arm.q3 });
        let mut measures = Map::new();
        measures.insert(measure(arm.metric).to_owned(), metric);
        if let Some(work) = arm.work {
            // The slower quartile is the lower rate.
            let rate = json!({
                "value": work.per_second(arm.median),
                "lower_value": work.per_second(arm.q3),
                "upper_value": work.per_second(arm.q1),
            });
            measures.insert(format!("{}_per_second", work.unit.as_str()), rate);
        }
        if let Some(count) = arm.instructions {
            // Counted exactly, so no bounds: Bencher's `instructions` measure.
            measures.insert("instructions".to_owned(), json!({ "value": count }));
        }
        benchmarks.insert(arm.name.clone(), Value::Object(measures));
    }
    // Serializing a tree of plain JSON values cannot fail; an empty string would show it did.
    let mut text = serde_json::to_string_pretty(&Value::Object(benchmarks)).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    /// The example on Bencher's reference page, one benchmark with the latency measure and all
    /// three values (<https://bencher.dev/docs/reference/bencher-metric-format/>).
    const PUBLISHED_EXAMPLE: &str = r#"{
        "benchmark_name": {
            "latency": {
                "value": 88.0,
                "lower_value": 87.42,
                "upper_value": 88.88
            }
        }
    }"#;

    fn rendered(tests: &[crate::Test]) -> Value {
        serde_json::from_str(&render(&crate::tracking::arm_entries(tests))).unwrap()
    }

    #[test]
    fn the_file_has_exactly_the_shape_of_the_published_example() {
        let example: Value = serde_json::from_str(PUBLISHED_EXAMPLE).unwrap();
        let records =
            [fixtures::record("perf::fast_vs_slow", 25.0, 100.0), fixtures::record("perf::x_vs_slow", 50.0, 100.0)];
        let ours = rendered(&records);
        // Benchmark and measure names are free (the schema's `patternProperties: ".+"`); every
        // other key, every type and the nesting must match.
        assert_eq!(fixtures::skeleton(&ours, &[0, 1]), fixtures::skeleton(&example, &[0, 1]), "{ours:#}");
        let benchmarks = ours.as_object().unwrap();
        assert_eq!(benchmarks.len(), 4);
        for (name, measures) in benchmarks {
            assert!(!name.is_empty() && name.len() <= 1024, "{name}");
            let measures = measures.as_object().unwrap();
            assert_eq!(measures.keys().collect::<Vec<_>>(), ["latency"]);
            let m = &measures["latency"];
            let (low, value, high) = (m["lower_value"].as_f64(), m["value"].as_f64(), m["upper_value"].as_f64());
            assert!(low <= value && value <= high, "{m}");
        }
    }

    #[test]
    fn the_values_are_the_arms_medians_and_quartiles_in_nanoseconds() {
        let records = [fixtures::record("perf::fast_vs_slow", 25.0, 100.0)];
        let ours = rendered(&records);
        let report = &records[0].judgement.as_ref().unwrap().first;
        let candidate = &ours["perf::fast_vs_slow/candidate"]["latency"];
        assert_eq!(candidate["value"].as_f64(), Some(report.candidate_summary.median));
        assert_eq!(candidate["lower_value"].as_f64(), Some(report.candidate_summary.q1));
        assert_eq!(candidate["upper_value"].as_f64(), Some(report.candidate_summary.q3));
        assert_eq!(
            ours["perf::fast_vs_slow/baseline"]["latency"]["value"].as_f64(),
            Some(report.baseline_summary.median)
        );
    }

    #[test]
    fn a_pair_with_throughput_adds_each_arms_rate_as_a_measure() {
        use rtcompare_judge::measure::{ThroughputUnit, Work};
        let work = Some(Work { unit: ThroughputUnit::Bytes, per_call: 4096 });
        let records = [crate::Test { work, ..fixtures::record("perf::fast_vs_slow", 25.0, 100.0) }];
        let ours = rendered(&records);
        let report = &records[0].judgement.as_ref().unwrap().first;
        let rate = &ours["perf::fast_vs_slow/candidate"]["bytes_per_second"];
        assert_eq!(rate["value"].as_f64(), Some(4096.0 * 1e9 / report.candidate_summary.median));
        assert_eq!(rate["lower_value"].as_f64(), Some(4096.0 * 1e9 / report.candidate_summary.q3));
        assert!(ours["perf::fast_vs_slow/baseline"]["latency"]["value"].is_number());
    }

    #[test]
    fn counted_instructions_are_a_measure_of_each_arm_without_bounds() {
        use crate::instructions::tests::counts;
        let instructions = Some(counts(25_027.0, 20_019.0, rtcompare_judge::Outcome::Loss));
        let records = [crate::Test { instructions, ..fixtures::record("perf::fast_vs_slow", 125.0, 100.0) }];
        let ours = rendered(&records);
        assert_eq!(ours["perf::fast_vs_slow/candidate"]["instructions"], json!({ "value": 25_027.0 }));
        assert_eq!(ours["perf::fast_vs_slow/baseline"]["instructions"], json!({ "value": 20_019.0 }));
        assert!(ours["perf::fast_vs_slow/baseline"]["latency"]["value"].is_number());
    }

    #[test]
    fn allocation_metrics_use_a_measure_named_after_the_metric_and_nothing_measured_is_empty() {
        assert_eq!(measure(Metric::Time), "latency");
        assert_eq!(measure(Metric::AllocBytes), "alloc_bytes");
        assert_eq!(measure(Metric::Allocs), "allocs");
        let mut report = fixtures::report(25.0, 100.0);
        report.metric = Metric::Allocs;
        assert!(rendered(&[fixtures::measured("perf::fast_vs_slow", report)])["perf::fast_vs_slow/candidate"]["allocs"]["value"].is_number());
        assert_eq!(rendered(&[fixtures::panicked("perf::boom_vs_slow")]), json!({}));
    }

    #[test]
    fn a_benchmark_measured_alone_is_one_benchmark_with_its_median_and_quartiles() {
        use rtcompare_judge::measure::{ThroughputUnit, Work};
        let work = Some(Work { unit: ThroughputUnit::Elements, per_call: 10 });
        let alone = crate::Test { work, ..fixtures::alone_test("parse/small", 1_000.0) };
        let summary = alone.alone.as_ref().unwrap().summary;
        let ours = rendered(&[alone, fixtures::record("perf::fast_vs_slow", 25.0, 100.0)]);
        let latency = &ours["parse/small"]["latency"];
        assert_eq!(latency["value"].as_f64(), Some(summary.median));
        assert_eq!(
            (latency["lower_value"].as_f64(), latency["upper_value"].as_f64()),
            (Some(summary.q1), Some(summary.q3))
        );
        assert_eq!(ours["parse/small"]["elements_per_second"]["value"].as_f64(), Some(10.0 * 1e9 / summary.median));
        assert!(ours.get("parse/small/candidate").is_none(), "{ours:#}");
        assert_eq!(ours.as_object().unwrap().len(), 3, "the benchmark and the comparison's two arms: {ours:#}");
    }
}
