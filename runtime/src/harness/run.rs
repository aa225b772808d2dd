//! Running the registered comparisons under a libtest-style command line.

use super::build::BuildInfo;
use super::console::{
    Tally, annotation_lines, file_lines, measuring, print_failures, print_header, print_ignored, print_result_line,
    print_summary, print_trial, print_warning,
};
use super::counting::{Build, Counter};
use super::error::HarnessError;
use super::optimised::Unavailable;
use super::unoptimised::refusal;
use super::{Comparison, Settings, comparisons, run_trial};
use libtest_mimic::{Arguments, Failed, FormatSetting, Trial};
use rtcompare_judge::Metric;
use rtcompare_report::{Destinations, Environment, Run, Test, Written};
use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Runs every registered comparison selected by the command line, writes the results file,
/// pictures and summaries, and returns the exit code (101 when a test failed, 2 on a
/// configuration error or a file that cannot be written).
///
/// An unoptimised build (debug assertions on) that was not asked to measure with
/// `RTCOMPARE_DEBUG=1` builds the same test target optimised and runs that in its place,
/// returning its exit code: 2 when it does not build, or when cargo cannot be run from here.
pub fn main(build: BuildInfo) -> ExitCode {
    let mut args = Arguments::from_args();
    // `cargo bench` passes `--bench`, which libtest-mimic reads as "benchmarks only, no tests".
    // The comparisons are tests, and run under `cargo bench` exactly as under `cargo test`.
    args.bench = false;
    let comparisons = comparisons();
    if let Some(pair) = comparisons.windows(2).find(|w| w[0].0 == w[1].0) {
        let (a, b) = (pair[0].1.registration, pair[1].1.registration);
        eprintln!(
            "error: two comparisons are both named `{}` ({}:{} and {}:{}); give one a `name = \"...\"`",
            pair[0].0, a.file, a.line, b.file, b.line
        );
        return ExitCode::from(2);
    }
    if args.list {
        // Comparisons against a revision are listed as ignored unless RTCOMPARE_BASELINE is set.
        let listed =
            Settings { baseline: std::env::var(super::variables::BASELINE_VARIABLE).ok(), ..Settings::default() };
        return libtest_mimic::run(&args, listed_trials(&comparisons, &listed)).exit_code();
    }
    let mut settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    // Verdicts about debug code must never fail a build: an unoptimised binary measures in its
    // optimised build, or debug code only when asked to. A child is asked by its parent, which
    // passes `RTCOMPARE_DEBUG=1` on when it opted in. A run that measures nothing needs no build.
    if build.debug_assertions && !settings.debug && selects(&args, &comparisons, &settings, |_| true) {
        return in_optimised_build(&build, &settings);
    }
    // In an optimised build `RTCOMPARE_DEBUG=1` changes nothing: its verdicts fail as always.
    settings.debug &= build.debug_assertions;
    if let Some(child) = settings.child {
        return super::server::serve(&comparisons, child.cpu);
    }
    apply_color(&args);
    let destinations = settings.destinations();
    // A path that cannot be written fails now, not after minutes of measuring.
    if let Err(error) = destinations.probe() {
        eprintln!("error: {error}");
        return ExitCode::from(2);
    }
    let counter = Arc::new(Counter::new(settings.instructions, settings.debug));
    if let Err(error) = counter.prepare(selects(&args, &comparisons, &settings, counted)) {
        eprintln!("error: {error}");
        return ExitCode::from(2);
    }
    let (prepared, environment) = before_measuring(&args, &comparisons, &settings, &build, &counter);
    if let Err(error) = prepared {
        eprintln!("error: {error}");
        return ExitCode::from(2);
    }
    let mut session = Session { environment, settings, destinations, counter };
    if args.format == Some(FormatSetting::Json) {
        args.test_threads = args.test_threads.or(Some(1));
        return run_json(&args, &comparisons, &mut session);
    }
    run_human(&args, &comparisons, &mut session)
}

/// What a run does before anything is measured, at once: the baseline build of comparisons
/// against a revision, the counting processes of the builds whose comparisons will be counted
/// (this build's beside the baseline build, the baseline build's once it is ready), and reading
/// the machine. The baseline build's error, if it failed, and the machine.
fn before_measuring(
    args: &Arguments,
    comparisons: &[(String, Comparison)],
    settings: &Settings,
    build: &BuildInfo,
    counter: &Counter,
) -> (Result<(), HarnessError>, Environment) {
    let revision = settings.baseline.as_deref().filter(|_| wants_revision(args, comparisons, settings));
    let counts = selects(args, comparisons, settings, counted);
    let counts_against = selects(args, comparisons, settings, |c| counted(c) && c.registration.settings.revision);
    std::thread::scope(|scope| {
        let this = counts.then(|| scope.spawn(|| counter.start(Build::This)));
        let prepared = match revision {
            Some(revision) => super::revision::prepare(revision, build, settings.optimised.as_deref()).map(drop),
            None => Ok(()),
        };
        let baseline = (counts_against && prepared.is_ok()).then(|| scope.spawn(|| counter.start(Build::Baseline)));
        let environment = crate::environment::read(build.debug_assertions);
        // A start that panicked left counting as it was: a later count starts it again.
        for started in [this, baseline].into_iter().flatten() {
            let _ = started.join();
        }
        (prepared, environment)
    })
}

/// Whether the instructions of a comparison are counted: beside time, or as its metric.
fn counted(comparison: &Comparison) -> bool {
    matches!(comparison.registration.settings.metric, Metric::Time | Metric::Instructions)
}

/// Whether the command line selects a comparison against a revision that will run.
fn wants_revision(args: &Arguments, comparisons: &[(String, Comparison)], settings: &Settings) -> bool {
    selects(args, comparisons, settings, |c| c.registration.settings.revision)
}

/// Whether the command line selects a comparison that will run (neither filtered out nor ignored)
/// and is one `which` accepts.
fn selects(
    args: &Arguments,
    comparisons: &[(String, Comparison)],
    settings: &Settings,
    which: impl Fn(&Comparison) -> bool,
) -> bool {
    let all = listed_trials(comparisons, settings);
    comparisons
        .iter()
        .zip(&all)
        .any(|((_, c), trial)| which(c) && !args.is_filtered_out(trial) && !args.is_ignored(trial))
}

/// Runs the optimised build of this unoptimised binary in its place and returns its exit code;
/// where that cannot be done, measures nothing and names the command to run instead (exit 2).
fn in_optimised_build(build: &BuildInfo, settings: &Settings) -> ExitCode {
    // The results file where this binary would write it, not under the optimised build's folder.
    let results = settings.destinations().results;
    match super::optimised::run(build, settings, &results) {
        Ok(code) => code,
        Err(Unavailable(why)) => {
            let exe = std::env::current_exe().ok();
            let args: Vec<OsString> = std::env::args_os().skip(1).collect();
            let nextest = std::env::var_os("NEXTEST_RUN_ID").is_some();
            eprintln!("error: {}", refusal(exe.as_deref(), &args, nextest, &why));
            ExitCode::from(2)
        }
    }
}

/// What a run needs besides the command line.
struct Session {
    settings: Settings,
    destinations: Destinations,
    environment: Environment,
    /// Instruction counts beside time.
    counter: Arc<Counter>,
}

impl Session {
    /// Records the end-of-run load average, then saves the record of each test that ran and
    /// writes the run's files from the run's records (nothing when no test ran, so a filter that
    /// matches nothing leaves the last run's files alone). Prints each failure; returns what was
    /// written and whether everything was.
    fn write_files(&mut self, tests: &[Test]) -> (Written, bool) {
        crate::environment::finish(&mut self.environment);
        if tests.is_empty() {
            return (Written::default(), true);
        }
        let run = Run {
            binary: &self.destinations.binary,
            budget: self.settings.time,
            seed: self.settings.seed,
            unoptimised: self.settings.debug,
            environment: &self.environment,
            tests,
        };
        let (written, errors) = self.destinations.write(&run);
        for error in &errors {
            eprintln!("error: {error}");
        }
        (written, errors.is_empty())
    }
}

/// 101 when a test failed, else 2 when a file could not be written, else success.
fn exit_code(tests_failed: bool, files_written: bool) -> ExitCode {
    match (tests_failed, files_written) {
        (true, _) => ExitCode::from(101),
        (false, false) => ExitCode::from(2),
        (false, true) => ExitCode::SUCCESS,
    }
}

/// The JSON format: libtest-mimic prints and runs the trials (one at a time), and rtcompare's
/// own words go to stderr so that stdout stays machine-readable.
fn run_json(args: &Arguments, comparisons: &[(String, Comparison)], session: &mut Session) -> ExitCode {
    for warning in session.environment.warnings() {
        eprintln!("warning: {warning}");
    }
    let all = listed_trials(comparisons, &session.settings);
    let selected = comparisons.iter().zip(&all).filter(|(_, trial)| !args.is_filtered_out(trial)).map(|(c, _)| c);
    if let Some(warning) = threads_warning(selected, available_cores()) {
        eprintln!("warning: {warning}");
    }
    for line in session.counter.news() {
        eprintln!("warning: {line}");
    }
    let records = Records::default();
    let conclusion =
        libtest_mimic::run(args, measuring_trials(comparisons, &session.settings, &records, &session.counter));
    for line in session.counter.news() {
        eprintln!("warning: {line}");
    }
    let mut records = std::mem::take(&mut *records.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    records.sort_by(|a, b| a.name.cmp(&b.name));
    let (written, complete) = session.write_files(&records);
    for line in file_lines(&written) {
        eprintln!("{line}");
    }
    // On standard error, as every line of rtcompare's own: standard output is libtest's JSON.
    if session.settings.annotates() {
        annotation_lines(&records).iter().for_each(|line| eprintln!("{line}"));
    }
    exit_code(conclusion.has_failed(), complete)
}

/// The cores this process may run on (1 when the system cannot say).
fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// One warning for the run when a selected comparison runs each batch on more threads than the
/// machine has `cores`: its threads then take turns rather than running at once.
fn threads_warning<'a>(selected: impl Iterator<Item = &'a (String, Comparison)>, cores: usize) -> Option<String> {
    let over: Vec<(&str, u32)> = selected
        .filter_map(|(name, c)| Some((name.as_str(), c.registration.settings.threads?)))
        .filter(|&(_, threads)| threads as usize > cores)
        .collect();
    let &(name, threads) = over.iter().max_by_key(|(_, threads)| *threads)?;
    let others = match over.len() - 1 {
        0 => String::new(),
        1 => " (and 1 other comparison)".to_owned(),
        n => format!(" (and {n} other comparisons)"),
    };
    Some(format!(
        "`{name}`{others} runs each batch on {threads} threads (`threads = {threads}`), but this machine has {cores} \
         core{}: the threads take turns instead of running at once, so the figures describe contention for too few \
         cores; measure on a machine with at least {threads} cores",
        if cores == 1 { "" } else { "s" }
    ))
}

/// The tests that libtest-mimic runs, for the results file.
type Records = Arc<Mutex<Vec<Test>>>;

/// The trials libtest-mimic filters and lists, one per comparison (ignored as its attribute
/// says, or when it is against a revision and the run names none), which measure nothing.
fn listed_trials(comparisons: &[(String, Comparison)], settings: &Settings) -> Vec<Trial> {
    trials(comparisons, settings, |_, _| Ok(()))
}

/// The trials of the JSON format: each measures its comparison and adds its record to
/// `records`.
fn measuring_trials(
    comparisons: &[(String, Comparison)],
    settings: &Settings,
    records: &Records,
    counter: &Arc<Counter>,
) -> Vec<Trial> {
    let (run_settings, records, counter) = (settings.clone(), Arc::clone(records), Arc::clone(counter));
    // Every registered comparison counts towards the confirmation level, whatever the filter:
    // the same level in every format and under every runner.
    let registered = comparisons.len();
    trials(comparisons, settings, move |name, comparison| {
        let record = {
            let progress = measuring(name);
            run_trial(comparison, name, &run_settings, registered, &counter, progress.hook())
        };
        let outcome = record.failure.clone().map_or(Ok(()), |message| Err(Failed::from(message)));
        records.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(record);
        outcome
    })
}

/// One trial per comparison, each running `run` with its name and comparison.
fn trials(
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

/// A comparison against a revision in a run that names none: ignored, with a line on how to
/// run it.
fn without_revision(comparison: Comparison, settings: &Settings) -> bool {
    comparison.registration.settings.revision && settings.baseline.is_none()
}

fn apply_color(args: &Arguments) {
    use libtest_mimic::ColorSetting;
    let choice = match args.color {
        Some(ColorSetting::Always) => anstream::ColorChoice::Always,
        Some(ColorSetting::Never) => anstream::ColorChoice::Never,
        _ => anstream::ColorChoice::Auto,
    };
    choice.write_global();
}

/// The pretty and terse formats: libtest's lines with a verdict block under each test.
fn run_human(args: &Arguments, comparisons: &[(String, Comparison)], session: &mut Session) -> ExitCode {
    let started = Instant::now();
    let all = listed_trials(comparisons, &session.settings);
    let selected: Vec<usize> = (0..all.len()).filter(|&i| !args.is_filtered_out(&all[i])).collect();
    let mut tally = Tally { filtered_out: all.len() - selected.len(), ..Tally::default() };
    let terse = args.quiet || args.format == Some(FormatSetting::Terse);
    print_header(selected.len());
    if !selected.is_empty() {
        session.environment.warnings().iter().for_each(|warning| print_warning(warning));
    }
    if let Some(warning) = threads_warning(selected.iter().map(|&i| &comparisons[i]), available_cores()) {
        print_warning(&warning);
    }
    if !selected.is_empty() {
        session.counter.news().iter().for_each(|line| print_warning(line));
    }
    let mut records = Vec::new();
    for &index in &selected {
        let (name, comparison) = &comparisons[index];
        if args.is_ignored(&all[index]) {
            tally.ignored += 1;
            print_ignored(name, terse);
            if !terse && without_revision(*comparison, &session.settings) {
                anstream::println!("    {}", super::revision::how_to_run());
            }
            continue;
        }
        let record = {
            let progress = measuring(name);
            run_trial(*comparison, name, &session.settings, comparisons.len(), &session.counter, progress.hook())
        };
        session.counter.news().iter().for_each(|line| print_warning(line));
        if record.passed() {
            tally.passed += 1;
        } else {
            tally.failed += 1;
        }
        print_trial(&record, terse, session.settings.debug, session.settings.detail());
        records.push(record);
    }
    if terse {
        anstream::println!();
    }
    print_failures(&records);
    print_result_line(tally, started.elapsed());
    let (written, complete) = session.write_files(&records);
    print_summary(&records, &written, session.settings.debug, session.settings.detail());
    if session.settings.annotates() {
        annotation_lines(&records).iter().for_each(|line| anstream::println!("{line}"));
    }
    exit_code(tally.failed > 0, complete)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{AttributeSettings, Batches, Registration};
    use crate::measure::Meter;

    fn batch(_: u64, _: u64, _: u64, _: Meter) -> u64 {
        0
    }

    fn comparison(candidate: &'static str, threads: Option<u32>) -> (String, Comparison) {
        let registration: &'static Registration = Box::leak(Box::new(Registration {
            module_path: "perf",
            candidate,
            baseline: "old",
            baseline_name: "old",
            batches: Batches::uniform(batch),
            settings: AttributeSettings { threads, ..AttributeSettings::default() },
            file: "tests/perf.rs",
            line: 1,
        }));
        (registration.test_name(), Comparison { registration, size: None })
    }

    #[test]
    fn more_threads_than_cores_is_one_warning_naming_the_largest() {
        let selected = [comparison("a", Some(4)), comparison("b", Some(8)), comparison("c", None)];
        let warning = threads_warning(selected.iter(), 2).unwrap_or_default();
        assert!(
            warning.starts_with("`perf::b_vs_old` (and 1 other comparison) runs each batch on 8 threads"),
            "{warning}"
        );
        assert!(warning.contains("this machine has 2 cores"), "{warning}");
        assert_eq!(threads_warning(selected.iter(), 8), None, "enough cores");
        assert_eq!(threads_warning(selected[2..].iter(), 1), None, "no threads");
    }
}
