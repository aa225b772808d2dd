//! Interleaved collection: rounds of {candidate, candidate twin, baseline, baseline twin} in an
//! order drawn from a seeded generator, until the time budget is spent.

use super::layout::{Draw, Heap};
use super::{Arm, Batch, Halt, Layout, Meter, Samples, Series};
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
            record(series, &batches[routine as usize], copies[routine.arm()], position + slot);
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

/// Adds one batch to its routine's series: its per-op value, its position in the measurement
/// order, and each placement copy's own per-op value when the routine has several.
fn record(series: &mut Series, batch: &Batch, copies: usize, position: u32) {
    let iters: u64 = batch.iters.iter().sum();
    series.per_op.push(batch.total as f64 / iters.max(1) as f64);
    series.position.push(position);
    if copies > 1 {
        series.placements.resize_with(copies, Vec::new);
        for (k, values) in series.placements.iter_mut().enumerate() {
            if batch.iters[k] > 0 {
                values.push(batch.totals[k] as f64 / batch.iters[k] as f64);
            }
        }
    }
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
