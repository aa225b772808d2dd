//! The caveats on a verdict: what kind each is ([`WarningKind`]), the situation with its figures
//! ([`Caveat`]), and the small values a caveat names (a series, an arm, a round's figures).

use super::ending::{Ending, Settle};
use super::seconds;
use crate::stats::{Estimate, Outcome};
use serde::{Deserialize, Serialize};
use std::time::Duration;

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
    /// Against a git revision: the two builds lay the code out apart by more than the parity.
    BuildsApart,
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
    pub const ALL: [WarningKind; 12] = [
        WarningKind::Drift,
        WarningKind::Inconclusive,
        WarningKind::TimingModes,
        WarningKind::BelowFloor,
        WarningKind::NoisyHarness,
        WarningKind::Placement,
        WarningKind::BuildsApart,
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
            WarningKind::BuildsApart => "builds_apart",
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
        /// The A/A floor, [`Verdict::floor`](super::Verdict::floor).
        floor: f64,
        /// The parity band, [`Verdict::parity_band`](super::Verdict::parity_band).
        parity: f64,
    },
    /// Arms from two builds (against a git revision) whose copies show that placement alone
    /// moves the code by more than the parity: only a difference beyond that counts, and parity
    /// cannot be established ([`Verdict::builds_floor`](super::Verdict::builds_floor)).
    BuildsApart {
        /// The builds floor.
        builds_floor: f64,
        /// The parity band, [`Verdict::parity_band`](super::Verdict::parity_band).
        parity: f64,
    },
    /// Where the linker puts an arm changes its speed by more than the parity band.
    Placement {
        /// Which arm.
        arm: ArmRole,
        /// How many placement copies (code offsets) it ran at.
        copies: usize,
        /// How far apart its copies ran, [`PlacementSpread::spread`](crate::validate::PlacementSpread::spread).
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
        /// ([`Verdict::best_tolerance`](super::Verdict::best_tolerance)).
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
            Caveat::BuildsApart { .. } => WarningKind::BuildsApart,
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
