//! Where a run's files go — the results file, one picture per comparison, the Markdown summary,
//! the Bencher Metric Format and github-action-benchmark files — checking before measuring that
//! they can be written, and writing them atomically after.

use super::run::Run;
use super::{bmf, gha, json, markdown, svg};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The paths a run was asked to write to; `None` takes the default (the results file) or
/// writes nothing (the others).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Requested {
    /// `RTCOMPARE_RESULTS`.
    pub results: Option<PathBuf>,
    /// `RTCOMPARE_MARKDOWN`.
    pub markdown: Option<PathBuf>,
    /// `RTCOMPARE_BMF`.
    pub bmf: Option<PathBuf>,
    /// `RTCOMPARE_GHA_BENCHMARK`.
    pub gha_benchmark: Option<PathBuf>,
}

/// How a Markdown destination is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Added to the end (`$GITHUB_STEP_SUMMARY` collects every step's summary).
    Append,
    /// Replaced whole (`RTCOMPARE_MARKDOWN`).
    Replace,
}

/// A Markdown summary's destination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MarkdownTarget {
    /// The file.
    pub path: PathBuf,
    /// Append or replace.
    pub mode: Mode,
    /// The variable that named it, for messages.
    pub variable: &'static str,
}

/// Where a run's files go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Destinations {
    /// The test binary's name without Cargo's hash.
    pub binary: String,
    /// The JSON results file.
    pub results: PathBuf,
    /// The directory of the pictures: the results file's path without its extension.
    pub pictures: PathBuf,
    /// Markdown summaries to write.
    pub markdown: Vec<MarkdownTarget>,
    /// The continuous-benchmarking files to write (`RTCOMPARE_BMF`, `RTCOMPARE_GHA_BENCHMARK`).
    pub tracking: Vec<TrackingTarget>,
}

/// A file for a continuous-benchmarking tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TrackingTarget {
    /// The file.
    pub path: PathBuf,
    /// Which format.
    pub format: TrackingFormat,
}

/// The formats continuous-benchmarking tools read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TrackingFormat {
    /// Bencher Metric Format (`RTCOMPARE_BMF`).
    Bmf,
    /// github-action-benchmark `customSmallerIsBetter` JSON (`RTCOMPARE_GHA_BENCHMARK`).
    GhaBenchmark,
}

impl TrackingFormat {
    /// The file's name in messages.
    pub(crate) fn what(self) -> &'static str {
        match self {
            TrackingFormat::Bmf => "Bencher Metric Format file",
            TrackingFormat::GhaBenchmark => "github-action-benchmark file",
        }
    }

    /// The variable that names the file.
    pub(crate) fn variable(self) -> &'static str {
        match self {
            TrackingFormat::Bmf => "RTCOMPARE_BMF",
            TrackingFormat::GhaBenchmark => "RTCOMPARE_GHA_BENCHMARK",
        }
    }

    fn render(self, run: &Run<'_>) -> String {
        match self {
            TrackingFormat::Bmf => bmf::render(run),
            TrackingFormat::GhaBenchmark => gha::render(run),
        }
    }
}

/// What was written, for the closing summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Written {
    /// The results file.
    pub results: Option<PathBuf>,
    /// The pictures' directory and how many were written there.
    pub pictures: Option<(PathBuf, usize)>,
    /// Markdown summaries written.
    pub markdown: Vec<MarkdownTarget>,
    /// Continuous-benchmarking files written.
    pub tracking: Vec<TrackingTarget>,
}

/// A file that cannot be written: what, where, why and how to fix it.
#[derive(Debug)]
pub(crate) struct OutputError {
    what: &'static str,
    path: PathBuf,
    source: io::Error,
    fix: String,
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write the {} at {}: {}; {}", self.what, self.path.display(), self.source, self.fix)
    }
}

impl std::error::Error for OutputError {}

impl Destinations {
    /// The destinations of this process: from the requested paths, `$GITHUB_STEP_SUMMARY` and
    /// the test binary's own path.
    pub(crate) fn resolve(settings: &Requested) -> Destinations {
        let exe = std::env::current_exe().ok();
        let step_summary = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty()).map(PathBuf::from);
        Destinations::from_parts(settings, step_summary, exe.as_deref())
    }

    /// [`Destinations::resolve`] with its inputs given, for tests.
    fn from_parts(settings: &Requested, step_summary: Option<PathBuf>, exe: Option<&Path>) -> Destinations {
        let binary = exe.and_then(binary_name).unwrap_or_else(|| "rtcompare".to_owned());
        let results = match &settings.results {
            Some(path) => path.clone(),
            None => default_directory(exe).join(format!("{binary}.json")),
        };
        let mut markdown = Vec::new();
        if let Some(path) = step_summary {
            markdown.push(MarkdownTarget { path, mode: Mode::Append, variable: "GITHUB_STEP_SUMMARY" });
        }
        if let Some(path) = &settings.markdown {
            markdown.push(MarkdownTarget { path: path.clone(), mode: Mode::Replace, variable: "RTCOMPARE_MARKDOWN" });
        }
        let mut tracking = Vec::new();
        for (path, format) in
            [(&settings.bmf, TrackingFormat::Bmf), (&settings.gha_benchmark, TrackingFormat::GhaBenchmark)]
        {
            if let Some(path) = path {
                tracking.push(TrackingTarget { path: path.clone(), format });
            }
        }
        Destinations { binary, pictures: results.with_extension(""), results, markdown, tracking }
    }

    /// Creates the directories and proves each destination writable, so that a wrong path fails
    /// the run before minutes of measuring rather than after.
    pub(crate) fn probe(&self) -> Result<(), OutputError> {
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
            create_parent(&target.path).and_then(|()| open_markdown(target, false)).map_err(|source| OutputError {
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

    /// Writes the results file, a picture per measured comparison and the Markdown summaries,
    /// returning what was written and every error (one failure does not stop the others).
    pub(crate) fn write(&self, run: &Run<'_>) -> (Written, Vec<OutputError>) {
        let mut written = Written::default();
        let mut errors = Vec::new();
        let error = |what, path: &Path, source| OutputError {
            what,
            path: path.to_owned(),
            source,
            fix: "the path was writable when the run started; check the disk space and permissions".to_owned(),
        };
        match write_atomically(&self.results, |file| file.write_all(json::render(run).as_bytes())) {
            Ok(()) => written.results = Some(self.results.clone()),
            Err(source) => errors.push(error("results file", &self.results, source)),
        }
        let mut pictures = 0;
        for test in run.tests {
            let Some(report) = test.report else { continue };
            let path = self.pictures.join(format!("{}.svg", svg::file_stem(test.name)));
            match write_atomically(&path, |file| file.write_all(svg::render_svg(report, test.name).as_bytes())) {
                Ok(()) => pictures += 1,
                Err(source) => errors.push(error("picture", &path, source)),
            }
        }
        if pictures > 0 {
            written.pictures = Some((self.pictures.clone(), pictures));
        }
        let summary = markdown::render(run);
        for target in &self.markdown {
            match write_markdown(target, &summary) {
                Ok(()) => written.markdown.push(target.clone()),
                Err(source) => errors.push(error("Markdown summary", &target.path, source)),
            }
        }
        for target in &self.tracking {
            let text = target.format.render(run);
            match write_atomically(&target.path, |file| file.write_all(text.as_bytes())) {
                Ok(()) => written.tracking.push(target.clone()),
                Err(source) => errors.push(error(target.format.what(), &target.path, source)),
            }
        }
        (written, errors)
    }
}

/// `…/deps/perf-1a2b3c4d5e6f7a8b` → `perf`: the file stem without Cargo's `-<hash>` suffix.
pub(crate) fn binary_name(exe: &Path) -> Option<String> {
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

/// A hidden file in the same directory as `path`, so that renaming it over `path` is atomic.
fn sibling(path: &Path, purpose: &str) -> PathBuf {
    let name = path.file_name().map_or_else(|| "rtcompare".into(), |n| n.to_string_lossy());
    path.with_file_name(format!(".{name}.{purpose}-{}", std::process::id()))
}

/// Writes `path` through a temporary file in the same directory and a rename, so readers see the
/// old file or the new one, never half of one. On failure the temporary file is removed and any
/// older file is left as it was.
pub(crate) fn write_atomically(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let temporary = sibling(path, "tmp");
    let result = File::create(&temporary)
        .and_then(|mut file| fill(&mut file).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

fn open_markdown(target: &MarkdownTarget, truncate: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    match target.mode {
        Mode::Append => options.append(true).create(true),
        // Probing must not empty an existing file; writing replaces it.
        Mode::Replace => options.write(true).create(true).truncate(truncate),
    };
    options.open(&target.path)
}

fn write_markdown(target: &MarkdownTarget, summary: &str) -> io::Result<()> {
    match target.mode {
        Mode::Append => open_markdown(target, false)?.write_all(format!("\n{summary}").as_bytes()),
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
    use crate::scratch::ScratchDir;

    /// A fresh directory under the system's temporary directory, removed when the test ends.
    fn scratch(name: &str) -> ScratchDir {
        ScratchDir::new(&format!("files-{name}"))
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn atomic_writes_replace_the_file_and_leave_no_temporary_behind() {
        let dir = scratch("atomic");
        let path = dir.join("r.json");
        write_atomically(&path, |f| f.write_all(b"old")).unwrap();
        write_atomically(&path, |f| f.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(entries(&dir), ["r.json"]);
    }

    #[test]
    fn a_failed_write_leaves_the_older_file_intact() {
        let dir = scratch("failed");
        let path = dir.join("r.json");
        write_atomically(&path, |f| f.write_all(b"old")).unwrap();
        let failed = write_atomically(&path, |f| {
            f.write_all(b"half of the ne")?;
            Err(io::Error::other("disk full"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "disk full");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(entries(&dir), ["r.json"]);
    }

    #[test]
    fn the_default_path_is_under_the_target_directory_named_after_the_binary() {
        let settings = Requested::default();
        let exe = Path::new("/repo/target/release/deps/perf-1a2b3c4d5e6f7a8b");
        let d = Destinations::from_parts(&settings, None, Some(exe));
        assert_eq!(d.binary, "perf");
        assert_eq!(d.results, Path::new("/repo/target/rtcompare/perf.json"));
        assert_eq!(d.pictures, Path::new("/repo/target/rtcompare/perf"));
        assert!(d.markdown.is_empty());
        let elsewhere = Destinations::from_parts(&settings, None, Some(Path::new("/opt/bin/my-bench")));
        assert_eq!(elsewhere.binary, "my-bench");
        assert_eq!(elsewhere.results, Path::new("target/rtcompare/my-bench.json"));
        assert_eq!(
            Destinations::from_parts(&settings, None, None).results,
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
        let d = Destinations::from_parts(&settings, Some(PathBuf::from("/gh/summary")), None);
        assert_eq!((d.results.as_path(), d.pictures.as_path()), (Path::new("out/r.json"), Path::new("out/r")));
        let modes: Vec<(&str, Mode)> = d.markdown.iter().map(|t| (t.variable, t.mode)).collect();
        assert_eq!(modes, [("GITHUB_STEP_SUMMARY", Mode::Append), ("RTCOMPARE_MARKDOWN", Mode::Replace)]);
        assert!(d.tracking.is_empty());
        let settings = Requested {
            bmf: Some(PathBuf::from("out/bmf.json")),
            gha_benchmark: Some(PathBuf::from("out/gha.json")),
            ..Requested::default()
        };
        let tracking = Destinations::from_parts(&settings, None, None).tracking;
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
        let dir = scratch("tracking");
        std::fs::write(dir.join("blocker"), "").unwrap();
        for (bmf, gha, variable) in [
            (Some(dir.join("blocker/bmf.json")), None, "RTCOMPARE_BMF="),
            (None, Some(dir.join("blocker/gha.json")), "RTCOMPARE_GHA_BENCHMARK="),
        ] {
            let settings =
                Requested { results: Some(dir.join("r.json")), bmf, gha_benchmark: gha, ..Requested::default() };
            let message = Destinations::from_parts(&settings, None, None).probe().unwrap_err().to_string();
            assert!(message.contains("blocker/") && message.contains(variable), "{message}");
        }
        // Writable paths are probed without leaving anything behind.
        let settings = Requested {
            results: Some(dir.join("r.json")),
            bmf: Some(dir.join("t/bmf.json")),
            gha_benchmark: Some(dir.join("t/gha.json")),
            ..Requested::default()
        };
        Destinations::from_parts(&settings, None, None).probe().unwrap();
        assert!(entries(&dir.join("t")).is_empty());
    }

    #[test]
    fn probing_creates_the_directories_and_names_an_unwritable_path() {
        let dir = scratch("probe");
        let settings = Requested { results: Some(dir.join("deep/er/r.json")), ..Requested::default() };
        let d = Destinations::from_parts(&settings, None, None);
        d.probe().unwrap();
        assert!(dir.join("deep/er/r").is_dir());
        assert_eq!(entries(&dir.join("deep/er")), ["r"]);
        // A file where a directory should be: creating the directory fails.
        std::fs::write(dir.join("blocker"), "").unwrap();
        let settings = Requested { results: Some(dir.join("blocker/r.json")), ..Requested::default() };
        let message = Destinations::from_parts(&settings, None, None).probe().unwrap_err().to_string();
        assert!(message.contains("blocker/r.json") && message.contains("RTCOMPARE_RESULTS="), "{message}");
    }
}
