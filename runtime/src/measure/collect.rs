//! Interleaved collection: rounds of {candidate, candidate twin, baseline, baseline twin} in an
//! order drawn from a seeded generator, until the time budget is spent.

use super::layout::{Draw, Heap};
use super::{Arm, Batch, Halt, Meter, Options};
use rtcompare_judge::Dprng;
use rtcompare_judge::measure::{Calibration, Samples, Series};
use std::iter::Peekable;
use std::time::{Duration, Instant};

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

/// A collection of interleaved rounds of both arms and their twins, under way: started by
/// [`Collection::start`], it runs rounds until the budget is spent and yields at each look
/// ([`Collection::next_look`]), so that what stops it early is the caller's policy
/// ([`rtcompare_judge::decide::Looks`]), applied between rounds.
pub(crate) struct Collection<'r, 'c, 'b> {
    candidate: &'r mut Arm<'c>,
    baseline: &'r mut Arm<'b>,
    options: &'r Options,
    meter: Meter,
    /// Operations per batch of each arm, from calibration.
    iters: [u64; 2],
    /// The shares of the budget at which to look, each with the time it is reached, ascending.
    looks: Peekable<std::vec::IntoIter<(f64, Duration)>>,
    /// The round order's and the rounds' input seeds' generator.
    rng: Dprng,
    samples: Samples,
    started: Instant,
    /// The next batch's position in the overall measurement order.
    position: u32,
    order: [Routine; ROUTINES],
    heap: Heap,
}

impl<'r, 'c, 'b> Collection<'r, 'c, 'b> {
    /// Warms both arms up for a twentieth of `options.budget`, unrecorded, with the batch sizes
    /// of `calibration`, then starts the rounds, to be looked at once each share of the budget in
    /// `looks` (ascending) is spent.
    ///
    /// # Errors
    /// [`Halt`] when an arm's batch could not run (see [`Arm::from_copies`]).
    pub(crate) fn start(
        candidate: &'r mut Arm<'c>,
        baseline: &'r mut Arm<'b>,
        options: &'r Options,
        calibration: &Calibration,
        looks: &[f64],
    ) -> Result<Self, Halt> {
        let rng = Dprng::new(options.judge.seed);
        let looks: Vec<(f64, Duration)> = looks.iter().map(|&share| (share, options.budget.mul_f64(share))).collect();
        let meter = Meter::new(options.metric);
        let iters = [calibration.candidate_iters.max(1), calibration.baseline_iters.max(1)];
        warm_up(candidate, baseline, iters, options, meter)?;
        Ok(Collection {
            candidate,
            baseline,
            options,
            meter,
            iters,
            looks: looks.into_iter().peekable(),
            rng,
            samples: Samples { candidate_iters: iters[0], baseline_iters: iters[1], ..Samples::default() },
            started: Instant::now(),
            position: 0,
            order: Routine::ALL,
            heap: Heap::new(),
        })
    }

    /// Runs rounds until the next look is due, and returns its share of the budget and the
    /// rounds so far; `None` once the collection is done (the budget spent, or the most rounds
    /// collected). A look that falls due before the collection has `min_rounds` rounds is passed
    /// over.
    ///
    /// # Errors
    /// [`Halt`] when an arm's batch could not run.
    pub(crate) fn next_look(&mut self) -> Result<Option<(f64, &Samples)>, Halt> {
        while !self.done() {
            self.round()?;
            if let Some(progress) = self.options.progress {
                let by_time = self.started.elapsed().as_secs_f64() / self.options.budget.as_secs_f64().max(1e-9);
                let by_rounds = self.samples.rounds() as f64 / self.options.rounds_cap().max(1) as f64;
                progress(by_time.max(by_rounds).min(1.0));
            }
            let started = self.started;
            if let Some((share, _)) = self.looks.next_if(|(_, at)| started.elapsed() >= *at)
                && self.samples.rounds() >= self.options.min_rounds
            {
                return Ok(Some((share, &self.samples)));
            }
        }
        Ok(None)
    }

    /// The rounds collected.
    pub(crate) fn into_samples(self) -> Samples {
        self.samples
    }

    /// Whether the collection has the most rounds, or its least and the budget spent.
    fn done(&self) -> bool {
        let (rounds, options) = (self.samples.rounds(), self.options);
        rounds >= options.rounds_cap() || (rounds >= options.min_rounds && self.started.elapsed() >= options.budget)
    }

    /// One round: the four routines in a shuffled order, at a layout of the round's own, each
    /// recorded after the round so that a round is either complete in all four series or absent.
    fn round(&mut self) -> Result<(), Halt> {
        let round_seed = self.rng.u64();
        let round = self.samples.rounds() as u64;
        self.rng.shuffle(&mut self.order);
        let mut batches = [Batch::default(); ROUTINES];
        // The round's layout, shared by its four batches like its inputs; set up before the
        // first and undone after the last, outside every metered region.
        let layout = Draw::new(self.options.layout, round_seed);
        self.heap.hold(&layout);
        for &routine in &self.order {
            let arms = (&mut *self.candidate, &mut *self.baseline);
            batches[routine as usize] = layout
                .at_depth(|| run_routine(routine, arms.0, arms.1, self.iters, (round_seed, round), self.meter))?;
        }
        self.heap.release(&layout);
        let copies = [self.candidate.placements(), self.baseline.placements()];
        let samples = &mut self.samples;
        let series =
            [&mut samples.candidate, &mut samples.candidate_twin, &mut samples.baseline, &mut samples.baseline_twin];
        for (routine, series) in Routine::ALL.into_iter().zip(series) {
            let slot = self.order.iter().position(|&r| r == routine).unwrap_or(routine as usize) as u32;
            record(series, &batches[routine as usize], copies[routine.arm()], self.position + slot);
        }
        self.position += ROUTINES as u32;
        Ok(())
    }
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
/// its number, so the heap's free lists settle too), for a twentieth of the budget.
fn warm_up(
    candidate: &mut Arm<'_>,
    baseline: &mut Arm<'_>,
    iters: [u64; 2],
    options: &Options,
    meter: Meter,
) -> Result<(), Halt> {
    let started = Instant::now();
    let mut round = 0;
    let mut heap = Heap::new();
    while started.elapsed() < options.budget / 20 {
        let layout = Draw::new(options.layout, round);
        heap.hold(&layout);
        for routine in Routine::ALL {
            layout.at_depth(|| run_routine(routine, candidate, baseline, iters, (0, round), meter))?;
        }
        heap.release(&layout);
        round += 1;
    }
    Ok(())
}

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
    use crate::measure::Layout;

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

    /// Batches of 100 operations for both arms.
    fn hundred() -> Calibration {
        Calibration {
            resolution: 1.0,
            clock_step_ns: 1.0,
            candidate_iters: 100,
            baseline_iters: 100,
            target_batch_ns: 1e5,
            candidate_batch_ns: 1e5,
            baseline_batch_ns: 1e5,
            first_call_ns: 0.0,
        }
    }

    /// Interleaved rounds of both arms and their twins, without looks: the collection runs at
    /// least its minimum rounds.
    #[test]
    fn a_collection_without_looks_runs_its_rounds() {
        let mut a = Arm::from_fn("a", || std::hint::black_box(2u64) * 3);
        let mut b = Arm::from_fn("b", || std::hint::black_box(2u64) + 3);
        let options = Options { budget: Duration::from_millis(5), max_rounds: 50, ..Options::default() };
        let mut collection = Collection::start(&mut a, &mut b, &options, &hundred(), &[]).expect("local arms");
        assert_eq!(collection.next_look().expect("local arms"), None);
        assert!(collection.into_samples().rounds() >= 10);
    }

    #[test]
    fn a_collection_yields_at_its_look_and_goes_on_when_asked() {
        let mut a = Arm::from_fn("a", || std::hint::black_box(2u64) * 3);
        let mut b = Arm::from_fn("b", || std::hint::black_box(2u64) + 3);
        // No least number of rounds, so the look is never passed over however slow the machine.
        let options = Options {
            budget: Duration::from_millis(100),
            min_rounds: 0,
            max_rounds: 10_000_000,
            layout: Layout::Fixed,
            ..Options::default()
        };
        let mut collection = Collection::start(&mut a, &mut b, &options, &hundred(), &[0.05]).expect("local arms");
        let (share, at_look) = collection.next_look().expect("local arms").expect("a look at 5 % of the budget");
        let at_look = at_look.rounds();
        assert!(share == 0.05 && at_look >= 1, "{share} {at_look}");
        assert_eq!(collection.next_look().expect("local arms"), None, "one look only");
        assert!(collection.into_samples().rounds() >= at_look);
    }
}
