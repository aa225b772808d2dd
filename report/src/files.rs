//! Where a run's files go — the results file, one picture per comparison, the Markdown summary,
//! the Bencher Metric Format and github-action-benchmark files — checking before measuring that
//! they can be written, and writing them atomically after: each comparison's record first, then
//! the run's files from every record of the run ([`super::records`]), so that under nextest,
//! where each comparison is a process of its own, they hold every comparison of the nextest run.

use super::atomic::{sibling, write_atomically};
use super::records::{Record, RunFolder};
use super::run::{Run, Test};
use super::{bmf, comment, gha, json, markdown, svg, tracking};
use crate::environment::Environment;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The paths a run was asked to write to; `None` takes the default (the results file) or
/// writes nothing (the others).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requested {
    /// `RTCOMPARE_RESULTS`: the JSON results file (default under the target directory).
    pub results: Option<PathBuf>,
    /// `RTCOMPARE_MARKDOWN`: a Markdown summary to write (on GitHub Actions the summary is also
    /// appended to `$GITHUB_STEP_SUMMARY`).
    pub markdown: Option<PathBuf>,
    /// `RTCOMPARE_BMF`: a Bencher Metric Format file to write.
    pub bmf: Option<PathBuf>,
    /// `RTCOMPARE_GHA_BENCHMARK`: a github-action-benchmark `customSmallerIsBetter` file to write.
    pub gha_benchmark: Option<PathBuf>,
}

/// How a Markdown destination is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Added to the end (`$GITHUB_STEP_SUMMARY` collects every step's summary).
    Append,
    /// Replaced whole (`RTCOMPARE_MARKDOWN`).
    Replace,
}

/// A Markdown summary's destination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkdownTarget {
    /// The file.
    pub path: PathBuf,
    /// Append or replace.
    pub mode: Mode,
    /// The variable that named it, for messages.
    pub variable: &'static str,
}

/// Where a run's files go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Destinations {
    /// The test binary's name without Cargo's hash.
    pub binary: String,
    /// The JSON results file.
    pub results: PathBuf,
    /// The directory of the pictures: the results file's path without its extension.
    pub pictures: PathBuf,
    /// The pull-request comment: beside the results file, named after it (`perf-comment.md`).
    pub comment: PathBuf,
    /// Markdown summaries to write.
    pub markdown: Vec<MarkdownTarget>,
    /// The continuous-benchmarking files to write (`RTCOMPARE_BMF`, `RTCOMPARE_GHA_BENCHMARK`).
    pub tracking: Vec<TrackingTarget>,
    /// The records of the run this process is part of: the nextest run (`NEXTEST_RUN_ID`), or
    /// this process alone.
    pub(crate) records: RunFolder,
    /// The length of the appended Markdown summary (`$GITHUB_STEP_SUMMARY`) when this process
    /// started: the run's summary replaces what comes after it.
    pub(crate) step_summary_start: Option<u64>,
}

/// A file for a continuous-benchmarking tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackingTarget {
    /// The file.
    pub path: PathBuf,
    /// Which format.
    pub format: TrackingFormat,
}

/// The formats continuous-benchmarking tools read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrackingFormat {
    /// Bencher Metric Format (`RTCOMPARE_BMF`).
    Bmf,
    /// github-action-benchmark `customSmallerIsBetter` JSON (`RTCOMPARE_GHA_BENCHMARK`).
    GhaBenchmark,
}

impl TrackingFormat {
    /// The file's name in messages.
    pub fn what(self) -> &'static str {
        match self {
            TrackingFormat::Bmf => "Bencher Metric Format file",
            TrackingFormat::GhaBenchmark => "github-action-benchmark file",
        }
    }

    /// The variable that names the file.
    pub fn variable(self) -> &'static str {
        match self {
            TrackingFormat::Bmf => "RTCOMPARE_BMF",
            TrackingFormat::GhaBenchmark => "RTCOMPARE_GHA_BENCHMARK",
        }
    }

    fn render(self, run: &Run<'_>) -> String {
        let arms = tracking::arm_entries(run.tests);
        match self {
            TrackingFormat::Bmf => bmf::render(&arms),
            TrackingFormat::GhaBenchmark => gha::render(&arms, run.unoptimised),
        }
    }
}

/// What was written, for the closing summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The results file.
    pub results: Option<PathBuf>,
    /// The pull-request comment.
    pub comment: Option<PathBuf>,
    /// How many comparisons the results file held before that it no longer holds: those of a
    /// larger run that this one (filtered, or with comparisons since removed) did not run.
    pub dropped: usize,
    /// The pictures' directory and how many were written there.
    pub pictures: Option<(PathBuf, usize)>,
    /// Markdown summaries written.
    pub markdown: Vec<MarkdownTarget>,
    /// Continuous-benchmarking files written.
    pub tracking: Vec<TrackingTarget>,
}

/// A file that cannot be written: what, where, why and how to fix it.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the {what} at {path}: {source}; {fix}")]
pub struct OutputError {
    what: &'static str,
    path: PathBuf,
    source: io::Error,
    fix: String,
}

impl Destinations {
    /// The destinations of a process: the `requested` paths, the Markdown summary to append to
    /// (`step_summary`, `$GITHUB_STEP_SUMMARY` on GitHub Actions), the test binary's path (`exe`,
    /// which names the files and, without a requested results file, places them under its
    /// target directory) and the id of the `run` the process is part of (its records' folder).
    ///
    /// ```
    /// use rtcompare_report::{Destinations, Requested};
    /// use std::path::Path;
    /// let exe = Path::new("/work/target/release/deps/perf-0123456789abcdef");
    /// let destinations = Destinations::new(&Requested::default(), None, Some(exe), "run-1");
    /// assert_eq!(destinations.binary, "perf");
    /// assert_eq!(destinations.results, Path::new("/work/target/rtcompare/perf.json"));
    /// ```
    pub fn new(requested: &Requested, step_summary: Option<PathBuf>, exe: Option<&Path>, run: &str) -> Destinations {
        let binary = exe.and_then(binary_name).unwrap_or_else(|| "rtcompare".to_owned());
        let results = match &requested.results {
            Some(path) => path.clone(),
            None => default_directory(exe).join(format!("{binary}.json")),
        };
        let mut markdown = Vec::new();
        if let Some(path) = step_summary {
            markdown.push(MarkdownTarget { path, mode: Mode::Append, variable: "GITHUB_STEP_SUMMARY" });
        }
        if let Some(path) = &requested.markdown {
            markdown.push(MarkdownTarget { path: path.clone(), mode: Mode::Replace, variable: "RTCOMPARE_MARKDOWN" });
        }
        let mut tracking = Vec::new();
        for (path, format) in
            [(&requested.bmf, TrackingFormat::Bmf), (&requested.gha_benchmark, TrackingFormat::GhaBenchmark)]
        {
            if let Some(path) = path {
                tracking.push(TrackingTarget { path: path.clone(), format });
            }
        }
        let appended = markdown.iter().find(|t| t.mode == Mode::Append);
        let step_summary_start = appended.map(|t| std::fs::metadata(&t.path).map_or(0, |m| m.len()));
        let pictures = results.with_extension("");
        let stem = pictures.file_name().map_or_else(|| binary.clone(), |name| name.to_string_lossy().into_owned());
        Destinations {
            binary,
            records: RunFolder::new(&pictures, run),
            comment: results.with_file_name(format!("{stem}-comment.md")),
            pictures,
            results,
            markdown,
            tracking,
            step_summary_start,
        }
    }

    /// Creates the directories and proves each destination writable, so that a wrong path fails
    /// the run before minutes of measuring rather than after.
    pub fn probe(&self) -> Result<(), OutputError> {
        let results_error = |source| OutputError {
            what: "results file",
            path: self.results.clone(),
            source,
            fix: "set RTCOMPARE_RESULTS to a file in a writable directory, for example \
                  RTCOMPARE_RESULTS=/tmp/rtcompare/perf.json"
                .to_owned(),
        };
        create_parent(&self.results).and_then(|()| probe_directory(&self.results)).map_err(results_error)?;
        std::fs::create_dir_all(&self.pictures).map_err(|source| OutputError {
            what: "pictures' directory",
            path: self.pictures.clone(),
            source,
            fix: "pictures go next to the results file; set RTCOMPARE_RESULTS to a file in a writable directory"
                .to_owned(),
        })?;
        for target in &self.markdown {
            // Opened without emptying it, since a summary may be appended; written, as both kinds
            // are, through a file beside it and a rename.
            let writable = create_parent(&target.path)
                .and_then(|()| OpenOptions::new().append(true).create(true).open(&target.path))
                .and_then(|_| probe_directory(&target.path));
            writable.map_err(|source| OutputError {
                what: "Markdown summary",
                path: target.path.clone(),
                source,
                fix: markdown_fix(target),
            })?;
        }
        for target in &self.tracking {
            let variable = target.format.variable();
            create_parent(&target.path).and_then(|()| probe_directory(&target.path)).map_err(|source| OutputError {
                what: target.format.what(),
                path: target.path.clone(),
                source,
                fix: format!(
                    "set {variable} to a file in a writable directory, for example {variable}=/tmp/rtcompare/perf.json"
                ),
            })?;
        }
        Ok(())
    }

    /// Saves the record of each test of `run` (which this process ran) and writes its picture,
    /// then writes the results file, the Markdown summaries and the continuous-benchmarking files
    /// of every test of the run, from the run's records. Returns what was written and every
    /// error (one failure does not stop the others).
    pub fn write(&self, run: &Run<'_>) -> (Written, Vec<OutputError>) {
        let mut errors = Vec::new();
        let pictures = self.write_pictures(run, &mut errors);
        for test in run.tests {
            let record = Record {
                started_at: run.environment.started_at.clone(),
                load_average_start: run.environment.load_average_start,
                step_summary_start: self.step_summary_start,
                test: test.clone(),
            };
            if let Err(source) = self.records.save(&record) {
                errors.push(records_error(&self.records, source));
            }
        }
        let files = self.write_run(run, &mut errors);
        (Written { pictures, ..files }, errors)
    }

    fn write_pictures(&self, run: &Run<'_>, errors: &mut Vec<OutputError>) -> Option<(PathBuf, usize)> {
        let mut pictures = 0;
        for test in run.tests {
            let Some(judgement) = &test.judgement else { continue };
            let path = self.pictures.join(format!("{}.svg", svg::file_stem(&test.name)));
            match write_atomically(&path, |file| file.write_all(svg::picture(judgement, &test.name).as_bytes())) {
                Ok(()) => pictures += 1,
                Err(source) => errors.push(written_error("picture", &path, source)),
            }
        }
        (pictures > 0).then(|| (self.pictures.clone(), pictures))
    }

    /// Writes the run's files from every record of the run, and `own`'s tests (which it saved
    /// last). A process cannot know whether it is the run's last (nextest does not say how many
    /// tests a run has), so each one writes every file, holding the run's folder while it reads
    /// the records and renames the files: the last to hold it writes files that hold every
    /// record, its own saved before it.
    fn write_run(&self, own: &Run<'_>, errors: &mut Vec<OutputError>) -> Written {
        let _held = self.records.hold().map_err(|source| errors.push(records_error(&self.records, source)));
        let (records, unreadable) = self.records.read_all();
        errors.extend(unreadable.into_iter().map(|source| records_error(&self.records, source)));
        let (environment, tests, step_summary_start) = gathered(own, records, self.step_summary_start);
        let run = Run { environment: &environment, tests: &tests, ..*own };
        self.write_files(&run, step_summary_start, errors)
    }

    /// Writes the results file, the Markdown summaries and the continuous-benchmarking files of
    /// `run`; the appended summary replaces what follows `step_summary_start`.
    fn write_files(&self, run: &Run<'_>, step_summary_start: Option<u64>, errors: &mut Vec<OutputError>) -> Written {
        let mut written = Written::default();
        let before = json::names(&self.results);
        match write_atomically(&self.results, |file| file.write_all(json::render(run).as_bytes())) {
            Ok(()) => {
                written.results = Some(self.results.clone());
                written.dropped = before.iter().filter(|name| !run.tests.iter().any(|t| &t.name == *name)).count();
            }
            Err(source) => errors.push(written_error("results file", &self.results, source)),
        }
        match write_atomically(&self.comment, |file| file.write_all(comment::render(run).as_bytes())) {
            Ok(()) => written.comment = Some(self.comment.clone()),
            Err(source) => errors.push(written_error("pull-request comment", &self.comment, source)),
        }
        let summary = markdown::render(run);
        for target in &self.markdown {
            match write_markdown(target, &summary, step_summary_start.unwrap_or(0)) {
                Ok(()) => written.markdown.push(target.clone()),
                Err(source) => errors.push(written_error("Markdown summary", &target.path, source)),
            }
        }
        for target in &self.tracking {
            let text = target.format.render(run);
            match write_atomically(&target.path, |file| file.write_all(text.as_bytes())) {
                Ok(()) => written.tracking.push(target.clone()),
                Err(source) => errors.push(written_error(target.format.what(), &target.path, source)),
            }
        }
        written
    }
}

/// The run of `records` and `own`'s tests: every test once, `own`'s as this process has it and
/// the others as their records do, in the order of their names (as `cargo test` runs them); the
/// environment this process read, started when the earliest process did; and where the run's
/// summary begins in the appended Markdown summary: the earliest start of its processes, this
/// one's (`own_start`) among them.
fn gathered(own: &Run<'_>, records: Vec<Record>, own_start: Option<u64>) -> (Environment, Vec<Test>, Option<u64>) {
    let mut environment = own.environment.clone();
    // RFC 3339 times in UTC of one format sort as text.
    if let Some(first) = records.iter().min_by(|a, b| a.started_at.cmp(&b.started_at))
        && first.started_at < environment.started_at
    {
        (environment.started_at, environment.load_average_start) = (first.started_at.clone(), first.load_average_start);
    }
    let step_summary_start = records.iter().filter_map(|r| r.step_summary_start).chain(own_start).min();
    let mut tests: BTreeMap<String, Test> = records.into_iter().map(|r| (r.test.name.clone(), r.test)).collect();
    tests.extend(own.tests.iter().map(|t| (t.name.clone(), t.clone())));
    (environment, tests.into_values().collect(), step_summary_start)
}

/// A file that could not be written after the run, though it was writable before.
fn written_error(what: &'static str, path: &Path, source: io::Error) -> OutputError {
    OutputError {
        what,
        path: path.to_owned(),
        source,
        fix: "the path was writable when the run started; check the disk space and permissions".to_owned(),
    }
}

/// The run's records could not be written or read: the files hold what could be read, and this
/// process's own tests.
fn records_error(records: &RunFolder, source: io::Error) -> OutputError {
    OutputError {
        what: "records of this run",
        path: records.folder(),
        source,
        fix: "the files hold this process's tests and the records that could be read; check the disk space and \
              permissions of the results file's directory"
            .to_owned(),
    }
}

/// `…/deps/perf-1a2b3c4d5e6f7a8b` → `perf`: the file stem without Cargo's `-<hash>` suffix.
pub fn binary_name(exe: &Path) -> Option<String> {
    let stem = exe.file_stem()?.to_str()?;
    let name = match stem.rsplit_once('-') {
        Some((name, hash)) if !name.is_empty() && hash.len() >= 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            name
        }
        _ => stem,
    };
    Some(name.to_owned())
}

/// `<target dir>/rtcompare`. The target directory is the nearest ancestor of the test binary
/// holding Cargo's `CACHEDIR.TAG`, else the parent of `<profile>/deps`; without either (a binary
/// run from elsewhere) `target/rtcompare` in the current directory.
fn default_directory(exe: Option<&Path>) -> PathBuf {
    let tagged = exe.and_then(|exe| exe.ancestors().skip(1).find(|dir| dir.join("CACHEDIR.TAG").is_file()));
    let above_deps = || {
        let deps = exe?.parent()?;
        (deps.file_name()? == "deps").then(|| deps.parent()?.parent()).flatten()
    };
    match tagged.or_else(above_deps) {
        Some(target) => target.join("rtcompare"),
        None => PathBuf::from("target").join("rtcompare"),
    }
}

/// Creates the directory `path` goes in, saying which directory failed and, for the common
/// mistake, that a file stands where a directory should.
fn create_parent(path: &Path) -> io::Result<()> {
    let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) else { return Ok(()) };
    std::fs::create_dir_all(parent).map_err(|error| {
        let blocker = parent.ancestors().find(|dir| dir.is_file());
        let why = match blocker {
            Some(file) => format!("{} is a file, not a directory", file.display()),
            None => error.to_string(),
        };
        io::Error::new(error.kind(), format!("cannot create the directory {}: {why}", parent.display()))
    })
}

/// Writes and removes a scratch file beside `path`: the same test the final rename will face.
fn probe_directory(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, "that is a directory"));
    }
    let probe = sibling(path, "probe");
    let written = File::create(&probe).and_then(|mut file| file.write_all(b"rtcompare probe"));
    let _ = std::fs::remove_file(&probe);
    written
}

/// Writes a summary. An appended one replaces what the run's processes wrote after
/// `step_summary_start`, where the file ended when the run began (the file is rewritten
/// atomically), so a run has one summary of all its tests rather than one per process.
fn write_markdown(target: &MarkdownTarget, summary: &str, step_summary_start: u64) -> io::Result<()> {
    match target.mode {
        Mode::Append => {
            let start = step_summary_start;
            let mut before = Vec::new();
            match File::open(&target.path) {
                Ok(file) => file.take(start).read_to_end(&mut before).map(drop)?,
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => return Err(error),
            }
            write_atomically(&target.path, |file| {
                file.write_all(&before)?;
                file.write_all(format!("\n{summary}").as_bytes())
            })
        }
        Mode::Replace => write_atomically(&target.path, |file| file.write_all(summary.as_bytes())),
    }
}

fn markdown_fix(target: &MarkdownTarget) -> String {
    match target.mode {
        Mode::Append => format!("make {} writable, or unset it", target.variable),
        Mode::Replace => format!(
            "set {} to a file in a writable directory, for example {}=/tmp/rtcompare/perf.md",
            target.variable, target.variable
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::entries;

    #[test]
    fn the_default_path_is_under_the_target_directory_named_after_the_binary() {
        let settings = Requested::default();
        let exe = Path::new("/repo/target/release/deps/perf-1a2b3c4d5e6f7a8b");
        let d = Destinations::new(&settings, None, Some(exe), "run");
        assert_eq!(d.binary, "perf");
        assert_eq!(d.results, Path::new("/repo/target/rtcompare/perf.json"));
        assert_eq!(d.pictures, Path::new("/repo/target/rtcompare/perf"));
        assert!(d.markdown.is_empty());
        let elsewhere = Destinations::new(&settings, None, Some(Path::new("/opt/bin/my-bench")), "run");
        assert_eq!(elsewhere.binary, "my-bench");
        assert_eq!(elsewhere.results, Path::new("target/rtcompare/my-bench.json"));
        assert_eq!(
            Destinations::new(&settings, None, None, "run").results,
            Path::new("target/rtcompare/rtcompare.json")
        );
    }

    #[test]
    fn settings_and_the_step_summary_override_the_defaults() {
        let settings = Requested {
            results: Some(PathBuf::from("out/r.json")),
            markdown: Some(PathBuf::from("out/r.md")),
            ..Requested::default()
        };
        let d = Destinations::new(&settings, Some(PathBuf::from("/gh/summary")), None, "run");
        assert_eq!((d.results.as_path(), d.pictures.as_path()), (Path::new("out/r.json"), Path::new("out/r")));
        let modes: Vec<(&str, Mode)> = d.markdown.iter().map(|t| (t.variable, t.mode)).collect();
        assert_eq!(modes, [("GITHUB_STEP_SUMMARY", Mode::Append), ("RTCOMPARE_MARKDOWN", Mode::Replace)]);
        assert!(d.tracking.is_empty());
        let settings = Requested {
            bmf: Some(PathBuf::from("out/bmf.json")),
            gha_benchmark: Some(PathBuf::from("out/gha.json")),
            ..Requested::default()
        };
        let tracking = Destinations::new(&settings, None, None, "run").tracking;
        let formats: Vec<(&Path, TrackingFormat)> = tracking.iter().map(|t| (t.path.as_path(), t.format)).collect();
        assert_eq!(
            formats,
            [
                (Path::new("out/bmf.json"), TrackingFormat::Bmf),
                (Path::new("out/gha.json"), TrackingFormat::GhaBenchmark)
            ]
        );
    }

    #[test]
    fn an_unwritable_tracking_file_is_named_with_its_variable_before_measuring() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        std::fs::write(dir.join("blocker"), "").unwrap();
        for (bmf, gha, variable) in [
            (Some(dir.join("blocker/bmf.json")), None, "RTCOMPARE_BMF="),
            (None, Some(dir.join("blocker/gha.json")), "RTCOMPARE_GHA_BENCHMARK="),
        ] {
            let settings =
                Requested { results: Some(dir.join("r.json")), bmf, gha_benchmark: gha, ..Requested::default() };
            let message = Destinations::new(&settings, None, None, "run").probe().unwrap_err().to_string();
            assert!(message.contains("blocker/") && message.contains(variable), "{message}");
        }
        // Writable paths are probed without leaving anything behind.
        let settings = Requested {
            results: Some(dir.join("r.json")),
            bmf: Some(dir.join("t/bmf.json")),
            gha_benchmark: Some(dir.join("t/gha.json")),
            ..Requested::default()
        };
        Destinations::new(&settings, None, None, "run").probe().unwrap();
        assert!(entries(&dir.join("t")).is_empty());
    }

    #[test]
    fn probing_creates_the_directories_and_names_an_unwritable_path() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let settings = Requested { results: Some(dir.join("deep/er/r.json")), ..Requested::default() };
        let d = Destinations::new(&settings, None, None, "run");
        d.probe().unwrap();
        assert!(dir.join("deep/er/r").is_dir());
        assert_eq!(entries(&dir.join("deep/er")), ["r"]);
        // A file where a directory should be: creating the directory fails.
        std::fs::write(dir.join("blocker"), "").unwrap();
        let settings = Requested { results: Some(dir.join("blocker/r.json")), ..Requested::default() };
        let message = Destinations::new(&settings, None, None, "run").probe().unwrap_err().to_string();
        assert!(message.contains("blocker/r.json") && message.contains("RTCOMPARE_RESULTS="), "{message}");
    }

    /// The destinations of one process of nextest run `id` writing to `dir`, with every file.
    fn process_of_run(dir: &Path, id: &str, step_summary: Option<PathBuf>) -> Destinations {
        let settings = Requested {
            results: Some(dir.join("perf.json")),
            markdown: Some(dir.join("perf.md")),
            bmf: Some(dir.join("bmf.json")),
            gha_benchmark: Some(dir.join("gha.json")),
        };
        let destinations = Destinations::new(&settings, step_summary, None, id);
        destinations.probe().unwrap();
        destinations
    }

    /// Writes the files of a process that ran `tests`, failing on any error.
    fn finish(destinations: &Destinations, tests: &[crate::Test]) -> Written {
        let environment = crate::fixtures::environment();
        let (written, errors) = destinations.write(&crate::fixtures::run(&environment, tests, false));
        assert!(errors.is_empty(), "{}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"));
        written
    }

    /// The comparisons' names in the results file, the BMF file's entries, and the rows of the
    /// Markdown summary.
    fn contents(dir: &Path) -> (Vec<String>, usize, usize) {
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("perf.json")).unwrap()).unwrap();
        let names =
            file["comparisons"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap().to_owned()).collect();
        let bmf: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("bmf.json")).unwrap()).unwrap();
        let markdown = std::fs::read_to_string(dir.join("perf.md")).unwrap();
        (names, bmf.as_object().unwrap().len(), markdown.lines().filter(|l| l.starts_with("| ✅ | `perf::")).count())
    }

    #[test]
    fn processes_of_one_nextest_run_each_add_their_test_to_the_same_files() {
        use crate::fixtures::record;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        // Two processes of one run, each with the destinations it resolved when it started.
        let (first, second) = (process_of_run(dir, "run-1", None), process_of_run(dir, "run-1", None));
        finish(&first, &[record("perf::b_vs_slow", 25.0, 100.0)]);
        assert_eq!(contents(dir), (vec!["perf::b_vs_slow".to_owned()], 2, 1));
        let written = finish(&second, &[record("perf::a_vs_slow", 50.0, 100.0)]);
        assert_eq!(contents(dir), (vec!["perf::a_vs_slow".to_owned(), "perf::b_vs_slow".to_owned()], 4, 2));
        assert_eq!(written.results.as_deref(), Some(dir.join("perf.json").as_path()));
        assert_eq!((written.markdown.len(), written.tracking.len()), (1, 2));
        assert_eq!(written.dropped, 0, "the file held `b`, and holds it still");
        // Each comparison kept its record in a file of its own; nothing temporary is left.
        assert_eq!(entries(&dir.join("perf/.runs")), ["run-1"]);
        let records = entries(&dir.join("perf/.runs/run-1"));
        assert_eq!(records.iter().filter(|name| name.ends_with(".json")).count(), 2, "{records:?}");
        assert!(entries(dir).iter().all(|name| !name.contains("tmp")), "{:?}", entries(dir));
        // A later run replaces the files, saying how many comparisons it dropped, and the records
        // of the earlier run are removed.
        let later = finish(&process_of_run(dir, "run-2", None), &[record("perf::c_vs_slow", 50.0, 100.0)]);
        assert_eq!(contents(dir), (vec!["perf::c_vs_slow".to_owned()], 2, 1));
        assert_eq!(later.dropped, 2, "`a` and `b` of the earlier run");
        assert_eq!(entries(&dir.join("perf/.runs")), ["run-2"]);
    }

    /// A process that holds the run's folder keeps another from writing the run's files until it
    /// lets go; the other then writes files holding a record saved meanwhile.
    #[test]
    fn a_process_writes_the_runs_files_only_while_it_holds_the_run() {
        use crate::fixtures::record;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let (first, second) = (process_of_run(dir, "run-1", None), process_of_run(dir, "run-1", None));
        let held = first.records.hold().expect("the run's folder can be held");
        std::thread::scope(|scope| {
            let writer = scope.spawn(|| finish(&second, &[record("perf::b_vs_slow", 25.0, 100.0)]));
            // `second` has saved its record and waits for the folder.
            while first.records.read_all().0.is_empty() {
                std::thread::yield_now();
            }
            assert!(!dir.join("perf.json").exists(), "nothing is written while the run is held");
            let test = record("perf::a_vs_slow", 50.0, 100.0);
            let started_at = "2026-12-04T18:00:00Z".to_owned();
            let saved = Record { started_at, load_average_start: None, step_summary_start: None, test };
            first.records.save(&saved).expect("a record can be saved");
            drop(held);
            writer.join().expect("the writer ends");
        });
        assert_eq!(contents(dir).0, ["perf::a_vs_slow", "perf::b_vs_slow"]);
    }

    /// Processes of one run that finish at once, each renaming its files over the others', still
    /// leave files that hold every one of their tests.
    #[test]
    fn processes_that_write_at_once_leave_every_test_in_the_files() {
        use crate::fixtures::record;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let names: Vec<String> = (0..6).map(|i| format!("perf::f{i}_vs_slow")).collect();
        let processes: Vec<Destinations> = names.iter().map(|_| process_of_run(dir, "run", None)).collect();
        std::thread::scope(|scope| {
            for (destinations, name) in processes.iter().zip(&names) {
                scope.spawn(move || finish(destinations, &[record(name, 50.0, 100.0)]));
            }
        });
        let (written, bmf, rows) = contents(dir);
        assert_eq!((written, bmf, rows), (names.clone(), 2 * names.len(), names.len()));
    }

    #[test]
    fn a_process_killed_while_writing_its_record_loses_only_its_own_test() {
        use crate::fixtures::record;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        finish(&process_of_run(dir, "run", None), &[record("perf::a_vs_slow", 50.0, 100.0)]);
        // What a process killed inside `write_atomically` leaves: a temporary file, half written.
        std::fs::write(dir.join("perf/.runs/run/.99-1.json.tmp-1"), "{\"binary\": \"pe").unwrap();
        finish(&process_of_run(dir, "run", None), &[record("perf::b_vs_slow", 50.0, 100.0)]);
        assert_eq!(contents(dir).0, ["perf::a_vs_slow", "perf::b_vs_slow"]);
    }

    #[test]
    fn an_unreadable_record_is_named_and_the_process_still_writes_its_own_test() {
        use crate::fixtures::record;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let destinations = process_of_run(dir, "run", None);
        std::fs::create_dir_all(dir.join("perf/.runs/run")).unwrap();
        std::fs::write(dir.join("perf/.runs/run/0-1.json"), "not a record").unwrap();
        let environment = crate::fixtures::environment();
        let tests = [record("perf::a_vs_slow", 50.0, 100.0)];
        let (written, errors) = destinations.write(&crate::fixtures::run(&environment, &tests, false));
        let message = errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
        assert!(
            errors.len() == 1 && message.contains("0-1.json") && message.contains("remove the folder"),
            "{message}"
        );
        assert!(written.results.is_some());
        assert_eq!(contents(dir).0, ["perf::a_vs_slow"]);
    }

    #[test]
    fn the_step_summary_of_a_nextest_run_is_one_summary_after_what_came_before() {
        use crate::fixtures::record;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let summary = dir.join("step_summary.md");
        std::fs::write(&summary, "## an earlier step\n").unwrap();
        for name in ["perf::a_vs_slow", "perf::b_vs_slow"] {
            let destinations = process_of_run(dir, "run", Some(summary.clone()));
            let written = finish(&destinations, &[record(name, 50.0, 100.0)]);
            assert_eq!(written.markdown[0].mode, Mode::Append);
        }
        let text = std::fs::read_to_string(&summary).unwrap();
        assert!(text.starts_with("## an earlier step\n\n### rtcompare: `perf`"), "{text}");
        assert_eq!(text.matches("### rtcompare:").count(), 1, "{text}");
        assert!(text.contains("| `perf::a_vs_slow` |") && text.contains("| `perf::b_vs_slow` |"), "{text}");
    }

    #[test]
    fn without_a_nextest_run_each_run_writes_its_own_tests_and_appends_its_summary() {
        use crate::fixtures::record;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let summary = dir.join("step_summary.md");
        let settings = Requested { results: Some(dir.join("perf.json")), ..Requested::default() };
        for name in ["perf::a_vs_slow", "perf::b_vs_slow"] {
            let destinations = Destinations::new(&settings, Some(summary.clone()), None, &format!("own-{name}"));
            destinations.probe().unwrap();
            finish(&destinations, &[record(name, 50.0, 100.0)]);
        }
        let file = std::fs::read_to_string(dir.join("perf.json")).unwrap();
        assert!(file.contains("perf::b_vs_slow") && !file.contains("perf::a_vs_slow"), "{file}");
        assert_eq!(std::fs::read_to_string(&summary).unwrap().matches("### rtcompare:").count(), 2);
        assert_eq!(entries(&dir.join("perf/.runs")).len(), 1, "the earlier run's records are gone");
    }

    /// The run's files hold a test as the process that ran it has it, even when its record could
    /// not be saved, and say when the run's first process started.
    #[test]
    fn a_run_is_every_record_and_this_processs_own_tests_from_its_first_start() {
        use crate::fixtures;
        let environment = fixtures::environment();
        let saved = |name: &str, started_at: &str, start: u64| Record {
            started_at: started_at.to_owned(),
            load_average_start: Some([9.0, 8.0, 7.0]),
            step_summary_start: Some(start),
            test: fixtures::record(name, 50.0, 100.0),
        };
        let records = vec![
            saved("perf::b_vs_slow", "2000-01-01T00:00:00Z", 70),
            saved("perf::a_vs_slow", "2000-01-01T00:00:01Z", 40),
        ];
        let own = [fixtures::panicked("perf::b_vs_slow"), fixtures::record("perf::c_vs_slow", 50.0, 100.0)];
        let (started, tests, start) = gathered(&fixtures::run(&environment, &own, false), records, Some(900));
        let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["perf::a_vs_slow", "perf::b_vs_slow", "perf::c_vs_slow"]);
        assert!(!tests[1].passed(), "this process's own run of a test is its newest");
        assert_eq!(
            (started.started_at.as_str(), started.load_average_start),
            ("2000-01-01T00:00:00Z", Some([9.0, 8.0, 7.0]))
        );
        assert_eq!(start, Some(40), "the run's summary starts where its first process found the file");
    }
}
