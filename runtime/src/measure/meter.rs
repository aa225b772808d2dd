//! What a timed batch reports: elapsed nanoseconds, or allocations counted while it ran.

use super::alloc::{AllocCounts, start_counting, stop_counting};
use rtcompare_judge::measure::Metric;
use std::time::Instant;

/// Reads the measured quantity at the start and end of a batch.
///
/// Generated batch loops call [`Meter::start`] just before their loop and [`Meter::stop`] just
/// after it, so nothing but the measured calls lies between the two readings.
///
/// ```
/// use rtcompare::{Meter, Metric};
/// let meter = Meter::new(Metric::Time);
/// let reading = meter.start();
/// let nanos = meter.stop(reading);
/// assert!(nanos < 1_000_000_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meter {
    metric: Metric,
    /// Whether this meter switches callgrind's collection on and off around the batch instead
    /// of reading `metric` (the counting process of `harness/process/counting/`).
    instructions: bool,
}

/// A reading taken by [`Meter::start`], consumed by [`Meter::stop`].
///
/// ```
/// use rtcompare::{Meter, Metric, Reading};
/// let meter = Meter::new(Metric::Time);
/// let reading: Reading = meter.start();
/// let _nanos = meter.stop(reading);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Reading(ReadingKind);

#[derive(Clone, Copy, Debug)]
enum ReadingKind {
    Time(Instant),
    Counts(AllocCounts),
    /// Callgrind counts the region; the total is read from its dump, not from the meter.
    Instructions,
}

impl Meter {
    /// A meter for `metric`.
    ///
    /// ```
    /// use rtcompare::{Meter, Metric};
    /// assert_eq!(Meter::new(Metric::Allocs).metric(), Metric::Allocs);
    /// ```
    pub fn new(metric: Metric) -> Meter {
        Meter { metric, instructions: false }
    }

    /// A meter for the counting run: its batch is counted by callgrind, which collects only
    /// between [`Meter::start`] and [`Meter::stop`], so inputs built before the region and
    /// outputs dropped after it are not counted, as they are not timed. Its total is 0: the
    /// count is in callgrind's dump.
    pub(crate) fn instructions() -> Meter {
        Meter { metric: Metric::Time, instructions: true }
    }

    /// What this meter measures.
    ///
    /// ```
    /// use rtcompare::{Meter, Metric};
    /// assert_eq!(Meter::new(Metric::Time).metric(), Metric::Time);
    /// ```
    pub fn metric(self) -> Metric {
        self.metric
    }

    /// Takes the opening reading of a batch (and turns allocation counting on for count
    /// metrics).
    ///
    /// ```
    /// use rtcompare::{Meter, Metric};
    /// let meter = Meter::new(Metric::Time);
    /// let start = meter.start();
    /// let total: u64 = (0..1_000u64).map(std::hint::black_box).sum();
    /// assert!(meter.stop(start) < 1_000_000_000 && total > 0);
    /// ```
    #[inline(always)]
    pub fn start(self) -> Reading {
        if self.instructions {
            crate::instructions::requests::collect_on();
            return Reading(ReadingKind::Instructions);
        }
        match self.metric {
            Metric::Time => Reading(ReadingKind::Time(Instant::now())),
            Metric::AllocBytes | Metric::Allocs => Reading(ReadingKind::Counts(start_counting())),
            // Counted by callgrind, as with the counting meter; outside valgrind the requests
            // do nothing and the total is 0.
            Metric::Instructions => {
                crate::instructions::requests::collect_on();
                Reading(ReadingKind::Instructions)
            }
        }
    }

    /// Takes the closing reading and returns the batch's total in the metric's unit: elapsed
    /// nanoseconds, or the bytes or allocations counted since the opening reading (which needs
    /// [`CountingAllocator`](crate::CountingAllocator) as the global allocator; without it,
    /// they stay 0).
    ///
    /// ```
    /// use rtcompare::{Meter, Metric};
    /// // Without the counting allocator installed, nothing is counted.
    /// let meter = Meter::new(Metric::Allocs);
    /// let start = meter.start();
    /// let boxed = std::hint::black_box(Box::new(1u64));
    /// assert_eq!(meter.stop(start), 0);
    /// drop(boxed);
    /// ```
    #[inline(always)]
    pub fn stop(self, start: Reading) -> u64 {
        match start.0 {
            ReadingKind::Time(started) => u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX),
            ReadingKind::Counts(before) => {
                let after = stop_counting();
                match self.metric {
                    Metric::Allocs => after.allocations.wrapping_sub(before.allocations),
                    _ => after.bytes.wrapping_sub(before.bytes),
                }
            }
            ReadingKind::Instructions => {
                crate::instructions::requests::collect_off();
                0
            }
        }
    }
}
