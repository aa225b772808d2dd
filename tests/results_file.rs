//! The results file of a real run: written where `RTCOMPARE_RESULTS` says, readable into typed
//! structs that reject unknown fields, and documented field for field by docs/results-schema.md
//! (the field names are read out of the Markdown, so the doc and the file cannot drift apart).
//! The pictures, the Markdown summary and the continuous-benchmarking files (Bencher Metric
//! Format, github-action-benchmark) of the same run are checked on the way.

// The fields exist to be checked by deserialization; most are never read afterwards.
#![allow(dead_code)]

mod support;

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use support::{fixture_command, root, run, scratch_dir, stdout, take_turn, text};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultsFile {
    schema_version: u32,
    rtcompare_version: String,
    binary: String,
    settings: RunSettings,
    environment: Environment,
    duration_s: f64,
    comparisons: Vec<Comparison>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunSettings {
    time_s: f64,
    seed: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Environment {
    started_at: String,
    cpu_model: String,
    cores: usize,
    load_average_start: Option<[f64; 3]>,
    load_average_end: Option<[f64; 3]>,
    governor: String,
    power: String,
    rustc: String,
    profile: Profile,
    target: Target,
    git: Option<Git>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Profile {
    debug_assertions: bool,
    opt_level: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Target {
    arch: String,
    os: String,
    family: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Git {
    commit: String,
    dirty: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Throughput {
    unit: String,
    per_op: u64,
    candidate: Option<f64>,
    baseline: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Comparison {
    name: String,
    revision: Option<Revision>,
    candidate: String,
    baseline: String,
    metric: String,
    unit: String,
    size: Option<u64>,
    throughput: Option<Throughput>,
    file: String,
    line: u32,
    expect: String,
    passed: bool,
    duration_s: f64,
    failure: Option<String>,
    verdict: Option<Verdict>,
    warnings: Vec<Warning>,
    /// Caveats as data: their situations are checked against the doc's own table.
    caveats: Vec<Value>,
    over_processes: Option<ProcessMean>,
    first: Option<Round>,
    confirmation: Option<Confirmation>,
    instructions: Option<Instructions>,
    instructions_not_counted: Option<String>,
    alone: Option<Alone>,
}

/// A benchmark of rtcompare-criterion measured alone (no `RTCOMPARE_BASELINE`); none in this
/// run, whose tests are `#[compare]` pairs (`tests/criterion_revision.rs` runs some).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Alone {
    metric: String,
    median: f64,
    low: f64,
    high: f64,
    level: f64,
    scheme: Value,
    summary: Summary,
    iters: u64,
}

/// The git revision of a comparison against one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Revision {
    name: String,
    commit: String,
}

/// Instruction counts (docs/instructions.md), where valgrind counted them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Instructions {
    source: String,
    valgrind: String,
    candidate: f64,
    candidate_twin: f64,
    baseline: f64,
    baseline_twin: f64,
    change: f64,
    stable: bool,
    functions: Vec<FunctionChange>,
    agreement: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FunctionChange {
    name: String,
    candidate: f64,
    baseline: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Confirmation {
    report: Round,
    confirmed: bool,
    planned: usize,
    ending: String,
    settle: Option<Settle>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read to check the shape
struct Settle {
    processes: usize,
    seconds: f64,
    budget: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProcessMean {
    difference: f64,
    processes: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Round {
    candidate: String,
    baseline: String,
    metric: String,
    calibration: Calibration,
    candidate_summary: Summary,
    baseline_summary: Summary,
    verdict: Verdict,
    estimate: Estimate,
    confidence: Vec<Confidence>,
    validation: Validations,
    drift: DriftTests,
    resampling: Resampling,
    process_differences: Vec<f64>,
    warnings: Vec<Value>,
    duration_s: f64,
    samples: Samples,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Validations {
    candidate: Validation,
    baseline: Validation,
    candidate_placement: Option<Placement>,
    baseline_placement: Option<Placement>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Verdict {
    outcome: String,
    resolved: bool,
    ratio: f64,
    best_ratio: f64,
    tolerance: f64,
    best_tolerance: f64,
    noise: f64,
    floor: f64,
    builds_floor: f64,
    parity_band: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Estimate {
    difference: f64,
    low: f64,
    high: f64,
    level: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Confidence {
    threshold: f64,
    confidence: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Summary {
    count: usize,
    min: f64,
    q1: f64,
    median: f64,
    q3: f64,
    max: f64,
    mean: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Calibration {
    resolution: f64,
    clock_step_ns: f64,
    candidate_iters: u64,
    baseline_iters: u64,
    target_batch_ns: f64,
    candidate_batch_ns: f64,
    baseline_batch_ns: f64,
    first_call_ns: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Validation {
    apparent_difference: f64,
    noise_floor: f64,
    tie_rate: f64,
    drift_rate: f64,
    autocorrelation: f64,
    false_signal_rate: f64,
    /// `"iid"` or `{"blocks": {"len": n}}`.
    scheme: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Placement {
    medians: Vec<f64>,
    spread: f64,
    noise: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DriftTests {
    candidate: Drift,
    baseline: Drift,
    ratio: Drift,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Drift {
    rho: f64,
    p_value: f64,
    drifted: bool,
    first_half_median: f64,
    second_half_median: f64,
    shift: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Resampling {
    scheme: Value,
    resamples: usize,
    seed: u64,
    exact: bool,
    processes: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Warning {
    kind: String,
    message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Samples {
    candidate_iters: u64,
    baseline_iters: u64,
    candidate: Series,
    candidate_twin: Series,
    baseline: Series,
    baseline_twin: Series,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Series {
    per_op: Vec<f64>,
    position: Vec<u32>,
    placements: Vec<Vec<f64>>,
}

const PAIR: &str = "known_answers::quarter_of_the_work_vs_reference";

// One test function, so the fixture is built and measured once.
#[test]
fn a_real_run_writes_the_documented_results_file_pictures_and_markdown() {
    let _turn = take_turn();
    let dir = scratch_dir("results-file");
    let dir = dir.path();
    let (results, markdown) = (dir.join("perf.json"), dir.join("perf.md"));
    let (bmf, gha) = (dir.join("tracking").join("bmf.json"), dir.join("tracking").join("gha.json"));
    let output = run(fixture_command("known_answers", &["--exact", PAIR])
        .env("RTCOMPARE_RESULTS", &results)
        .env("RTCOMPARE_MARKDOWN", &markdown)
        .env("RTCOMPARE_BMF", &bmf)
        .env("RTCOMPARE_GHA_BENCHMARK", &gha));
    assert!(output.status.success(), "{}", text(&output));
    let out = stdout(&output);
    assert!(out.contains(&format!("rtcompare: results file {}", results.display())), "{}", text(&output));
    assert!(out.contains("rtcompare: 1 picture (SVG) in "), "{}", text(&output));

    let json = std::fs::read_to_string(&results).unwrap_or_else(|e| panic!("no results file: {e}\n{}", text(&output)));
    let file: ResultsFile = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    check_figures(&file);
    let value: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    check_documented(&value);

    let leftovers: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .map(|entry| entry.map(|e| e.file_name().to_string_lossy().into_owned()).unwrap_or_default())
        .filter(|name| name.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left behind: {leftovers:?}");
    let svg = read(&dir.join("perf").join("known_answers__quarter_of_the_work_vs_reference.svg"));
    assert!(svg.starts_with("<svg") && svg.contains(&format!("{PAIR}: <tspan")), "{svg}");
    let summary = read(&markdown);
    assert!(summary.contains(&format!("| ✅ | `{PAIR}` | **win (confirmed)** |")), "{summary}");

    assert!(out.contains(&format!("rtcompare: Bencher Metric Format file {}", bmf.display())), "{}", text(&output));
    assert!(out.contains(&format!("rtcompare: github-action-benchmark file {}", gha.display())), "{}", text(&output));
    check_tracking_files(&file, &read(&bmf), &read(&gha));
    let mut written: Vec<String> = std::fs::read_dir(dir.join("tracking"))
        .unwrap_or_else(|e| panic!("{e}"))
        .map(|entry| entry.map(|e| e.file_name().to_string_lossy().into_owned()).unwrap_or_default())
        .collect();
    written.sort();
    assert_eq!(written, ["bmf.json", "gha.json"], "temporary files left behind");
}

/// Both tracking files hold the candidate and the baseline of the one comparison, with the
/// medians and quartiles of the results file (their shapes are checked against the published
/// examples in the runtime's unit tests).
fn check_tracking_files(file: &ResultsFile, bmf: &str, gha: &str) {
    let first = file.comparisons[0].first.as_ref().unwrap_or_else(|| panic!("no first round"));
    let bmf: Value = serde_json::from_str(bmf).unwrap_or_else(|e| panic!("{e}\n{bmf}"));
    let gha: Value = serde_json::from_str(gha).unwrap_or_else(|e| panic!("{e}\n{gha}"));
    let names: Vec<&String> = bmf.as_object().map(|o| o.keys().collect()).unwrap_or_default();
    assert_eq!(names, [&format!("{PAIR}/baseline"), &format!("{PAIR}/candidate")], "{bmf:#}");
    for (arm, summary) in [("candidate", &first.candidate_summary), ("baseline", &first.baseline_summary)] {
        let latency = &bmf[format!("{PAIR}/{arm}")]["latency"];
        assert_eq!(latency["value"].as_f64(), Some(summary.median), "{bmf:#}");
        assert_eq!(latency["lower_value"].as_f64(), Some(summary.q1), "{bmf:#}");
        assert_eq!(latency["upper_value"].as_f64(), Some(summary.q3), "{bmf:#}");
        let entry = gha
            .as_array()
            .and_then(|entries| entries.iter().find(|e| e["name"] == format!("{PAIR}/{arm}").as_str()))
            .unwrap_or_else(|| panic!("no {arm} in {gha:#}"));
        assert_eq!((entry["unit"].as_str(), entry["value"].as_f64()), (Some("ns"), Some(summary.median)), "{gha:#}");
        assert!(entry["range"].as_str().is_some_and(|r| r.starts_with("± ")), "{gha:#}");
        assert!(entry["extra"].as_str().is_some_and(|x| x.contains("win (confirmed)")), "{gha:#}");
    }
    // Where valgrind counted the pair, each arm's instructions are a measure and an entry too.
    let counted = file.comparisons[0].instructions.as_ref().filter(|i| i.stable);
    for (arm, count) in [("candidate", counted.map(|i| i.candidate)), ("baseline", counted.map(|i| i.baseline))] {
        assert_eq!(bmf[format!("{PAIR}/{arm}")]["instructions"]["value"].as_f64(), count, "{bmf:#}");
        let name = format!("{PAIR}/{arm} (instructions)");
        let entry = gha.as_array().and_then(|entries| entries.iter().find(|e| e["name"] == name.as_str()));
        assert_eq!(entry.and_then(|e| e["value"].as_f64()), count, "{gha:#}");
    }
    let entries = if counted.is_some() { 4 } else { 2 };
    assert_eq!(gha.as_array().map(Vec::len), Some(entries), "{gha:#}");
}

#[test]
fn an_unwritable_output_path_stops_the_run_before_measuring() {
    let _turn = take_turn();
    let dir = scratch_dir("unwritable-results");
    let dir = dir.path();
    // A file where a directory should be: no permission trick, so it holds for root too.
    std::fs::write(dir.join("blocker"), "").unwrap_or_else(|e| panic!("{e}"));
    let unwritable = dir.join("blocker").join("perf.json");
    for (variable, what) in [
        ("RTCOMPARE_RESULTS", "results file"),
        ("RTCOMPARE_BMF", "Bencher Metric Format file"),
        ("RTCOMPARE_GHA_BENCHMARK", "github-action-benchmark file"),
    ] {
        let output = run(fixture_command("known_answers", &["--exact", PAIR])
            .env("RTCOMPARE_RESULTS", dir.join("perf.json"))
            .env(variable, &unwritable));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        let message = format!("cannot write the {what} at {}", unwritable.display());
        assert!(stderr.contains(&message), "{}", text(&output));
        assert!(stderr.contains(&format!("set {variable} to a file in a writable directory")), "{}", text(&output));
        assert!(!stdout(&output).contains("running"), "measured before failing:\n{}", text(&output));
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The figures of a 4x win hang together.
fn check_figures(file: &ResultsFile) {
    assert_eq!(file.schema_version, 2);
    assert_eq!(file.binary, "known_answers");
    assert_eq!(file.settings.time_s, 0.3);
    assert!(is_rfc3339_utc(&file.environment.started_at), "{}", file.environment.started_at);
    assert!(file.environment.cores >= 1);
    assert!(!file.environment.profile.debug_assertions, "the fixture runs in release");
    assert_eq!(file.comparisons.len(), 1);
    let c = &file.comparisons[0];
    assert_eq!(
        (c.name.as_str(), c.candidate.as_str(), c.baseline.as_str()),
        (PAIR, "quarter_of_the_work", "reference")
    );
    assert_eq!((c.metric.as_str(), c.unit.as_str(), c.size), ("time", "ns", None));
    assert!(c.passed && c.failure.is_none());
    assert!(c.revision.is_none(), "a pair in one build");
    let verdict = c.verdict.as_ref().unwrap_or_else(|| panic!("no verdict"));
    assert_eq!(verdict.outcome, "win");
    assert!(verdict.ratio < 0.5 && verdict.best_ratio < 0.5, "ratios are candidate over baseline");
    let first = c.first.as_ref().unwrap_or_else(|| panic!("no first round"));
    assert_eq!(verdict.ratio, first.verdict.ratio, "the verdict's figures are the first round's");
    assert_eq!(verdict.builds_floor, 0.0, "a function pair runs in one build");
    let confirmation = c.confirmation.as_ref().unwrap_or_else(|| panic!("a 4x win is confirmed"));
    assert!(confirmation.confirmed && confirmation.ending == "confirmed" && confirmation.settle.is_none());
    // The test took its first round, its confirmation and its count; the run, its one test.
    let measured = first.duration_s + confirmation.report.duration_s;
    assert!(c.duration_s >= measured && measured > 0.0, "{} s for {measured} s measured", c.duration_s);
    assert_eq!(file.duration_s, c.duration_s);
    assert!(confirmation.planned >= confirmation.report.resampling.processes, "{}", confirmation.planned);
    assert_eq!(confirmation.report.verdict.outcome, "win");
    assert_eq!(c.warnings.len(), c.caveats.len(), "a sentence per caveat");
    let samples = &first.samples;
    let rounds = samples.candidate.per_op.len();
    assert_eq!(first.candidate_summary.count, rounds);
    // Round i's four batches took positions 4i..4i+3, one each, in some order.
    for i in 0..rounds {
        let mut slots: Vec<u32> =
            [&samples.candidate, &samples.candidate_twin, &samples.baseline, &samples.baseline_twin]
                .iter()
                .map(|s| s.position[i])
                .collect();
        slots.sort_unstable();
        let first = 4 * i as u32;
        assert_eq!(slots, [first, first + 1, first + 2, first + 3]);
    }
    // Every batch was spread over four placement copies, each with one value per round, and
    // the placement figures are those copies' medians.
    for series in [&samples.candidate, &samples.candidate_twin, &samples.baseline, &samples.baseline_twin] {
        assert_eq!(series.placements.len(), 4);
        assert!(series.placements.iter().all(|copy| copy.len() == rounds), "one value per copy per round");
    }
    let placement = &first.validation.candidate_placement;
    let candidate = placement.as_ref().unwrap_or_else(|| panic!("no candidate placement"));
    assert_eq!(candidate.medians.len(), 4);
    let (low, high) = candidate.medians.iter().fold((f64::INFINITY, 0.0f64), |(l, h), &m| (l.min(m), h.max(m)));
    assert!((candidate.spread - (high / low - 1.0)).abs() < 1e-9 && candidate.noise >= 0.0);
}

fn is_rfc3339_utc(text: &str) -> bool {
    let shape = "dddd-dd-ddTdd:dd:ddZ";
    text.len() == shape.len()
        && text.chars().zip(shape.chars()).all(|(c, s)| if s == 'd' { c.is_ascii_digit() } else { c == s })
}

/// Every field of the file is documented, and every documented field is in the file; a caveat's
/// fields (`<caveat>.…`) only the first way, since one run shows few situations (the runtime's
/// unit tests check every situation against the doc).
fn check_documented(file: &Value) {
    let documented = documented_fields(&read(&root().join("docs").join("results-schema.md")));
    assert!(documented.len() > 50, "too few fields read from the doc: {documented:?}");
    let mut present = BTreeSet::new();
    collect_fields(file, "", &mut present);
    let undocumented: Vec<&String> = present.iter().filter(|f| !documented.contains(*f)).collect();
    assert!(undocumented.is_empty(), "fields missing from docs/results-schema.md: {undocumented:?}");
    let missing: Vec<&String> =
        documented.iter().filter(|f| !f.starts_with(CAVEAT) && !is_present(file, &segments(f))).collect();
    assert!(missing.is_empty(), "documented fields missing from the file: {missing:?}");
}

/// How the doc names the fields of any caveat.
const CAVEAT: &str = "<caveat>";

/// The first cell of every table row that starts with a code span in the doc's "Fields" section:
/// `comparisons[].verdict.outcome`, with `{candidate,baseline}` alternatives expanded.
fn documented_fields(doc: &str) -> BTreeSet<String> {
    let fields = doc
        .split("\n## ")
        .find(|section| section.starts_with("Fields\n"))
        .unwrap_or_else(|| panic!("no Fields section"));
    fields
        .lines()
        .filter_map(|line| line.strip_prefix("| `")?.split_once('`').map(|(field, _)| field.to_owned()))
        .flat_map(|field| expand(&field))
        .collect()
}

/// `a.{b,c}.d` → `a.b.d`, `a.c.d` (any number of groups).
fn expand(field: &str) -> Vec<String> {
    let Some(open) = field.find('{') else { return vec![field.to_owned()] };
    let close = open + field[open..].find('}').unwrap_or_else(|| panic!("unclosed brace in {field}"));
    field[open + 1..close]
        .split(',')
        .flat_map(|choice| expand(&format!("{}{}{}", &field[..open], choice.trim(), &field[close + 1..])))
        .collect()
}

/// Every path in the file, objects included; arrays of objects as `name[]`. The confirmation's
/// round has the first round's fields, so it is documented once, as `first`; each caveat is
/// documented once, as `<caveat>`; a resampling `scheme` is a value of its own (`"iid"` or
/// `{"blocks": …}`).
fn collect_fields(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                out.insert(path.clone());
                let path = match path.as_str() {
                    "comparisons[].confirmation.report" => "comparisons[].first".to_owned(),
                    _ if key == "scheme" => continue,
                    _ => path,
                };
                let caveats = path == "comparisons[].caveats" || path == "comparisons[].first.warnings";
                match child {
                    Value::Array(items) if caveats => items.iter().for_each(|item| collect_fields(item, CAVEAT, out)),
                    _ => collect_fields(child, &path, out),
                }
            }
        }
        Value::Array(items) if items.iter().any(Value::is_object) => {
            for item in items {
                collect_fields(item, &format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

fn segments(field: &str) -> Vec<&str> {
    field.split('.').collect()
}

/// Whether the path exists: every key present, through every element of `name[]` arrays. A
/// `null` on the way (no git repository, no confirmation round) cannot hold the rest.
fn is_present(value: &Value, segments: &[&str]) -> bool {
    let Some((first, rest)) = segments.split_first() else { return true };
    if value.is_null() {
        return true;
    }
    match first.strip_suffix("[]") {
        Some(key) => match value.get(key) {
            Some(Value::Array(items)) => items.iter().all(|item| is_present(item, rest)),
            _ => false,
        },
        None => value.get(*first).is_some_and(|child| is_present(child, rest)),
    }
}
