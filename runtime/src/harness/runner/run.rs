//! Running the registered comparisons under a libtest-style command line.

use super::console::{
    Tally, alone_line, annotation_lines, file_lines, measuring, print_failures, print_header, print_ignored,
    print_result_line, print_summary, print_trial, print_warning,
};
use super::trial::run_trial;
use crate::harness::build::BuildInfo;
use crate::harness::error::HarnessError;
use crate::harness::frontend::FrontEndBenchmark;
use crate::harness::invocation::{Invocation, Mode, listed_trials, measured_alone, trials, without_revision};
use crate::harness::process::counting::{Build, Counter};
use crate::harness::process::server::Enter;
use crate::harness::rebuild::optimised::Unavailable;
use crate::harness::rebuild::unoptimised::refusal;
use crate::harness::registry::{Comparison, comparisons};
use crate::harness::settings::Settings;
use libtest_mimic::{Arguments, Failed, FormatSetting, Trial};
use rtcompare_judge::Metric;
use rtcompare_report::{Destinations, Environment, Run, Test, Written};
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
    run(&build, comparisons(&[]), None)
}

/// [`main`] for a front-end (rtcompare-criterion): its `benchmarks`, found as it ran, beside the
/// registered comparisons, each compared with itself at a git revision; a child process reaches a
/// benchmark's loops through `enter`.
pub fn front_end_main(build: BuildInfo, benchmarks: Vec<FrontEndBenchmark>, enter: &mut Enter<'_>) -> ExitCode {
    let declared: Vec<_> = benchmarks.into_iter().map(FrontEndBenchmark::registration).collect();
    run(&build, comparisons(&declared), Some(enter))
}

/// A run of `comparisons`, as the command line and the environment say.
fn run(build: &BuildInfo, comparisons: Vec<(String, Comparison)>, enter: Option<&mut Enter<'_>>) -> ExitCode {
    if let Some(pair) = comparisons.windows(2).find(|w| w[0].0 == w[1].0) {
        let (a, b) = (pair[0].1.registration, pair[1].1.registration);
        eprintln!(
            "error: two comparisons are both named `{}` ({}:{} and {}:{}); give one a `name = \"...\"`",
            pair[0].0, a.file, a.line, b.file, b.line
        );
        return ExitCode::from(2);
    }
    let invocation = match Invocation::read(build, &comparisons) {
        Ok(invocation) => invocation,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    match invocation.mode {
        Mode::List => {
            libtest_mimic::run(&invocation.args, listed_trials(&comparisons, &invocation.settings)).exit_code()
        }
        Mode::InOptimisedBuild => in_optimised_build(build, &invocation),
        Mode::Child { cpu } => crate::harness::process::server::serve(&comparisons, enter, cpu),
        Mode::Measure { json } => measure(build, &comparisons, invocation, json),
    }
}

/// Measures the comparisons the command line selects, after everything a run needs before it
/// measures: colours, its files' paths checked, counting prepared, the baseline build made and
/// the machine read. Prints in libtest's JSON format (`json`) or in its human ones.
fn measure(build: &BuildInfo, comparisons: &[(String, Comparison)], invocation: Invocation, json: bool) -> ExitCode {
    apply_color(&invocation.args);
    let destinations = invocation.destinations();
    // A path that cannot be written fails now, not after minutes of measuring.
    if let Err(error) = destinations.probe() {
        eprintln!("error: {error}");
        return ExitCode::from(2);
    }
    let settings = &invocation.settings;
    let counter = Arc::new(Counter::new(settings.instructions, settings.debug));
    let selected = invocation.selected(comparisons);
    let counts = selected.iter().any(|c| counted(**c, settings));
    if let Err(error) = counter.prepare(counts, invocation.facts.path.as_deref()) {
        eprintln!("error: {error}");
        return ExitCode::from(2);
    }
    let (prepared, environment) = before_measuring(&invocation, &selected, build, &counter);
    if let Err(error) = prepared {
        eprintln!("error: {error}");
        return ExitCode::from(2);
    }
    let annotates = invocation.annotates();
    let Invocation { mut args, settings, .. } = invocation;
    let mut session = Session { environment, settings, destinations, counter, annotates };
    if json {
        args.test_threads = args.test_threads.or(Some(1));
        return run_json(&args, comparisons, &mut session);
    }
    run_human(&args, comparisons, &mut session)
}

/// What a run does before anything is measured, at once: the baseline build of comparisons
/// against a revision, the counting processes of the builds whose comparisons will be counted
/// (this build's beside the baseline build, the baseline build's once it is ready), and reading
/// the machine. The baseline build's error, if it failed, and the machine.
fn before_measuring(
    invocation: &Invocation,
    selected: &[&Comparison],
    build: &BuildInfo,
    counter: &Counter,
) -> (Result<(), HarnessError>, Environment) {
    let against_revision = |c: &Comparison| c.registration.settings.revision;
    let revision = invocation.settings.baseline.as_deref().filter(|_| selected.iter().any(|c| against_revision(c)));
    let counts = selected.iter().any(|c| counted(**c, &invocation.settings));
    let counts_against = selected.iter().any(|c| counted(**c, &invocation.settings) && against_revision(c));
    let optimised_from = invocation.facts.optimised_from.as_deref();
    std::thread::scope(|scope| {
        let this = counts.then(|| scope.spawn(|| counter.start(Build::This)));
        let prepared = match revision {
            Some(revision) => crate::harness::rebuild::revision::prepare(revision, build, optimised_from).map(drop),
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

/// Whether the instructions of a comparison are counted: beside time, or as its metric; never
/// for a benchmark measured alone, which has no verdict to count beside.
fn counted(comparison: Comparison, settings: &Settings) -> bool {
    matches!(comparison.registration.settings.metric, Metric::Time | Metric::Instructions)
        && !measured_alone(comparison, settings)
}

/// Runs the optimised build of this unoptimised binary in its place and returns its exit code;
/// where that cannot be done, measures nothing and names the command to run instead (exit 2).
fn in_optimised_build(build: &BuildInfo, invocation: &Invocation) -> ExitCode {
    // The results file where this binary would write it, not under the optimised build's folder.
    let results = invocation.destinations().results;
    let facts = &invocation.facts;
    match crate::harness::rebuild::optimised::run(build, &invocation.settings, facts, &results) {
        Ok(code) => code,
        Err(Unavailable(why)) => {
            eprintln!("error: {}", refusal(facts.exe.as_deref(), &facts.args, facts.nextest, &why));
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
    /// Whether the tests' lines are annotated for GitHub Actions.
    annotates: bool,
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
    if let Some(line) = alone_line(&records) {
        eprintln!("{line}");
    }
    // On standard error, as every line of rtcompare's own: standard output is libtest's JSON.
    if session.annotates {
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
                anstream::println!("    {}", crate::harness::rebuild::revision::how_to_run());
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
    if session.annotates {
        annotation_lines(&records).iter().for_each(|line| anstream::println!("{line}"));
    }
    exit_code(tally.failed > 0, complete)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::registry::{AttributeSettings, Batches, Registration};
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
