//! The results file: every comparison of a run with its raw samples and every figure behind its
//! verdict, in a versioned JSON schema documented in `docs/results-schema.md`.
//!
//! The structs here are the schema; they borrow from the reports so that writing copies nothing.
//! A change to a field's name or meaning is a new [`SCHEMA_VERSION`].
//!
//! A file is assembled from comparisons rendered on their own, so that the processes of one
//! nextest run can each keep theirs and any of them can write the run's file from all
//! ([`super::record`]). Each comparison is rendered at the depth it has in the file, so the
//! assembled file is the same text as one rendered whole.

use super::run::Test;
use super::sentences::sentence;
use crate::environment::Environment;
use crate::measure::{Calibration, Series};
use crate::stats::{Drift, Resampling, Summary};
use crate::validate::{PlacementSpread, Validation};
use crate::{Caveat, Report};
use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::value::RawValue;
use std::io;

/// The version of the results file's layout.
pub(crate) const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct ResultsFile<'a> {
    schema_version: u32,
    rtcompare_version: &'static str,
    binary: &'a str,
    settings: RunSettings,
    environment: &'a Environment,
    comparisons: &'a [&'a RawValue],
}

#[derive(Serialize)]
struct RunSettings {
    time_s: f64,
    seed: u64,
}

#[derive(Serialize)]
struct Comparison<'a> {
    name: &'a str,
    candidate: &'a str,
    baseline: &'a str,
    metric: &'static str,
    unit: &'static str,
    size: Option<u64>,
    /// The rates of a pair with `throughput`; `null` without.
    throughput: Option<ThroughputRecord>,
    file: &'static str,
    line: u32,
    expect: &'static str,
    passed: bool,
    failure: Option<&'a str>,
    /// The first round's figures, at the top level of the comparison.
    #[serde(flatten)]
    round: Round<'a>,
    /// The second round, measured in a fresh process to confirm a loss (or a win, for `expect =
    /// "win"`); `null` when none ran.
    confirmation: Option<Round<'a>>,
    /// The difference averaged over every process measured, once a confirmation ran.
    over_processes: Option<ProcessMeanRecord>,
}

#[derive(Serialize)]
struct ThroughputRecord {
    unit: &'static str,
    per_op: u64,
    /// Units per second at each arm's median time per operation; `null` when nothing was measured.
    candidate: Option<f64>,
    baseline: Option<f64>,
}

#[derive(Serialize)]
struct ProcessMeanRecord {
    difference: f64,
    processes: usize,
}

/// The figures of one round of measurement: all `null` (and lists empty) for a test that
/// measured nothing.
#[derive(Serialize)]
struct Round<'a> {
    duration_s: Option<f64>,
    verdict: Option<VerdictRecord>,
    estimate: Option<EstimateRecord>,
    confidence: Vec<ConfidenceRecord>,
    summaries: Option<Arms<SummaryRecord>>,
    calibration: Option<CalibrationRecord>,
    validation: Option<Arms<ValidationRecord>>,
    placement: Option<Arms<Option<PlacementRecord<'a>>>>,
    drift: Option<DriftTestsRecord>,
    resampling: Option<ResamplingRecord<'a>>,
    warnings: Vec<WarningRecord>,
    samples: Option<SamplesRecord<'a>>,
}

#[derive(Serialize)]
struct Arms<T> {
    candidate: T,
    baseline: T,
}

#[derive(Serialize)]
struct VerdictRecord {
    outcome: &'static str,
    resolved: bool,
    ratio: f64,
    best_ratio: f64,
    tolerance: f64,
    best_tolerance: f64,
    noise: f64,
    floor: f64,
    parity_band: f64,
    confirmed: Option<bool>,
    first_round: &'static str,
}

#[derive(Serialize)]
struct EstimateRecord {
    difference: f64,
    low: f64,
    high: f64,
    level: f64,
}

#[derive(Serialize)]
struct ConfidenceRecord {
    threshold: f64,
    confidence: f64,
}

#[derive(Serialize)]
struct SummaryRecord {
    count: usize,
    min: f64,
    q1: f64,
    median: f64,
    q3: f64,
    max: f64,
    mean: f64,
}

#[derive(Serialize)]
struct CalibrationRecord {
    resolution: f64,
    clock_step_ns: f64,
    candidate_iters: u64,
    baseline_iters: u64,
    target_batch_ns: f64,
    candidate_batch_ns: f64,
    baseline_batch_ns: f64,
}

#[derive(Serialize)]
struct ValidationRecord {
    apparent_difference: f64,
    noise_floor: f64,
    tie_rate: f64,
    drift_rate: f64,
    autocorrelation: f64,
    false_signal_rate: f64,
    scheme: &'static str,
    block_len: Option<usize>,
}

#[derive(Serialize)]
struct PlacementRecord<'a> {
    medians: &'a [f64],
    spread: f64,
    noise: f64,
}

#[derive(Serialize)]
struct DriftTestsRecord {
    candidate: DriftRecord,
    baseline: DriftRecord,
    ratio: DriftRecord,
}

#[derive(Serialize)]
struct DriftRecord {
    rho: f64,
    p_value: f64,
    drifted: bool,
    first_half_median: f64,
    second_half_median: f64,
    shift: f64,
}

#[derive(Serialize)]
struct ResamplingRecord<'a> {
    scheme: &'static str,
    block_len: Option<usize>,
    resamples: usize,
    seed: u64,
    exact: bool,
    processes: usize,
    process_differences: &'a [f64],
}

#[derive(Serialize)]
struct WarningRecord {
    kind: &'static str,
    message: String,
}

#[derive(Serialize)]
struct SamplesRecord<'a> {
    candidate_iters: u64,
    baseline_iters: u64,
    candidate: SeriesRecord<'a>,
    candidate_twin: SeriesRecord<'a>,
    baseline: SeriesRecord<'a>,
    baseline_twin: SeriesRecord<'a>,
}

#[derive(Serialize)]
struct SeriesRecord<'a> {
    per_op: &'a [f64],
    position: &'a [u32],
    placements: &'a [Vec<f64>],
}

/// The run-wide fields of a results file, beside its comparisons.
pub(crate) struct Head<'a> {
    /// The test binary's name without Cargo's hash.
    pub binary: &'a str,
    /// The measurement budget per comparison, in seconds.
    pub time_s: f64,
    /// The run's seed.
    pub seed: u64,
    /// The machine and build.
    pub environment: &'a Environment,
}

/// The results file of a run, as JSON text.
#[cfg(test)]
pub(crate) fn render(run: &super::run::Run<'_>) -> String {
    let Ok(parts) = run.tests.iter().map(comparison_part).collect::<Result<Vec<_>, _>>() else { return String::new() };
    let comparisons: Vec<&RawValue> = parts.iter().map(AsRef::as_ref).collect();
    let head =
        Head { binary: run.binary, time_s: run.budget.as_secs_f64(), seed: run.seed, environment: run.environment };
    assemble(&head, &comparisons)
}

/// A results file of `comparisons` (each from [`comparison_part`]), as JSON text.
pub(crate) fn assemble(head: &Head<'_>, comparisons: &[&RawValue]) -> String {
    let file = ResultsFile {
        schema_version: SCHEMA_VERSION,
        rtcompare_version: env!("CARGO_PKG_VERSION"),
        binary: head.binary,
        settings: RunSettings { time_s: head.time_s, seed: head.seed },
        environment: head.environment,
        comparisons,
    };
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, FlatArrays::at_depth(0));
    // Serializing these plain structs into memory cannot fail; an empty file would say so.
    let _ = file.serialize(&mut serializer);
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_default()
}

/// One comparison of a results file, rendered as it stands in the file's `comparisons`.
pub(crate) fn comparison_part(test: &Test<'_>) -> Result<Box<RawValue>, serde_json::Error> {
    part(&comparison(test))
}

/// `value` in the file's layout at the depth of the top-level object's fields (an array adds
/// none).
fn part(value: &impl Serialize) -> Result<Box<RawValue>, serde_json::Error> {
    let mut out = Vec::new();
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, FlatArrays::at_depth(1)))?;
    RawValue::from_string(String::from_utf8(out).map_err(serde::ser::Error::custom)?)
}

fn comparison<'a>(test: &Test<'a>) -> Comparison<'a> {
    let report = test.report;
    let metric = report.map_or(test.metric, |r| r.metric);
    Comparison {
        name: test.name,
        candidate: report.map_or(test.candidate, |r| &r.candidate),
        baseline: report.map_or(test.baseline, |r| &r.baseline),
        metric: metric.as_str(),
        unit: metric.unit(),
        size: test.size,
        throughput: test.work.map(|work| ThroughputRecord {
            unit: work.unit.as_str(),
            per_op: work.per_call,
            candidate: report.map(|r| work.per_second(r.candidate_summary.median)),
            baseline: report.map(|r| work.per_second(r.baseline_summary.median)),
        }),
        file: test.file,
        line: test.line,
        expect: test.expect,
        passed: test.passed(),
        failure: test.failure,
        round: round(report),
        confirmation: report.and_then(|r| r.confirmation.as_deref()).map(|second| round(Some(second))),
        over_processes: report
            .and_then(Report::over_processes)
            .map(|mean| ProcessMeanRecord { difference: mean.difference, processes: mean.processes }),
    }
}

fn round(report: Option<&Report>) -> Round<'_> {
    Round {
        duration_s: report.map(|r| r.duration.as_secs_f64()),
        verdict: report.map(verdict),
        estimate: report.map(|r| {
            let e = &r.estimate;
            EstimateRecord { difference: e.difference, low: e.low, high: e.high, level: e.level }
        }),
        confidence: report.map_or_else(Vec::new, |r| {
            r.confidence.iter().map(|c| ConfidenceRecord { threshold: c.threshold, confidence: c.confidence }).collect()
        }),
        summaries: report
            .map(|r| Arms { candidate: summary(&r.candidate_summary), baseline: summary(&r.baseline_summary) }),
        calibration: report.map(|r| calibration(&r.calibration)),
        validation: report.map(|r| Arms {
            candidate: validation(&r.validation.candidate),
            baseline: validation(&r.validation.baseline),
        }),
        placement: report.map(|r| Arms {
            candidate: r.validation.candidate_placement.as_ref().map(placement),
            baseline: r.validation.baseline_placement.as_ref().map(placement),
        }),
        drift: report.map(|r| DriftTestsRecord {
            candidate: drift(&r.drift.candidate),
            baseline: drift(&r.drift.baseline),
            ratio: drift(&r.drift.ratio),
        }),
        resampling: report.map(|r| {
            let (scheme, block_len) = scheme(r.resampling.scheme);
            ResamplingRecord {
                scheme,
                block_len,
                resamples: r.resampling.resamples,
                seed: r.resampling.seed,
                exact: r.resampling.exact,
                processes: r.resampling.processes,
                process_differences: &r.process_differences,
            }
        }),
        warnings: report.map_or_else(Vec::new, |r| r.warnings.iter().map(|caveat| warning(caveat, r)).collect()),
        samples: report.map(samples),
    }
}

fn verdict(report: &Report) -> VerdictRecord {
    let v = &report.verdict;
    VerdictRecord {
        outcome: v.outcome.as_str(),
        resolved: v.resolved,
        ratio: v.ratio,
        best_ratio: v.best_ratio,
        tolerance: v.tolerance,
        best_tolerance: v.best_tolerance,
        noise: v.noise,
        floor: v.floor,
        parity_band: v.parity_band,
        confirmed: v.confirmed,
        first_round: v.first_round.as_str(),
    }
}

fn summary(s: &Summary) -> SummaryRecord {
    SummaryRecord { count: s.count, min: s.min, q1: s.q1, median: s.median, q3: s.q3, max: s.max, mean: s.mean }
}

fn calibration(c: &Calibration) -> CalibrationRecord {
    CalibrationRecord {
        resolution: c.resolution,
        clock_step_ns: c.clock_step_ns,
        candidate_iters: c.candidate_iters,
        baseline_iters: c.baseline_iters,
        target_batch_ns: c.target_batch_ns,
        candidate_batch_ns: c.candidate_batch_ns,
        baseline_batch_ns: c.baseline_batch_ns,
    }
}

fn validation(v: &Validation) -> ValidationRecord {
    let (scheme, block_len) = scheme(v.scheme);
    ValidationRecord {
        apparent_difference: v.apparent_difference,
        noise_floor: v.noise_floor,
        tie_rate: v.tie_rate,
        drift_rate: v.drift_rate,
        autocorrelation: v.autocorrelation,
        false_signal_rate: v.false_signal_rate,
        scheme,
        block_len,
    }
}

fn placement(p: &PlacementSpread) -> PlacementRecord<'_> {
    PlacementRecord { medians: &p.medians, spread: p.spread, noise: p.noise }
}

fn drift(d: &Drift) -> DriftRecord {
    DriftRecord {
        rho: d.rho,
        p_value: d.p_value,
        drifted: d.drifted,
        first_half_median: d.first_half_median,
        second_half_median: d.second_half_median,
        shift: d.shift(),
    }
}

/// `("iid", None)` or `("blocks", Some(len))`.
fn scheme(scheme: Resampling) -> (&'static str, Option<usize>) {
    match scheme {
        Resampling::Iid => ("iid", None),
        Resampling::Blocks { len } => ("blocks", Some(len)),
    }
}

/// A caveat as the results file writes it: its kind's name and its sentence.
fn warning(caveat: &Caveat, report: &Report) -> WarningRecord {
    WarningRecord { kind: caveat.kind().as_str(), message: sentence(caveat, report) }
}

fn samples(report: &Report) -> SamplesRecord<'_> {
    let s = &report.samples;
    SamplesRecord {
        candidate_iters: s.candidate_iters,
        baseline_iters: s.baseline_iters,
        candidate: series(&s.candidate),
        candidate_twin: series(&s.candidate_twin),
        baseline: series(&s.baseline),
        baseline_twin: series(&s.baseline_twin),
    }
}

fn series(s: &Series) -> SeriesRecord<'_> {
    SeriesRecord { per_op: &s.per_op, position: &s.position, placements: &s.placements }
}

/// Indented objects, one field a line, but arrays on one line: a series of a thousand samples
/// stays one line instead of a thousand, and the file stays readable with `less`. Objects are
/// laid out as serde_json's `PrettyFormatter` lays them out (two spaces a level), from a given
/// depth, so that a part rendered alone lines up where it is put.
struct FlatArrays {
    /// Objects open around the current position.
    depth: usize,
    /// Whether the innermost open object has a field yet.
    has_field: bool,
}

impl FlatArrays {
    fn at_depth(depth: usize) -> FlatArrays {
        FlatArrays { depth, has_field: false }
    }

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
    use crate::report::fixtures;
    use serde_json::Value;

    fn rendered() -> Value {
        let records = [fixtures::record("perf::fast_vs_slow", 50.0, 100.0), fixtures::panicked("perf::boom_vs_slow")];
        let environment = fixtures::environment();
        serde_json::from_str(&render(&fixtures::run(&environment, &records, false))).unwrap()
    }

    #[test]
    fn a_pair_with_throughput_records_each_arms_rate_and_others_null() {
        use crate::measure::{ThroughputUnit, Work};
        let work = Some(Work { unit: ThroughputUnit::Elements, per_call: 1_000 });
        let records = [
            crate::report::Test { work, ..fixtures::record("perf::fast_vs_slow", 50.0, 100.0) },
            crate::report::Test { work, ..fixtures::panicked("perf::boom_vs_slow") },
        ];
        let environment = fixtures::environment();
        let file: Value = serde_json::from_str(&render(&fixtures::run(&environment, &records, false))).unwrap();
        let t = &file["comparisons"][0]["throughput"];
        let median = file["comparisons"][0]["summaries"]["candidate"]["median"].as_f64().unwrap();
        assert_eq!((&t["unit"], &t["per_op"]), (&Value::from("elements"), &Value::from(1_000)));
        assert_eq!(t["candidate"].as_f64(), Some(1_000.0 * 1e9 / median));
        assert!(t["baseline"].as_f64().is_some_and(|b| b < 1_000.0 * 1e9 / median), "{t}");
        assert!(file["comparisons"][1]["throughput"]["candidate"].is_null());
        assert!(rendered()["comparisons"][0]["throughput"].is_null());
    }

    #[test]
    fn a_measured_comparison_has_every_figure() {
        let file = rendered();
        assert_eq!(file["schema_version"], 1);
        let c = &file["comparisons"][0];
        assert_eq!(c["name"], "perf::fast_vs_slow");
        assert_eq!((&c["metric"], &c["unit"]), (&Value::from("time"), &Value::from("ns")));
        assert_eq!(c["verdict"]["outcome"], "win");
        assert!(c["verdict"]["ratio"].as_f64().unwrap() < 1.0, "ratio is candidate over baseline");
        assert_eq!(c["samples"]["candidate"]["per_op"].as_array().unwrap().len(), fixtures::ROUNDS);
        assert_eq!(c["samples"]["baseline_twin"]["position"].as_array().unwrap().len(), fixtures::ROUNDS);
        assert_eq!(c["resampling"]["scheme"].as_str().map(|s| s == "iid" || s == "blocks"), Some(true));
        assert_eq!(c["passed"], true);
        assert_eq!(c["failure"], Value::Null);
    }

    #[test]
    fn a_panicked_comparison_is_recorded_with_its_failure() {
        let file = rendered();
        let c = &file["comparisons"][1];
        assert_eq!(c["passed"], false);
        assert!(c["failure"].as_str().unwrap().contains("panicked"));
        for field in ["verdict", "estimate", "samples", "summaries", "duration_s"] {
            assert_eq!(c[field], Value::Null, "{field}");
        }
        assert_eq!(c["candidate"], "boom");
    }

    #[test]
    fn a_confirmation_round_is_kept_beside_the_first() {
        let mut first = fixtures::report(50.0, 100.0);
        first.confirmation = Some(Box::new(fixtures::report(52.0, 100.0)));
        let environment = fixtures::environment();
        let records = [fixtures::measured("perf::fast_vs_slow", first)];
        let file: Value = serde_json::from_str(&render(&fixtures::run(&environment, &records, false))).unwrap();
        let c = &file["comparisons"][0];
        assert_eq!(c["confirmation"]["verdict"]["outcome"], "win");
        assert_eq!(c["confirmation"]["samples"]["candidate"]["per_op"].as_array().unwrap().len(), fixtures::ROUNDS);
        assert!(c["confirmation"].get("confirmation").is_none(), "one level only");
        assert_eq!(rendered()["comparisons"][0]["confirmation"], Value::Null);
        // The mean over processes: the first round's and the confirmation's, one process each.
        let d1 = c["estimate"]["difference"].as_f64().unwrap();
        let d2 = c["confirmation"]["estimate"]["difference"].as_f64().unwrap();
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

    /// The layout the file had when it was rendered whole: serde_json's `PrettyFormatter` for
    /// objects, arrays on one line.
    struct Whole(serde_json::ser::PrettyFormatter<'static>);

    impl Formatter for Whole {
        fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
            w.write_all(b"[")
        }
        fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
            w.write_all(b"]")
        }
        fn begin_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
            if first { Ok(()) } else { w.write_all(b", ") }
        }
        fn end_array_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
            Ok(())
        }
        fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.0.begin_object(w)
        }
        fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.0.end_object(w)
        }
        fn begin_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
            self.0.begin_object_key(w, first)
        }
        fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.0.begin_object_value(w)
        }
        fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.0.end_object_value(w)
        }
    }

    #[test]
    fn a_file_assembled_from_parts_is_the_text_of_the_file_rendered_whole() {
        #[derive(Serialize)]
        struct WholeFile<'a> {
            schema_version: u32,
            rtcompare_version: &'static str,
            binary: &'a str,
            settings: RunSettings,
            environment: &'a Environment,
            comparisons: Vec<Comparison<'a>>,
        }
        let mut confirmed = fixtures::report(50.0, 100.0);
        confirmed.confirmation = Some(Box::new(fixtures::report(52.0, 100.0)));
        let records = [
            fixtures::measured("perf::fast_vs_slow", confirmed),
            fixtures::panicked("perf::boom_vs_slow"),
            fixtures::record("perf::x_vs_slow", 25.0, 100.0),
        ];
        let environment = fixtures::environment();
        let run = fixtures::run(&environment, &records, false);
        let whole = WholeFile {
            schema_version: SCHEMA_VERSION,
            rtcompare_version: env!("CARGO_PKG_VERSION"),
            binary: run.binary,
            settings: RunSettings { time_s: run.budget.as_secs_f64(), seed: run.seed },
            environment: run.environment,
            comparisons: run.tests.iter().map(comparison).collect(),
        };
        let mut out = Vec::new();
        whole.serialize(&mut serde_json::Serializer::with_formatter(&mut out, Whole(Default::default()))).unwrap();
        out.push(b'\n');
        assert_eq!(render(&run), String::from_utf8(out).unwrap());
    }

    #[test]
    fn warning_kinds_are_written_by_their_names() {
        let mut report = fixtures::report(50.0, 100.0);
        let apart = Caveat::ProcessesDisagree { processes: 3, lowest: -0.02, highest: 0.03, width: 0.01 };
        report.warnings = vec![apart.clone()];
        let message = sentence(&apart, &report);
        let environment = fixtures::environment();
        let records = [fixtures::measured("perf::fast_vs_slow", report)];
        let file: Value = serde_json::from_str(&render(&fixtures::run(&environment, &records, false))).unwrap();
        assert_eq!(file["comparisons"][0]["warnings"][0]["kind"], "processes_disagree");
        assert_eq!(file["comparisons"][0]["warnings"][0]["message"], message.as_str());
    }
}
