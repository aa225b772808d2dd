//! Combines the measurements and every statistic into one [`Report`] with a verdict and
//! warnings a person can act on.

use crate::measure::{Calibration, Metric, Samples};
use crate::stats::{
    DRIFT_ALPHA, Drift, Estimate, Outcome, ParityInputs, ParityVerdict, Resampling, Spread, Summary,
    bootstrap_difference, choose_resampling, detect_drift, paired_ratios, parity_verdict,
};
use crate::validate::{PlacementSpread, Validation, ValidationOptions, placement_spread, validate_harness};
use std::time::Duration;

/// How the collected samples are judged.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeOptions {
    /// Smallest relative difference that counts as a win or a loss.
    pub parity: f64,
    /// Which spread widens the median tolerance.
    pub spread: Spread,
    /// Confidence level of the difference's interval.
    pub level: f64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Thresholds to report the confidence for (share of replicates with `d* ≥ t`).
    pub thresholds: Vec<f64>,
    /// Seed of every resampling, so the same samples always give the same report.
    pub seed: u64,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            parity: 0.04,
            spread: Spread::RoundMedian,
            level: 0.95,
            resamples: crate::stats::DEFAULT_RESAMPLES,
            thresholds: Vec::new(),
            seed: 0,
        }
    }
}

/// The verdict and the figures it rests on.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Win, parity or loss.
    pub outcome: Outcome,
    /// For a win or a loss: always true. For parity: true when the whole interval lies within
    /// ±`parity_band` (parity established), false when it is too wide to tell (inconclusive).
    pub resolved: bool,
    /// Ratio of medians, candidate over baseline (below 1 = candidate ahead).
    pub ratio: f64,
    /// Ratio of the arms' fast ends (their minimums for up to ten rounds, about their 10th
    /// percentiles for hundreds; see [`crate::stats::fast_end`]), candidate over baseline.
    pub best_ratio: f64,
    /// What the ratio of medians and the interval were judged against:
    /// `max(parity, noise, clock floor / median, A/A floor)`, with twice the A/A floor when the
    /// floor exceeds the parity.
    pub tolerance: f64,
    /// What the ratio of fast ends was judged against: `max(parity, clock floor / fast end)`.
    pub best_tolerance: f64,
    /// The spread contained in `tolerance` (by default the spread of the median per-round
    /// ratio, see [`Spread::RoundMedian`]).
    pub noise: f64,
    /// The A/A noise floor the difference had to clear (the worse arm's).
    pub floor: f64,
    /// The band the whole interval must lie within for parity to be established: the parity
    /// setting itself. Parity is not established when the A/A floor or the clock's resolution
    /// exceeds it either: a band wider than the parity would call a difference the user cares
    /// about "no difference".
    pub parity_band: f64,
    /// Whether an independent second round agreed; `None` until confirmation has run.
    pub confirmed: Option<bool>,
}

/// The confidence that the candidate beats the baseline by at least `threshold`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThresholdConfidence {
    /// Relative margin (0.05 = 5 % faster; negative = tolerated slowdown).
    pub threshold: f64,
    /// Share of bootstrap replicates with `d* ≥ threshold`.
    pub confidence: f64,
}

/// A/A validation of both arms.
#[derive(Clone, Debug, PartialEq)]
pub struct Validations {
    /// The candidate against its twin.
    pub candidate: Validation,
    /// The baseline against its twin.
    pub baseline: Validation,
    /// The candidate's placement copies against each other; `None` for an arm with one copy.
    pub candidate_placement: Option<PlacementSpread>,
    /// The baseline's placement copies against each other.
    pub baseline_placement: Option<PlacementSpread>,
}

/// Drift tests of each series and of the per-round ratio.
#[derive(Clone, Debug, PartialEq)]
pub struct DriftTests {
    /// The candidate's per-op values against measurement position.
    pub candidate: Drift,
    /// The baseline's per-op values against measurement position.
    pub baseline: Drift,
    /// The per-round ratio against round number.
    pub ratio: Drift,
}

/// How the interval was resampled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResamplingInfo {
    /// Independent rounds, or contiguous blocks of rounds (of the first process, when pooled).
    pub scheme: Resampling,
    /// Number of bootstrap replicates.
    pub resamples: usize,
    /// Seed of the resampling.
    pub seed: u64,
    /// True for a count metric whose every round gave the same value in both arms: the figures
    /// are exact and the interval is a single point, not an estimate.
    pub exact: bool,
    /// Processes whose rounds were pooled (1: the rounds of one process).
    pub processes: usize,
}

/// What kind of caveat a warning is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// A series trended across the run.
    Drift,
    /// The interval is too wide to establish parity.
    Inconclusive,
    /// The medians differ but the fast ends agree: timing modes.
    TimingModes,
    /// The difference is smaller than the harness's own A/A noise.
    BelowFloor,
    /// The harness invents large differences on identical code.
    NoisyHarness,
    /// Where the code sits in memory changes its speed by more than the parity.
    Placement,
    /// Neighbouring rounds are correlated; the interval used blocks.
    Autocorrelated,
    /// Too few rounds for a stable interval.
    FewRounds,
    /// Processes disagree by more than the interval is wide.
    ProcessesDisagree,
    /// A loss (or win) that a second round in a fresh process did not confirm.
    Unconfirmed,
}

impl WarningKind {
    /// The kind's name in the results file and the Markdown summary: snake case, stable across
    /// versions of one schema.
    ///
    /// ```
    /// use rtcompare_runtime::WarningKind;
    /// assert_eq!(WarningKind::TimingModes.as_str(), "timing_modes");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            WarningKind::Drift => "drift",
            WarningKind::Inconclusive => "inconclusive",
            WarningKind::TimingModes => "timing_modes",
            WarningKind::BelowFloor => "below_floor",
            WarningKind::NoisyHarness => "noisy_harness",
            WarningKind::Placement => "placement",
            WarningKind::Autocorrelated => "autocorrelated",
            WarningKind::FewRounds => "few_rounds",
            WarningKind::ProcessesDisagree => "processes_disagree",
            WarningKind::Unconfirmed => "unconfirmed",
        }
    }
}

/// A caveat in plain words: what was seen, what it means, what to do.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// What kind of caveat.
    pub kind: WarningKind,
    /// The sentence shown to people.
    pub message: String,
}

/// Everything known about one comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The candidate's name.
    pub candidate: String,
    /// The baseline's name.
    pub baseline: String,
    /// What was measured.
    pub metric: Metric,
    /// Batch sizing.
    pub calibration: Calibration,
    /// The raw samples, in measurement order.
    pub samples: Samples,
    /// The candidate's per-op summary.
    pub candidate_summary: Summary,
    /// The baseline's per-op summary.
    pub baseline_summary: Summary,
    /// The verdict.
    pub verdict: Verdict,
    /// The paired difference `d = 1 − median(c_i / b_i)` with its interval.
    pub estimate: Estimate,
    /// Confidence per requested threshold.
    pub confidence: Vec<ThresholdConfidence>,
    /// A/A validation of both arms.
    pub validation: Validations,
    /// Drift tests.
    pub drift: DriftTests,
    /// How the interval was resampled.
    pub resampling: ResamplingInfo,
    /// Each process's own difference `d_j` when rounds from several processes were pooled
    /// (`RTCOMPARE_PROCESSES`); empty for one process.
    pub process_differences: Vec<f64>,
    /// Caveats, each a sentence with its fix.
    pub warnings: Vec<Warning>,
    /// Wall-clock time of the whole comparison (calibration, collection and analysis).
    pub duration: Duration,
    /// The second round, measured in a fresh process, when the first said loss (or win, for
    /// `expect = "win"`); its verdict decided `verdict.confirmed`.
    pub confirmation: Option<Box<Report>>,
}

/// Judges collected samples: A/A validation, drift, the paired bootstrap, the parity rule and
/// the verdict. Pure: the same samples, calibration and options give the same report, bit for
/// bit (its `duration` is zero; [`crate::compare`] fills it in).
pub fn judge(
    candidate: &str,
    baseline: &str,
    metric: Metric,
    calibration: Calibration,
    samples: Samples,
    options: &JudgeOptions,
) -> Report {
    let ratios = paired_ratios(&samples.candidate.per_op, &samples.baseline.per_op);
    let scheme = choose_resampling(&ratios);
    let bootstrap = bootstrap_difference(&ratios, scheme, options.level, options.resamples, options.seed);
    let resampled = Resampled {
        estimate: bootstrap.estimate,
        scheme,
        processes: Vec::new(),
        process_spread: None,
        confidence: confidences(options, |t| bootstrap.confidence(t)),
    };
    let drift = drift_tests(&samples);
    assemble(Names { candidate, baseline, metric }, calibration, samples, drift, resampled, options)
}

/// Judges rounds measured in several processes together: the same steps as [`judge`], with
/// the estimate and interval from Student's t over the processes' own differences
/// ([`crate::stats::pool_processes`]) and the drift tests of the first process (a shift
/// between processes is not a drift). One process is judged exactly as [`judge`] would.
///
/// # Panics
/// When `measured` is empty.
pub fn judge_processes(measured: Vec<crate::Measured>, metric: Metric, options: &JudgeOptions) -> Report {
    assert!(!measured.is_empty(), "judge_processes needs at least one process's samples");
    if measured.len() == 1 {
        let only = measured.into_iter().next().expect("one process");
        return judge(&only.candidate, &only.baseline, metric, only.calibration, only.samples, options);
    }
    judge_pooled(measured, &[], metric, options)
}

/// Judges a confirmation ([`crate::confirmation`]): [`judge_processes`] on the fresh processes
/// `measured`, with the spread between processes estimated also from `screening`, the
/// difference the first round measured ([`crate::stats::pool_processes_with_spread_of`]). The
/// first round was chosen because it signalled, so it is kept out of the estimate but not out
/// of the evidence of how much processes vary.
///
/// # Panics
/// When `measured` is empty.
pub fn judge_settling(
    measured: Vec<crate::Measured>,
    screening: f64,
    metric: Metric,
    options: &JudgeOptions,
) -> Report {
    assert!(!measured.is_empty(), "judge_settling needs at least one process's samples");
    judge_pooled(measured, &[screening], metric, options)
}

fn judge_pooled(measured: Vec<crate::Measured>, spread_also: &[f64], metric: Metric, options: &JudgeOptions) -> Report {
    let groups: Vec<Vec<f64>> =
        measured.iter().map(|m| paired_ratios(&m.samples.candidate.per_op, &m.samples.baseline.per_op)).collect();
    let slices: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    let pooled = crate::stats::pool_processes_with_spread_of(&slices, spread_also, options.level);
    let resampled = Resampled {
        estimate: pooled.estimate,
        scheme: choose_resampling(&groups[0]),
        processes: pooled.process_differences.clone(),
        process_spread: Some(pooled.process_spread()),
        confidence: confidences(options, |t| pooled.confidence(t)),
    };
    let drift = drift_tests(&measured[0].samples);
    let calibration = coarsest_calibration(&measured);
    let names = (measured[0].candidate.clone(), measured[0].baseline.clone());
    let samples = concatenate(measured.into_iter().map(|m| m.samples));
    let names = Names { candidate: &names.0, baseline: &names.1, metric };
    assemble(names, calibration, samples, drift, resampled, options)
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
    confidence: Vec<ThresholdConfidence>,
}

fn confidences(options: &JudgeOptions, confidence: impl Fn(f64) -> f64) -> Vec<ThresholdConfidence> {
    options
        .thresholds
        .iter()
        .map(|&threshold| ThresholdConfidence { threshold, confidence: confidence(threshold) })
        .collect()
}

fn drift_tests(samples: &Samples) -> DriftTests {
    let (c, b) = (&samples.candidate.per_op, &samples.baseline.per_op);
    DriftTests {
        candidate: detect_drift(c, DRIFT_ALPHA),
        baseline: detect_drift(b, DRIFT_ALPHA),
        ratio: detect_drift(&paired_ratios(c, b), DRIFT_ALPHA),
    }
}

/// The calibration with the smallest batches: its per-op floor is the coarsest of all.
fn coarsest_calibration(measured: &[crate::Measured]) -> Calibration {
    let smallest = |m: &&crate::Measured| m.calibration.candidate_iters.min(m.calibration.baseline_iters);
    measured.iter().min_by_key(smallest).map(|m| m.calibration).unwrap_or_else(|| measured[0].calibration)
}

/// One process's rounds after another's; positions continue across processes.
fn concatenate(all: impl Iterator<Item = Samples>) -> Samples {
    let mut joined = Samples::default();
    let mut offset = 0;
    for samples in all {
        joined.candidate_iters = samples.candidate_iters;
        joined.baseline_iters = samples.baseline_iters;
        let next = offset + 4 * samples.rounds() as u32;
        for (into, from) in [
            (&mut joined.candidate, samples.candidate),
            (&mut joined.candidate_twin, samples.candidate_twin),
            (&mut joined.baseline, samples.baseline),
            (&mut joined.baseline_twin, samples.baseline_twin),
        ] {
            into.per_op.extend(from.per_op);
            into.position.extend(from.position.iter().map(|p| p + offset));
            into.placements.resize_with(into.placements.len().max(from.placements.len()), Vec::new);
            for (into, from) in into.placements.iter_mut().zip(from.placements) {
                into.extend(from);
            }
        }
        offset = next;
    }
    joined
}

/// Validation, the parity rule and the verdict on top of what resampling produced.
fn assemble(
    names: Names<'_>,
    calibration: Calibration,
    samples: Samples,
    drift: DriftTests,
    resampled: Resampled,
    options: &JudgeOptions,
) -> Report {
    let c = &samples.candidate.per_op;
    let b = &samples.baseline.per_op;
    let validation = validate_both(&samples, options);
    let floor = Validation::worse(&validation.candidate, &validation.baseline).noise_floor;
    let (candidate_floor, baseline_floor) = calibration.per_op_floors();
    let parity = parity_verdict(&ParityInputs {
        candidate: c,
        baseline: b,
        parity: options.parity,
        spread: options.spread,
        candidate_floor,
        baseline_floor,
        process_spread: resampled.process_spread,
    });
    let baseline_summary = Summary::of(b);
    let verdict = decide(&parity, options.parity, &resampled.estimate, floor, &calibration, baseline_summary.median);
    let exact = names.metric.is_count() && [c, b].iter().all(|series| series.iter().all(|&x| x == series[0]));
    let mut report = Report {
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
        confirmation: None,
        samples,
    };
    report.warnings = crate::warnings::explain(&report, &parity);
    report
}

fn validate_both(samples: &Samples, options: &JudgeOptions) -> Validations {
    // The floor is a 90th percentile of the replicates: more resamples for an extreme interval
    // level would not move it.
    let validation_options = |salt: u64| ValidationOptions {
        level: options.level,
        resamples: options.resamples.min(crate::stats::DEFAULT_RESAMPLES),
        seed: options.seed ^ salt,
        tolerance: options.parity,
    };
    Validations {
        candidate: validate_harness(
            &samples.candidate.per_op,
            &samples.candidate_twin.per_op,
            &validation_options(0xA1),
        ),
        baseline: validate_harness(&samples.baseline.per_op, &samples.baseline_twin.per_op, &validation_options(0xB2)),
        candidate_placement: placement_spread(&samples.candidate.placements, &samples.candidate_twin.placements),
        baseline_placement: placement_spread(&samples.baseline.placements, &samples.baseline_twin.placements),
    }
}

/// Step 8: a win or a loss needs the parity rule, the whole interval beyond the tolerance, the
/// A/A floor and 1.5 resolution steps (clock steps for time) per batch, all on the same side.
///
/// When the twins of identical code differ by more than the parity (the A/A floor), that much
/// can come from where the code sits or from the machine, on either arm: the tolerance is then
/// twice the floor, so a difference must exceed what both arms' copies could invent together.
/// Parity is established only within the parity itself, and only when neither the floor nor
/// the clock's resolution exceeds it.
fn decide(
    parity: &ParityVerdict,
    parity_setting: f64,
    estimate: &Estimate,
    floor: f64,
    calibration: &Calibration,
    baseline_median: f64,
) -> Verdict {
    let placement_guard = if floor > parity_setting { 2.0 * floor } else { floor };
    let tolerance = parity.tolerance.max(placement_guard);
    let difference = estimate.difference;
    let batch_difference = difference.abs() * baseline_median * calibration.baseline_iters as f64;
    let measurable = difference.abs() > placement_guard && batch_difference >= 1.5 * calibration.resolution;
    let outcome = match parity.outcome {
        Outcome::Loss if estimate.high < -tolerance && measurable => Outcome::Loss,
        Outcome::Win if estimate.low > tolerance && measurable => Outcome::Win,
        _ => Outcome::Parity,
    };
    let parity_band = parity_setting;
    let resolvable = floor <= parity_band && parity.best_tolerance <= parity_band;
    let within = estimate.low >= -parity_band && estimate.high <= parity_band;
    let resolved = outcome != Outcome::Parity || (resolvable && within);
    Verdict {
        outcome,
        resolved,
        ratio: parity.ratio,
        best_ratio: parity.best_ratio,
        tolerance,
        best_tolerance: parity.best_tolerance,
        noise: parity.noise,
        floor,
        parity_band,
        confirmed: None,
    }
}
