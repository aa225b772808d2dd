//! The whole protocol in one call: calibrate, collect interleaved rounds, judge.

use crate::measure::{Arm, Collection, Halt, Options, calibrate};
use rtcompare_judge::decide::{LOOKS, Looks};
use rtcompare_judge::judging::{judge, judge_look};
use rtcompare_judge::measure::{Measured, Metric};
use rtcompare_judge::verdict::Report;
use std::time::Instant;

/// Runs the whole protocol on two arms and returns the report.
///
/// Count metrics (`Metric::AllocBytes`, `Metric::Allocs`) need a
/// [`CountingAllocator`](crate::CountingAllocator) as the global allocator, and collect at most
/// 30 rounds.
///
/// Calibration sizes one batch for both arms, a warm-up of a twentieth of the budget settles the
/// machine, and rounds of {candidate, candidate twin, baseline, baseline twin} run in a seeded
/// random order until the budget is spent or a look ends them: the rounds so far are judged at an
/// eighth, a quarter and a half of the budget, and a look that settles the comparison (see
/// [`Role`](crate::Role)) stops the collection. The report is the judgement of the look that
/// ended it.
///
/// ```
/// use rtcompare::{Arm, Options, Outcome, compare};
/// use std::time::Duration;
/// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
/// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
/// let options = Options { budget: Duration::from_millis(200), ..Options::default() };
/// let report = compare(Arm::from_fn("fast", fast), Arm::from_fn("slow", slow), &options);
/// assert_eq!(report.verdict.outcome, Outcome::Win);
/// ```
///
/// # Panics
/// When `options.metric` is [`Metric::Instructions`]: instructions are counted by the test
/// harness, in processes of their own under callgrind (`metric = "instructions"` on a
/// `#[compare]` pair), not in this process.
pub fn compare(candidate: Arm<'_>, baseline: Arm<'_>, options: &Options) -> Report {
    let started = Instant::now();
    let (_, report) = measure_and_judge(candidate, baseline, options);
    report.with_duration(started.elapsed())
}

/// [`measure()`], and the judgement of the look that ended the collection: an interim look whose
/// judgement stopped it, or the last look at the end of the budget. Each look is judged once.
pub(crate) fn measure_and_judge(candidate: Arm<'_>, baseline: Arm<'_>, options: &Options) -> (Measured, Report) {
    let (measured, mut looks, stopped) = unhalted(collect_with_looks(candidate, baseline, options, Looked::InFull));
    let report = stopped.unwrap_or_else(|| {
        let (samples, at) = (measured.samples.clone(), looks.options_at_end());
        judge(&measured.candidate, &measured.baseline, options.metric, measured.calibration, samples, &at)
    });
    (measured, report)
}

/// The measuring half of [`compare`]: calibration, warm-up and interleaved collection with its
/// looks, without the last judgement. Worker processes run this and send the result back to be
/// judged with other processes'.
///
/// ```
/// use rtcompare::{Arm, Options, measure};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
/// let measured = measure(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// assert!(measured.samples.rounds() >= options.min_rounds);
/// ```
///
/// # Panics
/// When `options.metric` is [`Metric::Instructions`], as [`compare`] does.
pub fn measure(candidate: Arm<'_>, baseline: Arm<'_>, options: &Options) -> Measured {
    unhalted(try_measure(candidate, baseline, options))
}

/// [`measure`] for arms whose batches can halt ([`Arm::from_copies`]): the batches of a
/// comparison against a git revision, which run in other processes.
///
/// # Errors
/// [`Halt`] when a batch of either arm could not run.
pub(crate) fn try_measure(candidate: Arm<'_>, baseline: Arm<'_>, options: &Options) -> Result<Measured, Halt> {
    collect_with_looks(candidate, baseline, options, Looked::ForTheDecision).map(|(measured, _, _)| measured)
}

/// How much of its judgement a look makes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Looked {
    /// The whole report, since the one that ends the collection is the comparison's (the first
    /// round measured in the test process).
    InFull,
    /// Only what decides whether it ends the collection ([`judge_look`]): a worker's or a
    /// lock-step pair's rounds are judged by the test process, and its looks' reports are
    /// thrown away.
    ForTheDecision,
}

/// What a measurement of arms that never halt returns: every arm a caller outside the crate can
/// build runs its batches here, so the panic below is never reached through the public API.
fn unhalted<T>(result: Result<T, Halt>) -> T {
    match result {
        Ok(value) => value,
        Err(Halt) => panic!(
            "an arm's batch halted the measurement; arms built with `Arm::from_copies` are measured with `try_measure`"
        ),
    }
}

/// Calibration, warm-up and collection, judging the rounds at each of the budget's interim
/// [`LOOKS`] (time metrics only) as `looked` says (a pilot's looks not at all, since none ends
/// its collection); returns the rounds, the looks (to judge the last one), and the report of
/// the look that stopped the collection, if one did and it was judged in full.
fn collect_with_looks(
    mut candidate: Arm<'_>,
    mut baseline: Arm<'_>,
    options: &Options,
    looked: Looked,
) -> Result<(Measured, Looks, Option<Report>), Halt> {
    assert!(
        options.metric != Metric::Instructions,
        "Metric::Instructions is counted by the test harness under callgrind (`metric = \"instructions\"` on a \
         #[compare] pair); this process measures time and allocations only"
    );
    let calibration = calibrate(&mut candidate, &mut baseline, options)?;
    // Count metrics are exact and few: judged once, at the end.
    let shares: &[f64] = if options.metric == Metric::Time { &LOOKS } else { &[] };
    let mut looks = Looks::new(options.role, &options.judge);
    let names = (candidate.name().to_owned(), baseline.name().to_owned());
    let mut collection = Collection::start(&mut candidate, &mut baseline, options, &calibration, shares)?;
    let mut stopped = None;
    while let Some((share, samples)) = collection.next_look()? {
        let at = looks.options_at(share);
        if !looks.may_stop() {
            continue;
        }
        if looked == Looked::InFull {
            let report = judge(&names.0, &names.1, options.metric, calibration, samples.clone(), &at);
            if looks.stops(&report) {
                stopped = Some(report);
                break;
            }
        } else {
            let (verdict, estimate) = judge_look(calibration, samples, &at);
            if looks.stops_on(&verdict, &estimate) {
                break;
            }
        }
    }
    let samples = collection.into_samples();
    Ok((Measured { candidate: names.0, baseline: names.1, calibration, samples }, looks, stopped))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtcompare_judge::verdict::JudgeOptions;
    use std::time::Duration;

    fn work() -> u64 {
        (0..500u64).map(std::hint::black_box).sum()
    }

    fn triple() -> u64 {
        (0..1_500u64).map(std::hint::black_box).sum()
    }

    /// The look that stops a collection judged exactly the rounds the collection kept, at a
    /// look's level, and its report carries the arms' names (which its caveats' sentences take).
    #[test]
    fn a_look_that_stops_the_collection_judged_the_rounds_it_kept() {
        let judge = JudgeOptions { thresholds: vec![-0.5, 0.5], ..JudgeOptions::default() };
        let options = Options { budget: Duration::from_millis(400), judge, ..Options::default() };
        let (slow, fast) = (Arm::from_fn("slow", triple), Arm::from_fn("fast", work));
        let (measured, _, stopped) = collect_with_looks(slow, fast, &options, Looked::InFull).expect("local arms");
        let kept = stopped.expect("three times the work is signalled before the end of the budget");
        assert_eq!(kept.samples, measured.samples);
        assert_eq!((kept.candidate.as_str(), kept.baseline.as_str()), ("slow", "fast"));
        assert!(kept.estimate.level > 0.99, "an interim look's level, not the last look's");
        // The report the look ended with is the comparison's, so it answers the thresholds (their
        // values depend on this machine's timing, so only that they are answered is checked).
        let answered: Vec<f64> = kept.confidence.iter().map(|c| c.threshold).collect();
        assert_eq!(answered, [-0.5, 0.5]);
    }

    #[test]
    fn a_measurement_and_its_judgement_keep_the_same_rounds() {
        use rtcompare_judge::Outcome;
        fn slow() -> u64 {
            (0..3_000u64).map(std::hint::black_box).sum()
        }
        fn fast() -> u64 {
            (0..1_000u64).map(std::hint::black_box).sum()
        }
        let options = Options { budget: Duration::from_millis(50), ..Options::default() };
        let (measured, report) = measure_and_judge(Arm::from_fn("fast", fast), Arm::from_fn("slow", slow), &options);
        assert_eq!(report.verdict.outcome, Outcome::Win);
        assert_eq!(report.samples.rounds(), measured.samples.rounds());
    }

    /// A loss three times the work is a signal for fresh processes to confirm.
    #[test]
    fn a_far_loss_is_signalled() {
        use rtcompare_judge::decide::signal;
        use rtcompare_judge::stats::Outcome;
        fn slow() -> u64 {
            (0..3_000u64).map(std::hint::black_box).sum()
        }
        fn fast() -> u64 {
            (0..1_000u64).map(std::hint::black_box).sum()
        }
        let options = Options { budget: Duration::from_millis(50), ..Options::default() };
        let first = compare(Arm::from_fn("slow", slow), Arm::from_fn("fast", fast), &options);
        assert_eq!(signal(&first), Some(Outcome::Loss));
    }
}
