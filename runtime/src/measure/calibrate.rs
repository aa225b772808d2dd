//! Batch sizing: how many operations one timed batch runs.
//!
//! A batch reading is off by at most one clock step `p`, so over a batch lasting `T` the relative
//! error is `p / T`, whatever one operation costs. Calibration finds the batch size whose batch
//! lasts at least `T = max(p / ε, min_batch)`.

use super::{Arm, Halt, Meter, Options, clock_precision};
use rtcompare_judge::measure::{Calibration, Metric};
use std::time::{Duration, Instant};

/// Arms whose batch sizes differ by more than this factor each keep their own; below it both
/// use the larger. Equal sizes keep loop overhead equal; but sizing a 1 ns candidate's batch for a
/// 10 µs baseline would make each baseline batch last seconds, and a difference that large does
/// not hinge on a nanosecond of loop overhead.
pub(crate) const MAX_SHARED_BATCH_RATIO: u64 = 8;

/// Sizes the batches of both arms: each arm's smallest batch reaching the target duration, and
/// then the larger of the two for both (unless they differ by more than
/// [`MAX_SHARED_BATCH_RATIO`]), as `options` bound the clock's error and the shortest batch.
/// Batches are sized by time whatever the metric.
///
/// # Errors
/// [`Halt`] when an arm's batch could not run (see [`Arm::from_copies`]).
pub(crate) fn calibrate(
    candidate: &mut Arm<'_>,
    baseline: &mut Arm<'_>,
    options: &Options,
) -> Result<Calibration, Halt> {
    let clock_step_ns = clock_precision();
    let min_batch_ns = options.batch_floor().as_nanos() as f64;
    // A batch spread over placement copies reads the clock once per copy, so its total can be off
    // by one step per copy.
    let readings = candidate.placements().max(baseline.placements()) as f64;
    let target_batch_ns = (readings * clock_step_ns / options.clock_error).max(min_batch_ns);
    // Batches are sized by time even for count metrics: a batch must stay short enough to run
    // between interrupts and long enough for the budget to hold enough rounds.
    let meter = Meter::new(Metric::Time);
    let ceiling = options.batch_ceiling();
    let (c, b) = (
        batch_size(candidate, target_batch_ns, meter, ceiling)?,
        batch_size(baseline, target_batch_ns, meter, ceiling)?,
    );
    let copies = (candidate.placements() as u64, baseline.placements() as u64);
    let (candidate_iters, baseline_iters) = if c.iters.max(b.iters) <= c.iters.min(b.iters) * MAX_SHARED_BATCH_RATIO {
        // A shared size stays shared: rounded for the slower arm, for both or neither.
        let shared = whole_placements(
            c.iters.max(b.iters),
            copies.0.max(copies.1),
            c.per_op_ns.max(b.per_op_ns),
            target_batch_ns,
        );
        (shared, shared)
    } else {
        (
            whole_placements(c.iters, copies.0, c.per_op_ns, target_batch_ns),
            whole_placements(b.iters, copies.1, b.per_op_ns, target_batch_ns),
        )
    };
    // Counts stay exact when summed over copies; clock readings each add up to a step.
    let resolution = if options.metric.is_count() { 1.0 } else { readings * clock_step_ns };
    Ok(Calibration {
        resolution,
        clock_step_ns,
        candidate_iters,
        baseline_iters,
        target_batch_ns,
        candidate_batch_ns: candidate.run(candidate_iters, 0, 0, meter)?.total as f64,
        baseline_batch_ns: baseline.run(baseline_iters, 0, 0, meter)?.total as f64,
        first_call_ns: c.first_call_ns.max(b.first_call_ns),
    })
}

/// Rounds a batch size up to a multiple of the arm's placement copies, so that every batch
/// visits each copy equally, unless the operations added would take longer than one target
/// batch (an operation slower than about a third of it): such arms visit their copies over
/// consecutive rounds instead.
fn whole_placements(iters: u64, copies: u64, per_op_ns: f64, target_ns: f64) -> u64 {
    let rounded = iters.div_ceil(copies.max(1)) * copies.max(1);
    if per_op_ns * (rounded - iters) as f64 <= target_ns { rounded } else { iters }
}

/// A batch size and what one operation took at it; and what the arm's first call took.
struct Sizing {
    iters: u64,
    per_op_ns: f64,
    first_call_ns: f64,
}

/// The smallest batch size (within a factor of about 1.25) whose batch lasts `target_ns`.
///
/// Each size is timed twice and the shorter reading counts. In a fresh process the first call
/// pays one-time costs — lazily initialised state such as a `HashMap`'s random keys, the first
/// page faults of the heap, a cold instruction cache — and a single reading once took that for
/// the arm's cost: a 10 µs candidate got batches of 1 against its baseline's 17, and the unequal
/// batches turned a 2 % slowdown into a 2 % "speed-up" (`docs/design.md`).
fn batch_size(arm: &mut Arm<'_>, target_ns: f64, meter: Meter, ceiling: Duration) -> Result<Sizing, Halt> {
    const LIMIT: u64 = 1 << 40;
    let mut iters: u64 = 1;
    let mut first_call = None;
    loop {
        let reading = arm.run(iters, 0, 0, meter)?.total;
        let first_call_ns = *first_call.get_or_insert(reading as f64);
        let started = Instant::now();
        let elapsed = reading.min(arm.run(iters, 0, 0, meter)?.total) as f64;
        // What the meter does not see can dwarf what it does (1 MiB built per call of a move):
        // such a batch grows no further than the ceiling allows by the wall clock, its clock
        // error shown in its resolution.
        let room = ceiling.as_secs_f64() / started.elapsed().as_secs_f64().max(1e-9);
        if elapsed >= target_ns || iters >= LIMIT || room < 2.0 {
            return Ok(Sizing { iters, per_op_ns: elapsed / iters as f64, first_call_ns });
        }
        // Jump towards the target from what this batch took, but at most 100x at a time
        // (a first batch can be unusually fast or slow) and at least 2x (so it terminates).
        let scale = if elapsed > 0.0 { (target_ns / elapsed * 1.25).clamp(2.0, 100.0) } else { 100.0 };
        iters = ((iters as f64 * scale.min(room)).ceil() as u64).min(LIMIT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default options with a budget whose batch floor is the shortest batch, 100 µs.
    fn options() -> Options {
        Options { budget: Duration::from_millis(400), ..Options::default() }
    }

    /// An arm whose batches "take" 1 µs per operation by a made-up reading, not the clock, plus
    /// `first_call_ns` once on its very first batch: deterministic, whatever the machine does.
    fn arm(first_call_ns: u64) -> Arm<'static> {
        let mut first = true;
        Arm::new("synthetic", move |iters, _seed, _meter| {
            let once = if std::mem::take(&mut first) { first_call_ns } else { 0 };
            iters * 1_000 + once
        })
    }

    /// Made-up readings of 1 µs and of 1 ms per operation, as generated routines in four
    /// placement copies.
    fn microsecond(iters: u64, _: u64, _: u64, _: Meter) -> u64 {
        iters * 1_000
    }

    fn millisecond(iters: u64, _: u64, _: u64, _: Meter) -> u64 {
        iters * 1_000_000
    }

    fn placed(batch: crate::measure::BatchFn) -> Arm<'static> {
        Arm::from_placed("placed", [batch; 4], [batch; 4], 0)
    }

    #[test]
    fn a_batch_whose_unmetered_work_is_long_stops_growing_at_the_ceiling() {
        // One made-up nanosecond a call for the meter, and a sleep of at least 20 µs beside it
        // that the meter does not see, as a setup building each call's input would be. Sized
        // by its meter alone, the batch would grow to 100,000 calls, seconds by the wall clock.
        let slow_setup = || {
            Arm::new("setup", |iters, _seed, _meter| {
                (0..iters).for_each(|_| std::thread::sleep(Duration::from_micros(20)));
                iters
            })
        };
        let options = options();
        assert_eq!(options.batch_ceiling(), Duration::from_millis(10));
        let calibration = calibrate(&mut slow_setup(), &mut slow_setup(), &options).expect("no halt");
        assert!(calibration.candidate_iters > 1, "{calibration:?}");
        // 10 ms at 20 µs or more a call: 500 calls at most.
        assert!(calibration.candidate_iters <= 500, "past the ceiling: {calibration:?}");
    }

    #[test]
    fn batches_of_cheap_operations_visit_every_placement_copy_equally() {
        let calibration =
            calibrate(&mut placed(microsecond), &mut placed(microsecond), &options()).expect("local arms");
        assert!(calibration.shared_batch_size(), "{calibration:?}");
        assert_eq!(calibration.candidate_iters % 4, 0, "{calibration:?}");
    }

    #[test]
    fn slow_operations_keep_their_batch_and_a_shared_size_stays_shared() {
        // 1 ms per operation: rounding one operation up to four would add 3 ms to every batch.
        let slow = calibrate(&mut placed(millisecond), &mut placed(millisecond), &options()).expect("local arms");
        assert_eq!((slow.candidate_iters, slow.baseline_iters), (1, 1), "{slow:?}");
    }

    #[test]
    fn a_costly_first_call_does_not_shrink_the_batch_and_is_recorded() {
        // A one-time cost far beyond any target batch: lazy initialisation, page faults.
        let (mut cold, mut warm) = (arm(5_000_000), arm(0));
        let calibration = calibrate(&mut cold, &mut warm, &options()).expect("local arms");
        assert!(calibration.shared_batch_size(), "{calibration:?}");
        assert!(calibration.candidate_iters > 1, "{calibration:?}");
        assert_eq!(calibration.first_call_ns, 5_001_000.0, "the one-time cost and the call's own");
        let (mut a, mut b) = (arm(0), arm(0));
        let calibration = calibrate(&mut a, &mut b, &options()).expect("local arms");
        assert_eq!(calibration.first_call_ns, 1_000.0);
    }

    #[test]
    fn calibration_sizes_both_batches() {
        let mut a = Arm::from_fn("a", || std::hint::black_box(3u64).pow(3));
        let mut b = Arm::from_fn("b", || std::hint::black_box(3u64).pow(4));
        let calibration = calibrate(&mut a, &mut b, &options()).expect("local arms");
        assert!(calibration.candidate_iters >= 1);
    }
}
