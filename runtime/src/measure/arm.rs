//! One side of a comparison: a named batch routine, and the second copy used for A/A checks.

use super::Meter;
use std::hint::black_box;

/// A generated batch routine: builds the batch's inputs from `seed` (and the size `arg`, for
/// comparisons with `args`), runs the measured operation `iters` times between a
/// `meter.start()` and a `meter.stop()`, and returns the metered total. The same `seed` gives
/// both arms of a round identical inputs.
///
/// The `#[compare]` attribute generates these in the user's crate, one per arm and copy, so both
/// arms get the same loop compiled with the same information.
pub type BatchFn = fn(iters: u64, seed: u64, arg: u64, meter: Meter) -> u64;

type Routine<'a> = Box<dyn FnMut(u64, u64, Meter) -> u64 + 'a>;

/// A named implementation under comparison.
///
/// An arm carries two routines: the primary one and a *twin*, a second copy of the same batch
/// loop that the A/A validation measures against the primary in the same rounds. The macro makes
/// the twin a distinct function at another address, so that the validation sees what code
/// placement alone does to timings. An arm built by hand without a twin reuses its primary
/// routine, and its A/A floor then cannot see placement effects.
///
/// ```
/// use rtcompare_runtime::measure::Arm;
/// let arm = Arm::from_fn("sum", || (0..100u64).sum::<u64>());
/// assert_eq!(arm.name(), "sum");
/// ```
pub struct Arm<'a> {
    name: String,
    primary: Routine<'a>,
    twin: Option<Routine<'a>>,
}

impl<'a> Arm<'a> {
    /// An arm from a batch routine (see [`BatchFn`] for the contract).
    pub fn new(name: impl Into<String>, batch: impl FnMut(u64, u64, Meter) -> u64 + 'a) -> Self {
        Arm { name: name.into(), primary: Box::new(batch), twin: None }
    }

    /// An arm from a plain operation: the batch loop calls `op` `iters` times, passing its
    /// result through [`black_box`]. Its twin is a clone of the same closure.
    pub fn from_fn<R: 'a>(name: impl Into<String>, op: impl FnMut() -> R + Clone + 'a) -> Self {
        let twin = op.clone();
        Arm::new(name, timed_loop(op)).with_twin(timed_loop(twin))
    }

    /// An arm from generated batch routines (primary and twin), with the size `arg` bound.
    pub fn from_batches(name: impl Into<String>, primary: BatchFn, twin: BatchFn, arg: u64) -> Self {
        Arm::new(name, move |iters, seed, meter| primary(iters, seed, arg, meter))
            .with_twin(move |iters, seed, meter| twin(iters, seed, arg, meter))
    }

    /// Sets the twin routine measured against the primary one in the A/A validation.
    pub fn with_twin(mut self, twin: impl FnMut(u64, u64, Meter) -> u64 + 'a) -> Self {
        self.twin = Some(Box::new(twin));
        self
    }

    /// The arm's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether a distinct twin routine was given.
    pub fn has_twin(&self) -> bool {
        self.twin.is_some()
    }

    /// Runs one batch of the primary routine.
    pub fn run(&mut self, iters: u64, seed: u64, meter: Meter) -> u64 {
        (self.primary)(iters, seed, meter)
    }

    /// Runs one batch of the twin routine (the primary one when there is no twin).
    pub fn run_twin(&mut self, iters: u64, seed: u64, meter: Meter) -> u64 {
        match self.twin.as_mut() {
            Some(twin) => twin(iters, seed, meter),
            None => (self.primary)(iters, seed, meter),
        }
    }
}

impl std::fmt::Debug for Arm<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arm").field("name", &self.name).field("has_twin", &self.has_twin()).finish()
    }
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
