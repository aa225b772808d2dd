//! [`AsyncBencher`]: [`Bencher`]'s timing loops for async routines (feature `async`).
//!
//! Each batch is one `block_on` of the executor: the meter starts and stops inside the future,
//! around the loop of awaits, as in criterion. Setup runs inside the future too, outside the
//! meter. The loops mirror `bencher.rs`'s, one for one.

use crate::BatchSize;
use crate::async_executor::AsyncExecutor;
use crate::bencher::{Bencher, capacity, custom_nanos, custom_needs_time};
use crate::engine::Routine;
use crate::measurement::{Measurement, WallTime};
use crate::placement::{enter, placed};
use rtcompare::Meter;
use std::future::Future;
use std::hint::black_box;
use std::marker::PhantomData;

/// [`Bencher`] for async routines, from [`Bencher::to_async`]: the same timing loops, each
/// routine returning a future that `runner` runs to completion.
///
/// ```
/// # #[cfg(feature = "async_futures")]
/// # {
/// use rtcompare_criterion::async_executor::FuturesExecutor;
/// use rtcompare_criterion::{BatchSize, Bencher};
///
/// async fn double(x: u64) -> u64 {
///     x * 2
/// }
///
/// fn bench(b: &mut Bencher) {
///     b.to_async(FuturesExecutor).iter_batched(|| 21, double, BatchSize::SmallInput);
/// }
/// # }
/// ```
pub struct AsyncBencher<'a, 'b, A: AsyncExecutor, M: Measurement = WallTime> {
    b: &'b mut Bencher<'a, M>,
    runner: A,
}

impl<'a, 'b, A: AsyncExecutor, M: Measurement> AsyncBencher<'a, 'b, A, M> {
    pub(crate) fn new(b: &'b mut Bencher<'a, M>, runner: A) -> AsyncBencher<'a, 'b, A, M> {
        AsyncBencher { b, runner }
    }

    /// [`Bencher::iter`] for a routine returning a future: each output dropped inside the
    /// meter.
    pub fn iter<O, R, F>(&mut self, routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        let AsyncBencher { b, runner } = self;
        b.serve(&mut AsyncIter { runner, routine });
    }

    /// [`Bencher::iter_custom`] for a routine returning a future of the time it took.
    ///
    /// # Panics
    ///
    /// When the benchmark is measured in a metric other than time.
    pub fn iter_custom<R, F>(&mut self, routine: R)
    where
        R: FnMut(u64) -> F,
        F: Future<Output = M::Value>,
    {
        let AsyncBencher { b, runner } = self;
        b.serve(&mut AsyncCustom::<A, M, R> { runner, routine, measurement: PhantomData });
    }

    /// [`iter_batched`](Self::iter_batched) with [`BatchSize::PerIteration`], as in criterion.
    pub fn iter_with_setup<I, O, S, R, F>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// [`Bencher::iter_with_large_drop`] for a routine returning a future: outputs dropped
    /// after the meter stops.
    pub fn iter_with_large_drop<O, R, F>(&mut self, routine: R)
    where
        R: FnMut() -> F,
        F: Future<Output = O>,
    {
        let AsyncBencher { b, runner } = self;
        b.serve(&mut AsyncLargeDrop { runner, routine });
    }

    /// [`iter_batched`](Self::iter_batched) with all of a batch's inputs built at once
    /// ([`BatchSize::NumBatches`]`(1)`), as in criterion.
    pub fn iter_with_large_setup<I, O, S, R, F>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        self.iter_batched(setup, routine, BatchSize::NumBatches(1));
    }

    /// [`Bencher::iter_batched`] for a routine returning a future.
    pub fn iter_batched<I, O, S, R, F>(&mut self, setup: S, routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> F,
        F: Future<Output = O>,
    {
        let AsyncBencher { b, runner } = self;
        b.serve(&mut AsyncBatched { runner, setup, routine, size });
    }

    /// [`Bencher::iter_batched_ref`] for a routine returning a future.
    pub fn iter_batched_ref<I, O, S, R, F>(&mut self, setup: S, routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> F,
        F: Future<Output = O>,
    {
        let AsyncBencher { b, runner } = self;
        b.serve(&mut AsyncBatchedRef { runner, setup, routine, size });
    }
}

/// `AsyncBencher::iter`'s routine.
struct AsyncIter<'r, A, R> {
    runner: &'r A,
    routine: R,
}

impl<A: AsyncExecutor, O, F: Future<Output = O>, R: FnMut() -> F> AsyncIter<'_, A, R> {
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, meter: Meter) -> u64 {
        let routine = &mut self.routine;
        self.runner.block_on(async move {
            enter::<COPY, TWIN>();
            let start = meter.start();
            for _ in 0..iters {
                black_box(routine().await);
            }
            meter.stop(start)
        })
    }
}

impl<A: AsyncExecutor, O, F: Future<Output = O>, R: FnMut() -> F> Routine for AsyncIter<'_, A, R> {
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        placed!(copy, twin, self.timed(iters, meter))
    }
}

/// `AsyncBencher::iter_with_large_drop`'s routine.
struct AsyncLargeDrop<'r, A, R> {
    runner: &'r A,
    routine: R,
}

impl<A: AsyncExecutor, O, F: Future<Output = O>, R: FnMut() -> F> AsyncLargeDrop<'_, A, R> {
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, meter: Meter) -> u64 {
        let routine = &mut self.routine;
        self.runner.block_on(async move {
            enter::<COPY, TWIN>();
            let mut outputs = Vec::with_capacity(capacity(iters));
            let start = meter.start();
            for _ in 0..iters {
                outputs.push(routine().await);
            }
            let total = meter.stop(start);
            drop(black_box(outputs));
            total
        })
    }
}

impl<A: AsyncExecutor, O, F: Future<Output = O>, R: FnMut() -> F> Routine for AsyncLargeDrop<'_, A, R> {
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        placed!(copy, twin, self.timed(iters, meter))
    }
}

/// `AsyncBencher::iter_custom`'s routine.
struct AsyncCustom<'r, A, M, R> {
    runner: &'r A,
    routine: R,
    measurement: PhantomData<fn() -> M>,
}

impl<A: AsyncExecutor, M: Measurement, F: Future<Output = M::Value>, R: FnMut(u64) -> F> AsyncCustom<'_, A, M, R> {
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, meter: Meter) -> u64 {
        let routine = &mut self.routine;
        self.runner.block_on(async move {
            enter::<COPY, TWIN>();
            // As in the sync loop, the routine's own Duration is the total.
            let start = meter.start();
            let value = routine(iters).await;
            meter.stop(start);
            custom_nanos::<M>(&value)
        })
    }
}

impl<A: AsyncExecutor, M: Measurement, F: Future<Output = M::Value>, R: FnMut(u64) -> F> Routine
    for AsyncCustom<'_, A, M, R>
{
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        custom_needs_time(meter);
        placed!(copy, twin, self.timed(iters, meter))
    }
}

/// `AsyncBencher::iter_batched`'s routine.
struct AsyncBatched<'r, A, S, R> {
    runner: &'r A,
    setup: S,
    routine: R,
    size: BatchSize,
}

impl<A: AsyncExecutor, I, O, F: Future<Output = O>, S: FnMut() -> I, R: FnMut(I) -> F> AsyncBatched<'_, A, S, R> {
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, chunk: u64, meter: Meter) -> u64 {
        let AsyncBatched { runner, setup, routine, .. } = self;
        runner.block_on(async move {
            enter::<COPY, TWIN>();
            let mut total = 0u64;
            if chunk == 1 {
                for _ in 0..iters {
                    let input = black_box(setup());
                    let start = meter.start();
                    let output = routine(input).await;
                    total = total.saturating_add(meter.stop(start));
                    drop(black_box(output));
                }
                return total;
            }
            let mut done = 0;
            while done < iters {
                let n = chunk.min(iters - done);
                let mut inputs = black_box((0..n).map(|_| setup()).collect::<Vec<I>>());
                let mut outputs = Vec::with_capacity(capacity(n));
                let start = meter.start();
                // `drain` leaves the inputs' buffer with us, to be freed after the meter stops.
                for input in inputs.drain(..) {
                    outputs.push(routine(input).await);
                }
                total = total.saturating_add(meter.stop(start));
                drop(black_box(outputs));
                drop(inputs);
                done += n;
            }
            total
        })
    }
}

impl<A: AsyncExecutor, I, O, F: Future<Output = O>, S: FnMut() -> I, R: FnMut(I) -> F> Routine
    for AsyncBatched<'_, A, S, R>
{
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        let chunk = self.size.iters_per_batch(iters);
        placed!(copy, twin, self.timed(iters, chunk, meter))
    }
}

/// `AsyncBencher::iter_batched_ref`'s routine.
struct AsyncBatchedRef<'r, A, S, R> {
    runner: &'r A,
    setup: S,
    routine: R,
    size: BatchSize,
}

impl<A: AsyncExecutor, I, O, F: Future<Output = O>, S: FnMut() -> I, R: FnMut(&mut I) -> F>
    AsyncBatchedRef<'_, A, S, R>
{
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, chunk: u64, meter: Meter) -> u64 {
        let AsyncBatchedRef { runner, setup, routine, .. } = self;
        runner.block_on(async move {
            enter::<COPY, TWIN>();
            let mut total = 0u64;
            if chunk == 1 {
                for _ in 0..iters {
                    let mut input = black_box(setup());
                    let start = meter.start();
                    let output = routine(&mut input).await;
                    total = total.saturating_add(meter.stop(start));
                    drop(black_box(output));
                    drop(black_box(input));
                }
                return total;
            }
            let mut done = 0;
            while done < iters {
                let n = chunk.min(iters - done);
                let mut inputs = black_box((0..n).map(|_| setup()).collect::<Vec<I>>());
                let mut outputs = Vec::with_capacity(capacity(n));
                let start = meter.start();
                for input in inputs.iter_mut() {
                    outputs.push(routine(input).await);
                }
                total = total.saturating_add(meter.stop(start));
                drop(black_box(outputs));
                drop(black_box(inputs));
                done += n;
            }
            total
        })
    }
}

impl<A: AsyncExecutor, I, O, F: Future<Output = O>, S: FnMut() -> I, R: FnMut(&mut I) -> F> Routine
    for AsyncBatchedRef<'_, A, S, R>
{
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        let chunk = self.size.iters_per_batch(iters);
        placed!(copy, twin, self.timed(iters, chunk, meter))
    }
}

#[cfg(test)]
mod tests {
    use crate::BatchSize;
    use crate::async_executor::AsyncExecutor;
    use crate::testing::{Batch, Counter, FEW_SLOW, SLEEP, drive, drive_counting, slept};
    use rtcompare::Metric;
    use std::cell::{Cell, RefCell};
    use std::future::Future;
    use std::pin::pin;
    use std::rc::Rc;
    use std::task::{Context, Poll, Waker};
    use std::thread::sleep;
    use std::time::Duration;

    const ITERS: [u64; 6] = [0, 1, 9, 11, 100, 1_001];

    /// Polls until ready, counting its `block_on` calls.
    #[derive(Default)]
    struct Spin {
        runs: Cell<u64>,
    }

    impl AsyncExecutor for &Spin {
        fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
            self.runs.set(self.runs.get() + 1);
            let mut future = pin!(future);
            let mut cx = Context::from_waker(Waker::noop());
            loop {
                if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
                    return value;
                }
            }
        }
    }

    /// A future that is pending once before it is ready, so every await really suspends.
    async fn yield_once() {
        let mut yielded = false;
        std::future::poll_fn(|cx| {
            if yielded {
                Poll::Ready(())
            } else {
                yielded = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        })
        .await;
    }

    #[test]
    fn iter_awaits_the_routine_iters_times_in_one_block_on_per_batch() {
        let spin = Spin::default();
        let calls = Counter::default();
        let c = calls.clone();
        let batches = drive_counting(&ITERS, &calls, |b| {
            b.to_async(&spin).iter(|| {
                let c = c.clone();
                async move {
                    yield_once().await;
                    c.bump();
                }
            });
        });
        assert_eq!(spin.runs.get(), batches.len() as u64);
    }

    #[test]
    fn iter_batched_and_ref_call_setup_and_routine_iters_times() {
        for size in [BatchSize::SmallInput, BatchSize::PerIteration, BatchSize::NumIterations(4)] {
            let spin = Spin::default();
            let (setups, calls) = (Counter::default(), Counter::default());
            let (s, c) = (setups.clone(), calls.clone());
            let batches = drive_counting(&ITERS, &calls, |b| {
                b.to_async(&spin).iter_batched(
                    || {
                        s.bump();
                        3u64
                    },
                    |input| {
                        let c = c.clone();
                        async move {
                            yield_once().await;
                            c.bump();
                            input
                        }
                    },
                    size,
                );
            });
            assert_eq!(setups.get(), batches.iter().map(|batch| batch.iters).sum::<u64>(), "{size:?}");

            setups.reset();
            let (s, c) = (setups.clone(), calls.clone());
            let batches = drive_counting(&ITERS, &calls, |b| {
                b.to_async(&spin).iter_batched_ref(
                    || {
                        s.bump();
                        vec![0u8]
                    },
                    |input: &mut Vec<u8>| {
                        input.push(1);
                        c.bump();
                        yield_once()
                    },
                    size,
                );
            });
            assert_eq!(setups.get(), batches.iter().map(|batch| batch.iters).sum::<u64>(), "{size:?}");
        }
    }

    fn assert_sleeps_outside(batches: &[Batch]) {
        assert!(!batches.is_empty());
        for batch in batches {
            assert!(batch.total < slept(batch.iters) / 10, "{batch:?} measured a sleep outside its meter");
        }
    }

    #[test]
    fn setup_runs_outside_the_meter() {
        for size in [BatchSize::SmallInput, BatchSize::PerIteration, BatchSize::NumIterations(4)] {
            let spin = Spin::default();
            let batches = RefCell::new(Vec::new());
            drive(
                Metric::Time,
                &FEW_SLOW,
                |b| {
                    b.to_async(&spin).iter_batched(|| sleep(SLEEP), |()| yield_once(), size);
                },
                || {},
                |batch| batches.borrow_mut().push(batch),
            );
            assert_sleeps_outside(&batches.borrow());
        }
    }

    /// An output whose drop sleeps.
    struct SlowDrop;

    impl Drop for SlowDrop {
        fn drop(&mut self) {
            sleep(SLEEP);
        }
    }

    #[test]
    fn iter_with_large_drop_drops_outside_the_meter_and_iter_inside() {
        let spin = Spin::default();
        let batches = RefCell::new(Vec::new());
        drive(
            Metric::Time,
            &FEW_SLOW,
            |b| {
                b.to_async(&spin).iter_with_large_drop(|| async { SlowDrop });
            },
            || {},
            |batch| batches.borrow_mut().push(batch),
        );
        assert_sleeps_outside(&batches.borrow());
        drive(
            Metric::Time,
            &FEW_SLOW,
            |b| b.to_async(&spin).iter(|| async { SlowDrop }),
            || {},
            |batch| {
                assert!(batch.total >= slept(batch.iters), "{batch:?}");
            },
        );
    }

    #[test]
    fn iter_custom_passes_its_duration_through() {
        let spin = Spin::default();
        let calls = Counter::default();
        let c = calls.clone();
        let batches = drive_counting(&ITERS, &calls, |b| {
            b.to_async(&spin).iter_custom(|iters| {
                let c = c.clone();
                async move {
                    for _ in 0..iters {
                        yield_once().await;
                        c.bump();
                    }
                    Duration::from_nanos(iters * 3 + 1)
                }
            });
        });
        for batch in batches {
            assert_eq!(batch.total, batch.iters * 3 + 1);
        }
    }

    #[test]
    fn iter_with_setup_and_large_setup_follow_their_batch_sizes() {
        let spin = Spin::default();
        let log = Rc::new(RefCell::new(String::new()));
        let (setup_log, routine_log) = (log.clone(), log.clone());
        drive(
            Metric::Time,
            &[3],
            |b| {
                b.to_async(&spin).iter_with_setup(
                    || setup_log.borrow_mut().push('S'),
                    |()| {
                        routine_log.borrow_mut().push('R');
                        yield_once()
                    },
                );
            },
            || log.borrow_mut().clear(),
            |_| assert_eq!(*log.borrow(), "SRSRSR"),
        );
        let (setup_log, routine_log) = (log.clone(), log.clone());
        drive(
            Metric::Time,
            &[3],
            |b| {
                b.to_async(&spin).iter_with_large_setup(
                    || setup_log.borrow_mut().push('S'),
                    |()| {
                        routine_log.borrow_mut().push('R');
                        yield_once()
                    },
                );
            },
            || log.borrow_mut().clear(),
            |_| assert_eq!(*log.borrow(), "SSSRRR"),
        );
    }
}
