//! The whole protocol in one call: calibrate, collect interleaved rounds, judge.

use crate::judge::judge;
use crate::measure::{
    Arm, Calibration, CalibrationOptions, CollectOptions, Layout, Measured, Meter, Metric, Samples, calibrate,
    collect_until,
};
use crate::verdict::{CLEAR_BEYOND_TOLERANCE, JudgeOptions, Report};
use std::time::{Duration, Instant};

/// Settings of one comparison.
#[derive(Clone, Debug)]
pub struct Options {
    /// Wall-clock time for collecting rounds (calibration and warm-up come on top).
    pub budget: Duration,
    /// What to measure.
    pub metric: Metric,
    /// Largest share of a batch the clock step may be (see [`CalibrationOptions::clock_error`]).
    pub clock_error: f64,
    /// Shortest batch (see [`CalibrationOptions::min_batch`]).
    pub min_batch: Duration,
    /// Rounds to collect even past the budget.
    pub min_rounds: usize,
    /// Rounds after which collection stops; batches grow so that the budget fills about this many.
    pub max_rounds: usize,
    /// How the samples are judged (parity, level, resamples, thresholds, seed).
    pub judge: JudgeOptions,
    /// Whether rounds run at a random stack depth over a perturbed heap (see
    /// [`Layout`](crate::measure::Layout)).
    pub layout: Layout,
    /// Called after each round with the share of the budget spent (see
    /// [`CollectOptions::progress`](crate::measure::CollectOptions::progress)).
    pub progress: Option<fn(f64)>,
    /// Whether a collection that ends leaning to a win or a loss it cannot yet establish
    /// ([`Report::leans`]) goes on for a second budget, to be judged at [`EXTENDED_LEVEL`].
    /// Off by default; the test harness turns it on for a first round measured in its own
    /// process.
    pub extend: bool,
}

/// The interval level of a collection that went on for a second budget ([`Options::extend`]).
/// The first budget's 95 % interval was already looked at; two looks at 95 % and 99 % keep the
/// chance that identical code ends up beyond a tolerance on a given side at most 2.5 % + 0.5 %
/// (Bonferroni), whatever the correlation between the looks.
pub const EXTENDED_LEVEL: f64 = 0.99;

impl Default for Options {
    fn default() -> Self {
        Options {
            budget: Duration::from_secs(1),
            metric: Metric::Time,
            clock_error: 0.001,
            min_batch: Duration::from_micros(100),
            min_rounds: 10,
            max_rounds: 1_000,
            judge: JudgeOptions::default(),
            layout: Layout::default(),
            progress: None,
            extend: false,
        }
    }
}

impl Options {
    /// The shortest batch that still lets `max_rounds` rounds of four batches fill the budget:
    /// longer batches when the budget is long, so the rounds stay few enough to resample fast.
    fn batch_floor(&self) -> Duration {
        let per_batch = self.budget / (4 * self.max_rounds.max(1)) as u32;
        self.min_batch.max(per_batch)
    }
}

/// Rounds collected for count metrics: allocation counts of deterministic code repeat exactly,
/// so a few dozen rounds show whether they vary at all.
pub const COUNT_ROUNDS: usize = 30;

/// Runs the whole protocol on two arms and returns the report.
///
/// Count metrics (`Metric::AllocBytes`, `Metric::Allocs`) need a
/// [`CountingAllocator`](crate::measure::CountingAllocator) as the global allocator, and
/// collect at most [`COUNT_ROUNDS`] rounds.
///
/// Calibration sizes one batch for both arms, a warm-up of a twentieth of the budget settles the
/// machine, rounds of {candidate, candidate twin, baseline, baseline twin} run in a seeded random
/// order until the budget is spent, and [`judge`] turns the samples into a verdict.
///
/// ```
/// use rtcompare_runtime::{compare, Arm, Options, Outcome};
/// use std::time::Duration;
/// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
/// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
/// let options = Options { budget: Duration::from_millis(200), ..Options::default() };
/// let report = compare(Arm::from_fn("fast", fast), Arm::from_fn("slow", slow), &options);
/// assert_eq!(report.verdict.outcome, Outcome::Win);
/// ```
pub fn compare(candidate: Arm<'_>, baseline: Arm<'_>, options: &Options) -> Report {
    let started = Instant::now();
    let (_, report) = measure_and_judge(candidate, baseline, options);
    Report { duration: started.elapsed(), ..report }
}

/// [`measure`], and the judgement of what it measured (at [`EXTENDED_LEVEL`] when it took a
/// second budget). With [`Options::extend`] on, a collection that ran its whole budget was
/// already judged once, to see whether it leans; unless it then went on, that judgement is the
/// report, so it is not made twice (tens of milliseconds for a full budget's rounds).
///
/// ```
/// use rtcompare_runtime::{Arm, Options, Outcome, measure_and_judge};
/// use std::time::Duration;
/// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
/// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
/// let options = Options { budget: Duration::from_millis(50), extend: true, ..Options::default() };
/// let (measured, report) = measure_and_judge(Arm::from_fn("fast", fast), Arm::from_fn("slow", slow), &options);
/// assert_eq!(report.verdict.outcome, Outcome::Win);
/// assert_eq!(report.samples.rounds(), measured.samples.rounds());
/// ```
pub fn measure_and_judge(candidate: Arm<'_>, baseline: Arm<'_>, options: &Options) -> (Measured, Report) {
    let (measured, judged) = collect_and_look(candidate, baseline, options);
    let report = judged.unwrap_or_else(|| {
        let judge_options = judge_options_for(&measured, &options.judge);
        let samples = measured.samples.clone();
        judge(&measured.candidate, &measured.baseline, options.metric, measured.calibration, samples, &judge_options)
    });
    (measured, report)
}

/// `options`, at [`EXTENDED_LEVEL`] when `measured` went on for a second budget.
///
/// ```
/// use rtcompare_runtime::{Arm, EXTENDED_LEVEL, JudgeOptions, Options, judge_options_for, measure};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(10), ..Options::default() };
/// let mut measured = measure(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// assert!(!measured.extended, "extending is off unless asked for");
/// assert_eq!(judge_options_for(&measured, &JudgeOptions::default()).level, 0.95);
/// measured.extended = true;
/// assert_eq!(judge_options_for(&measured, &JudgeOptions::default()).level, EXTENDED_LEVEL);
/// ```
pub fn judge_options_for(measured: &Measured, options: &JudgeOptions) -> JudgeOptions {
    if measured.extended { at_extended_level(options) } else { options.clone() }
}

fn at_extended_level(options: &JudgeOptions) -> JudgeOptions {
    let level = options.level.max(EXTENDED_LEVEL);
    JudgeOptions {
        level,
        resamples: options.resamples.max(crate::stats::resamples_for_level(level)),
        ..options.clone()
    }
}

/// The measuring half of [`compare`]: calibration, warm-up and interleaved collection, without
/// judging. Worker processes run this and send the result back to be judged.
///
/// ```
/// use rtcompare_runtime::{measure, Arm, Options};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
/// let measured = measure(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// assert!(measured.samples.rounds() >= options.min_rounds);
/// ```
pub fn measure(candidate: Arm<'_>, baseline: Arm<'_>, options: &Options) -> Measured {
    collect_and_look(candidate, baseline, options).0
}

/// Calibration, warm-up and collection, with the look at the end of the budget that decides
/// whether to go on ([`Options::extend`]); returns the rounds and, when that look's judgement
/// is the final one (the rounds did not go on), that judgement.
fn collect_and_look(mut candidate: Arm<'_>, mut baseline: Arm<'_>, options: &Options) -> (Measured, Option<Report>) {
    let meter = Meter::new(options.metric);
    let calibration = calibrate(
        &mut candidate,
        &mut baseline,
        &CalibrationOptions {
            clock_error: options.clock_error,
            min_batch: options.batch_floor(),
            metric: options.metric,
        },
    );
    let collect_options = CollectOptions {
        candidate_iters: calibration.candidate_iters,
        baseline_iters: calibration.baseline_iters,
        budget: options.budget,
        warmup: options.budget / 20,
        min_rounds: options.min_rounds,
        max_rounds: if options.metric.is_count() { options.max_rounds.min(COUNT_ROUNDS) } else { options.max_rounds },
        seed: options.judge.seed,
        meter,
        layout: options.layout,
        progress: options.progress,
    };
    let decided = |samples: &Samples| options.metric == Metric::Time && decided_early(samples, &calibration, options);
    let mut samples = collect_until(&mut candidate, &mut baseline, &collect_options, decided);
    let names = (candidate.name().to_owned(), baseline.name().to_owned());
    // The look at the end of the first budget, judged exactly as the round would be.
    let at_budget = (options.extend && options.metric == Metric::Time)
        .then(|| judge(&names.0, &names.1, options.metric, calibration, samples.clone(), &options.judge));
    let extended = at_budget.as_ref().is_some_and(|report| report.leans().is_some());
    if extended {
        // The second budget: the same calibration, new round seeds, no second warm-up, and the
        // early looks judged on both budgets' rounds.
        let more_options = CollectOptions {
            warmup: Duration::ZERO,
            seed: options.judge.seed ^ EXTENSION_SALT,
            progress: None,
            ..collect_options
        };
        let first_budget = samples.clone();
        let decided_joined = |more: &Samples| {
            let mut joined = first_budget.clone();
            joined.append(more.clone());
            decided_early(&joined, &calibration, options)
        };
        samples.append(collect_until(&mut candidate, &mut baseline, &more_options, decided_joined));
    }
    let measured = Measured { candidate: names.0, baseline: names.1, calibration, samples, extended };
    (measured, at_budget.filter(|_| !extended))
}

/// Mixed into the seed of a second budget's rounds, so they do not repeat the first budget's.
const EXTENSION_SALT: u64 = 0x5EC0_4DB0_D6E7;

/// Resamples of the interim judgements that may stop a collection early: ten beyond each end
/// of their 99 % interval, whose end only has to clear twice the tolerance.
const EARLY_RESAMPLES: usize = 2_000;

/// Whether the rounds so far already decide the comparison: a win or a loss whose whole 99 %
/// interval ([`EXTENDED_LEVEL`]) lies beyond twice its tolerance. A difference that large is not
/// in doubt, and every win or loss is confirmed in fresh processes anyway, so stopping here only
/// saves time: a 3×-tolerance difference costs a twentieth of the budget instead of all of it. The
/// stricter level keeps what the early looks add to the first round's error small: each of them
/// calls identical code a win or a loss on a given side at most 0.5 % of the time.
fn decided_early(samples: &Samples, calibration: &Calibration, options: &Options) -> bool {
    let strict = at_extended_level(&options.judge);
    let judge_options = JudgeOptions { resamples: EARLY_RESAMPLES, thresholds: Vec::new(), ..strict };
    let report = judge("candidate", "baseline", options.metric, *calibration, samples.clone(), &judge_options);
    report.clears(CLEAR_BEYOND_TOLERANCE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work() -> u64 {
        (0..500u64).map(std::hint::black_box).sum()
    }

    /// The judgement kept from the look at the end of the budget is the one judging the rounds
    /// afresh would give, bit for bit, so keeping it changes no verdict, only its cost.
    #[test]
    fn the_kept_judgement_is_the_judgement_of_the_rounds() {
        let options = Options { budget: Duration::from_millis(30), extend: true, ..Options::default() };
        let (measured, kept) = collect_and_look(Arm::from_fn("a", work), Arm::from_fn("b", work), &options);
        let judge_options = judge_options_for(&measured, &options.judge);
        let afresh = judge("a", "b", options.metric, measured.calibration, measured.samples.clone(), &judge_options);
        match kept {
            Some(kept) => assert_eq!(kept, afresh),
            // Identical code leans (and so goes on) only by chance.
            None => assert!(measured.extended, "a round that did not go on keeps its judgement"),
        }
    }
}
