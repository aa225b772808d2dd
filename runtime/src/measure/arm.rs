//! One side of a comparison: a named batch routine in one or more placement copies, and the
//! second copy used for A/A checks.

use super::Meter;
use super::placement::{PLACEMENTS, copy_seed, split_batch};
use std::hint::black_box;

/// A generated batch routine: builds the batch's inputs from `seed` (and the size `arg`, for
/// comparisons with `args`), runs the measured operation `iters` times between a
/// `meter.start()` and a `meter.stop()`, and returns the metered total. The same `seed` gives
/// both arms of a round identical inputs.
///
/// The `#[compare]` attribute generates these in the user's crate, one per arm, copy and
/// placement, so both arms get the same loop compiled with the same information.
pub type BatchFn = fn(iters: u64, seed: u64, arg: u64, meter: Meter) -> u64;

/// One batch routine in its four placement copies at different code offsets (see
/// [`place`](super::place)), in offset order.
pub type Placed = [BatchFn; PLACEMENTS];

type Routine<'a> = Box<dyn FnMut(u64, u64, Meter) -> Result<u64, Halt> + 'a>;

/// A batch that could not run, which ends the measurement it belongs to. Only an arm whose
/// batches run elsewhere ([`Arm::from_copies`]) halts, and whoever built it knows why.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Halt;

/// What one batch measured: the metered total, and how it divided over the placement copies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Batch {
    /// The metered total over every copy, in the metric's unit.
    pub total: u64,
    /// Operations each copy ran (0 for copies the arm does not have, or that this batch was too
    /// small to reach).
    pub iters: [u64; PLACEMENTS],
    /// The metered total of each copy.
    pub totals: [u64; PLACEMENTS],
}

/// A named implementation under comparison.
///
/// An arm carries two routines: the primary one and a *twin*, a second copy of the same batch
/// loop that the A/A validation measures against the primary in the same rounds. The macro makes
/// the twin a distinct function at another address, so that the validation sees what code
/// placement alone does to timings. An arm built by hand without a twin reuses its primary
/// routine, and its A/A floor then cannot see placement effects.
///
/// The arms `#[compare]` registers come in several placement copies of each routine, the same
/// code at different offsets; a batch is then spread over all of them, so the arm's figures
/// average over code placement. An arm built here has one copy.
///
/// ```
/// use rtcompare::Arm;
/// let arm = Arm::from_fn("sum", || (0..100u64).sum::<u64>());
/// assert_eq!(arm.name(), "sum");
/// assert_eq!(arm.placements(), 1);
/// ```
pub struct Arm<'a> {
    name: String,
    primary: Vec<Routine<'a>>,
    twin: Option<Vec<Routine<'a>>>,
}

impl<'a> Arm<'a> {
    /// An arm from a batch routine `batch(iters, seed, meter)`: it builds the batch's inputs
    /// (from `seed`, the same for both arms of a round, when they are random), then runs the
    /// measured operation `iters` times between a [`Meter::start`] and a [`Meter::stop`], and
    /// returns the metered total. Whatever it does outside the two readings is not measured.
    /// Without [`with_twin`](Arm::with_twin) the A/A validation measures this routine against
    /// itself.
    ///
    /// ```
    /// use rtcompare::{Arm, Dprng, Meter};
    /// let sort = Arm::new("sort", |iters, seed, meter: Meter| {
    ///     let mut rng = Dprng::new(seed);
    ///     let mut inputs: Vec<Vec<u32>> = (0..iters).map(|_| rng.vec_u32(64)).collect();
    ///     let start = meter.start();
    ///     for input in &mut inputs {
    ///         input.sort_unstable();
    ///     }
    ///     meter.stop(start)
    /// });
    /// assert!(!sort.has_twin());
    /// ```
    pub fn new(name: impl Into<String>, batch: impl FnMut(u64, u64, Meter) -> u64 + 'a) -> Self {
        Arm { name: name.into(), primary: vec![never_halts(batch)], twin: None }
    }

    /// An arm from a plain operation: the batch loop calls `op` `iters` times, passing its
    /// result through [`black_box`]. Its twin is a clone of the same closure.
    ///
    /// ```
    /// use rtcompare::Arm;
    /// let data: Vec<u64> = (0..1_000).collect();
    /// let arm = Arm::from_fn("bisect", || data.binary_search(&std::hint::black_box(700)).ok());
    /// assert!(arm.has_twin());
    /// ```
    pub fn from_fn<R: 'a>(name: impl Into<String>, op: impl FnMut() -> R + Clone + 'a) -> Self {
        let twin = op.clone();
        Arm::new(name, timed_loop(op)).with_twin(timed_loop(twin))
    }

    /// An arm from generated batch routines in every placement copy, as `#[compare]` registers
    /// them, with the size `arg` bound.
    pub(crate) fn from_placed(name: impl Into<String>, primary: Placed, twin: Placed, arg: u64) -> Self {
        let routines = |copies: Placed| -> Vec<Routine<'a>> {
            copies
                .into_iter()
                .map(|batch| never_halts(move |iters, seed, meter| batch(iters, seed, arg, meter)))
                .collect()
        };
        Arm { name: name.into(), primary: routines(primary), twin: Some(routines(twin)) }
    }

    /// An arm from batch routines given as closures, one per placement copy, for the primary
    /// routine and its twin (`twin` must have as many copies as `primary`). Each closure runs
    /// `iters` operations of its copy and returns the metered total, or [`Halt`] when the batch
    /// cannot run; a comparison against a git revision builds its arms so, each closure running
    /// its batch in another process.
    pub(crate) fn from_copies<F>(name: impl Into<String>, primary: Vec<F>, twin: Vec<F>) -> Self
    where
        F: FnMut(u64, u64, Meter) -> Result<u64, Halt> + 'a,
    {
        let boxed = |copies: Vec<F>| -> Vec<Routine<'a>> {
            copies.into_iter().map(|copy| -> Routine<'a> { Box::new(copy) }).collect()
        };
        Arm { name: name.into(), primary: boxed(primary), twin: Some(boxed(twin)) }
    }

    /// Sets the twin routine measured against the primary one in the A/A validation: the same
    /// work as the primary routine, ideally a distinct copy of its code.
    ///
    /// ```
    /// use rtcompare::{Arm, Meter};
    /// fn batch(iters: u64, _seed: u64, meter: Meter) -> u64 {
    ///     let start = meter.start();
    ///     for i in 0..iters {
    ///         std::hint::black_box(i.pow(2));
    ///     }
    ///     meter.stop(start)
    /// }
    /// let arm = Arm::new("square", batch).with_twin(batch);
    /// assert!(arm.has_twin());
    /// ```
    pub fn with_twin(mut self, twin: impl FnMut(u64, u64, Meter) -> u64 + 'a) -> Self {
        self.twin = Some(vec![never_halts(twin)]);
        self
    }

    /// The arm's name.
    ///
    /// ```
    /// assert_eq!(rtcompare::Arm::from_fn("noop", || ()).name(), "noop");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether a distinct twin routine was given.
    ///
    /// ```
    /// use rtcompare::Arm;
    /// assert!(Arm::from_fn("noop", || ()).has_twin());
    /// assert!(!Arm::new("batch", |_, _, _| 0).has_twin());
    /// ```
    pub fn has_twin(&self) -> bool {
        self.twin.is_some()
    }

    /// How many placement copies each routine has (1 for arms built by hand).
    ///
    /// ```
    /// assert_eq!(rtcompare::Arm::from_fn("noop", || ()).placements(), 1);
    /// ```
    pub fn placements(&self) -> usize {
        self.primary.len()
    }

    /// Runs one batch of the primary routine, spread over its copies; `rotation` (the round
    /// number) picks which copies run the remainder of an uneven split.
    ///
    /// # Errors
    /// [`Halt`] when a copy could not run (only an arm built with [`Arm::from_copies`] halts).
    pub(crate) fn run(&mut self, iters: u64, seed: u64, rotation: u64, meter: Meter) -> Result<Batch, Halt> {
        run_spread(&mut self.primary, iters, seed, rotation, meter)
    }

    /// Runs one batch of the twin routine (the primary one when there is no twin).
    ///
    /// # Errors
    /// [`Halt`] as for [`Arm::run`].
    pub(crate) fn run_twin(&mut self, iters: u64, seed: u64, rotation: u64, meter: Meter) -> Result<Batch, Halt> {
        match self.twin.as_mut() {
            Some(twin) => run_spread(twin, iters, seed, rotation, meter),
            None => run_spread(&mut self.primary, iters, seed, rotation, meter),
        }
    }
}

impl std::fmt::Debug for Arm<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arm")
            .field("name", &self.name)
            .field("has_twin", &self.has_twin())
            .field("placements", &self.placements())
            .finish()
    }
}

fn run_spread(copies: &mut [Routine<'_>], iters: u64, seed: u64, rotation: u64, meter: Meter) -> Result<Batch, Halt> {
    let split = split_batch(iters, copies.len(), rotation);
    let mut batch = Batch { iters: split, ..Batch::default() };
    for (k, routine) in copies.iter_mut().enumerate().take(PLACEMENTS) {
        if split[k] > 0 {
            batch.totals[k] = routine(split[k], copy_seed(seed, k), meter)?;
            batch.total = batch.total.saturating_add(batch.totals[k]);
        }
    }
    Ok(batch)
}

/// A routine of a batch that runs here, which cannot halt.
fn never_halts<'a>(mut batch: impl FnMut(u64, u64, Meter) -> u64 + 'a) -> Routine<'a> {
    Box::new(move |iters, seed, meter| Ok(batch(iters, seed, meter)))
}

fn timed_loop<R>(mut op: impl FnMut() -> R) -> impl FnMut(u64, u64, Meter) -> u64 {
    move |iters, _seed, meter| {
        let start = meter.start();
        for _ in 0..iters {
            black_box(op());
        }
        meter.stop(start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Setup;
    use crate::measure::place;
    use rtcompare_judge::Dprng;
    use rtcompare_judge::measure::Metric;
    use std::cell::RefCell;

    #[test]
    fn an_arm_of_copies_spreads_a_batch_over_them() {
        let copy = |iters: u64, _seed: u64, _meter: Meter| if iters > 0 { Ok(iters * 10) } else { Err(Halt) };
        let mut arm = Arm::from_copies("remote", vec![copy; 4], vec![copy; 4]);
        assert_eq!(arm.placements(), 4);
        assert_eq!(arm.run(8, 1, 0, Meter::new(Metric::Time)).map(|batch| batch.total), Ok(80));
        let halting = |_iters: u64, _seed: u64, _meter: Meter| Err(Halt);
        let mut gone = Arm::from_copies("gone", vec![halting; 4], vec![halting; 4]);
        assert_eq!(gone.run_twin(8, 1, 0, Meter::new(Metric::Time)), Err(Halt));
    }

    thread_local! {
        static SEEN: RefCell<Vec<(&'static str, Vec<u32>)>> = const { RefCell::new(Vec::new()) };
    }

    fn take(arm: &str) -> Vec<Vec<u32>> {
        SEEN.with(|seen| {
            let mut seen = seen.borrow_mut();
            let (taken, kept): (Vec<_>, Vec<_>) = seen.drain(..).partition(|(a, _)| *a == arm);
            *seen = kept;
            taken.into_iter().map(|(_, input)| input).collect()
        })
    }

    fn random_input(rng: &mut Dprng) -> Vec<u32> {
        rng.vec_u32(8)
    }

    /// A batch loop as `#[compare(setup = random_input)]` generates it for a function taking
    /// `&mut [u32]` (`macros/src/expand.rs`): placed, inputs built from the seed before the
    /// clock starts, each call recording the input it receives.
    fn sort_loop<const P: usize>(arm: &'static str, iters: u64, seed: u64, meter: Meter) -> u64 {
        place::<P>();
        let mut rng = Dprng::new(seed);
        let mut inputs: Vec<Vec<u32>> = (0..iters).map(|_| Setup::build(&random_input, &mut rng)).collect();
        let start = meter.start();
        for input in &mut inputs {
            SEEN.with(|seen| seen.borrow_mut().push((arm, input.clone())));
            input.sort();
        }
        meter.stop(start)
    }

    fn candidate<const P: usize>(iters: u64, seed: u64, _arg: u64, meter: Meter) -> u64 {
        sort_loop::<P>("candidate", iters, seed, meter)
    }

    fn baseline<const P: usize>(iters: u64, seed: u64, _arg: u64, meter: Meter) -> u64 {
        sort_loop::<P>("baseline", iters, seed, meter)
    }

    /// Moved from the facade's `tests/inputs.rs`, which checks the generated loops themselves.
    #[test]
    fn an_arm_spreads_a_batch_over_its_placement_copies_with_the_same_inputs_in_both_arms() {
        let meter = Meter::new(Metric::Time);
        let candidates: Placed = [candidate::<0>, candidate::<1>, candidate::<2>, candidate::<3>];
        let baselines: Placed = [baseline::<0>, baseline::<1>, baseline::<2>, baseline::<3>];
        let mut candidate = Arm::from_placed("c", candidates, candidates, 0);
        let mut baseline = Arm::from_placed("b", baselines, baselines, 0);
        let batch = candidate.run(10, 3, 0, meter).expect("local arms never halt");
        baseline.run(10, 3, 0, meter).expect("local arms never halt");
        assert_eq!(batch.iters, [3, 3, 2, 2], "ten calls over four copies");
        let (c, b) = (take("candidate"), take("baseline"));
        assert_eq!(c.len(), 10);
        assert_eq!(c, b, "the arms saw different inputs");
        // Each copy draws its inputs from its own seed: the copies do not repeat one another.
        assert_ne!(c[0], c[3], "the second copy repeated the first copy's inputs");
    }
}
