//! Measuring one test: a comparison at one size, its confirmation in a fresh process, and the
//! pass/fail decision.

use super::worker::measure_in_worker;
use super::{Comparison, Expectation, Settings};
use crate::measure::{Arm, counting_allocator_installed};
use crate::report::format_value;
use crate::{JudgeOptions, Measured, Options, Outcome, Report, Warning, WarningKind, judge_processes, measure};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::time::Instant;

/// Measurements never overlap, whatever `--test-threads` says.
static MEASURING: Mutex<()> = Mutex::new(());

/// Salt of the confirmation round's seed, so it draws a new round order and new resamples.
const CONFIRMATION_SALT: u64 = 0xC04F_143D;

/// The result of one test.
#[derive(Clone, Debug)]
pub struct TrialRecord {
    /// The libtest name.
    pub name: String,
    /// What was compared.
    pub comparison: Comparison,
    /// The report, or `None` when measuring failed before one existed (a panic, a missing
    /// counting allocator) or, in a test that passed, when there was nothing to compare against:
    /// a comparison against a git revision at which the function is new.
    pub report: Option<Report>,
    /// Why the test failed, or `None` when it passed.
    pub failure: Option<String>,
}

impl TrialRecord {
    /// Whether the test passed.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// The interval level of a confirmation round: 95 % Bonferroni-adjusted for `registered`, the
/// number of comparisons registered in the test binary. The registry is the same in every
/// process of a binary, so the level — and with it every verdict — does not depend on how the
/// binary was invoked: a name filter, `--format json`, or one test per process under nextest.
/// Over all of a binary's comparisons, the chance that any confirmation interval misses its
/// true difference is then at most 5 % (Bonferroni, for intervals that keep their nominal
/// level), whichever of them run.
///
/// ```
/// use rtcompare_runtime::harness::confirmation_level;
/// assert_eq!(confirmation_level(1), 0.95);
/// assert!((confirmation_level(50) - 0.999).abs() < 1e-12);
/// ```
pub fn confirmation_level(registered: usize) -> f64 {
    1.0 - (1.0 - 0.95) / registered.max(1) as f64
}

/// Measures one comparison (never two at once), confirms a win or a loss in a fresh process,
/// and decides whether its test passes. `registered` is the number of comparisons registered in
/// the binary, which sets the confirmation level ([`confirmation_level`]).
pub fn run_trial(comparison: Comparison, name: &str, settings: &Settings, registered: usize) -> TrialRecord {
    let _serial = MEASURING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let record = |report, failure| TrialRecord { name: name.to_owned(), comparison, report, failure };
    if let Some(problem) = unmeasurable(comparison) {
        return record(None, Some(problem));
    }
    let started = Instant::now();
    let mut report = if comparison.registration.settings.revision {
        // Against a git revision: measured in lock-step processes of both builds.
        match super::lockstep::measure_against_revision(comparison, name, settings, settings.seed, settings.processes) {
            Ok(Some(measured)) => judged(measured, comparison, name, settings.seed, 0.95),
            Ok(None) => return record(None, None),
            Err(why) => return record(None, Some(why)),
        }
    } else if settings.processes > 1 {
        match measure_in_workers(comparison, name, settings, settings.seed, settings.processes) {
            Ok(measured) => judged(measured, comparison, name, settings.seed, 0.95),
            Err(why) => return record(None, Some(why)),
        }
    } else {
        match catch_unwind(AssertUnwindSafe(|| measure_for_worker(comparison, name, settings))) {
            Ok(measured) => judged(vec![measured], comparison, name, settings.seed, 0.95),
            Err(payload) => {
                return record(None, Some(format!("a measured function panicked: {}", panic_text(&*payload))));
            }
        }
    };
    let expect = comparison.registration.settings.expect;
    if settings.confirm && needs_confirmation(&report) {
        if let Err(problem) = confirm(&mut report, comparison, name, settings, registered) {
            report.duration = started.elapsed();
            return record(Some(report), Some(problem));
        }
    }
    report.duration = started.elapsed();
    // A verdict about an unoptimised build is reported, never enforced (`RTCOMPARE_DEBUG=1`).
    let failure = failure_message(&report, expect).filter(|_| !settings.debug);
    record(Some(report), failure)
}

/// The line under a verdict measured in an unoptimised build (`RTCOMPARE_DEBUG=1`): that the
/// figures describe debug code, and whether the verdict would have failed the test in an
/// optimised build.
pub(crate) fn unoptimised_note(report: &Report, expect: Expectation) -> String {
    let consequence = if failure_message(report, expect).is_some() {
        "in an optimised build this verdict would fail the test; here it is reported and the test passes"
    } else {
        "its verdict cannot fail the test"
    };
    format!("unoptimised code (RTCOMPARE_DEBUG=1): these figures describe a debug build, and {consequence}")
}

/// Measures one comparison without judging it: the first round here, or a worker's round for
/// the parent to judge.
pub(crate) fn measure_for_worker(comparison: Comparison, name: &str, settings: &Settings) -> Measured {
    let (candidate, baseline) = arms(comparison);
    measure(candidate, baseline, &options(comparison, name, settings))
}

/// Why a comparison cannot be measured in this binary at all.
fn unmeasurable(comparison: Comparison) -> Option<String> {
    let metric = comparison.registration.settings.metric;
    (metric.is_count() && !counting_allocator_installed()).then(|| {
        format!(
            "`metric = \"{}\"` needs rtcompare's counting allocator, which `rtcompare::main!()` installs; this \
             binary has another global allocator. Use `rtcompare::main!()` (with `allocator = YourAllocator` to \
             keep yours)",
            metric.as_str()
        )
    })
}

fn arms(comparison: Comparison) -> (Arm<'static>, Arm<'static>) {
    let registration = comparison.registration;
    let batches = registration.batches;
    let size = comparison.size.unwrap_or(0);
    (
        Arm::from_placed(registration.candidate, batches.candidate, batches.candidate_twin, size),
        Arm::from_placed(registration.baseline, batches.baseline, batches.baseline_twin, size),
    )
}

pub(crate) fn options(comparison: Comparison, name: &str, settings: &Settings) -> Options {
    let attribute = &comparison.registration.settings;
    Options {
        budget: attribute.time.unwrap_or(settings.time),
        metric: attribute.metric,
        judge: judge_options(comparison, name, settings.seed, 0.95),
        progress: super::console::progress_hook(),
        ..Options::default()
    }
}

fn judge_options(comparison: Comparison, name: &str, seed: u64, level: f64) -> JudgeOptions {
    let attribute = &comparison.registration.settings;
    JudgeOptions {
        parity: attribute.parity.unwrap_or(JudgeOptions::default().parity),
        thresholds: attribute.thresholds.to_vec(),
        seed: pair_seed(seed, name),
        level,
        resamples: crate::stats::resamples_for_level(level),
        ..JudgeOptions::default()
    }
}

/// Judges the rounds of one process, or pools those of several.
fn judged(measured: Vec<Measured>, comparison: Comparison, name: &str, seed: u64, level: f64) -> Report {
    let options = judge_options(comparison, name, seed, level);
    judge_processes(measured, comparison.registration.settings.metric, &options)
}

/// Measures the comparison in `settings.processes` fresh worker processes, one after another,
/// each with its own seed derived from `seed`.
fn measure_in_workers(
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    seed: u64,
    count: usize,
) -> Result<Vec<Measured>, String> {
    if comparison.registration.settings.revision {
        return super::lockstep::measure_against_revision(comparison, name, settings, seed, count)?
            .ok_or_else(|| format!("the baseline build no longer has the comparison `{name}`"));
    }
    let budget = comparison.registration.settings.time.unwrap_or(settings.time);
    (0..count as u64)
        .map(|process| {
            let process_seed = seed.wrapping_add(process.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            measure_in_worker(name, settings, process_seed, settings.worker_timeout(budget))
                .map_err(|why| format!("worker process {} of {count}: {why}", process + 1))
        })
        .collect()
}

/// Every win and loss gets a second opinion: a loss before it fails a test, a win before it is
/// reported as more than a first impression (and before it satisfies `expect = "win"`).
fn needs_confirmation(report: &Report) -> bool {
    report.verdict.outcome != Outcome::Parity
}

/// Processes a disputed verdict is settled with: when the first two processes disagree, this
/// many more are measured and pooled with the second — five independent processes, the first
/// round (chosen because it signalled) left out.
const SETTLING_PROCESSES: usize = 4;

/// Salt of the settling processes' seeds, so they do not repeat the second round's.
const SETTLING_SALT: u64 = 0x005E_771E;

/// The second round: fresh process(es), fresh calibration, new seed, and an interval level
/// Bonferroni-adjusted for the comparisons registered in the binary ([`confirmation_level`]).
/// When the two rounds' differences lie further apart than their sampling error allows
/// ([`crate::stats::Estimate::disagrees_with`]), per-process randomness decides the outcome
/// and a second draw cannot settle it: [`SETTLING_PROCESSES`] more processes are measured and
/// the verdict of all of them pooled decides instead. Sets `verdict.confirmed`, keeps the
/// deciding round in `report.confirmation`, and warns when it disagrees.
fn confirm(
    report: &mut Report,
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    registered: usize,
) -> Result<(), String> {
    let started = Instant::now();
    let seed = settings.seed ^ CONFIRMATION_SALT;
    let outcome = report.verdict.outcome.as_str();
    let unconfirmable = |why: String| format!("the first round said {outcome}, but it could not be confirmed: {why}");
    let measured = measure_in_workers(comparison, name, settings, seed, settings.processes).map_err(unconfirmable)?;
    let level = confirmation_level(registered);
    let mut second = judged(measured.clone(), comparison, name, seed, level);
    if settings.processes == 1 && disagree(report, &second) {
        let more = measure_in_workers(comparison, name, settings, seed ^ SETTLING_SALT, SETTLING_PROCESSES)
            .map_err(unconfirmable)?;
        // The first round is left out of the estimate: it was chosen because it signalled, so
        // pooling it would lean the settling verdict towards the signal it is meant to test. Its
        // difference still counts towards the spread between processes it revealed.
        let all: Vec<Measured> = measured.into_iter().chain(more).collect();
        let options = judge_options(comparison, name, seed, level);
        let metric = comparison.registration.settings.metric;
        let settled = crate::judge_settling(all, report.estimate.difference, metric, &options);
        report.warnings.push(disagreement_warning(report, &second, settled.resampling.processes));
        second = settled;
    }
    second.duration = started.elapsed();
    let confirmed = second.verdict.outcome == report.verdict.outcome;
    report.verdict.confirmed = Some(confirmed);
    if !confirmed {
        report.warnings.push(unconfirmed_warning(report, &second));
    }
    report.confirmation = Some(Box::new(second));
    Ok(())
}

fn unconfirmed_warning(first: &Report, second: &Report) -> Warning {
    let processes = match second.resampling.processes {
        1 => "a second round in a fresh process".to_owned(),
        k => format!("{k} processes pooled"),
    };
    Warning {
        kind: WarningKind::Unconfirmed,
        message: format!(
            "the first round said {} (ratio {:.3}, difference {:+.2} %), but {processes} said {} (ratio {:.3}, \
             difference {:+.2} %); an effect that does not repeat is not reported. If it matters, rerun with \
             RTCOMPARE_PROCESSES=4 to sample more processes.",
            first.verdict.outcome.as_str(),
            first.verdict.ratio,
            first.estimate.difference * 100.0,
            second.verdict.outcome.as_str(),
            second.verdict.ratio,
            second.estimate.difference * 100.0
        ),
    }
}

/// Whether two rounds disagree: their differences lie further apart than their combined
/// sampling error allows (a 5 % false alarm for one true difference), and by more than half the
/// tolerance (two processes always differ a little; only a gap that could move a verdict counts).
fn disagree(first: &Report, second: &Report) -> bool {
    first.estimate.disagrees_with(&second.estimate, first.verdict.tolerance / 2.0)
}

/// The warning for two rounds that disagree, naming what settled the verdict.
fn disagreement_warning(first: &Report, second: &Report, settled_by: usize) -> Warning {
    Warning {
        kind: WarningKind::ProcessesDisagree,
        message: format!(
            "the first two processes disagree: the first measured {:+.2} %, the second {:+.2} %, further apart than \
             their sampling error allows. Per-process randomness (hash seeds, memory layout) moves this comparison, so \
             the verdict was settled by {settled_by} processes pooled; set RTCOMPARE_PROCESSES=4 to always measure \
             it so.",
            first.estimate.difference * 100.0,
            second.estimate.difference * 100.0
        ),
    }
}

/// A seed per test, so tests do not share one random stream, yet every run repeats.
fn pair_seed(seed: u64, name: &str) -> u64 {
    // FNV-1a over the name, then mixed with the run seed.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    hash ^ seed.rotate_left(17)
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)")
}

/// Why the test fails, or `None` when it passes. Only a confirmed loss fails (an unconfirmed one
/// passes with a warning); with `expect = "win"`, anything but a confirmed win fails.
fn failure_message(report: &Report, expect: Expectation) -> Option<String> {
    let v = &report.verdict;
    let metric = report.metric;
    let figures = format!(
        "median {}/op against {}/op, ratio {:.3}, best-run ratio {:.3}, tolerance ±{:.2} %",
        format_value(report.candidate_summary.median, metric),
        format_value(report.baseline_summary.median, metric),
        v.ratio,
        v.best_ratio,
        v.tolerance * 100.0
    );
    let confirmed = v.confirmed != Some(false);
    let worse = if metric.is_count() { "allocates more than" } else { "is slower than" };
    let second = match (&report.confirmation, v.confirmed) {
        (Some(second), Some(true)) => format!("; confirmed in a fresh process (ratio {:.3})", second.verdict.ratio),
        _ => String::new(),
    };
    match (expect, v.outcome) {
        (Expectation::NoLoss, Outcome::Loss) if confirmed => {
            Some(format!("`{}` {worse} `{}`: {figures}{second}", report.candidate, report.baseline))
        }
        (Expectation::NoLoss, _) => None,
        (Expectation::Win, Outcome::Win) if confirmed => None,
        (Expectation::Win, outcome) => Some(format!(
            "`{}` was expected to win against `{}` (`expect = \"win\"`) but the verdict is {}{}: {figures}",
            report.candidate,
            report.baseline,
            outcome.as_str(),
            match outcome {
                Outcome::Parity => " — no difference beyond the tolerance was established",
                Outcome::Win => " — a win the second round in a fresh process did not confirm",
                Outcome::Loss => "",
            }
        )),
    }
}
