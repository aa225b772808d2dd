//! How rtcompare tells a comparison's outcome: every sentence about a verdict ([`sentence`] for a
//! caveat, a test's failure), the text block printed under a test ([`render_text`]), its picture
//! ([`render_svg`]), the units they share ([`format_value`], [`format_ns`]), and the files a run
//! leaves behind: the JSON results file, a Markdown summary, one SVG picture per comparison, and
//! the files continuous-benchmarking tools read (Bencher Metric Format, github-action-benchmark
//! JSON). Each comparison saves its [`Test`] record in the run's folder; the run's files are
//! rendered from every record there ([`Destinations::write`]).
//!
//! An internal crate: depend on `rtcompare`, which re-exports the public API. Its version moves
//! together with rtcompare's, and it is not stable on its own. It neither measures nor judges:
//! it renders what `rtcompare-judge` decided and the runtime recorded. Apart from the files it
//! writes and the run's records it reads back, it reaches nothing outside: no clock, no
//! environment variable, no process (the runtime tells it where the files go,
//! [`Destinations::new`]; `judge/tests/pure.rs` checks it).
//!
//! ```
//! use rtcompare::report::{Detail, render_text};
//! use rtcompare::{Arm, Options, compare};
//! use std::time::Duration;
//! let options = Options { budget: Duration::from_millis(20), ..Options::default() };
//! let report = compare(Arm::from_fn("add", || 1 + 1), Arm::from_fn("mul", || 2 * 1), &options);
//! println!("{}", render_text(&report, Detail::Short));
//! ```

#![warn(missing_docs)]
#![warn(unnameable_types)]
#![warn(unreachable_pub)]

mod alone;
mod annotations;
mod atomic;
mod bmf;
mod comment;
mod environment;
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
mod units;

// The judging crate's modules and names, as the rendering code names them.

pub use alone::alone_lines;
pub use annotations::{PER_KIND, annotations};
pub use atomic::write_atomically;
pub use comment::{COMMENT_LIMIT, comment_marker};
pub use environment::{Environment, Git, Profile, Target, UNKNOWN};
pub use failure::{Failure, failure_message, uncounted_message, unoptimised_note};
pub use files::{
    Destinations, MarkdownTarget, Mode, OutputError, Requested, TrackingFormat, TrackingTarget, Written, binary_name,
};
pub use instructions::with_counts;
pub use ranking::{Ranking, rankings};
pub use run::{Revision, Run, Test};
pub use sentences::{first_round_said, placement_summary, sentence};
pub use svg::render_svg;
pub use text::{Detail, Line, in_one_process, parity_counts, render_text, text_lines};
pub use units::{format_ns, format_value};

/// Reports and records with known figures, for the tests of every output.
#[cfg(test)]
pub mod fixtures {
    use super::run::{Run, Test};
    use crate::environment::{Environment, Git, Profile, Target, UNKNOWN};
    use rtcompare_judge::measure::{Calibration, Samples, Series};
    use rtcompare_judge::verdict::{Confirmation, Ending, Judgement};
    use rtcompare_judge::{JudgeOptions, Metric, Report, judge};
    use std::time::Duration;

    /// Rounds in every fixture report.
    pub const ROUNDS: usize = 60;

    /// A series around `median` with a deterministic ±2 % wobble, measured at `slot` of each
    /// round of four.
    fn series(median: f64, slot: u32, phase: usize) -> Series {
        let per_op = (0..ROUNDS).map(|i| median * (1.0 + 0.002 * (((i * 37 + phase) % 11) as f64 - 5.0))).collect();
        let position = (0..ROUNDS as u32).map(|round| round * 4 + slot).collect();
        Series { per_op, position, placements: Vec::new() }
    }

    /// A judged report of a candidate around `candidate` ns/op against a baseline around
    /// `baseline` ns/op.
    pub fn report(candidate: f64, baseline: f64) -> Report {
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

    /// `first` with a confirmation whose `second` did not repeat it at its last look.
    pub fn unconfirmed(first: Report, second: Report) -> Judgement {
        rtcompare_judge::decide::conclude(
            first,
            Confirmation { report: second, confirmed: false, planned: 10, ending: Ending::LastLook, settle: None },
        )
    }

    /// `first`, whose time cap left no room for the fewest fresh processes its test needs.
    pub fn out_of_time(first: Report) -> Judgement {
        let plan = rtcompare_judge::decide::Plan { alpha: 0.01, processes: 4, budget: Duration::from_secs(1) };
        rtcompare_judge::decide::without_room(first, &plan)
    }

    /// `first` with a confirmation that `second` repeated it at the first look.
    pub fn confirmed(first: Report, second: Report) -> Judgement {
        rtcompare_judge::decide::conclude(
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
            revision: None,
            alone: None,
            duration_s: 0.5,
        }
    }

    /// A benchmark around `median` ns/op measured alone, with the same ±2 % wobble as the
    /// fixture reports' series.
    pub fn alone(median: f64) -> rtcompare_judge::alone::Alone {
        let samples = Samples {
            candidate_iters: 1000,
            baseline_iters: 1000,
            candidate: series(median, 0, 0),
            candidate_twin: series(median, 1, 3),
            baseline: series(median, 2, 5),
            baseline_twin: series(median, 3, 7),
        };
        rtcompare_judge::alone::measured_alone(&samples, Metric::Time, 0.95, 500, 7)
    }

    /// A passing benchmark `name` measured alone around `median` ns/op, a front-end's (its
    /// candidate and baseline are its own name).
    pub fn alone_test(name: &str, median: f64) -> Test {
        Test { baseline: name.to_owned(), alone: Some(alone(median)), ..test(name, name, None, None) }
    }

    /// A measured, passing test.
    pub fn record(name: &str, candidate: f64, baseline: f64) -> Test {
        measured(name, report(candidate, baseline))
    }

    /// A passing test that measured `report` and confirmed nothing.
    pub fn measured(name: &str, report: Report) -> Test {
        judged(name, Judgement::of(report))
    }

    /// A passing test judged so.
    pub fn judged(name: &str, judgement: Judgement) -> Test {
        test(name, "fast", Some(judgement), None)
    }

    /// A test whose measured function panicked.
    pub fn panicked(name: &str) -> Test {
        test(name, "boom", None, Some("a measured function panicked: boom"))
    }

    /// A run of `tests` with the default budget and seed.
    pub fn run<'a>(environment: &'a Environment, tests: &'a [Test], unoptimised: bool) -> Run<'a> {
        Run { binary: "perf", budget: Duration::from_secs(1), seed: 0x005E_ED0F_C0A7, unoptimised, environment, tests }
    }

    /// A quiet, optimised machine: one no warning is about.
    pub fn environment() -> Environment {
        Environment {
            started_at: "2026-01-01T00:00:00Z".to_owned(),
            cpu_model: "test".to_owned(),
            cores: 8,
            load_average_start: Some([0.5, 0.5, 0.5]),
            load_average_end: None,
            governor: "performance".to_owned(),
            power: "ac".to_owned(),
            rustc: UNKNOWN.to_owned(),
            profile: Profile { debug_assertions: false, opt_level: UNKNOWN.to_owned() },
            target: Target { arch: "x86_64".to_owned(), os: "linux".to_owned(), family: "unix".to_owned() },
            git: Some(Git { commit: "0".repeat(40), dirty: false }),
        }
    }

    /// The names in `dir`, sorted.
    pub(crate) fn entries(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    /// The shape of a JSON document, to check a file against a published example: each number
    /// becomes `"number"`, each string `"string"` (and so on), an array the distinct shapes of
    /// its elements. The keys of objects at the nesting depths in `named` (0 = the top) are
    /// names rather than fields: they become one `"*"`, and all their values must share a shape.
    pub fn skeleton(value: &serde_json::Value, named: &[usize]) -> serde_json::Value {
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
