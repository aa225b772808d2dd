//! The github-action-benchmark file (`RTCOMPARE_GHA_BENCHMARK`), for that action's
//! `tool: 'customSmallerIsBetter'`: a JSON array of `{name, unit, value, range, extra}`.
//! Format: the "customBiggerIsBetter / customSmallerIsBetter" section of
//! <https://github.com/benchmark-action/github-action-benchmark>; fields in
//! `docs/results-schema.md`.
//!
//! Each arm of each measured comparison is one entry, `<test name>/candidate` and
//! `<test name>/baseline`: `value` is the arm's median per-operation value over the rounds (in
//! `ns`, a unit the action converts between, or `bytes` / `allocs`), `range` is `± ` half its
//! interquartile range (the form the action's own extractors write and its comments parse), and
//! `extra` (shown in the chart's tooltip) says what the arm was compared with and the verdict. A
//! comparison whose instructions were counted adds `<test name>/<arm> (instructions)` per arm,
//! in `instructions` per call. A benchmark measured alone (no `RTCOMPARE_BASELINE`) is one entry,
//! `<test name>`, with the same figures and an `extra` that says it has no verdict.

use super::tracking::{ALONE, ArmEntry};
use serde::Serialize;

/// One entry of the array, in the action's `BenchmarkResult` layout.
#[derive(Serialize)]
struct Entry {
    name: String,
    unit: &'static str,
    value: f64,
    range: String,
    extra: String,
}

/// The arms (from [`super::tracking::arm_entries`]) as github-action-benchmark
/// `customSmallerIsBetter` JSON (`[]` when nothing was measured); `unoptimised` says the run
/// measured a debug build on purpose.
pub(crate) fn render(arms: &[ArmEntry], unoptimised: bool) -> String {
    let mut entries: Vec<Entry> = Vec::new();
    for arm in arms {
        entries.push(entry(arm, unoptimised));
        entries.extend(arm.instructions.map(|count| instructions_entry(arm, count)));
    }
    // Serializing plain structs cannot fail; an empty string would show it did.
    let mut text = serde_json::to_string_pretty(&entries).unwrap_or_default();
    text.push('\n');
    text
}

fn entry(arm: &ArmEntry, unoptimised: bool) -> Entry {
    let unit = arm.metric.unit();
    let other = if arm.arm == "candidate" { "baseline" } else { "candidate" };
    let mut extra = String::new();
    if unoptimised {
        extra.push_str("unoptimised (debug) build, measured with RTCOMPARE_DEBUG=1\n");
    }
    let compared = if arm.arm == ALONE {
        format!("`{}` measured alone, without a verdict (no RTCOMPARE_BASELINE)", arm.function)
    } else {
        format!(
            "{} `{}` against the {other} `{}`: {}, ratio {} (candidate / baseline)",
            arm.arm,
            arm.function,
            arm.against,
            arm.verdict,
            significant(arm.ratio, 4)
        )
    };
    extra.push_str(&format!(
        "{compared}\nmedian of {} rounds; range ± half the interquartile range ({} to {} {unit})",
        arm.rounds,
        significant(arm.q1, 6),
        significant(arm.q3, 6),
    ));
    Entry {
        name: arm.name.clone(),
        unit,
        value: arm.median,
        range: format!("± {}", significant((arm.q3 - arm.q1) / 2.0, 4)),
        extra,
    }
}

/// The entry of an arm's instructions per call, `<test name>/<arm> (instructions)`: exact, so
/// its range is `± 0`.
fn instructions_entry(arm: &ArmEntry, count: f64) -> Entry {
    Entry {
        name: format!("{} (instructions)", arm.name),
        unit: "instructions",
        value: count,
        range: "± 0".to_owned(),
        extra: format!("{} `{}`: instructions per call, counted under callgrind", arm.arm, arm.function),
    }
}

/// `value` with `digits` significant digits (more before the point), without an exponent:
/// `1.235`, `0.0001235`, `31302` with four.
fn significant(value: f64, digits: i32) -> String {
    if !value.is_finite() || value == 0.0 {
        return format!("{value}");
    }
    let decimals = (digits - 1 - value.abs().log10().floor() as i32).clamp(0, 15) as usize;
    format!("{value:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;
    use serde_json::Value;

    /// The example in github-action-benchmark's README for the custom tools: the second entry
    /// has every field, the first only the required ones.
    const PUBLISHED_EXAMPLE: &str = r#"[
        {
            "name": "My Custom Smaller Is Better Benchmark - CPU Load",
            "unit": "Percent",
            "value": 50
        },
        {
            "name": "My Custom Smaller Is Better Benchmark - Memory Used",
            "unit": "Megabytes",
            "value": 100,
            "range": "3",
            "extra": "Value for Tooltip: 25\nOptional Num #2: 100\nAnything Else!"
        }
    ]"#;

    fn rendered(tests: &[crate::Test], debug: bool) -> Value {
        serde_json::from_str(&render(&crate::tracking::arm_entries(tests), debug)).unwrap()
    }

    #[test]
    fn every_entry_has_exactly_the_shape_of_the_published_example_with_every_field() {
        let example: Value = serde_json::from_str(PUBLISHED_EXAMPLE).unwrap();
        let records =
            [fixtures::record("perf::fast_vs_slow", 25.0, 100.0), fixtures::record("perf::x_vs_slow", 50.0, 100.0)];
        let ours = rendered(&records, false);
        assert_eq!(ours.as_array().map(Vec::len), Some(4), "{ours:#}");
        let full_entry = fixtures::skeleton(&example[1], &[]);
        assert_eq!(fixtures::skeleton(&ours, &[]), Value::Array(vec![full_entry]), "{ours:#}");
        // The required fields are the first entry's; ours have them all.
        for key in example[0].as_object().unwrap().keys() {
            assert!(ours.as_array().unwrap().iter().all(|entry| entry.get(key).is_some()), "{key}");
        }
    }

    #[test]
    fn values_are_medians_in_nanoseconds_and_ranges_parse_as_the_action_reads_them() {
        let records = [fixtures::record("perf::fast_vs_slow", 25.0, 100.0)];
        let ours = rendered(&records, false);
        let report = &records[0].judgement.as_ref().unwrap().first;
        let candidate = &ours[0];
        assert_eq!(candidate["name"], "perf::fast_vs_slow/candidate");
        assert_eq!(candidate["unit"], "ns");
        assert_eq!(candidate["value"].as_f64(), Some(report.candidate_summary.median));
        assert_eq!(ours[1]["name"], "perf::fast_vs_slow/baseline");
        // The action's extractRangeInfo: `(\+-|±)\s*` then a number.
        let range = candidate["range"].as_str().unwrap();
        let half: f64 = range.strip_prefix("± ").and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{range}"));
        let expected = (report.candidate_summary.q3 - report.candidate_summary.q1) / 2.0;
        assert!((half - expected).abs() <= expected * 1e-3, "{range} against {expected}");
        let extra = candidate["extra"].as_str().unwrap();
        assert!(
            extra.starts_with("candidate `fast` against the baseline `slow`: win (resolved), ratio 0.2"),
            "{extra}"
        );
        assert!(!extra.contains("unoptimised"));
        assert!(rendered(&records, true)[0]["extra"].as_str().unwrap().starts_with("unoptimised (debug) build"));
    }

    #[test]
    fn counted_instructions_are_an_entry_of_their_own_per_arm() {
        use crate::instructions::tests::counts;
        let instructions = Some(counts(25_027.0, 20_019.0, rtcompare_judge::Outcome::Loss));
        let records = [crate::Test { instructions, ..fixtures::record("perf::fast_vs_slow", 125.0, 100.0) }];
        let ours = rendered(&records, false);
        let names: Vec<&str> = ours.as_array().unwrap().iter().filter_map(|e| e["name"].as_str()).collect();
        assert_eq!(
            names,
            [
                "perf::fast_vs_slow/candidate",
                "perf::fast_vs_slow/candidate (instructions)",
                "perf::fast_vs_slow/baseline",
                "perf::fast_vs_slow/baseline (instructions)"
            ]
        );
        assert_eq!((ours[1]["unit"].as_str(), ours[1]["value"].as_f64()), (Some("instructions"), Some(25_027.0)));
        assert_eq!(ours[3]["range"], "± 0");
    }

    #[test]
    fn numbers_keep_their_significant_digits_without_an_exponent() {
        assert_eq!(significant(1.23456, 4), "1.235");
        assert_eq!(significant(0.000123456, 4), "0.0001235");
        assert_eq!(significant(31301.6, 4), "31302");
        assert_eq!(significant(3055.7317, 6), "3055.73");
        assert_eq!(significant(0.0, 4), "0");
        assert_eq!(rendered(&[fixtures::panicked("perf::boom_vs_slow")], false), Value::Array(Vec::new()));
    }

    #[test]
    fn a_benchmark_measured_alone_is_one_entry_that_says_it_has_no_verdict() {
        let ours = rendered(&[fixtures::alone_test("parse/small", 1_000.0)], false);
        let entries = ours.as_array().unwrap();
        assert_eq!(entries.len(), 1, "{ours:#}");
        assert_eq!(entries[0]["name"], "parse/small");
        assert_eq!(entries[0]["unit"], "ns");
        let extra = entries[0]["extra"].as_str().unwrap();
        assert!(extra.starts_with("`parse/small` measured alone, without a verdict"), "{extra}");
        assert!(!extra.contains("ratio"), "{extra}");
    }
}
