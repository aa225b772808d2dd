//! What the unit tests share: a `Serve` that runs a routine's batches the way the engine does,
//! in all eight loops, and counters the test closures update.

use crate::Bencher;
use crate::engine::Routine;
use rtcompare::{Meter, Metric};
use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

/// Every (copy, twin) pair the engine asks for.
pub(crate) const PAIRS: [(usize, bool); 8] =
    [(0, false), (1, false), (2, false), (3, false), (0, true), (1, true), (2, true), (3, true)];

/// How long a deliberately slow setup, drop or routine sleeps: long beside a trivial routine's
/// nanoseconds, so a 10× margin either way is far from any timing noise.
pub(crate) const SLEEP: Duration = Duration::from_millis(2);

/// Batch sizes for the tests that sleep in setup or drop: few enough calls of `SLEEP` to stay
/// quick, and one size over ten so `SmallInput` cuts it into several chunks.
pub(crate) const FEW_SLOW: [u64; 2] = [3, 12];

/// A shared counter, cloned into test closures.
#[derive(Clone, Default)]
pub(crate) struct Counter(Rc<Cell<u64>>);

impl Counter {
    pub(crate) fn bump(&self) {
        self.0.set(self.0.get() + 1);
    }
    pub(crate) fn get(&self) -> u64 {
        self.0.get()
    }
    pub(crate) fn reset(&self) {
        self.0.set(0);
    }
}

/// One batch the test serve ran: its placement, size and metered total.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Batch {
    pub(crate) copy: usize,
    pub(crate) twin: bool,
    pub(crate) iters: u64,
    pub(crate) total: u64,
}

/// Runs `bench` with a bencher whose serve runs, for each of `iters` and each (copy, twin)
/// pair, one batch under a fresh meter of `metric`, calling `before` ahead of each batch and
/// `after` behind it. Checks the bencher served exactly one routine.
pub(crate) fn drive(
    metric: Metric,
    iters: &[u64],
    bench: impl FnOnce(&mut Bencher<'_>),
    mut before: impl FnMut(),
    mut after: impl FnMut(Batch),
) {
    let mut served = 0;
    let mut serve = |routine: &mut dyn Routine| {
        served += 1;
        for &n in iters {
            for (copy, twin) in PAIRS {
                before();
                let total = routine.batch(copy, twin, n, Meter::new(metric));
                after(Batch { copy, twin, iters: n, total });
            }
        }
    };
    let mut bencher = Bencher::new(&mut serve);
    bench(&mut bencher);
    assert!(bencher.iterated());
    assert_eq!(served, 1, "each iter method hands the engine exactly one routine");
}

/// Drives `bench` in time, checking after each batch that `calls` (reset before it) counted
/// exactly its `iters`, and returns the batches run.
pub(crate) fn drive_counting(iters: &[u64], calls: &Counter, bench: impl FnOnce(&mut Bencher<'_>)) -> Vec<Batch> {
    let mut batches = Vec::new();
    drive(
        Metric::Time,
        iters,
        bench,
        || calls.reset(),
        |batch| {
            assert_eq!(calls.get(), batch.iters, "calls in {batch:?}");
            batches.push(batch);
        },
    );
    batches
}

/// The nanoseconds of `SLEEP` × `iters`: what a batch would at least measure had each sleep
/// been inside the meter.
pub(crate) fn slept(iters: u64) -> u64 {
    u64::try_from(SLEEP.as_nanos()).unwrap_or(u64::MAX) * iters
}
