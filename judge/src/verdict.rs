//! What a judgement says: the [`Report`] of one round of a comparison, its [`Verdict`] and
//! [`Caveat`]s, the [`Confirmation`] fresh processes gave it, the [`Judgement`] they make
//! together, and the options a round is judged with. Data only: [`crate::judging`] makes a report
//! and `decide::conclude` a judgement. Every type here is serialisable as it is, so the results
//! file and a comparison's record are these values.

use crate::measure::{Calibration, Metric, Samples};
use crate::stats::{Drift, Estimate, Outcome, Resampling, Spread, Summary};
use crate::validate::{PlacementSpread, Validation, ValidationOptions};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How the collected samples are judged.
///
/// ```
/// use rtcompare::JudgeOptions;
/// let strict = JudgeOptions { parity: 0.01, thresholds: vec![0.05], seed: 7, ..JudgeOptions::default() };
/// assert_eq!((strict.level, JudgeOptions::default().parity), (0.95, 0.04));
/// ```
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

// Beside `JudgeOptions`, whose defaults it takes, so that validation needs nothing of the
// verdict's: the verdict holds validations, not the other way round.
impl Default for ValidationOptions {
    /// The judging defaults' level, resamples and seed, and their parity threshold as the
    /// tolerance.
    fn default() -> Self {
        let judging = JudgeOptions::default();
        ValidationOptions {
            level: judging.level,
            resamples: judging.resamples,
            seed: judging.seed,
            tolerance: judging.parity,
        }
    }
}

/// The verdict and the figures it rests on.
///
/// ```
/// use rtcompare::{Arm, Options, Outcome, compare};
/// use std::time::Duration;
/// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
/// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
/// let options = Options { budget: Duration::from_millis(100), ..Options::default() };
/// let verdict = compare(Arm::from_fn("fast", fast), Arm::from_fn("slow", slow), &options).verdict;
/// assert_eq!((verdict.outcome, verdict.resolved), (Outcome::Win, true));
/// assert!(verdict.ratio < 1.0 - verdict.tolerance);
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// What the median ratio and the interval were judged against:
    /// `max(parity, noise, clock floor / median, A/A floor)`, with twice the A/A floor when the
    /// floor exceeds the parity.
    pub tolerance: f64,
    /// What the ratio of fast ends was judged against: `max(parity, clock floor / fast end)`.
    pub best_tolerance: f64,
    /// The spread contained in `tolerance` (by default the spread of the median per-round
    /// ratio, see [`Spread::RoundMedian`]).
    pub noise: f64,
    /// The A/A floor the difference had to clear: how far each arm ran from its own twin in the
    /// same process, the larger arm's, averaged over the processes pooled.
    pub floor: f64,
    /// The band the whole interval must lie within for parity to be established: the parity
    /// setting itself. Parity is not established when the A/A floor or the clock's resolution
    /// exceeds it either: a band wider than the parity would call a difference the user cares
    /// about "no difference".
    pub parity_band: f64,
}

/// The confidence that the candidate beats the baseline by at least `threshold`.
///
/// ```
/// use rtcompare::{Arm, JudgeOptions, Options, judge, measure};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let m = measure(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let margins = JudgeOptions { thresholds: vec![0.05, -0.02], ..JudgeOptions::default() };
/// let report = judge(&m.candidate, &m.baseline, options.metric, m.calibration, m.samples, &margins);
/// assert_eq!(report.confidence.len(), 2);
/// assert!(report.confidence.iter().all(|c| (0.0..=1.0).contains(&c.confidence)));
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThresholdConfidence {
    /// Relative margin (0.05 = 5 % faster; negative = tolerated slowdown).
    pub threshold: f64,
    /// Share of bootstrap replicates with `d* ≥ threshold`.
    pub confidence: f64,
}

/// A/A validation of both arms.
///
/// ```
/// use rtcompare::{Arm, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let validation = &report.validation;
/// assert!(validation.candidate.noise_floor >= 0.0 && validation.baseline.noise_floor >= 0.0);
/// // Arms built by hand have one placement copy.
/// assert!(validation.candidate_placement.is_none());
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
///
/// ```
/// use rtcompare::{Arm, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let drift = &report.drift;
/// assert!([&drift.candidate, &drift.baseline, &drift.ratio].iter().all(|d| (0.0..=1.0).contains(&d.p_value)));
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DriftTests {
    /// The candidate's per-op values against measurement position.
    #[serde(serialize_with = "with_shift")]
    pub candidate: Drift,
    /// The baseline's per-op values against measurement position.
    #[serde(serialize_with = "with_shift")]
    pub baseline: Drift,
    /// The per-round ratio against round number.
    #[serde(serialize_with = "with_shift")]
    pub ratio: Drift,
}

/// A drift test as the files write it: with its shift ([`Drift::shift`]), the figure a drift
/// caveat is decided on, beside the medians it comes from (and ignored when read back).
fn with_shift<S: serde::Serializer>(drift: &Drift, serializer: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Shifted<'a> {
        #[serde(flatten)]
        drift: &'a Drift,
        shift: f64,
    }
    Shifted { drift, shift: drift.shift() }.serialize(serializer)
}

/// How the interval was resampled.
///
/// ```
/// use rtcompare::{Arm, JudgeOptions, Options, compare};
/// use std::time::Duration;
/// let judge = JudgeOptions { seed: 42, ..JudgeOptions::default() };
/// let options = Options { budget: Duration::from_millis(50), judge, ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// assert_eq!((report.resampling.seed, report.resampling.processes), (42, 1));
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
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

/// What kind of caveat a [`Caveat`] is: the name the outputs and the HOWTO give it.
///
/// ```
/// use rtcompare::WarningKind;
/// assert!(WarningKind::ALL.contains(&WarningKind::Drift));
/// ```
#[non_exhaustive]
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
    /// A loss (or win) that fresh processes did not confirm.
    Unconfirmed,
    /// A first round that leaned to a win or a loss it could not establish, which fresh
    /// processes then established.
    Leaned,
}

impl WarningKind {
    /// Every kind, in the order the HOWTO (`docs/howto.md`) explains them.
    ///
    /// ```
    /// use rtcompare::WarningKind;
    /// assert_eq!(WarningKind::ALL[0].as_str(), "drift");
    /// ```
    pub const ALL: [WarningKind; 11] = [
        WarningKind::Drift,
        WarningKind::Inconclusive,
        WarningKind::TimingModes,
        WarningKind::BelowFloor,
        WarningKind::NoisyHarness,
        WarningKind::Placement,
        WarningKind::Autocorrelated,
        WarningKind::FewRounds,
        WarningKind::ProcessesDisagree,
        WarningKind::Unconfirmed,
        WarningKind::Leaned,
    ];

    /// The kind's name in the results file and the Markdown summary: snake case, stable across
    /// versions of one schema.
    ///
    /// ```
    /// use rtcompare::WarningKind;
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
            WarningKind::Leaned => "leaned",
        }
    }

    /// Whether the warning says why a first round is a parity rather than a win or a loss: it no
    /// longer applies once fresh processes established the win or the loss it leaned to.
    ///
    /// ```
    /// use rtcompare::WarningKind;
    /// assert!(WarningKind::Inconclusive.explains_parity() && !WarningKind::Drift.explains_parity());
    /// ```
    pub fn explains_parity(self) -> bool {
        matches!(self, WarningKind::Inconclusive | WarningKind::TimingModes | WarningKind::BelowFloor)
    }
}

/// A caveat on a verdict: one situation that qualifies it, with the figures that show it.
///
/// Data only: which caveats a report carries is decided when it is judged (and, for
/// [`Caveat::Unconfirmed`] and [`Caveat::Leaned`], when its confirmation is joined to it);
/// rtcompare's `report::sentence` words each one, taking the arms' names from the report it is
/// rendered with. Percentages are shares (0.04 = 4 %), differences follow
/// [`Estimate::difference`] (positive when the candidate is faster).
///
/// ```
/// use rtcompare::report::sentence;
/// use rtcompare::{Arm, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// for caveat in &report.warnings {
///     println!("warning[{}]: {}", caveat.kind().as_str(), sentence(caveat, &report));
/// }
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Caveat {
    /// A series trended across the run by enough to matter against the tolerance.
    Drift {
        /// Which series drifted.
        series: DriftSeries,
        /// Its second half's median against its first half's, `second / first − 1`.
        shift: f64,
        /// Spearman's ρ of the series against its position in the run.
        rho: f64,
        /// The two-sided p-value of `rho`.
        p_value: f64,
    },
    /// Both arms drifted the same way by enough to matter while their ratio held: the machine
    /// changed under them, each round's ratio cancelled it, and the verdict stands.
    DriftedTogether {
        /// The candidate's shift, second half against first.
        candidate: f64,
        /// The baseline's shift, second half against first.
        baseline: f64,
    },
    /// Identical code (each arm against its A/A twin) ran further apart than the parity, so
    /// only a difference beyond twice that counts and parity cannot be established.
    NoisyHarness {
        /// The A/A floor, [`Verdict::floor`].
        floor: f64,
        /// The parity band, [`Verdict::parity_band`].
        parity: f64,
    },
    /// Where the linker puts an arm changes its speed by more than the parity band.
    Placement {
        /// Which arm.
        arm: ArmRole,
        /// How many placement copies (code offsets) it ran at.
        copies: usize,
        /// How far apart its copies ran, [`PlacementSpread::spread`].
        spread: f64,
    },
    /// The medians differ by more than the tolerance but the fast ends agree: the arms landed
    /// in different timing modes, and the verdict is parity.
    TimingModes {
        /// The ratio of medians, candidate over baseline.
        ratio: f64,
        /// The ratio of fast ends, candidate over baseline.
        best_ratio: f64,
        /// What the ratio of fast ends was judged against.
        best_tolerance: f64,
    },
    /// The parity rule saw a win or a loss, but the difference lies within the A/A floor, so
    /// the verdict is parity.
    BelowFloor {
        /// What the parity rule saw: [`Outcome::Win`] or [`Outcome::Loss`].
        side: Outcome,
        /// The difference.
        difference: f64,
        /// The A/A floor it did not clear.
        floor: f64,
    },
    /// The parity rule saw a win or a loss, but the interval is not wholly beyond the
    /// tolerance, so the difference is not established and the verdict is parity.
    NotBeyondTolerance {
        /// What the parity rule saw: [`Outcome::Win`] or [`Outcome::Loss`].
        side: Outcome,
        /// The difference and its interval.
        estimate: Estimate,
        /// The tolerance the interval did not clear.
        tolerance: f64,
    },
    /// The interval lies within the parity band, but the meter's resolution spread over a batch
    /// is coarser than the band, so parity is not established.
    CoarseMeter {
        /// The parity band.
        parity: f64,
        /// The meter's resolution over a batch of the fastest rounds, relative to them
        /// ([`Verdict::best_tolerance`]).
        resolution: f64,
    },
    /// The interval reaches beyond the parity band, so parity is not established.
    TooWide {
        /// The difference and its interval.
        estimate: Estimate,
        /// The parity band.
        parity: f64,
    },
    /// Neighbouring rounds were correlated, so the interval resampled blocks of rounds.
    Autocorrelated {
        /// Rounds per resampled block.
        block: usize,
    },
    /// The processes pooled disagree: their own differences span more than the interval is
    /// wide.
    ProcessesDisagree {
        /// How many processes were pooled.
        processes: usize,
        /// The smallest process's own difference.
        lowest: f64,
        /// The largest process's own difference.
        highest: f64,
        /// The width of the pooled interval.
        width: f64,
    },
    /// Fewer rounds than a stable interval needs fit in the time budget.
    FewRounds {
        /// Rounds measured.
        rounds: usize,
        /// Operations in the larger arm's batch.
        operations: u64,
        /// How long the slower arm's batch takes, in nanoseconds.
        batch_ns: f64,
    },
    /// Fresh processes did not confirm the first round's signal.
    Unconfirmed {
        /// The side the first round signalled, a win or a loss; parity when it
        /// signalled none.
        side: Outcome,
        /// The first round's figures.
        first: RoundFigures,
        /// The fresh processes' pooled figures at the look that ended the confirmation.
        fresh: RoundFigures,
        /// Why the confirmation ended.
        ending: Ending,
        /// What would settle it, when the fresh processes' estimate lies beyond the tolerance.
        settle: Option<Settle>,
    },
    /// The time cap left room for fewer fresh processes than the confirmation needs at the
    /// binary's level, so the first round's signal went unconfirmed without any.
    NoRoom {
        /// The side the first round signalled.
        side: Outcome,
        /// The first round's figures.
        first: RoundFigures,
        /// The fewest fresh processes the test needs at the binary's level.
        fewest: usize,
        /// The fresh processes the time cap had room for.
        room: usize,
        /// A budget whose time cap would hold the fewest, in seconds in the files.
        #[serde(with = "seconds")]
        budget: Duration,
    },
    /// The first round leaned to a win or a loss it could not establish, and fresh processes
    /// established it: why the verdict is not the parity the first round's figures suggest.
    Leaned {
        /// The side the first round leaned to.
        side: Outcome,
        /// The first round's figures.
        first: RoundFigures,
        /// The fresh processes' pooled figures.
        fresh: RoundFigures,
    },
}

impl Caveat {
    /// What kind of caveat this is: several situations share a kind (each way of being
    /// inconclusive, each way of drifting).
    ///
    /// ```
    /// use rtcompare::{Caveat, WarningKind};
    /// assert_eq!(Caveat::Autocorrelated { block: 4 }.kind(), WarningKind::Autocorrelated);
    /// ```
    pub fn kind(&self) -> WarningKind {
        match self {
            Caveat::Drift { .. } | Caveat::DriftedTogether { .. } => WarningKind::Drift,
            Caveat::NoisyHarness { .. } => WarningKind::NoisyHarness,
            Caveat::Placement { .. } => WarningKind::Placement,
            Caveat::TimingModes { .. } => WarningKind::TimingModes,
            Caveat::BelowFloor { .. } => WarningKind::BelowFloor,
            Caveat::NotBeyondTolerance { .. } | Caveat::CoarseMeter { .. } | Caveat::TooWide { .. } => {
                WarningKind::Inconclusive
            }
            Caveat::Autocorrelated { .. } => WarningKind::Autocorrelated,
            Caveat::ProcessesDisagree { .. } => WarningKind::ProcessesDisagree,
            Caveat::FewRounds { .. } => WarningKind::FewRounds,
            Caveat::Unconfirmed { .. } | Caveat::NoRoom { .. } => WarningKind::Unconfirmed,
            Caveat::Leaned { .. } => WarningKind::Leaned,
        }
    }
}

/// Which series a [`Caveat::Drift`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DriftSeries {
    /// The candidate's per-operation values.
    Candidate,
    /// The baseline's per-operation values.
    Baseline,
    /// The per-round ratio, candidate over baseline.
    Ratio,
}

/// Which arm of a comparison a [`Caveat::Placement`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArmRole {
    /// The candidate.
    Candidate,
    /// The baseline.
    Baseline,
}

/// The figures of one round of a comparison (the first round, or the pooled fresh processes
/// of its confirmation) as a confirmation's caveat quotes them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundFigures {
    /// What the round said: for the first round its own outcome (before any confirmation), for
    /// fresh processes their pooled verdict.
    pub outcome: Outcome,
    /// The ratio of medians, candidate over baseline.
    pub ratio: f64,
    /// The difference and its interval.
    pub estimate: Estimate,
    /// The tolerance the interval was judged against.
    pub tolerance: f64,
    /// How many processes were pooled.
    pub processes: usize,
}

/// One round of a comparison judged: its samples, every figure behind its verdict, and its
/// caveats. The first round of a comparison, the pooled fresh processes of its confirmation, and
/// what rtcompare's `compare` and [`judge`](crate::judge()) return.
///
/// ```
/// use rtcompare::{Arm, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let report = compare(Arm::from_fn("add", || 1 + 1), Arm::from_fn("mul", || 2 * 1), &options);
/// assert_eq!((report.candidate.as_str(), report.baseline.as_str()), ("add", "mul"));
/// assert_eq!(report.samples.rounds(), report.samples.candidate.per_op.len());
/// assert!(report.estimate.low <= report.estimate.difference && report.estimate.difference <= report.estimate.high);
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The candidate's name.
    pub candidate: String,
    /// The baseline's name.
    pub baseline: String,
    /// What was measured.
    pub metric: Metric,
    /// Batch sizing.
    pub calibration: Calibration,
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
    /// The caveats on the verdict, in the order the outputs show them; see [`Caveat`].
    pub warnings: Vec<Caveat>,
    /// Wall-clock time of the round (calibration, collection and analysis); in the files, in
    /// seconds (`duration_s`).
    #[serde(rename = "duration_s", with = "seconds")]
    pub duration: Duration,
    /// The raw samples, in measurement order (last in the files, being the longest part).
    pub samples: Samples,
}

/// How many tolerances the whole interval of a win or a loss must clear to be beyond doubt: a
/// fresh process stops early on it, and few rounds are then no cause for a warning.
///
/// ```
/// use rtcompare_judge::verdict::CLEAR_BEYOND_TOLERANCE;
/// assert_eq!(CLEAR_BEYOND_TOLERANCE, 2.0);
/// ```
pub const CLEAR_BEYOND_TOLERANCE: f64 = 2.0;

/// Why a confirmation stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// A look repeated the signal.
    Confirmed,
    /// A look ruled the signal out.
    RuledOut,
    /// The planned look was taken and did not confirm the signal, nor did the processes rule it
    /// out.
    LastLook,
    /// The comparison's time cap came before the planned look, which was then not taken: a look
    /// at whatever processes the cap left would test at a level nobody planned.
    TimeCap,
    /// The time cap left room for fewer fresh processes than the test needs at this binary's
    /// level, so none was started.
    NoRoom,
}

/// What would settle a confirmation that ended undecided, from what its fresh processes
/// measured: how many processes the test would need to confirm the difference they estimate
/// nine times in ten, how long those would take at the pace seen, and a budget whose time cap
/// would hold them.
///
/// ```
/// use rtcompare_judge::verdict::Settle;
/// use std::time::Duration;
/// let s = Settle { processes: 20, seconds: 3.1, budget: Duration::from_millis(1500) };
/// assert!(s.processes > 12 && s.budget > Duration::from_secs(1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settle {
    /// Fresh processes needed.
    pub processes: usize,
    /// Seconds they would take at the pace seen.
    pub seconds: f64,
    /// A budget (`RTCOMPARE_TIME`, or the attribute's `time`) whose time cap would hold them, in
    /// seconds in the files.
    #[serde(with = "seconds")]
    pub budget: Duration,
}

/// What a confirmation found: the fresh processes' pooled judgement at the look that decided,
/// and how it ended. `decide::Confirming` makes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Confirmation {
    /// The pooled judgement of the fresh processes at the look that decided; its `duration` is
    /// the whole confirmation's.
    pub report: Report,
    /// Whether it repeated the signal.
    pub confirmed: bool,
    /// Fresh processes planned, the pilot among them: the last look is taken on all of them.
    pub planned: usize,
    /// Why it stopped.
    pub ending: Ending,
    /// What would settle a confirmation that ended without a decision: `None` once decided,
    /// or when the processes' own estimate lies inside the tolerance.
    pub settle: Option<Settle>,
}

/// Everything known about one comparison: its first round, the confirmation fresh processes gave
/// it, and the verdict and caveats the two make together. Built once, by `decide::conclude` when
/// a confirmation ran and by [`Judgement::of`] when none did; nothing changes it afterwards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// The verdict: the first round's, unless fresh processes established the win or the loss
    /// its parity leaned to (then theirs, `resolved`, with the first round's figures).
    pub verdict: Verdict,
    /// The caveats on the verdict, in the order the outputs show them: the first round's (less
    /// those that explained a parity fresh processes then established), then the one a
    /// confirmation calls for.
    pub caveats: Vec<Caveat>,
    /// The first round, as it was judged.
    pub first: Report,
    /// The confirmation, when the first round signalled a win or a loss and it ran.
    pub confirmation: Option<Confirmation>,
}

/// The difference averaged over every process a confirmed or refuted verdict measured
/// ([`Judgement::over_processes`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProcessMean {
    /// The mean of the processes' own differences `d_j`, each process weighted alike.
    pub difference: f64,
    /// How many processes: the first round's and the confirmation's fresh ones.
    pub processes: usize,
}

impl Judgement {
    /// The judgement of a first round that nothing confirmed: its own verdict and caveats.
    pub fn of(first: Report) -> Judgement {
        Judgement { verdict: first.verdict.clone(), caveats: first.warnings.clone(), first, confirmation: None }
    }

    /// Whether fresh processes confirmed the first round's signal; `None` when none was asked
    /// for, `Some(false)` also when the time cap left no room for one ([`Caveat::NoRoom`]).
    pub fn confirmed(&self) -> Option<bool> {
        let no_room = self.caveats.iter().any(|c| matches!(c, Caveat::NoRoom { .. }));
        self.confirmation.as_ref().map(|found| found.confirmed).or(no_room.then_some(false))
    }

    /// Whether the time cap, not what was measured, left a signal undecided: no room for the
    /// fewest fresh processes the test needs ([`Caveat::NoRoom`]), or a cut before the last look
    /// ([`Ending::TimeCap`]).
    pub fn out_of_time(&self) -> bool {
        let no_room = self.caveats.iter().any(|c| matches!(c, Caveat::NoRoom { .. }));
        let cut =
            self.confirmation.as_ref().is_some_and(|found| matches!(found.ending, Ending::TimeCap | Ending::NoRoom));
        no_room || cut
    }

    /// Wall-clock time of the comparison: its first round and its confirmation.
    pub fn duration(&self) -> Duration {
        self.first.duration + self.confirmation.as_ref().map_or(Duration::ZERO, |found| found.report.duration)
    }

    /// Whether the verdict is a win or a loss whose first round's interval lies wholly beyond
    /// `factor` times the tolerance (see [`CLEAR_BEYOND_TOLERANCE`]).
    pub fn clears(&self, factor: f64) -> bool {
        clears(&self.verdict, &self.first.estimate, factor)
    }

    /// The best estimate of the difference a verdict has, once a confirmation ran: the mean of
    /// every process's own difference — the first round's process (or processes) and each fresh
    /// one — with equal weights; `None` without a confirmation.
    ///
    /// Why not the first round's estimate: a process keeps its hash seeds and its layout, so
    /// code whose cost depends on them (a `HashMap`, a walk through memory, the allocator) runs
    /// 0.5–1.5 % apart from one process to the next, and one process's estimate carries that
    /// whole error however long it measured. Averaging processes is what averages it out
    /// (Kalibera & Jones). Why not the confirmation's alone: it leaves out the first round's
    /// full budget. The first round was chosen because it signalled, which leans it its way when
    /// the difference is close to the tolerance; at one process in four (or more) that lean
    /// is diluted, and a difference far beyond the tolerance is not chosen at all.
    pub fn over_processes(&self) -> Option<ProcessMean> {
        let second = &self.confirmation.as_ref()?.report;
        let each = |report: &Report| {
            if report.process_differences.is_empty() {
                vec![report.estimate.difference]
            } else {
                report.process_differences.clone()
            }
        };
        let all: Vec<f64> = each(&self.first).into_iter().chain(each(second)).collect();
        let difference = all.iter().sum::<f64>() / all.len() as f64;
        Some(ProcessMean { difference, processes: all.len() })
    }
}

impl Report {
    /// The same report, with `duration` as its wall-clock time: a round's time is known only
    /// once the caller that measured and judged it has it back.
    ///
    /// ```
    /// use rtcompare::{Arm, Options, compare};
    /// use std::time::Duration;
    /// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
    /// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
    /// assert_eq!(report.with_duration(Duration::from_secs(3)).duration, Duration::from_secs(3));
    /// ```
    pub fn with_duration(self, duration: Duration) -> Report {
        Report { duration, ..self }
    }

    /// Whether the verdict is a win or a loss whose whole interval lies beyond `factor` times the
    /// tolerance (see [`CLEAR_BEYOND_TOLERANCE`]).
    ///
    /// ```
    /// use rtcompare_judge::verdict::CLEAR_BEYOND_TOLERANCE;
    /// use rtcompare::{Arm, Options, compare};
    /// use std::time::Duration;
    /// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
    /// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
    /// let options = Options { budget: Duration::from_millis(100), ..Options::default() };
    /// let report = compare(Arm::from_fn("fast", fast), Arm::from_fn("slow", slow), &options);
    /// assert!(report.clears(CLEAR_BEYOND_TOLERANCE), "three times the work is beyond doubt");
    /// ```
    pub fn clears(&self, factor: f64) -> bool {
        clears(&self.verdict, &self.estimate, factor)
    }
}

/// Whether `verdict` is a win or a loss whose interval, `estimate`, lies wholly beyond `factor`
/// times its tolerance.
fn clears(verdict: &Verdict, estimate: &Estimate, factor: f64) -> bool {
    match verdict.outcome {
        Outcome::Loss => estimate.high < -factor * verdict.tolerance,
        Outcome::Win => estimate.low > crate::stats::win_margin(factor * verdict.tolerance),
        Outcome::Parity => false,
    }
}

/// A [`Duration`] in the files, as seconds: `#[serde(with = "seconds")]`.
mod seconds {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    /// Writes the seconds.
    pub(super) fn serialize<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(duration.as_secs_f64())
    }

    /// Reads the seconds; a negative or unending duration is an error.
    pub(super) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Duration, D::Error> {
        Duration::try_from_secs_f64(f64::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every warning line names its kind and points to the HOWTO, so every kind needs its
    /// section there: `### `kind`` in `docs/howto.md`.
    #[test]
    fn every_warning_kind_has_its_section_in_the_howto() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/howto.md");
        let howto = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let missing: Vec<&str> = WarningKind::ALL
            .iter()
            .map(|kind| kind.as_str())
            .filter(|kind| !howto.lines().any(|line| line.trim() == format!("### `{kind}`")))
            .collect();
        assert!(missing.is_empty(), "warning kinds without a section in docs/howto.md: {missing:?}");
    }
}
