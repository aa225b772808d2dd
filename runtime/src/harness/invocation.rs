//! How this process was invoked, read once: what it is to do (its [`Mode`]), the run's
//! settings, and the facts of the process its files and messages name. Nothing else in the
//! harness reads the command line or the variables a run is started with, so what a process
//! does is decided in one place, and `run::main` is a `match` on it.

use super::build::BuildInfo;
use super::registry::Comparison;
use super::settings::{Settings, SettingsError, Variables};
use super::variables::BASELINE_VARIABLE;
use libtest_mimic::{Arguments, Failed, FormatSetting, Trial};
use rtcompare_report::Destinations;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// This process's invocation: its mode, its command line, the run's settings and its facts.
pub(crate) struct Invocation {
    /// What this process is to do.
    pub mode: Mode,
    /// libtest's command line, as libtest-mimic reads it.
    pub args: Arguments,
    /// The run's settings (`RTCOMPARE_*`).
    pub settings: Settings,
    /// The facts of this process that the run's files and messages need.
    pub facts: Facts,
}

/// What a process of a test binary is to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `--list`: name the tests, measure nothing.
    List,
    /// An unoptimised build that was not asked to measure itself (`RTCOMPARE_DEBUG=1`): build
    /// the optimised one and run it in its place.
    InOptimisedBuild,
    /// A child process rtcompare started (`RTCOMPARE_LOCKSTEP`): serve its parent's requests,
    /// pinned to `cpu` when it is one side of a lock-step pair.
    Child {
        /// The CPU to pin itself to.
        cpu: Option<usize>,
    },
    /// Measure the selected comparisons, printed in libtest's JSON format (`json`) or in its
    /// human ones.
    Measure {
        /// `--format json`.
        json: bool,
    },
}

/// The facts of this process, beside the settings: where it is, how it was started, and where
/// its run's files go.
#[derive(Clone, Debug)]
pub(crate) struct Facts {
    /// This test binary, when the system can say.
    pub exe: Option<PathBuf>,
    /// Its arguments, without the program name: passed on as they are to the optimised build.
    pub args: Vec<OsString>,
    /// Whether cargo nextest started it (`NEXTEST_RUN_ID` is set).
    pub nextest: bool,
    /// The run this process is part of: nextest's (`NEXTEST_RUN_ID`), else one of its own.
    pub run_id: String,
    /// `$GITHUB_STEP_SUMMARY`, the Markdown summary of a GitHub Actions step.
    pub step_summary: Option<PathBuf>,
    /// Whether it runs on GitHub Actions (`GITHUB_ACTIONS=true`).
    pub github_actions: bool,
    /// `RTCOMPARE_OPTIMISED`: in the optimised build an unoptimised one started, that build's
    /// target folder, where the results file and the baseline builds go.
    pub optimised_from: Option<PathBuf>,
    /// `PATH`, where valgrind is looked for.
    pub path: Option<OsString>,
}

impl Invocation {
    /// Reads this process's invocation: its command line, its environment and, to tell whether
    /// an unoptimised build would measure anything, the `comparisons` registered in `build`. A
    /// malformed setting is an error, unless the command line only lists the tests.
    pub(crate) fn read(build: &BuildInfo, comparisons: &[(String, Comparison)]) -> Result<Invocation, SettingsError> {
        let mut args = Arguments::from_args();
        // `cargo bench` passes `--bench`, which libtest-mimic reads as "benchmarks only, no tests".
        // The comparisons are tests, and run under `cargo bench` exactly as under `cargo test`.
        args.bench = false;
        if args.list {
            // Listing measures nothing, so a malformed setting does not stop it; a comparison
            // against a revision is listed as ignored unless `RTCOMPARE_BASELINE` is set.
            let settings = Settings { baseline: std::env::var(BASELINE_VARIABLE).ok(), ..Settings::default() };
            return Ok(Invocation { mode: Mode::List, args, settings, facts: Facts::read(None) });
        }
        let Variables { mut settings, child, optimised } = Variables::from_env()?;
        let facts = Facts::read(optimised);
        // Verdicts about debug code must never fail a build: an unoptimised binary measures in its
        // optimised build, or debug code only when asked to. A child is asked by its parent, which
        // passes `RTCOMPARE_DEBUG=1` on when it opted in. A run that measures nothing needs no build.
        let mode = if build.debug_assertions && !settings.debug && !selected(&args, comparisons, &settings).is_empty() {
            Mode::InOptimisedBuild
        } else if let Some(child) = child {
            Mode::Child { cpu: child.cpu }
        } else {
            Mode::Measure { json: args.format == Some(FormatSetting::Json) }
        };
        // In an optimised build `RTCOMPARE_DEBUG=1` changes nothing: its verdicts fail as always.
        settings.debug &= build.debug_assertions;
        Ok(Invocation { mode, args, settings, facts })
    }

    /// Where this process's files go: the requested paths, with `$GITHUB_STEP_SUMMARY` on
    /// GitHub Actions, the test binary's path (which names them) and the run this process is
    /// part of.
    pub(crate) fn destinations(&self) -> Destinations {
        let facts = &self.facts;
        Destinations::new(&self.settings.outputs, facts.step_summary.clone(), facts.exe.as_deref(), &facts.run_id)
    }

    /// Whether this process annotates its tests' lines: on GitHub Actions, unless
    /// `RTCOMPARE_ANNOTATIONS=0`.
    pub(crate) fn annotates(&self) -> bool {
        self.settings.annotations && self.facts.github_actions
    }

    /// The comparisons the command line selects that will run (neither filtered out nor ignored),
    /// in their order.
    pub(crate) fn selected<'c>(&self, comparisons: &'c [(String, Comparison)]) -> Vec<&'c Comparison> {
        selected(&self.args, comparisons, &self.settings)
    }
}

impl Facts {
    /// Reads the facts of this process; `optimised_from` is what `RTCOMPARE_OPTIMISED` said.
    fn read(optimised_from: Option<PathBuf>) -> Facts {
        let run_id = std::env::var("NEXTEST_RUN_ID").ok().filter(|id| !id.is_empty());
        Facts {
            exe: std::env::current_exe().ok(),
            args: std::env::args_os().skip(1).collect(),
            nextest: std::env::var_os("NEXTEST_RUN_ID").is_some(),
            run_id: run_id.unwrap_or_else(own_run_id),
            step_summary: std::env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty()).map(PathBuf::from),
            github_actions: std::env::var("GITHUB_ACTIONS").as_deref() == Ok("true"),
            optimised_from,
            path: std::env::var_os("PATH"),
        }
    }
}

/// A run id for a process that is a run of its own: its process id and when it started.
fn own_run_id() -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{}-{nanos}", std::process::id())
}

/// The comparisons `args` selects that will run (neither filtered out nor ignored).
fn selected<'c>(args: &Arguments, comparisons: &'c [(String, Comparison)], settings: &Settings) -> Vec<&'c Comparison> {
    let all = listed_trials(comparisons, settings);
    comparisons
        .iter()
        .zip(&all)
        .filter(|(_, trial)| !args.is_filtered_out(trial) && !args.is_ignored(trial))
        .map(|((_, c), _)| c)
        .collect()
}

/// The trials libtest-mimic filters and lists, one per comparison (ignored as its attribute
/// says, or when it is a `#[compare]` test against a revision and the run names none; a
/// front-end's benchmark is then measured alone), which measure nothing.
pub(crate) fn listed_trials(comparisons: &[(String, Comparison)], settings: &Settings) -> Vec<Trial> {
    trials(comparisons, settings, |_, _| Ok(()))
}

/// One trial per comparison, each running `run` with its name and comparison.
pub(crate) fn trials(
    comparisons: &[(String, Comparison)],
    settings: &Settings,
    run: impl Fn(&str, Comparison) -> Result<(), Failed> + Clone + Send + 'static,
) -> Vec<Trial> {
    comparisons
        .iter()
        .map(|(name, comparison)| {
            let (name, comparison, run) = (name.clone(), *comparison, run.clone());
            let ignored = comparison.registration.settings.ignore || without_revision(comparison, settings);
            Trial::test(name.clone(), move || run(&name, comparison)).with_ignored_flag(ignored)
        })
        .collect()
}

/// A `#[compare]` test against a revision in a run that names none: ignored, with a line on how
/// to run it.
pub(crate) fn without_revision(comparison: Comparison, settings: &Settings) -> bool {
    let attribute = &comparison.registration.settings;
    attribute.revision && !attribute.front_end && settings.baseline.is_none()
}

/// A front-end's benchmark in a run that names no revision: measured alone, and it passes.
pub(crate) fn measured_alone(comparison: Comparison, settings: &Settings) -> bool {
    let attribute = &comparison.registration.settings;
    attribute.revision && attribute.front_end && settings.baseline.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::frontend::FrontEndBenchmark;
    use crate::harness::registry::{AttributeSettings, Batches, Registration};
    use crate::measure::Meter;

    fn batch(_: u64, _: u64, _: u64, _: Meter) -> u64 {
        0
    }

    /// A `#[compare]` test against a git revision.
    fn against_revision() -> (String, Comparison) {
        let registration: &'static Registration = Box::leak(Box::new(Registration {
            module_path: "perf",
            candidate: "parse",
            baseline: "parse",
            baseline_name: "baseline",
            batches: Batches::uniform(batch),
            settings: AttributeSettings { revision: true, ..AttributeSettings::default() },
            file: "tests/perf.rs",
            line: 1,
        }));
        (registration.test_name(), Comparison { registration, size: None })
    }

    /// A front-end's benchmark.
    fn benchmark() -> (String, Comparison) {
        let registration = FrontEndBenchmark::new("parse/small", "benches/b.rs", 3).registration();
        (registration.test_name(), Comparison { registration, size: None })
    }

    #[test]
    fn without_a_revision_a_benchmark_is_measured_alone_and_a_compare_test_is_ignored() {
        let comparisons = [against_revision(), benchmark()];
        let none = Settings::default();
        let ignored: Vec<bool> = listed_trials(&comparisons, &none).iter().map(Trial::has_ignored_flag).collect();
        assert_eq!(ignored, [true, false]);
        let alone: Vec<bool> = comparisons.iter().map(|(_, c)| measured_alone(*c, &none)).collect();
        assert_eq!(alone, [false, true]);
        // With a revision, both are compared with it.
        let named = Settings { baseline: Some("HEAD~1".to_owned()), ..Settings::default() };
        assert!(listed_trials(&comparisons, &named).iter().all(|trial| !trial.has_ignored_flag()));
        assert!(comparisons.iter().all(|(_, c)| !measured_alone(*c, &named) && !without_revision(*c, &named)));
    }
}
