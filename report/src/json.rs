//! The results file: every comparison of a run with its judgement — the verdict, its caveats,
//! the first round and the confirmation with every figure and the raw samples — in a versioned
//! JSON schema documented in `docs/results-schema.md`.
//!
//! The judgement is written as the domain types serialise themselves; the few structs here only
//! add what a reader would otherwise compute: the test's facts beside it, whether it passed, each
//! caveat's sentence, the rates of a pair with `throughput` and the mean over processes. A change
//! to a field's name or meaning is a new [`SCHEMA_VERSION`].

use super::run::{Revision, Run, Test};
use super::sentences::sentence;
use crate::environment::Environment;
use rtcompare_judge::Metric;
use rtcompare_judge::alone::Alone;
use rtcompare_judge::counts::Instructions;
use rtcompare_judge::verdict::{Caveat, Confirmation, ProcessMean, Report, Verdict};
use serde::Serialize;
use serde_json::ser::Formatter;
use std::io;

/// The version of the results file's layout.
pub(crate) const SCHEMA_VERSION: u32 = 2;

#[derive(Serialize)]
struct ResultsFile<'a> {
    schema_version: u32,
    rtcompare_version: &'static str,
    binary: &'a str,
    settings: RunSettings,
    environment: &'a Environment,
    /// The seconds every comparison of the run took, added up.
    duration_s: f64,
    comparisons: Vec<Comparison<'a>>,
}

#[derive(Serialize)]
struct RunSettings {
    time_s: f64,
    seed: u64,
}

/// One test in the file: its facts, then its judgement's parts (all `null`, and lists empty, for
/// a test that measured nothing).
#[derive(Serialize)]
struct Comparison<'a> {
    name: &'a str,
    /// The git revision of a comparison against one; `null` for a pair in one build.
    revision: Option<&'a Revision>,
    candidate: &'a str,
    baseline: &'a str,
    metric: Metric,
    unit: &'static str,
    size: Option<u64>,
    /// The rates of a pair with `throughput`; `null` without.
    throughput: Option<Rates>,
    file: &'a str,
    line: u32,
    expect: &'a str,
    passed: bool,
    duration_s: f64,
    failure: Option<&'a str>,
    verdict: Option<&'a Verdict>,
    /// Each caveat of `caveats` in words, in the same order.
    warnings: Vec<Warning>,
    caveats: &'a [Caveat],
    /// The difference averaged over every process measured, once a confirmation ran.
    over_processes: Option<ProcessMean>,
    first: Option<&'a Report>,
    confirmation: Option<&'a Confirmation>,
    /// Instructions per call counted under callgrind beside time; `null` where not counted.
    instructions: Option<&'a Instructions>,
    /// Why not, where counting was on and they were not counted.
    instructions_not_counted: Option<&'a str>,
    /// A benchmark measured alone, without a verdict: its median per operation and that
    /// median's interval; `null` for a comparison.
    alone: Option<&'a Alone>,
}

/// What a pair with `throughput` processes per call, and each arm's rate.
#[derive(Serialize)]
struct Rates {
    unit: &'static str,
    per_op: u64,
    /// Units per second at each arm's median time per operation; `null` when nothing was measured.
    candidate: Option<f64>,
    baseline: Option<f64>,
}

/// A caveat as people read it: its kind's name and its sentence.
#[derive(Serialize)]
struct Warning {
    kind: &'static str,
    message: String,
}

/// The results file of a run, as JSON text.
pub(crate) fn render(run: &Run<'_>) -> String {
    let file = ResultsFile {
        schema_version: SCHEMA_VERSION,
        rtcompare_version: env!("CARGO_PKG_VERSION"),
        binary: run.binary,
        settings: RunSettings { time_s: run.budget.as_secs_f64(), seed: run.seed },
        environment: run.environment,
        duration_s: run.tests.iter().map(|test| test.duration_s).sum(),
        comparisons: run.tests.iter().map(comparison).collect(),
    };
    let mut out = Vec::new();
    // Serializing these plain structs into memory cannot fail; an empty file would say so.
    let _ = file.serialize(&mut serde_json::Serializer::with_formatter(&mut out, FlatArrays::default()));
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_default()
}

/// The names of the comparisons in the results file at `path`; none where there is no such file
/// or it cannot be read.
pub(crate) fn names(path: &std::path::Path) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Named {
        name: String,
    }
    #[derive(serde::Deserialize)]
    struct Names {
        comparisons: Vec<Named>,
    }
    let read = std::fs::read(path).ok().and_then(|bytes| serde_json::from_slice::<Names>(&bytes).ok());
    read.map_or_else(Vec::new, |file| file.comparisons.into_iter().map(|c| c.name).collect())
}

fn comparison(test: &Test) -> Comparison<'_> {
    let judgement = test.judgement.as_ref();
    let first = judgement.map(|j| &j.first);
    let metric = first.map_or(test.metric, |r| r.metric);
    Comparison {
        name: &test.name,
        revision: test.revision.as_ref(),
        candidate: first.map_or(&test.candidate, |r| &r.candidate),
        baseline: first.map_or(&test.baseline, |r| &r.baseline),
        metric,
        unit: metric.unit(),
        size: test.size,
        throughput: test.work.map(|work| Rates {
            unit: work.unit.as_str(),
            per_op: work.per_call,
            candidate: first
                .map(|r| r.candidate_summary.median)
                .or(test.alone.as_ref().map(|a| a.median))
                .map(|median| work.per_second(median)),
            baseline: first.map(|r| work.per_second(r.baseline_summary.median)),
        }),
        file: &test.file,
        line: test.line,
        expect: &test.expect,
        passed: test.passed(),
        duration_s: test.duration_s,
        failure: test.failure.as_deref(),
        verdict: judgement.map(|j| &j.verdict),
        warnings: judgement.map_or_else(Vec::new, |j| {
            let warning =
                |caveat: &Caveat| Warning { kind: caveat.kind().as_str(), message: sentence(caveat, &j.first) };
            j.caveats.iter().map(warning).collect()
        }),
        caveats: judgement.map_or(&[], |j| &j.caveats),
        over_processes: judgement.and_then(|j| j.over_processes()),
        first,
        confirmation: judgement.and_then(|j| j.confirmation.as_ref()),
        instructions: test.instructions.as_ref(),
        instructions_not_counted: test.instructions_not_counted.as_deref(),
        alone: test.alone.as_ref(),
    }
}

/// Indented objects, one field a line, but arrays on one line: a series of a thousand samples
/// stays one line instead of a thousand, and the file stays readable with `less`. Objects are
/// laid out as serde_json's `PrettyFormatter` lays them out (two spaces a level).
#[derive(Default)]
struct FlatArrays {
    /// Objects open around the current position.
    depth: usize,
    /// Whether the innermost open object has a field yet.
    has_field: bool,
}

impl FlatArrays {
    fn indent<W: ?Sized + io::Write>(&self, writer: &mut W) -> io::Result<()> {
        (0..self.depth).try_for_each(|_| writer.write_all(b"  "))
    }
}

impl Formatter for FlatArrays {
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_field = false;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.has_field {
            writer.write_all(b"\n")?;
            self.indent(writer)?;
        }
        writer.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        writer.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(writer)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_field = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;
    use serde_json::Value;

    fn rendered() -> Value {
        let records = [fixtures::record("perf::fast_vs_slow", 50.0, 100.0), fixtures::panicked("perf::boom_vs_slow")];
        let environment = fixtures::environment();
        serde_json::from_str(&render(&fixtures::run(&environment, &records, false))).unwrap()
    }

    #[test]
    fn a_pair_with_throughput_records_each_arms_rate_and_others_null() {
        use rtcompare_judge::measure::{ThroughputUnit, Work};
        let work = Some(Work { unit: ThroughputUnit::Elements, per_call: 1_000 });
        let records = [
            crate::Test { work, ..fixtures::record("perf::fast_vs_slow", 50.0, 100.0) },
            crate::Test { work, ..fixtures::panicked("perf::boom_vs_slow") },
        ];
        let environment = fixtures::environment();
        let file: Value = serde_json::from_str(&render(&fixtures::run(&environment, &records, false))).unwrap();
        let t = &file["comparisons"][0]["throughput"];
        let median = file["comparisons"][0]["first"]["candidate_summary"]["median"].as_f64().unwrap();
        assert_eq!((&t["unit"], &t["per_op"]), (&Value::from("elements"), &Value::from(1_000)));
        assert_eq!(t["candidate"].as_f64(), Some(1_000.0 * 1e9 / median));
        assert!(t["baseline"].as_f64().is_some_and(|b| b < 1_000.0 * 1e9 / median), "{t}");
        assert!(file["comparisons"][1]["throughput"]["candidate"].is_null());
        assert!(rendered()["comparisons"][0]["throughput"].is_null());
    }

    #[test]
    fn a_measured_comparison_has_every_figure() {
        let file = rendered();
        assert_eq!(file["schema_version"], 2);
        let c = &file["comparisons"][0];
        assert_eq!(c["name"], "perf::fast_vs_slow");
        assert_eq!((&c["metric"], &c["unit"]), (&Value::from("time"), &Value::from("ns")));
        assert_eq!(c["verdict"]["outcome"], "win");
        assert!(c["verdict"]["ratio"].as_f64().unwrap() < 1.0, "ratio is candidate over baseline");
        let first = &c["first"];
        assert_eq!(first["verdict"], c["verdict"], "nothing confirmed: the first round's verdict");
        assert_eq!(first["samples"]["candidate"]["per_op"].as_array().unwrap().len(), fixtures::ROUNDS);
        assert_eq!(first["samples"]["baseline_twin"]["position"].as_array().unwrap().len(), fixtures::ROUNDS);
        assert!(first["resampling"]["scheme"] == "iid" || first["resampling"]["scheme"]["blocks"].is_object());
        assert!(first["duration_s"].is_number());
        assert_eq!(c["passed"], true);
        assert_eq!(c["failure"], Value::Null);
    }

    #[test]
    fn a_panicked_comparison_is_recorded_with_its_failure() {
        let file = rendered();
        let c = &file["comparisons"][1];
        assert_eq!(c["passed"], false);
        assert!(c["failure"].as_str().unwrap().contains("panicked"));
        for field in ["verdict", "first", "confirmation", "over_processes"] {
            assert_eq!(c[field], Value::Null, "{field}");
        }
        assert_eq!((&c["warnings"], &c["caveats"]), (&Value::Array(Vec::new()), &Value::Array(Vec::new())));
        assert_eq!(c["candidate"], "boom");
    }

    #[test]
    fn a_confirmation_round_is_kept_beside_the_first() {
        let judgement = fixtures::confirmed(fixtures::report(50.0, 100.0), fixtures::report(52.0, 100.0));
        let environment = fixtures::environment();
        let records = [fixtures::judged("perf::fast_vs_slow", judgement)];
        let file: Value = serde_json::from_str(&render(&fixtures::run(&environment, &records, false))).unwrap();
        let c = &file["comparisons"][0];
        let confirmation = &c["confirmation"];
        assert_eq!(
            (&confirmation["confirmed"], &confirmation["ending"]),
            (&Value::from(true), &Value::from("confirmed"))
        );
        assert_eq!(confirmation["report"]["verdict"]["outcome"], "win");
        let per_op = &confirmation["report"]["samples"]["candidate"]["per_op"];
        assert_eq!(per_op.as_array().unwrap().len(), fixtures::ROUNDS);
        assert_eq!(rendered()["comparisons"][0]["confirmation"], Value::Null);
        // The mean over processes: the first round's and the confirmation's, one process each.
        let d1 = c["first"]["estimate"]["difference"].as_f64().unwrap();
        let d2 = confirmation["report"]["estimate"]["difference"].as_f64().unwrap();
        let mean = (d1 + d2) / 2.0;
        assert!((c["over_processes"]["difference"].as_f64().unwrap() - mean).abs() < 1e-12);
        assert_eq!(c["over_processes"]["processes"], 2);
        assert_eq!(rendered()["comparisons"][0]["over_processes"], Value::Null);
    }

    #[test]
    fn arrays_stay_on_one_line() {
        let records = [fixtures::record("perf::fast_vs_slow", 50.0, 100.0)];
        let environment = fixtures::environment();
        let text = render(&fixtures::run(&environment, &records, false));
        let line = text.lines().find(|l| l.trim_start().starts_with("\"per_op\"")).unwrap();
        assert!(line.ends_with("],"), "{line}");
        assert!(text.contains("\n  \"comparisons\": [{\n"), "{text}");
    }

    #[test]
    fn caveats_are_written_as_data_and_in_words() {
        let mut report = fixtures::report(50.0, 100.0);
        let apart = Caveat::ProcessesDisagree { processes: 3, lowest: -0.02, highest: 0.03, width: 0.01 };
        report.warnings = vec![apart.clone()];
        let message = sentence(&apart, &report);
        let environment = fixtures::environment();
        let records = [fixtures::measured("perf::fast_vs_slow", report)];
        let file: Value = serde_json::from_str(&render(&fixtures::run(&environment, &records, false))).unwrap();
        let c = &file["comparisons"][0];
        assert_eq!(c["warnings"][0]["kind"], "processes_disagree");
        assert_eq!(c["warnings"][0]["message"], message.as_str());
        assert_eq!(c["caveats"][0]["processes_disagree"]["highest"], 0.03);
    }

    /// Every situation a caveat can describe is in `docs/results-schema.md`'s table of caveats,
    /// field for field, and the table names nothing a caveat does not write.
    #[test]
    fn every_caveat_is_documented_field_for_field() {
        let mut written = std::collections::BTreeSet::new();
        for caveat in &every_caveat() {
            paths(&serde_json::to_value(caveat).unwrap(), "<caveat>", &mut written);
        }
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/results-schema.md");
        let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let documented: std::collections::BTreeSet<String> = doc
            .lines()
            .filter_map(|line| {
                line.strip_prefix("| `<caveat>")?.split_once('`').map(|(field, _)| format!("<caveat>{field}"))
            })
            .flat_map(|field| expand(&field))
            .collect();
        let undocumented: Vec<&String> = written.difference(&documented).collect();
        let unwritten: Vec<&String> = documented.difference(&written).collect();
        assert!(
            undocumented.is_empty() && unwritten.is_empty(),
            "not in the doc: {undocumented:?}; not written: {unwritten:?}"
        );
    }

    /// One caveat of every situation, with made-up figures.
    fn every_caveat() -> Vec<Caveat> {
        use rtcompare_judge::stats::Outcome;
        use rtcompare_judge::verdict::{ArmRole, DriftSeries, Ending, RoundFigures};
        let report = fixtures::report(50.0, 100.0);
        let (estimate, figures) = (
            report.estimate,
            RoundFigures {
                outcome: Outcome::Loss,
                ratio: 1.1,
                estimate: report.estimate,
                tolerance: 0.04,
                processes: 4,
            },
        );
        vec![
            Caveat::Drift { series: DriftSeries::Ratio, shift: 0.1, rho: 0.5, p_value: 0.01 },
            Caveat::DriftedTogether { candidate: 0.1, baseline: 0.1 },
            Caveat::NoisyHarness { floor: 0.05, parity: 0.04 },
            Caveat::Placement { arm: ArmRole::Baseline, copies: 4, spread: 0.1 },
            Caveat::BuildsApart { builds_floor: 0.14, parity: 0.04 },
            Caveat::TimingModes { ratio: 1.1, best_ratio: 1.0, best_tolerance: 0.04 },
            Caveat::BelowFloor { side: Outcome::Win, difference: 0.05, floor: 0.06 },
            Caveat::NotBeyondTolerance { side: Outcome::Win, estimate, tolerance: 0.04 },
            Caveat::CoarseMeter { parity: 0.04, resolution: 0.05 },
            Caveat::TooWide { estimate, parity: 0.04 },
            Caveat::Autocorrelated { block: 4 },
            Caveat::ProcessesDisagree { processes: 3, lowest: -0.02, highest: 0.03, width: 0.01 },
            Caveat::FewRounds { rounds: 10, operations: 100, batch_ns: 1e6 },
            Caveat::Unconfirmed {
                side: Outcome::Loss,
                first: figures,
                fresh: figures,
                ending: Ending::LastLook,
                settle: Some(rtcompare_judge::verdict::Settle {
                    processes: 20,
                    seconds: 3.2,
                    budget: std::time::Duration::from_millis(1400),
                }),
            },
            Caveat::NoRoom {
                side: Outcome::Loss,
                first: figures,
                fewest: 12,
                room: 8,
                budget: std::time::Duration::from_millis(1500),
            },
            Caveat::Leaned { side: Outcome::Loss, first: figures, fresh: figures },
        ]
    }

    /// Every path below `prefix` in `value`, objects included.
    fn paths(value: &Value, prefix: &str, out: &mut std::collections::BTreeSet<String>) {
        if let Value::Object(map) = value {
            for (key, child) in map {
                let path = format!("{prefix}.{key}");
                out.insert(path.clone());
                paths(child, &path, out);
            }
        }
    }

    /// `a.{b,c}.d` → `a.b.d`, `a.c.d`, as the doc writes alternatives.
    fn expand(field: &str) -> Vec<String> {
        let Some(open) = field.find('{') else { return vec![field.to_owned()] };
        let close = open + field[open..].find('}').unwrap();
        field[open + 1..close]
            .split(',')
            .flat_map(|choice| expand(&format!("{}{}{}", &field[..open], choice.trim(), &field[close + 1..])))
            .collect()
    }

    #[test]
    fn a_benchmark_measured_alone_has_its_median_and_interval_and_no_verdict() {
        use rtcompare_judge::measure::{ThroughputUnit, Work};
        let work = Some(Work { unit: ThroughputUnit::Bytes, per_call: 64 });
        let records = [
            crate::Test { work, ..fixtures::alone_test("parse/small", 1_000.0) },
            fixtures::record("perf::a_vs_b", 1.0, 2.0),
        ];
        let environment = fixtures::environment();
        let file: Value = serde_json::from_str(&render(&fixtures::run(&environment, &records, false))).unwrap();
        let c = &file["comparisons"][0];
        assert_eq!((&c["passed"], &c["verdict"], &c["first"]), (&Value::from(true), &Value::Null, &Value::Null));
        let alone = records[0].alone.as_ref().unwrap();
        assert_eq!(c["alone"]["median"].as_f64(), Some(alone.median));
        assert_eq!((c["alone"]["low"].as_f64(), c["alone"]["high"].as_f64()), (Some(alone.low), Some(alone.high)));
        assert_eq!(c["alone"]["level"].as_f64(), Some(0.95));
        assert_eq!(c["throughput"]["candidate"].as_f64(), Some(64.0 * 1e9 / alone.median));
        assert_eq!(file["comparisons"][1]["alone"], Value::Null, "a comparison has no measurement alone");
    }
}
