//! [`Bencher`]: criterion's timing loops, each turned into a routine that rtcompare's engine runs
//! in batches, in placement copies, against its A/A twin.
//!
//! Every `iter*` method builds one routine from the user's closure and hands it to the engine
//! once. The engine then asks for batches: `iters` operations metered by its meter, setup and
//! drops outside the meter, each in one of eight monomorphised loops (see `placement.rs`).

use crate::BatchSize;
use crate::engine::{Routine, Serve};
use crate::measurement::{Measurement, WallTime};
use crate::placement::{enter, placed};
use rtcompare::{Meter, Metric};
use std::hint::black_box;
use std::marker::PhantomData;

/// The timing loops of one benchmark, handed to the function given to `bench_function` or
/// `bench_with_input`; call exactly one `iter*` method.
///
/// Which method, as in criterion:
///
/// * [`iter`](Self::iter): the routine needs no input; its output is dropped inside the meter.
/// * [`iter_with_large_drop`](Self::iter_with_large_drop): the output's drop is costly and must
///   not be measured.
/// * [`iter_batched`](Self::iter_batched) / [`iter_batched_ref`](Self::iter_batched_ref): each
///   call needs a fresh input, built outside the meter, taken by value or by `&mut`.
/// * [`iter_custom`](Self::iter_custom): the routine times itself and returns the `Duration`.
///
/// ```
/// use rtcompare_criterion::{BatchSize, Bencher};
/// use std::hint::black_box;
///
/// fn sum(b: &mut Bencher) {
///     b.iter(|| (0..black_box(100u64)).sum::<u64>());
/// }
///
/// fn sort(b: &mut Bencher) {
///     let data: Vec<u32> = (0..100).rev().collect();
///     b.iter_batched_ref(|| data.clone(), |v| v.sort(), BatchSize::SmallInput);
/// }
/// ```
pub struct Bencher<'a, M: Measurement = WallTime> {
    serve: &'a mut Serve<'a>,
    iterated: bool,
    measurement: PhantomData<fn() -> M>,
}

impl<'a, M: Measurement> Bencher<'a, M> {
    /// A bencher whose routine goes to `serve`.
    pub(crate) fn new(serve: &'a mut Serve<'a>) -> Bencher<'a, M> {
        Bencher { serve, iterated: false, measurement: PhantomData }
    }

    /// Hands `routine` to the engine.
    pub(crate) fn serve(&mut self, routine: &mut dyn Routine) {
        self.iterated = true;
        (self.serve)(routine);
    }

    /// Whether an `iter*` method was called; criterion refuses a benchmark function that calls
    /// none, and so does this crate.
    pub(crate) fn iterated(&self) -> bool {
        self.iterated
    }

    /// Measures `routine`, called `iters` times in a loop per batch; each output is passed
    /// through `black_box` and dropped inside the meter, as in criterion.
    ///
    /// ```
    /// use rtcompare_criterion::Bencher;
    ///
    /// fn parse(b: &mut Bencher) {
    ///     b.iter(|| "12345".parse::<u64>());
    /// }
    /// ```
    pub fn iter<O, R>(&mut self, routine: R)
    where
        R: FnMut() -> O,
    {
        self.serve(&mut Iter { routine });
    }

    /// Lets `routine` time itself: it is given the number of iterations to run and returns the
    /// time they took, which is taken as the batch's total as it is.
    ///
    /// # Panics
    ///
    /// When the benchmark is measured in a metric other than time (allocations, bytes): a
    /// `Duration` cannot be counted in them.
    ///
    /// ```
    /// use rtcompare_criterion::Bencher;
    /// use std::time::Instant;
    ///
    /// fn timed_by_hand(b: &mut Bencher) {
    ///     b.iter_custom(|iters| {
    ///         let start = Instant::now();
    ///         for _ in 0..iters {
    ///             std::hint::black_box(2 + 2);
    ///         }
    ///         start.elapsed()
    ///     });
    /// }
    /// ```
    pub fn iter_custom<R>(&mut self, routine: R)
    where
        R: FnMut(u64) -> M::Value,
    {
        self.serve(&mut Custom::<M, R> { routine, measurement: PhantomData });
    }

    /// [`iter_batched`](Self::iter_batched) with [`BatchSize::PerIteration`], as in criterion
    /// (which hides it from its docs in favour of `iter_batched`).
    pub fn iter_with_setup<I, O, S, R>(&mut self, setup: S, routine: R)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.iter_batched(setup, routine, BatchSize::PerIteration);
    }

    /// Measures `routine` like [`iter`](Self::iter), but keeps every output of a batch, in a
    /// vector allocated before the meter starts, and drops them after it stops.
    ///
    /// A batch holds all of its outputs at once; for large outputs, prefer
    /// [`iter_batched`](Self::iter_batched) with [`BatchSize::LargeInput`].
    ///
    /// ```
    /// use rtcompare_criterion::Bencher;
    ///
    /// fn build(b: &mut Bencher) {
    ///     b.iter_with_large_drop(|| vec![0u8; 4096]);
    /// }
    /// ```
    pub fn iter_with_large_drop<O, R>(&mut self, routine: R)
    where
        R: FnMut() -> O,
    {
        self.serve(&mut LargeDrop { routine });
    }

    /// Measures `routine` over inputs that `setup` builds outside the meter, in chunks of the
    /// size [`BatchSize`] gives; each input is moved into its call, and the outputs are dropped
    /// after the meter stops.
    ///
    /// ```
    /// use rtcompare_criterion::{BatchSize, Bencher};
    ///
    /// fn sort(b: &mut Bencher) {
    ///     let data: Vec<u32> = (0..100).rev().collect();
    ///     b.iter_batched(|| data.clone(), |mut v| { v.sort(); v }, BatchSize::SmallInput);
    /// }
    /// ```
    pub fn iter_batched<I, O, S, R>(&mut self, setup: S, routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(I) -> O,
    {
        self.serve(&mut Batched { setup, routine, size });
    }

    /// Like [`iter_batched`](Self::iter_batched), but `routine` takes each input by `&mut`, and
    /// the inputs, like the outputs, are dropped after the meter stops.
    ///
    /// ```
    /// use rtcompare_criterion::{BatchSize, Bencher};
    ///
    /// fn sort(b: &mut Bencher) {
    ///     let data: Vec<u32> = (0..100).rev().collect();
    ///     b.iter_batched_ref(|| data.clone(), |v| v.sort(), BatchSize::SmallInput);
    /// }
    /// ```
    pub fn iter_batched_ref<I, O, S, R>(&mut self, setup: S, routine: R, size: BatchSize)
    where
        S: FnMut() -> I,
        R: FnMut(&mut I) -> O,
    {
        self.serve(&mut BatchedRef { setup, routine, size });
    }

    /// This bencher for async routines, each run to completion by `runner` (feature `async`).
    ///
    /// ```
    /// # #[cfg(feature = "async_futures")]
    /// # {
    /// use rtcompare_criterion::Bencher;
    /// use rtcompare_criterion::async_executor::FuturesExecutor;
    ///
    /// fn answer(b: &mut Bencher) {
    ///     b.to_async(FuturesExecutor).iter(|| async { 6 * 7 });
    /// }
    /// # }
    /// ```
    #[cfg(feature = "async")]
    pub fn to_async<'b, A: crate::async_executor::AsyncExecutor>(
        &'b mut self,
        runner: A,
    ) -> crate::AsyncBencher<'a, 'b, A, M> {
        crate::AsyncBencher::new(self, runner)
    }
}

/// The number of elements a vector for `n` values needs; past `usize::MAX`, allocating it fails
/// with `Vec`'s own capacity-overflow panic.
pub(crate) fn capacity(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// `iter`'s routine.
struct Iter<R> {
    routine: R,
}

impl<O, R: FnMut() -> O> Iter<R> {
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, meter: Meter) -> u64 {
        enter::<COPY, TWIN>();
        let start = meter.start();
        for _ in 0..iters {
            black_box((self.routine)());
        }
        meter.stop(start)
    }
}

impl<O, R: FnMut() -> O> Routine for Iter<R> {
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        placed!(copy, twin, self.timed(iters, meter))
    }
}

/// `iter_with_large_drop`'s routine.
struct LargeDrop<R> {
    routine: R,
}

impl<O, R: FnMut() -> O> LargeDrop<R> {
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, meter: Meter) -> u64 {
        enter::<COPY, TWIN>();
        // Allocated before the meter starts, so no push inside it reallocates.
        let mut outputs = Vec::with_capacity(capacity(iters));
        let start = meter.start();
        for _ in 0..iters {
            outputs.push((self.routine)());
        }
        let total = meter.stop(start);
        drop(black_box(outputs));
        total
    }
}

impl<O, R: FnMut() -> O> Routine for LargeDrop<R> {
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        placed!(copy, twin, self.timed(iters, meter))
    }
}

/// `iter_custom`'s routine.
struct Custom<M, R> {
    routine: R,
    measurement: PhantomData<fn() -> M>,
}

/// Refuses `iter_custom` under a meter that does not count time: its routine returns a
/// `Duration`, nothing else.
pub(crate) fn custom_needs_time(meter: Meter) {
    let metric = meter.metric();
    assert!(
        metric == Metric::Time,
        "`iter_custom` returns a Duration, which can only be taken as a time, but this benchmark is \
         measured in `{}`: use `iter` or `iter_batched` for that metric",
        metric.as_str()
    );
}

/// The nanoseconds of `iter_custom`'s value, which only [`WallTime`]'s `Duration` has.
pub(crate) fn custom_nanos<M: Measurement>(value: &M::Value) -> u64 {
    match M::__rtcompare_nanos(value) {
        Some(nanos) => nanos,
        None => panic!(
            "`iter_custom` with the measurement `{}`: rtcompare takes only WallTime's Duration",
            std::any::type_name::<M>()
        ),
    }
}

impl<M: Measurement, R: FnMut(u64) -> M::Value> Custom<M, R> {
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, meter: Meter) -> u64 {
        enter::<COPY, TWIN>();
        // The routine's own Duration is the total; the meter only marks the region, for the
        // engine's instruction counts.
        let start = meter.start();
        let value = (self.routine)(iters);
        meter.stop(start);
        custom_nanos::<M>(&value)
    }
}

impl<M: Measurement, R: FnMut(u64) -> M::Value> Routine for Custom<M, R> {
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        custom_needs_time(meter);
        placed!(copy, twin, self.timed(iters, meter))
    }
}

/// `iter_batched`'s routine.
struct Batched<S, R> {
    setup: S,
    routine: R,
    size: BatchSize,
}

impl<I, O, S: FnMut() -> I, R: FnMut(I) -> O> Batched<S, R> {
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, chunk: u64, meter: Meter) -> u64 {
        enter::<COPY, TWIN>();
        let mut total = 0u64;
        if chunk == 1 {
            // One input at a time, each call metered on its own, as criterion does.
            for _ in 0..iters {
                let input = black_box((self.setup)());
                let start = meter.start();
                let output = (self.routine)(input);
                total = total.saturating_add(meter.stop(start));
                drop(black_box(output));
            }
            return total;
        }
        let mut done = 0;
        while done < iters {
            let n = chunk.min(iters - done);
            let mut inputs = black_box((0..n).map(|_| (self.setup)()).collect::<Vec<I>>());
            let mut outputs = Vec::with_capacity(capacity(n));
            let start = meter.start();
            // `drain` leaves the inputs' buffer with us, to be freed after the meter stops.
            outputs.extend(inputs.drain(..).map(&mut self.routine));
            total = total.saturating_add(meter.stop(start));
            drop(black_box(outputs));
            drop(inputs);
            done += n;
        }
        total
    }
}

impl<I, O, S: FnMut() -> I, R: FnMut(I) -> O> Routine for Batched<S, R> {
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        let chunk = self.size.iters_per_batch(iters);
        placed!(copy, twin, self.timed(iters, chunk, meter))
    }
}

/// `iter_batched_ref`'s routine.
struct BatchedRef<S, R> {
    setup: S,
    routine: R,
    size: BatchSize,
}

impl<I, O, S: FnMut() -> I, R: FnMut(&mut I) -> O> BatchedRef<S, R> {
    #[inline(never)]
    fn timed<const COPY: usize, const TWIN: bool>(&mut self, iters: u64, chunk: u64, meter: Meter) -> u64 {
        enter::<COPY, TWIN>();
        let mut total = 0u64;
        if chunk == 1 {
            for _ in 0..iters {
                let mut input = black_box((self.setup)());
                let start = meter.start();
                let output = (self.routine)(&mut input);
                total = total.saturating_add(meter.stop(start));
                drop(black_box(output));
                drop(black_box(input));
            }
            return total;
        }
        let mut done = 0;
        while done < iters {
            let n = chunk.min(iters - done);
            let mut inputs = black_box((0..n).map(|_| (self.setup)()).collect::<Vec<I>>());
            let mut outputs = Vec::with_capacity(capacity(n));
            let start = meter.start();
            outputs.extend(inputs.iter_mut().map(&mut self.routine));
            total = total.saturating_add(meter.stop(start));
            drop(black_box(outputs));
            drop(black_box(inputs));
            done += n;
        }
        total
    }
}

impl<I, O, S: FnMut() -> I, R: FnMut(&mut I) -> O> Routine for BatchedRef<S, R> {
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64 {
        let chunk = self.size.iters_per_batch(iters);
        placed!(copy, twin, self.timed(iters, chunk, meter))
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{Batch, Counter, FEW_SLOW as FEW, PAIRS, SLEEP, drive, drive_counting, slept};
    use crate::{BatchSize, Bencher};
    use rtcompare::Metric;
    use std::cell::RefCell;
    use std::rc::Rc;
    use std::thread::sleep;
    use std::time::Duration;

    /// Sizes that hit the edges of criterion's chunks: none, one, under and over ten, uneven.
    const ITERS: [u64; 8] = [0, 1, 2, 9, 10, 11, 100, 1_001];

    fn all_sizes() -> [BatchSize; 6] {
        [
            BatchSize::SmallInput,
            BatchSize::LargeInput,
            BatchSize::PerIteration,
            BatchSize::NumBatches(3),
            BatchSize::NumIterations(4),
            BatchSize::NumIterations(1_000_000),
        ]
    }

    /// Asserts every pair ran and each batch measured well under the sleeps outside its meter.
    fn assert_sleeps_outside(batches: &[Batch]) {
        assert_eq!(batches.len(), FEW.len() * PAIRS.len());
        for batch in batches {
            assert!(batch.total < slept(batch.iters) / 10, "{batch:?} measured a sleep outside its meter");
        }
    }

    #[test]
    fn iter_runs_the_routine_iters_times_in_every_loop() {
        let calls = Counter::default();
        let c = calls.clone();
        let batches = drive_counting(&ITERS, &calls, |b| b.iter(|| c.bump()));
        let ran: Vec<(u64, usize, bool)> = batches.iter().map(|batch| (batch.iters, batch.copy, batch.twin)).collect();
        let asked: Vec<(u64, usize, bool)> =
            ITERS.iter().flat_map(|&n| PAIRS.map(|(copy, twin)| (n, copy, twin))).collect();
        assert_eq!(ran, asked);
    }

    /// An output whose drop sleeps: measured if it is dropped inside the meter.
    struct SlowDrop;

    impl Drop for SlowDrop {
        fn drop(&mut self) {
            sleep(SLEEP);
        }
    }

    #[test]
    fn iter_drops_each_output_inside_the_meter() {
        drive(
            Metric::Time,
            &FEW,
            |b| b.iter(|| SlowDrop),
            || {},
            |batch| {
                assert!(batch.total >= slept(batch.iters), "{batch:?}: drops were not measured");
            },
        );
    }

    /// An output that records, when dropped, how many calls its batch had made by then.
    struct Witness {
        calls: Counter,
        seen: Rc<RefCell<Vec<u64>>>,
    }

    impl Drop for Witness {
        fn drop(&mut self) {
            self.seen.borrow_mut().push(self.calls.get());
        }
    }

    #[test]
    fn iter_with_large_drop_drops_outputs_after_the_meter_stops() {
        let calls = Counter::default();
        let seen = Rc::new(RefCell::new(Vec::new()));
        let (c, s) = (calls.clone(), seen.clone());
        let routine = move || {
            c.bump();
            Witness { calls: c.clone(), seen: s.clone() }
        };
        drive(
            Metric::Time,
            &ITERS,
            |b| b.iter_with_large_drop(routine),
            || {
                calls.reset();
                seen.borrow_mut().clear();
            },
            |batch| {
                assert_eq!(calls.get(), batch.iters);
                // Every output outlived the whole loop, and with it the meter, which stops right
                // after the last call.
                let seen = seen.borrow();
                assert_eq!(seen.len() as u64, batch.iters);
                assert!(seen.iter().all(|&at| at == batch.iters), "{batch:?}: an output was dropped mid-loop");
            },
        );
    }

    #[test]
    fn iter_with_large_drop_does_not_measure_drops() {
        let batches = RefCell::new(Vec::new());
        drive(
            Metric::Time,
            &FEW,
            |b| b.iter_with_large_drop(|| SlowDrop),
            || {},
            |batch| {
                batches.borrow_mut().push(batch);
            },
        );
        assert_sleeps_outside(&batches.borrow());
    }

    #[test]
    fn iter_batched_calls_setup_and_routine_iters_times() {
        for size in all_sizes() {
            let (setups, calls) = (Counter::default(), Counter::default());
            let (s, c) = (setups.clone(), calls.clone());
            let batches = drive_counting(&ITERS, &calls, |b| {
                b.iter_batched(
                    || {
                        s.bump();
                        7u64
                    },
                    |input| {
                        assert_eq!(input, 7);
                        c.bump();
                    },
                    size,
                );
            });
            let total_iters: u64 = batches.iter().map(|batch| batch.iters).sum();
            assert_eq!(setups.get(), total_iters, "{size:?}");
        }
    }

    #[test]
    fn iter_batched_ref_calls_setup_and_routine_iters_times() {
        for size in all_sizes() {
            let (setups, calls) = (Counter::default(), Counter::default());
            let (s, c) = (setups.clone(), calls.clone());
            let batches = drive_counting(&ITERS, &calls, |b| {
                b.iter_batched_ref(
                    || {
                        s.bump();
                        vec![1u8]
                    },
                    |input: &mut Vec<u8>| {
                        input.push(2);
                        c.bump();
                    },
                    size,
                );
            });
            let total_iters: u64 = batches.iter().map(|batch| batch.iters).sum();
            assert_eq!(setups.get(), total_iters, "{size:?}");
        }
    }

    #[test]
    fn iter_batched_builds_inputs_in_criterions_chunks() {
        // Each chunk's inputs are built before any of its calls: `S` for setup, `R` for routine.
        let log = Rc::new(RefCell::new(String::new()));
        let (setup_log, routine_log) = (log.clone(), log.clone());
        drive(
            Metric::Time,
            &[10],
            |b| {
                b.iter_batched(
                    || setup_log.borrow_mut().push('S'),
                    |()| routine_log.borrow_mut().push('R'),
                    BatchSize::NumIterations(4),
                );
            },
            || log.borrow_mut().clear(),
            |_| {
                assert_eq!(*log.borrow(), "SSSSRRRRSSSSRRRRSSRR");
            },
        );
        // A chunk of one (`SmallInput` under 11 iterations) is criterion's one-at-a-time loop.
        let (setup_log, routine_log) = (log.clone(), log.clone());
        drive(
            Metric::Time,
            &[3],
            |b| {
                b.iter_batched(
                    || setup_log.borrow_mut().push('S'),
                    |()| routine_log.borrow_mut().push('R'),
                    BatchSize::SmallInput,
                );
            },
            || log.borrow_mut().clear(),
            |_| {
                assert_eq!(*log.borrow(), "SRSRSR");
            },
        );
    }

    #[test]
    fn iter_batched_builds_inputs_outside_the_meter() {
        for size in all_sizes() {
            let batches = RefCell::new(Vec::new());
            drive(
                Metric::Time,
                &FEW,
                |b| b.iter_batched(|| sleep(SLEEP), |()| 1u8, size),
                || {},
                |batch| {
                    batches.borrow_mut().push(batch);
                },
            );
            assert_sleeps_outside(&batches.borrow());
        }
    }

    #[test]
    fn iter_batched_drops_outputs_outside_the_meter() {
        for size in all_sizes() {
            let batches = RefCell::new(Vec::new());
            drive(
                Metric::Time,
                &FEW,
                |b| b.iter_batched(|| (), |()| SlowDrop, size),
                || {},
                |batch| {
                    batches.borrow_mut().push(batch);
                },
            );
            assert_sleeps_outside(&batches.borrow());
        }
    }

    #[test]
    fn iter_batched_ref_builds_and_drops_inputs_outside_the_meter() {
        for size in all_sizes() {
            let batches = RefCell::new(Vec::new());
            let setup = || {
                sleep(SLEEP);
                SlowDrop
            };
            drive(
                Metric::Time,
                &FEW,
                |b| b.iter_batched_ref(setup, |_: &mut SlowDrop| 1u8, size),
                || {},
                |batch| {
                    batches.borrow_mut().push(batch);
                },
            );
            assert_sleeps_outside(&batches.borrow());
        }
    }

    #[test]
    fn iter_batched_measures_the_routine() {
        // The other side of the tests above: a slow routine is measured in full.
        for size in all_sizes() {
            drive(
                Metric::Time,
                &FEW,
                |b| b.iter_batched(|| (), |()| sleep(SLEEP), size),
                || {},
                |batch| {
                    assert!(batch.total >= slept(batch.iters), "{size:?} {batch:?}");
                },
            );
        }
    }

    #[test]
    fn iter_with_setup_is_one_input_at_a_time() {
        let log = Rc::new(RefCell::new(String::new()));
        let (setup_log, routine_log) = (log.clone(), log.clone());
        drive(
            Metric::Time,
            &[100],
            |b| {
                b.iter_with_setup(|| setup_log.borrow_mut().push('S'), |()| routine_log.borrow_mut().push('R'));
            },
            || log.borrow_mut().clear(),
            |_| {
                assert_eq!(*log.borrow(), "SR".repeat(100));
            },
        );
    }

    #[test]
    fn iter_custom_passes_its_duration_through() {
        let calls = Counter::default();
        let c = calls.clone();
        let batches = drive_counting(&ITERS, &calls, |b| {
            b.iter_custom(|iters| {
                for _ in 0..iters {
                    c.bump();
                }
                Duration::from_nanos(iters * 1_000 + 7)
            });
        });
        for batch in batches {
            assert_eq!(batch.total, batch.iters * 1_000 + 7, "{batch:?}");
        }
    }

    #[test]
    #[should_panic(expected = "`iter_custom` returns a Duration, which can only be taken as a time, but this \
                               benchmark is measured in `allocs`")]
    fn iter_custom_refuses_a_count_metric() {
        drive(Metric::Allocs, &[1], |b| b.iter_custom(|_| Duration::ZERO), || {}, |_| {});
    }

    #[test]
    #[should_panic(expected = "placement copy 4 asked for")]
    fn a_copy_out_of_range_is_an_engine_bug() {
        let mut serve = |routine: &mut dyn crate::engine::Routine| {
            routine.batch(4, false, 1, rtcompare::Meter::new(Metric::Time));
        };
        Bencher::<crate::measurement::WallTime>::new(&mut serve).iter(|| ());
    }
}
