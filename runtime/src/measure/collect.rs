//! Interleaved collection: rounds of {candidate, candidate twin, baseline, baseline twin} in an
//! order drawn from a seeded generator, until the time budget is spent.

use super::layout::{Draw, Heap};
use super::{Arm, Batch, Halt, Layout, Meter};
use crate::Dprng;
use std::time::{Duration, Instant};

/// How to collect.
#[derive(Clone, Copy, Debug)]
pub struct CollectOptions {
    /// Candidate operations per batch, from calibration.
    pub candidate_iters: u64,
    /// Baseline operations per batch, from calibration.
    pub baseline_iters: u64,
    /// Wall-clock time to spend collecting rounds (warm-up not included).
    pub budget: Duration,
    /// Time spent running all four routines before anything is recorded.
    pub warmup: Duration,
    /// Rounds to collect even when the budget is spent.
    pub min_rounds: usize,
    /// Rounds after which collection stops even within the budget.
    pub max_rounds: usize,
    /// Seed of the round order and of the per-round input seeds.
    pub seed: u64,
    /// What to measure.
    pub meter: Meter,
    /// Whether each round runs at a random stack depth over a perturbed heap (see
    /// [`Layout`]), drawn from the round's seed.
    pub layout: Layout,
    /// Called after each round with the share of the budget spent (0 to 1), for progress
    /// displays; `None` for silence.
    pub progress: Option<fn(f64)>,
}

/// One routine's measurements: a per-op value per round, and where in the overall measurement
/// order each was taken (0 is the first batch measured).
///
/// ```
/// use rtcompare_runtime::report::Series;
/// // Three rounds of one routine, measured first in each round of four batches.
/// let series = Series { per_op: vec![10.0, 11.0, 10.5], position: vec![0, 4, 8], placements: Vec::new() };
/// assert_eq!(rtcompare_runtime::stats::median(&series.per_op), 10.5);
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Series {
    /// Per-op values (batch total divided by the batch size), one per round.
    pub per_op: Vec<f64>,
    /// Position of each value in the overall measurement order.
    pub position: Vec<u32>,
    /// Per placement copy (the same code at another offset, which the arms `#[compare]`
    /// registers have), the per-op values of the rounds in which that copy ran; empty for arms
    /// with a single copy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placements: Vec<Vec<f64>>,
}

impl Series {
    fn push(&mut self, batch: &Batch, copies: usize, position: u32) {
        let iters: u64 = batch.iters.iter().sum();
        self.per_op.push(batch.total as f64 / iters.max(1) as f64);
        self.position.push(position);
        if copies > 1 {
            self.placements.resize_with(copies, Vec::new);
            for (k, values) in self.placements.iter_mut().enumerate() {
                if batch.iters[k] > 0 {
                    values.push(batch.totals[k] as f64 / batch.iters[k] as f64);
                }
            }
        }
    }
}

/// Everything collected for one comparison. Round `i` of every series was measured in the same
/// round, with the same input seed.
///
/// ```
/// use rtcompare_runtime::{Arm, Options, measure};
/// use rtcompare_runtime::stats::paired_ratios;
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
/// let samples = measure(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options).samples;
/// let ratios = paired_ratios(&samples.candidate.per_op, &samples.baseline.per_op);
/// assert_eq!(ratios.len(), samples.rounds());
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Samples {
    /// Candidate operations per batch.
    pub candidate_iters: u64,
    /// Baseline operations per batch.
    pub baseline_iters: u64,
    /// The candidate's primary routine.
    pub candidate: Series,
    /// The candidate's twin routine (A/A control).
    pub candidate_twin: Series,
    /// The baseline's primary routine.
    pub baseline: Series,
    /// The baseline's twin routine (A/A control).
    pub baseline_twin: Series,
}

impl Samples {
    /// Number of complete rounds.
    ///
    /// ```
    /// let mut samples = rtcompare_runtime::report::Samples::default();
    /// samples.candidate.per_op = vec![1.0, 2.0];
    /// assert_eq!(samples.rounds(), 2);
    /// ```
    pub fn rounds(&self) -> usize {
        self.candidate.per_op.len()
    }

    /// The first `rounds` rounds (all of them when there are fewer), as a collection that
    /// stopped there would have kept them.
    #[cfg(test)]
    pub(crate) fn first(&self, rounds: usize) -> Samples {
        let cut = |series: &Series| {
            let kept = rounds.min(series.per_op.len());
            Series {
                per_op: series.per_op[..kept].to_vec(),
                position: series.position[..kept.min(series.position.len())].to_vec(),
                // Which rounds a copy ran in is not recorded; each copy keeps its share.
                placements: series
                    .placements
                    .iter()
                    .map(|values| values[..values.len() * kept / series.per_op.len().max(1)].to_vec())
                    .collect(),
            }
        };
        Samples {
            candidate_iters: self.candidate_iters,
            baseline_iters: self.baseline_iters,
            candidate: cut(&self.candidate),
            candidate_twin: cut(&self.candidate_twin),
            baseline: cut(&self.baseline),
            baseline_twin: cut(&self.baseline_twin),
        }
    }

    /// These rounds followed by `later`'s, as one series: positions continue after this
    /// collection's last batch, and each placement copy's values are joined. The batch sizes
    /// are `later`'s.
    pub(crate) fn append(&mut self, later: Samples) {
        let offset = 4 * self.rounds() as u32;
        self.candidate_iters = later.candidate_iters;
        self.baseline_iters = later.baseline_iters;
        for (into, from) in [
            (&mut self.candidate, later.candidate),
            (&mut self.candidate_twin, later.candidate_twin),
            (&mut self.baseline, later.baseline),
            (&mut self.baseline_twin, later.baseline_twin),
        ] {
            into.per_op.extend(from.per_op);
            into.position.extend(from.position.iter().map(|p| p + offset));
            into.placements.resize_with(into.placements.len().max(from.placements.len()), Vec::new);
            for (into, from) in into.placements.iter_mut().zip(from.placements) {
                into.extend(from);
            }
        }
    }
}

/// The four routines of a round. Their order here is the order of the series in [`Samples`]
/// and of the batches of a round; a round runs them in a shuffled order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Routine {
    Candidate,
    CandidateTwin,
    Baseline,
    BaselineTwin,
}

impl Routine {
    /// Every routine, in the series' order.
    const ALL: [Routine; 4] = [Routine::Candidate, Routine::CandidateTwin, Routine::Baseline, Routine::BaselineTwin];

    /// The arm whose code the routine runs: 0 for the candidate, 1 for the baseline.
    fn arm(self) -> usize {
        match self {
            Routine::Candidate | Routine::CandidateTwin => 0,
            Routine::Baseline | Routine::BaselineTwin => 1,
        }
    }
}

/// Routines a round runs.
const ROUTINES: usize = Routine::ALL.len();

/// Collects interleaved rounds of both arms and their twins, stopping early when `stop` says
/// so: it is asked, with the rounds so far and the share, once the collection has spent each
/// share of the budget in `looks` (ascending) and has at least `min_rounds` rounds. What to stop
/// for is the caller's policy ([`crate::decide::Looks`]); a look passed over for want of rounds
/// is not asked later.
///
/// # Errors
/// [`Halt`] when an arm's batch could not run (see [`Arm::from_copies`]).
pub fn collect_until(
    candidate: &mut Arm<'_>,
    baseline: &mut Arm<'_>,
    options: &CollectOptions,
    looks: &[f64],
    mut stop: impl FnMut(&Samples, f64) -> bool,
) -> Result<Samples, Halt> {
    let mut rng = Dprng::new(options.seed);
    let mut looks = looks.iter().map(|&share| (share, options.budget.mul_f64(share))).peekable();
    warm_up(candidate, baseline, options)?;
    let iters = [options.candidate_iters.max(1), options.baseline_iters.max(1)];
    let mut samples = Samples { candidate_iters: iters[0], baseline_iters: iters[1], ..Samples::default() };
    let started = Instant::now();
    let mut position: u32 = 0;
    let mut order = Routine::ALL;
    let copies = [candidate.placements(), baseline.placements()];
    let mut heap = Heap::new();
    while !done(samples.rounds(), started.elapsed(), options) {
        let round_seed = rng.u64();
        let round = samples.rounds() as u64;
        rng.shuffle(&mut order);
        let mut batches = [Batch::default(); ROUTINES];
        // The round's layout, shared by its four batches like its inputs; set up before the
        // first and undone after the last, outside every metered region.
        let layout = Draw::new(options.layout, round_seed);
        heap.hold(&layout);
        for &routine in &order {
            batches[routine as usize] = layout
                .at_depth(|| run_routine(routine, candidate, baseline, iters, (round_seed, round), options.meter))?;
        }
        heap.release(&layout);
        // Record after the round so a round is either complete in all four series or absent.
        let series =
            [&mut samples.candidate, &mut samples.candidate_twin, &mut samples.baseline, &mut samples.baseline_twin];
        for (routine, series) in Routine::ALL.into_iter().zip(series) {
            let slot = order.iter().position(|&r| r == routine).unwrap_or(routine as usize) as u32;
            series.push(&batches[routine as usize], copies[routine.arm()], position + slot);
        }
        position += ROUTINES as u32;
        if let Some((share, _)) = looks.next_if(|(_, at)| started.elapsed() >= *at)
            && samples.rounds() >= options.min_rounds
            && stop(&samples, share)
        {
            break;
        }
        if let Some(progress) = options.progress {
            let by_time = started.elapsed().as_secs_f64() / options.budget.as_secs_f64().max(1e-9);
            let by_rounds = samples.rounds() as f64 / options.max_rounds.max(1) as f64;
            progress(by_time.max(by_rounds).min(1.0));
        }
    }
    Ok(samples)
}

fn done(rounds: usize, elapsed: Duration, options: &CollectOptions) -> bool {
    rounds >= options.max_rounds || (rounds >= options.min_rounds && elapsed >= options.budget)
}

/// Runs one routine; `iters` holds the candidate's and the baseline's batch sizes, `(seed,
/// round)` the round's input seed and number. All four share the round number, so when a batch
/// is too small to visit every placement copy, the four routines of a round run the same copies.
fn run_routine(
    routine: Routine,
    candidate: &mut Arm<'_>,
    baseline: &mut Arm<'_>,
    iters: [u64; 2],
    (seed, round): (u64, u64),
    meter: Meter,
) -> Result<Batch, Halt> {
    let iters = iters[routine.arm()];
    match routine {
        Routine::Candidate => candidate.run(iters, seed, round, meter),
        Routine::CandidateTwin => candidate.run_twin(iters, seed, round, meter),
        Routine::Baseline => baseline.run(iters, seed, round, meter),
        Routine::BaselineTwin => baseline.run_twin(iters, seed, round, meter),
    }
}

/// Runs all four routines round-robin, unrecorded, so caches, branch predictors and the CPU's
/// clock settle before the first recorded round (each round in a layout of its own, drawn from
/// its number, so the heap's free lists settle too).
fn warm_up(candidate: &mut Arm<'_>, baseline: &mut Arm<'_>, options: &CollectOptions) -> Result<(), Halt> {
    let started = Instant::now();
    let mut round = 0;
    let mut heap = Heap::new();
    while started.elapsed() < options.warmup {
        let layout = Draw::new(options.layout, round);
        heap.hold(&layout);
        for routine in Routine::ALL {
            let iters = [options.candidate_iters.max(1), options.baseline_iters.max(1)];
            layout.at_depth(|| run_routine(routine, candidate, baseline, iters, (0, round), options.meter))?;
        }
        heap.release(&layout);
        round += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_rounds_are_kept_as_a_collection_stopped_there_would_keep_them() {
        let mut samples = Samples::default();
        samples.candidate.per_op = vec![1.0, 2.0, 3.0];
        samples.candidate.position = vec![0, 4, 8];
        assert_eq!(samples.first(2).candidate.per_op, vec![1.0, 2.0]);
    }

    #[test]
    fn appended_rounds_continue_the_positions() {
        let mut first = Samples::default();
        first.candidate.per_op = vec![1.0];
        first.candidate.position = vec![2];
        let later = first.clone();
        first.append(later);
        assert_eq!((first.rounds(), first.candidate.position.clone()), (2, vec![2, 6]));
    }

    /// Interleaved rounds of both arms and their twins, without looks: the collection runs at
    /// least its minimum rounds.
    #[test]
    fn a_collection_without_looks_runs_its_rounds() {
        let mut a = Arm::from_fn("a", || std::hint::black_box(2u64) * 3);
        let mut b = Arm::from_fn("b", || std::hint::black_box(2u64) + 3);
        let options = CollectOptions {
            candidate_iters: 100,
            baseline_iters: 100,
            budget: Duration::from_millis(5),
            warmup: Duration::ZERO,
            min_rounds: 10,
            max_rounds: 50,
            seed: 1,
            meter: Meter::new(crate::Metric::Time),
            layout: Layout::Random,
            progress: None,
        };
        let samples = collect_until(&mut a, &mut b, &options, &[], |_, _| false).expect("local arms");
        assert!(samples.rounds() >= 10);
    }

    #[test]
    fn a_collection_stops_when_a_look_says_so() {
        let mut a = Arm::from_fn("a", || std::hint::black_box(2u64) * 3);
        let mut b = Arm::from_fn("b", || std::hint::black_box(2u64) + 3);
        let options = CollectOptions {
            candidate_iters: 100,
            baseline_iters: 100,
            budget: Duration::from_millis(200),
            warmup: Duration::ZERO,
            min_rounds: 10,
            max_rounds: 100_000,
            seed: 1,
            meter: Meter::new(crate::Metric::Time),
            layout: Layout::Fixed,
            progress: None,
        };
        let started = Instant::now();
        let samples =
            collect_until(&mut a, &mut b, &options, &[0.05], |samples, _| samples.rounds() >= 10).expect("local arms");
        assert!(samples.rounds() >= 10 && started.elapsed() < Duration::from_millis(150));
    }
}
