//! What a count costs under callgrind, predicted from what the comparison's calls cost natively:
//! the batch sizes each loop is counted in, whether a comparison fits its time budget, how long
//! its count may take, and whether its warm-up runs uninstrumented.

use crate::harness::error::CountingError;
use rtcompare_judge::verdict::Judgement;
use std::time::Duration;

/// The two batch sizes each loop is counted in: an empty batch counts what every batch costs
/// whatever its size (the loop around the calls, the requests around the loop), so the other's
/// count less the empty one's is its calls' alone, averaged over as many inputs as it has calls
/// (a function whose work depends on its input counts differently from one call to the next).
pub(super) const SIZES: [u64; 2] = [0, 4];

/// The calls one count makes: each of the four loops once to warm up, then in both batches.
const CALLS: u64 = 4 * (1 + SIZES[0] + SIZES[1]);

/// How many times slower than natively code is taken to run under callgrind when predicting
/// what a count costs: above the 55–85× measured without cache simulation (docs/instructions.md).
const SLOWDOWN: f64 = 100.0;

/// How long a count may take beyond its prediction before its process is killed: valgrind
/// translates each function the first time it runs, and a busy machine slows it.
pub(super) const GRACE: Duration = Duration::from_secs(30);

/// What switching callgrind's instrumentation off and on again costs a count: it discards every
/// translation made so far (measured on this project's machine: about 40 ms a count).
const SWITCH: Duration = Duration::from_millis(40);

/// The longer of the arms' times per call in the first round's calibration, in nanoseconds.
pub(super) fn per_call_ns(judgement: &Judgement) -> f64 {
    let c = &judgement.first.calibration;
    let each = |batch_ns: f64, iters: u64| batch_ns / iters.max(1) as f64;
    each(c.candidate_batch_ns, c.candidate_iters).max(each(c.baseline_batch_ns, c.baseline_iters))
}

/// Whether a comparison whose first call took `first_call_ns` natively is warmed up with
/// instrumentation off: where that call, instrumented, would cost more than switching
/// instrumentation off and on again ([`SWITCH`]). Its first call pays what is built once (a
/// large input in a `OnceLock`), which the warm-up is for.
pub(super) fn costly_warm_up(first_call_ns: f64) -> bool {
    Duration::from_secs_f64((first_call_ns * SLOWDOWN / 1e9).max(0.0)) > SWITCH
}

/// What counting a comparison whose calls take `per_call_ns` is predicted to cost.
pub(super) fn predicted(per_call_ns: f64) -> Duration {
    Duration::from_secs_f64((CALLS as f64 * per_call_ns * SLOWDOWN / 1e9).max(0.0))
}

/// Whether counting calls of `per_call_ns` fits within `limit` (the comparison's time budget),
/// and if not, why it is not counted.
pub(super) fn within_limit(per_call_ns: f64, limit: Duration) -> Result<(), CountingError> {
    let cost = predicted(per_call_ns);
    if cost <= limit {
        return Ok(());
    }
    let per_call = rtcompare_report::format_value(per_call_ns, rtcompare_judge::measure::Metric::Time);
    Err(CountingError::TooSlow { per_call, calls: CALLS, cost, limit })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_too_slow_to_count_within_the_budget_is_not_counted_with_the_figures() {
        assert!(within_limit(10_000.0, Duration::from_secs(1)).is_ok(), "10 µs calls cost 0.02 s");
        let why = within_limit(64e6, Duration::from_secs(1)).expect_err("64 ms calls cost 128 s").to_string();
        assert!(why.starts_with("not counted: a call takes 64"), "{why}");
        assert!(why.contains("about 128.0 s under callgrind, over this comparison's limit of 1.0 s"), "{why}");
        // At the edge: 20 calls at 100x cost the budget.
        assert!(within_limit(500_000.0, Duration::from_secs(1)).is_ok());
        assert!(within_limit(500_001.0, Duration::from_secs(1)).is_err());
    }

    #[test]
    fn only_a_first_call_costlier_than_switching_instrumentation_is_warmed_up_without_it() {
        assert!(!costly_warm_up(10_000.0), "10 µs: 1 ms instrumented");
        assert!(!costly_warm_up(400_000.0), "0.4 ms: 40 ms instrumented, what a switch costs");
        assert!(costly_warm_up(400_100.0));
        assert!(costly_warm_up(50e6), "a 64 MiB ring built on the first call");
    }
}
