//! A comparison's [`Report`] and what it is made of, and how to show one: the text block
//! printed under a test ([`render_text`]), its picture ([`render_svg`]), and the units both use
//! ([`format_value`], [`format_ns`]).
//!
//! ```
//! use rtcompare_runtime::report::{Detail, render_text};
//! use rtcompare_runtime::{Arm, Options, compare};
//! use std::time::Duration;
//! let options = Options { budget: Duration::from_millis(20), ..Options::default() };
//! let report = compare(Arm::from_fn("add", || 1 + 1), Arm::from_fn("mul", || 2 * 1), &options);
//! println!("{}", render_text(&report, Detail::Short));
//! ```
//!
//! Every sentence about a verdict is written here too ([`sentence`] for a caveat, a test's
//! failure), and inside the crate this module makes the files a run leaves behind (the JSON results
//! file, a Markdown summary, one SVG picture per comparison, and the files continuous-benchmarking
//! tools read: Bencher Metric Format and github-action-benchmark JSON), from the record each
//! comparison of the run saved.

mod atomic;
mod bmf;
mod failure;
mod files;
mod gha;
#[cfg(test)]
mod golden;
mod instructions;
mod json;
mod markdown;
mod ranking;
mod records;
mod run;
mod sentences;
mod svg;
mod text;
mod tracking;

pub use crate::measure::{Calibration, Samples, Series};
pub use crate::units::{format_ns, format_value};
pub use crate::validate::{PlacementSpread, Validation};
pub use crate::verdict::{
    ArmRole, CLEAR_BEYOND_TOLERANCE, Caveat, DriftSeries, DriftTests, Ending, Report, ResamplingInfo, RoundFigures,
    Settle, ThresholdConfidence, Validations, Verdict, WarningKind,
};
pub(crate) use atomic::write_atomically;
pub(crate) use failure::{Failure, failure_message, uncounted_message, unoptimised_note};
pub(crate) use files::{Destinations, Mode, Requested, Written, binary_name};
pub(crate) use instructions::with_counts;
pub(crate) use ranking::rankings;
pub(crate) use run::{Run, Test};
pub use sentences::sentence;
pub(crate) use sentences::{first_round_said, placement_summary};
pub use svg::render_svg;
pub use text::{Detail, render_text};
pub(crate) use text::{Line, factor_words, outcome_line, text_lines};

/// Reports and records with known figures, for the tests of every output.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::run::{Run, Test};
    use crate::environment::Environment;
    use crate::measure::{Calibration, Samples, Series};
    use crate::verdict::{Confirmation, Ending, Judgement};
    use crate::{JudgeOptions, Metric, Report, judge};
    use std::time::Duration;

    /// Rounds in every fixture report.
    pub(crate) const ROUNDS: usize = 60;

    /// A series around `median` with a deterministic ±2 % wobble, measured at `slot` of each
    /// round of four.
    fn series(median: f64, slot: u32, phase: usize) -> Series {
        let per_op = (0..ROUNDS).map(|i| median * (1.0 + 0.002 * (((i * 37 + phase) % 11) as f64 - 5.0))).collect();
        let position = (0..ROUNDS as u32).map(|round| round * 4 + slot).collect();
        Series { per_op, position, placements: Vec::new() }
    }

    /// A judged report of a candidate around `candidate` ns/op against a baseline around
    /// `baseline` ns/op.
    pub(crate) fn report(candidate: f64, baseline: f64) -> Report {
        let samples = Samples {
            candidate_iters: 1000,
            baseline_iters: 1000,
            candidate: series(candidate, 0, 0),
            candidate_twin: series(candidate, 1, 3),
            baseline: series(baseline, 2, 5),
            baseline_twin: series(baseline, 3, 7),
        };
        let calibration = Calibration {
            resolution: 20.0,
            clock_step_ns: 20.0,
            candidate_iters: 1000,
            baseline_iters: 1000,
            target_batch_ns: 20_000.0,
            candidate_batch_ns: candidate * 1000.0,
            baseline_batch_ns: baseline * 1000.0,
            first_call_ns: 0.0,
        };
        let options = JudgeOptions { resamples: 500, seed: 7, ..JudgeOptions::default() };
        judge("fast", "slow", Metric::Time, calibration, samples, &options)
    }

    /// `first` with a confirmation that `second` repeated it at the first look.
    pub(crate) fn confirmed(first: Report, second: Report) -> Judgement {
        crate::decide::conclude(
            first,
            Confirmation { report: second, confirmed: true, planned: 10, ending: Ending::Confirmed, settle: None },
        )
    }

    /// A test of `fast` against `slow` declared in `tests/perf.rs`, with what came of it.
    fn test(name: &str, candidate: &str, judgement: Option<Judgement>, failure: Option<&str>) -> Test {
        Test {
            name: name.to_owned(),
            module_path: "perf".to_owned(),
            candidate: candidate.to_owned(),
            baseline: "slow".to_owned(),
            metric: Metric::Time,
            expect: "no_loss".to_owned(),
            size: None,
            work: None,
            file: "tests/perf.rs".to_owned(),
            line: 12,
            judgement,
            fails: None,
            failure: failure.map(str::to_owned),
            instructions: None,
            instructions_not_counted: None,
        }
    }

    /// A measured, passing test.
    pub(crate) fn record(name: &str, candidate: f64, baseline: f64) -> Test {
        measured(name, report(candidate, baseline))
    }

    /// A passing test that measured `report` and confirmed nothing.
    pub(crate) fn measured(name: &str, report: Report) -> Test {
        judged(name, Judgement::of(report))
    }

    /// A passing test judged so.
    pub(crate) fn judged(name: &str, judgement: Judgement) -> Test {
        test(name, "fast", Some(judgement), None)
    }

    /// A test whose measured function panicked.
    pub(crate) fn panicked(name: &str) -> Test {
        test(name, "boom", None, Some("a measured function panicked: boom"))
    }

    /// A run of `tests` with the default budget and seed.
    pub(crate) fn run<'a>(environment: &'a Environment, tests: &'a [Test], unoptimised: bool) -> Run<'a> {
        Run { binary: "perf", budget: Duration::from_secs(1), seed: 0x005E_ED0F_C0A7, unoptimised, environment, tests }
    }

    /// The environment of this machine, read as a run would.
    pub(crate) fn environment() -> Environment {
        Environment::read(false)
    }

    /// The shape of a JSON document, to check a file against a published example: each number
    /// becomes `"number"`, each string `"string"` (and so on), an array the distinct shapes of
    /// its elements. The keys of objects at the nesting depths in `named` (0 = the top) are
    /// names rather than fields: they become one `"*"`, and all their values must share a shape.
    pub(crate) fn skeleton(value: &serde_json::Value, named: &[usize]) -> serde_json::Value {
        skeleton_at(value, named, 0)
    }

    fn skeleton_at(value: &serde_json::Value, named: &[usize], depth: usize) -> serde_json::Value {
        use serde_json::Value;
        match value {
            Value::Null => "null".into(),
            Value::Bool(_) => "boolean".into(),
            Value::Number(_) => "number".into(),
            Value::String(_) => "string".into(),
            Value::Array(items) => {
                let mut shapes: Vec<Value> = Vec::new();
                for shape in items.iter().map(|item| skeleton_at(item, named, depth + 1)) {
                    if !shapes.contains(&shape) {
                        shapes.push(shape);
                    }
                }
                Value::Array(shapes)
            }
            Value::Object(map) if named.contains(&depth) => {
                let shapes: Vec<Value> = map.values().map(|v| skeleton_at(v, named, depth + 1)).collect();
                assert!(shapes.windows(2).all(|w| w[0] == w[1]), "named entries differ in shape: {shapes:?}");
                serde_json::json!({ "*": shapes.first().cloned().unwrap_or(Value::Null) })
            }
            Value::Object(map) => {
                Value::Object(map.iter().map(|(k, v)| (k.clone(), skeleton_at(v, named, depth + 1))).collect())
            }
        }
    }
}
