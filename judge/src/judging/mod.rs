//! Judging: from what was measured to one [`Report`] — A/A validation, drift, the paired
//! bootstrap (the pooled t interval over processes, or the signed-rank test of a confirmation's
//! fresh processes), the parity rule, the verdict, and the caveats. Pure and seeded: the same
//! samples and options give the same report, bit for bit.

mod self_checks;

use crate::measure::{Calibration, Measured, Metric, Samples};
use crate::stats::{
    Bootstrap, Estimate, Outcome, ParityInputs, ParityVerdict, Resampling, SignedRankAnalysis, Summary,
    bootstrap_difference, choose_resampling, paired_ratios, parity_verdict, win_margin,
};
use crate::verdict::{DriftTests, JudgeOptions, Report, ResamplingInfo, ThresholdConfidence, Validations, Verdict};
use self_checks::{Floors, drift_tests, validate_both};
use std::time::Duration;

/// Judges collected samples: A/A validation, drift, the paired bootstrap, the parity rule and
/// the verdict. Pure: the same samples, calibration and options give the same report, bit for
/// bit (its `duration` is zero; rtcompare's `compare` fills it in).
///
/// ```
/// use rtcompare::{Arm, JudgeOptions, Options, judge, measure};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let m = measure(Arm::from_fn("add", || 1 + 1), Arm::from_fn("mul", || 2 * 1), &options);
/// // The same rounds judged twice, at another parity: the same figures, another tolerance.
/// let strict = JudgeOptions { parity: 0.01, ..JudgeOptions::default() };
/// let a = judge(&m.candidate, &m.baseline, options.metric, m.calibration, m.samples.clone(), &strict);
/// let b = judge(&m.candidate, &m.baseline, options.metric, m.calibration, m.samples, &strict);
/// assert_eq!(a, b);
/// ```
pub fn judge(
    candidate: &str,
    baseline: &str,
    metric: Metric,
    calibration: Calibration,
    samples: Samples,
    options: &JudgeOptions,
) -> Report {
    let bootstrap = bootstrap_of(&samples, options);
    let resampled =
        Resampled { confidence: confidences(options, |t| bootstrap.confidence(t)), ..one_process(&bootstrap) };
    let drift = drift_tests(&samples);
    let floors = Floors::of(&[&samples], options);
    let names = Names { candidate, baseline, metric };
    let validation = validate_both(&samples, options);
    assemble(names, calibration, samples, drift, resampled, floors, validation, options, Rule::Interval)
}

/// What a look inside a process needs of [`judge`]'s report to decide whether it ends the
/// collection ([`Looks::stops_on`](crate::decide::Looks::stops_on)): the verdict and the
/// estimate, exactly as `judge` makes them from the same samples and options, without the A/A
/// self-checks, drift tests, confidences and caveats around them — two more bootstraps at every
/// look, in every fresh process, for figures nobody reads unless that look ends the collection.
///
/// ```
/// use rtcompare_judge::judging::{judge, judge_look};
/// use rtcompare_judge::{Calibration, JudgeOptions, Metric, Samples, Series};
/// let series = |ns: f64| Series {
///     per_op: (0..30).map(|i| ns + (i % 4) as f64).collect(),
///     position: (0..30).collect(),
///     placements: Vec::new(),
/// };
/// let samples = Samples {
///     candidate_iters: 10,
///     baseline_iters: 10,
///     candidate: series(100.0),
///     candidate_twin: series(100.0),
///     baseline: series(150.0),
///     baseline_twin: series(150.0),
/// };
/// let calibration = Calibration {
///     resolution: 1.0,
///     clock_step_ns: 1.0,
///     candidate_iters: 10,
///     baseline_iters: 10,
///     target_batch_ns: 1e3,
///     candidate_batch_ns: 1e3,
///     baseline_batch_ns: 1.5e3,
///     first_call_ns: 0.0,
/// };
/// let options = JudgeOptions::default();
/// let report = judge("new", "old", Metric::Time, calibration, samples.clone(), &options);
/// assert_eq!(judge_look(calibration, &samples, &options), (report.verdict, report.estimate));
/// ```
pub fn judge_look(calibration: Calibration, samples: &Samples, options: &JudgeOptions) -> (Verdict, Estimate) {
    let resampled = one_process(&bootstrap_of(samples, options));
    let baseline_median = Summary::of(&samples.baseline.per_op).median;
    let guards = Guards { floors: Floors::of(&[samples], options), calibration: &calibration, baseline_median };
    let (_, verdict) = verdict_of(samples, &resampled, &guards, options, Rule::Interval);
    (verdict, resampled.estimate)
}

/// The paired bootstrap of one process's rounds: the candidate's per-round ratios to the
/// baseline, resampled as their autocorrelation calls for.
fn bootstrap_of(samples: &Samples, options: &JudgeOptions) -> Bootstrap {
    let ratios = paired_ratios(&samples.candidate.per_op, &samples.baseline.per_op);
    let scheme = choose_resampling(&ratios);
    bootstrap_difference(&ratios, scheme, options.level, options.resamples, options.seed)
}

/// What one process's `bootstrap` resampled, without confidences.
fn one_process(bootstrap: &Bootstrap) -> Resampled {
    Resampled {
        estimate: bootstrap.estimate,
        scheme: bootstrap.scheme,
        processes: Vec::new(),
        process_spread: None,
        process_rounds: Vec::new(),
        confidence: Vec::new(),
    }
}

/// Judges rounds measured in several processes together: the same steps as [`judge`], with
/// the estimate and interval from Student's t over the processes' own differences
/// ([`crate::stats::pool_processes`]) and the drift tests of the first process (a shift
/// between processes is not a drift). One process is judged exactly as [`judge`] would.
///
/// ```
/// use rtcompare::{Arm, JudgeOptions, Metric, Options, judge_processes, measure};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
/// let processes = (0..3)
///     .map(|_| measure(Arm::from_fn("add", || 1 + 1), Arm::from_fn("mul", || 2 * 1), &options))
///     .collect();
/// let report = judge_processes(processes, Metric::Time, &JudgeOptions::default());
/// assert_eq!(report.process_differences.len(), 3);
/// ```
///
/// # Panics
/// When `measured` is empty.
pub fn judge_processes(measured: Vec<Measured>, metric: Metric, options: &JudgeOptions) -> Report {
    assert!(!measured.is_empty(), "judge_processes needs at least one process's samples");
    if measured.len() == 1 {
        let only = measured.into_iter().next().expect("one process");
        return judge(&only.candidate, &only.baseline, metric, only.calibration, only.samples, options);
    }
    judge_pooled(measured, metric, options)
}

fn judge_pooled(measured: Vec<Measured>, metric: Metric, options: &JudgeOptions) -> Report {
    let groups = process_ratios(&measured);
    let slices: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    let pooled = crate::stats::pool_processes(&slices, options.level);
    let resampled = Resampled {
        estimate: pooled.estimate,
        scheme: choose_resampling(&groups[0]),
        processes: pooled.process_differences.clone(),
        process_spread: Some(pooled.process_spread()),
        process_rounds: groups.iter().map(Vec::len).collect(),
        confidence: confidences(options, |t| pooled.confidence(t)),
    };
    joined(measured, metric, options, resampled, Rule::Interval)
}

/// What a confirmation's fresh processes are tested for: the side the first round signalled,
/// and the one-sided error rate `alpha` of the whole confirmation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FreshTest {
    /// The win or the loss to confirm.
    pub side: Outcome,
    /// The chance the test may confirm `side` when the true difference lies inside the parity.
    pub alpha: f64,
    /// Whether this is the planned look, whose test may confirm; a judgement of the processes
    /// a futility stop or the time cap left is figures only, and its outcome is parity.
    pub look: bool,
}

/// The one-sided error rate at which "parity established" is claimed from fresh processes: two
/// one-sided signed-rank tests (Schuirmann's, 1987), each at 2.5 %.
const FRESH_PARITY_ALPHA: f64 = 0.025;

/// Judges the fresh processes of a confirmation: the figures [`judge_processes`] gives, with the
/// estimate and the verdict from the signed-rank test of the processes' own log ratios
/// ([`SignedRankAnalysis`]). The estimate is their Hodges–Lehmann centre and the interval its
/// exact bounds at `1 − alpha` a side; the outcome is `test.side` when the test puts the centre
/// beyond the tolerance at `alpha` (and the difference clears the A/A floor and the clock), and
/// parity otherwise — established when two one-sided tests at 2.5 % put it within the parity.
/// The test rests on each process's log ratio being symmetric about a common centre, nothing
/// more (`docs/statistics.md`, "The decision").
pub fn judge_fresh(measured: Vec<Measured>, metric: Metric, options: &JudgeOptions, test: FreshTest) -> Report {
    let groups = process_ratios(&measured);
    let logs: Vec<f64> = measured.iter().map(|m| process_log_ratio(&m.samples)).collect();
    let analysis = SignedRankAnalysis::of(&logs);
    let differences: Vec<f64> = logs.iter().map(|y| -y.exp_m1()).collect();
    let spread = standard_deviation(&differences);
    let bound = |b: f64| if b.is_finite() { -b.exp_m1() } else { f64::NAN };
    let estimate = Estimate {
        difference: -analysis.estimate().exp_m1(),
        low: bound(analysis.upper_bound(test.alpha)),
        high: bound(analysis.lower_bound(test.alpha)),
        level: 1.0 - 2.0 * test.alpha,
    };
    let resampled = Resampled {
        estimate,
        scheme: choose_resampling(&groups[0]),
        processes: differences,
        process_spread: Some(spread),
        process_rounds: groups.iter().map(Vec::len).collect(),
        // P(d ≥ t) read off the test: the chance of a count of Walsh averages above ln(1 − t)
        // at least as large as the one seen, were the centre at ln(1 − t).
        confidence: confidences(options, |t| analysis.p_above((-t).ln_1p())),
    };
    joined(measured, metric, options, resampled, Rule::SignedRank(test, &analysis))
}

/// The sample standard deviation (`k − 1` in the denominator); 0 for fewer than two values.
fn standard_deviation(values: &[f64]) -> f64 {
    let k = values.len();
    if k < 2 {
        return 0.0;
    }
    let mean = values.iter().sum::<f64>() / k as f64;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1) as f64).sqrt()
}

/// A fresh process's own estimate of the difference, on the log scale: the median of its
/// per-round log ratios `ln(cᵢ / bᵢ)`, the estimand of every verdict (the typical round's ratio,
/// as the screen's `d`). Symmetric in the two arms, and unmoved by up to half of the rounds
/// lying off the main mode: real rounds put most ratios on one value with a few far from it
/// (a descheduled round, a slow heap state), where a trimmed mean averages some of the far ones
/// in and a process's estimate then varies from process to process far more than the median's
/// (`docs/statistics.md`, section 11).
pub fn process_log_ratio(samples: &Samples) -> f64 {
    let logs: Vec<f64> =
        paired_ratios(&samples.candidate.per_op, &samples.baseline.per_op).iter().map(|r| r.ln()).collect();
    crate::stats::median(&logs)
}

/// Each process's paired per-round ratios.
fn process_ratios(measured: &[Measured]) -> Vec<Vec<f64>> {
    measured.iter().map(|m| paired_ratios(&m.samples.candidate.per_op, &m.samples.baseline.per_op)).collect()
}

/// The report of several processes judged together: their rounds joined, the drift tests of the
/// first (a shift between processes is not a drift), the coarsest calibration, and the floors
/// over them ([`Floors`]).
fn joined(
    measured: Vec<Measured>,
    metric: Metric,
    options: &JudgeOptions,
    resampled: Resampled,
    rule: Rule<'_>,
) -> Report {
    let drift = drift_tests(&measured[0].samples);
    let floors = Floors::of(&measured.iter().map(|m| &m.samples).collect::<Vec<_>>(), options);
    let calibration = coarsest_calibration(&measured);
    let names = (measured[0].candidate.clone(), measured[0].baseline.clone());
    // A confirmation's A/A validation is that of its first process, as its drift tests are: the
    // floor the verdict uses is computed per process above, and resampling a dozen processes'
    // rounds together, which are not one process's draws, would cost a noticeable share of the
    // time cap for a figure the test does not read.
    let validation = match rule {
        Rule::SignedRank(..) => Some(validate_both(&measured[0].samples, options)),
        Rule::Interval => None,
    };
    let samples = concatenate(measured.into_iter().map(|m| m.samples));
    let validation = validation.unwrap_or_else(|| validate_both(&samples, options));
    let names = Names { candidate: &names.0, baseline: &names.1, metric };
    assemble(names, calibration, samples, drift, resampled, floors, validation, options, rule)
}

/// How the verdict is read off the figures.
enum Rule<'a> {
    /// The parity rule and the whole interval beyond the tolerance: one process, or several
    /// pooled for a first round.
    Interval,
    /// The signed-rank test of a confirmation's fresh processes.
    SignedRank(FreshTest, &'a SignedRankAnalysis),
}

/// Who is compared, and on what.
struct Names<'a> {
    candidate: &'a str,
    baseline: &'a str,
    metric: Metric,
}

/// What resampling produced, however it was done.
struct Resampled {
    estimate: Estimate,
    scheme: Resampling,
    processes: Vec<f64>,
    /// The standard deviation of one process's difference, from the processes' spread; `None`
    /// for one process.
    process_spread: Option<f64>,
    /// How many rounds each process contributed, in order; empty for one process.
    process_rounds: Vec<usize>,
    confidence: Vec<ThresholdConfidence>,
}

fn confidences(options: &JudgeOptions, confidence: impl Fn(f64) -> f64) -> Vec<ThresholdConfidence> {
    options
        .thresholds
        .iter()
        .map(|&threshold| ThresholdConfidence { threshold, confidence: confidence(threshold) })
        .collect()
}

/// The calibration with the smallest batches: its per-op floor is the coarsest of all.
fn coarsest_calibration(measured: &[Measured]) -> Calibration {
    let smallest = |m: &&Measured| m.calibration.candidate_iters.min(m.calibration.baseline_iters);
    measured.iter().min_by_key(smallest).map(|m| m.calibration).unwrap_or_else(|| measured[0].calibration)
}

/// One process's rounds after another's; positions continue across processes.
fn concatenate(all: impl Iterator<Item = Samples>) -> Samples {
    let mut joined = Samples::default();
    for samples in all {
        joined.append(samples);
    }
    joined
}

/// Validation, the parity rule and the verdict on top of what resampling produced.
#[allow(clippy::too_many_arguments)]
fn assemble(
    names: Names<'_>,
    calibration: Calibration,
    samples: Samples,
    drift: DriftTests,
    resampled: Resampled,
    floors: Floors,
    validation: Validations,
    options: &JudgeOptions,
    rule: Rule<'_>,
) -> Report {
    let c = &samples.candidate.per_op;
    let b = &samples.baseline.per_op;
    let baseline_summary = Summary::of(b);
    let guards = Guards { floors, calibration: &calibration, baseline_median: baseline_summary.median };
    let (parity, verdict) = verdict_of(&samples, &resampled, &guards, options, rule);
    let exact = names.metric.is_count() && [c, b].iter().all(|series| series.iter().all(|&x| x == series[0]));
    let report = Report {
        candidate: names.candidate.to_owned(),
        baseline: names.baseline.to_owned(),
        metric: names.metric,
        calibration,
        candidate_summary: Summary::of(c),
        baseline_summary,
        verdict,
        estimate: resampled.estimate,
        confidence: resampled.confidence,
        validation,
        drift,
        resampling: ResamplingInfo {
            scheme: resampled.scheme,
            resamples: options.resamples,
            seed: options.seed,
            exact,
            processes: resampled.processes.len().max(1),
        },
        process_differences: resampled.processes,
        warnings: Vec::new(),
        duration: Duration::ZERO,
        samples,
    };
    // The caveats read the finished figures, so they are added last.
    let warnings = crate::caveats::explain(&report, &parity);
    Report { warnings, ..report }
}

/// The parity rule's reading of `samples` and the verdict `rule` makes of it within `guards`:
/// what a report and a look ([`judge_look`]) both decide by.
fn verdict_of(
    samples: &Samples,
    resampled: &Resampled,
    guards: &Guards<'_>,
    options: &JudgeOptions,
    rule: Rule<'_>,
) -> (ParityVerdict, Verdict) {
    let parity = parity_of(samples, guards.calibration, resampled, options);
    let verdict = match rule {
        Rule::Interval => decide(&parity, options.parity, &resampled.estimate, guards),
        Rule::SignedRank(test, analysis) => {
            decide_fresh(&parity, options.parity, &resampled.estimate, analysis, test, guards)
        }
    };
    (parity, verdict)
}

/// The parity rule's reading of `samples`, above the calibration's floors, with the spread
/// between processes that `resampled` found.
fn parity_of(
    samples: &Samples,
    calibration: &Calibration,
    resampled: &Resampled,
    options: &JudgeOptions,
) -> ParityVerdict {
    let (candidate_floor, baseline_floor) = calibration.per_op_floors();
    parity_verdict(&ParityInputs {
        candidate: &samples.candidate.per_op,
        baseline: &samples.baseline.per_op,
        parity: options.parity,
        spread: options.spread,
        candidate_floor,
        baseline_floor,
        process_spread: resampled.process_spread,
        process_rounds: &resampled.process_rounds,
    })
}

/// Step 8: a win or a loss needs the parity rule, the whole interval beyond the tolerance, the
/// A/A floor and 1.5 resolution steps (clock steps for time) per batch, all on the same side.
///
/// When the twins of identical code differ by more than the parity (the A/A floor), that much
/// can come from where the code sits or from the machine, on either arm: the tolerance is then
/// twice the floor, so a difference must exceed what both arms' copies could invent together.
/// Arms from two builds must also clear the builds floor. Parity is established only within the
/// parity itself, and only when neither floor nor the clock's resolution exceeds it.
fn decide(parity: &ParityVerdict, parity_setting: f64, estimate: &Estimate, guards: &Guards<'_>) -> Verdict {
    let tolerance = parity.tolerance.max(guards.placement(parity_setting));
    let measurable = guards.measurable(estimate.difference, parity_setting);
    let outcome = match parity.outcome {
        Outcome::Loss if estimate.high < -tolerance && measurable => Outcome::Loss,
        Outcome::Win if estimate.low > win_margin(tolerance) && measurable => Outcome::Win,
        _ => Outcome::Parity,
    };
    let parity_band = parity_setting;
    let resolvable = guards.placement(parity_band) <= parity_band && parity.best_tolerance <= parity_band;
    let within = estimate.low >= -parity_band && estimate.high <= win_margin(parity_band);
    let resolved = outcome != Outcome::Parity || (resolvable && within);
    Verdict {
        outcome,
        resolved,
        ratio: parity.ratio,
        best_ratio: parity.best_ratio,
        tolerance,
        best_tolerance: parity.best_tolerance,
        noise: parity.noise,
        floor: guards.floors.aa,
        builds_floor: guards.floors.builds,
        parity_band,
    }
}

/// What a difference must clear besides the tolerance: the floors and the clock.
struct Guards<'a> {
    floors: Floors,
    calibration: &'a Calibration,
    baseline_median: f64,
}

impl Guards<'_> {
    /// What the floors add to the tolerance: the A/A floor, or twice it when it exceeds the
    /// parity (see [`decide`]), or the builds floor when that is more. An A/A floor that could
    /// not be measured (NaN) stays NaN: no difference clears it.
    fn placement(&self, parity: f64) -> f64 {
        let aa = if self.floors.aa > parity { 2.0 * self.floors.aa } else { self.floors.aa };
        if self.floors.builds > aa { self.floors.builds } else { aa }
    }

    /// Whether a difference `d` is above the placement guard and at least 1.5 resolution steps
    /// per batch.
    fn measurable(&self, difference: f64, parity: f64) -> bool {
        let batch_difference = difference.abs() * self.baseline_median * self.calibration.baseline_iters as f64;
        difference.abs() > self.placement(parity) && batch_difference >= 1.5 * self.calibration.resolution
    }
}

/// The verdict of a confirmation's fresh processes: `test.side` when the signed-rank test puts
/// the centre of their log ratios beyond `ln(1 + tolerance)` on that side at `test.alpha`, and
/// the difference is measurable; parity otherwise, established when two one-sided tests at
/// [`FRESH_PARITY_ALPHA`] put the centre within `±ln(1 + parity)` and neither the A/A floor nor
/// the clock exceeds the parity. The tolerance is the parity raised to the clock's resolution and
/// the A/A guard; it carries no spread term, since the test itself carries the processes' spread.
fn decide_fresh(
    parity: &ParityVerdict,
    parity_setting: f64,
    estimate: &Estimate,
    analysis: &SignedRankAnalysis,
    test: FreshTest,
    guards: &Guards<'_>,
) -> Verdict {
    let tolerance = parity.best_tolerance.max(guards.placement(parity_setting));
    let margin = tolerance.ln_1p();
    let beyond = test.look
        && match test.side {
            Outcome::Loss => analysis.above(margin, test.alpha),
            Outcome::Win => analysis.below(-margin, test.alpha),
            Outcome::Parity => false,
        };
    let outcome =
        if beyond && guards.measurable(estimate.difference, parity_setting) { test.side } else { Outcome::Parity };
    let band = parity_setting.ln_1p();
    let within = analysis.below(band, FRESH_PARITY_ALPHA) && analysis.above(-band, FRESH_PARITY_ALPHA);
    let resolvable = guards.placement(parity_setting) <= parity_setting && parity.best_tolerance <= parity_setting;
    Verdict {
        outcome,
        resolved: outcome != Outcome::Parity || (within && resolvable),
        ratio: analysis.estimate().exp(),
        best_ratio: parity.best_ratio,
        tolerance,
        best_tolerance: parity.best_tolerance,
        noise: 0.0,
        floor: guards.floors.aa,
        builds_floor: guards.floors.builds,
        parity_band: parity_setting,
    }
}

#[cfg(test)]
mod tests {
    use super::self_checks::placement_floor;
    use super::*;
    use crate::measure::Series;
    use crate::rng::Dprng;
    use crate::validate::twin_difference;
    use std::collections::BTreeSet;

    /// A look decides on exactly what the report of its rounds would say: over processes of
    /// every kind a look meets — short and long, quiet and noisy, wins, losses and parities at
    /// and near the tolerance, twins further apart than the parity, rounds that drift (resampled
    /// in blocks), at an interim look's level and at the end's — `judge_look` gives `judge`'s
    /// verdict and estimate, bit for bit.
    #[test]
    fn a_look_reads_the_verdict_and_estimate_its_report_would_have() {
        let mut rng = Dprng::new(47);
        let mut seen = BTreeSet::new();
        for case in 0..360usize {
            let rounds = [10, 13, 24, 60, 150][case % 5];
            let noise = [0.002, 0.02, 0.06][case % 3];
            let change = [-0.12, -0.05, -0.03, 0.0, 0.03, 0.05, 0.12][case % 7];
            let gap = if case % 4 == 0 { 0.09 } else { 0.0 };
            let drift = if case % 9 < 3 { 0.004 } else { 0.0 };
            let mut normal = || (-2.0 * (1.0 - rng.f64()).ln()).sqrt() * (std::f64::consts::TAU * rng.f64()).cos();
            let mut walk = 0.0;
            let mut routines: [Vec<f64>; 4] = Default::default();
            for _ in 0..rounds {
                walk += drift * normal();
                let scales = [1.0 + change, (1.0 + change) * (1.0 + gap), 1.0, 1.0];
                for (values, scale) in routines.iter_mut().zip(scales) {
                    values.push(100.0 * scale * (walk + noise * normal()).exp());
                }
            }
            let series = |per_op: &Vec<f64>, slot: u32| Series {
                per_op: per_op.clone(),
                position: (0..rounds as u32).map(|round| round * 4 + slot).collect(),
                placements: Vec::new(),
            };
            let samples = Samples {
                candidate_iters: 100,
                baseline_iters: 100,
                candidate: series(&routines[0], 0),
                candidate_twin: series(&routines[1], 1),
                baseline: series(&routines[2], 2),
                baseline_twin: series(&routines[3], 3),
            };
            let calibration = Calibration {
                resolution: 20.0,
                clock_step_ns: 20.0,
                candidate_iters: 100,
                baseline_iters: 100,
                target_batch_ns: 10_000.0,
                candidate_batch_ns: 10_000.0,
                baseline_batch_ns: 10_000.0,
                first_call_ns: 0.0,
            };
            let level = if case % 2 == 0 { 0.997 } else { 0.95 };
            let options =
                JudgeOptions { parity: 0.04, level, resamples: 400, seed: rng.u64(), ..JudgeOptions::default() };
            let report = judge("candidate", "baseline", Metric::Time, calibration, samples.clone(), &options);
            let look = judge_look(calibration, &samples, &options);
            assert_eq!(look, (report.verdict.clone(), report.estimate), "case {case}: {samples:?}");
            seen.insert(format!("{:?} resolved {}", report.verdict.outcome, report.verdict.resolved));
            if report.verdict.tolerance > options.parity {
                seen.insert("tolerance widened by the A/A floor".to_owned());
            }
            if matches!(report.resampling.scheme, Resampling::Blocks { len } if len > 1) {
                seen.insert("resampled in blocks".to_owned());
            }
        }
        for kind in [
            "Win resolved true",
            "Loss resolved true",
            "Parity resolved true",
            "Parity resolved false",
            "tolerance widened by the A/A floor",
            "resampled in blocks",
        ] {
            assert!(seen.contains(kind), "no case of {kind}: {seen:?}");
        }
    }

    /// A process whose four routines run around 100 ns with normal noise of `noise` (relative
    /// standard deviation, per round; Box–Muller) and whose candidate twin runs `gap` slower.
    fn process(rounds: usize, noise: f64, gap: f64, rng: &mut Dprng) -> Samples {
        let mut normal = || (-2.0 * (1.0 - rng.f64()).ln()).sqrt() * (std::f64::consts::TAU * rng.f64()).cos();
        let mut series = |scale: f64, slot: u32| Series {
            per_op: (0..rounds).map(|_| 100.0 * scale * (noise * normal()).exp()).collect(),
            position: (0..rounds as u32).map(|round| round * 4 + slot).collect(),
            placements: Vec::new(),
        };
        Samples {
            candidate_iters: 1000,
            baseline_iters: 1000,
            candidate: series(1.0, 0),
            candidate_twin: series(1.0 + gap, 1),
            baseline: series(1.0, 2),
            baseline_twin: series(1.0, 3),
        }
    }

    /// Over many short noisy processes with no placement effect, the floor is the twins' own
    /// difference less its sampling error: far below the mean of the processes' |d| (which was
    /// the floor before, and grew with the noise); a difference every process shares is kept.
    #[test]
    fn the_floor_over_processes_leaves_out_their_sampling_error() {
        let mut rng = Dprng::new(5);
        let noisy: Vec<Samples> = (0..200).map(|_| process(10, 0.02, 0.0, &mut rng)).collect();
        let refs: Vec<&Samples> = noisy.iter().collect();
        let mean_abs =
            refs.iter().map(|s| twin_difference(&s.candidate.per_op, &s.candidate_twin.per_op).abs()).sum::<f64>()
                / refs.len() as f64;
        let floor = placement_floor(&refs);
        assert!(floor < 0.5 * mean_abs, "floor {floor} against a mean |d| of {mean_abs}");
        let apart: Vec<Samples> = (0..40).map(|_| process(10, 0.02, 0.03, &mut rng)).collect();
        let floor = placement_floor(&apart.iter().collect::<Vec<_>>());
        assert!((floor - 0.03).abs() < 0.01, "a 3 % difference between twins stays in the floor: {floor}");
    }

    /// An arm without rounds gives no floor, not a floor of zero.
    #[test]
    fn a_process_without_rounds_has_no_floor() {
        let mut rng = Dprng::new(6);
        let processes = [process(10, 0.01, 0.0, &mut rng), process(0, 0.01, 0.0, &mut rng)];
        assert!(placement_floor(&processes.iter().collect::<Vec<_>>()).is_nan());
    }
}
