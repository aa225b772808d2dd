//! How one comparison is measured: its budget, metric and batch sizing, and how it is judged;
//! every default written once, here.

use super::Layout;
use rtcompare_judge::decide::Role;
use rtcompare_judge::measure::Metric;
use rtcompare_judge::verdict::JudgeOptions;
use std::time::Duration;

/// Settings of one comparison: its budget, metric and batch sizing, and how it is judged.
///
/// ```
/// use rtcompare::{JudgeOptions, Metric, Options};
/// use std::time::Duration;
/// let options = Options {
///     budget: Duration::from_secs(2),
///     metric: Metric::Time,
///     judge: JudgeOptions { parity: 0.02, ..JudgeOptions::default() },
///     ..Options::default()
/// };
/// assert_eq!(options.min_rounds, 10);
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// Wall-clock time for collecting rounds (calibration and warm-up come on top).
    pub budget: Duration,
    /// What to measure.
    pub metric: Metric,
    /// Largest share of a batch the clock step may be (ε); the default 0.001 keeps the clock's
    /// error at or below 0.1 %.
    pub clock_error: f64,
    /// Shortest batch, long enough that loop entry and the clock readings vanish in it, short
    /// enough that most batches run between two timer interrupts.
    pub min_batch: Duration,
    /// Rounds to collect even past the budget.
    pub min_rounds: usize,
    /// Rounds after which collection stops; batches grow so that the budget fills about this many.
    pub max_rounds: usize,
    /// How the samples are judged (parity, level, resamples, thresholds, seed).
    pub judge: JudgeOptions,
    /// Whether rounds run at a random stack depth over a perturbed heap (see [`Layout`]).
    pub layout: Layout,
    /// Called after each round with the share of the budget spent (0 to 1), for progress
    /// displays; `None` for silence.
    pub progress: Option<fn(f64)>,
    /// What the process is for, which decides what ends its collection before the budget is
    /// spent ([`Role`]): a comparison's first round by default.
    pub role: Role,
}

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
            role: Role::Screen,
        }
    }
}

impl Options {
    /// The shortest batch that still lets `max_rounds` rounds of four batches fill the budget:
    /// longer batches when the budget is long, so the rounds stay few enough to resample fast.
    pub(crate) fn batch_floor(&self) -> Duration {
        let per_batch = self.budget / (4 * self.max_rounds.max(1)) as u32;
        self.min_batch.max(per_batch)
    }

    /// The longest a batch may take by the wall clock, the work outside its meter included (a
    /// setup that builds each call's input, outputs dropped after the clock stops): what lets
    /// `min_rounds` rounds of four batches fit in the budget. Calibration grows a batch no
    /// further once it takes this long, however short its metered part.
    pub(crate) fn batch_ceiling(&self) -> Duration {
        self.budget / (4 * self.min_rounds.max(1)) as u32
    }

    /// The most rounds collected: `max_rounds`, or for a count metric at most [`COUNT_ROUNDS`].
    pub(crate) fn rounds_cap(&self) -> usize {
        if self.metric.is_count() { self.max_rounds.min(COUNT_ROUNDS) } else { self.max_rounds }
    }
}

/// Rounds collected for count metrics: allocation counts of deterministic code repeat exactly,
/// so a few dozen rounds show whether they vary at all.
const COUNT_ROUNDS: usize = 30;
