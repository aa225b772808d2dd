//! The clock's precision: the smallest step `Instant` is seen to take on this machine.

use std::time::Instant;

/// Estimates the smallest observable step of [`Instant`], in nanoseconds.
///
/// Reads the clock back to back many times and keeps the smallest non-zero difference. On
/// Linux this is usually the cost of one reading (tens of nanoseconds), not the clock's
/// nominal 1 ns resolution; either way it is the error a single batch reading can carry.
pub(crate) fn clock_precision() -> f64 {
    const READINGS: usize = 20_000;
    let mut smallest = u128::MAX;
    let mut previous = Instant::now();
    for _ in 0..READINGS {
        let now = Instant::now();
        let step = now.duration_since(previous).as_nanos();
        if step > 0 {
            smallest = smallest.min(step);
        }
        previous = now;
    }
    if smallest == u128::MAX { 1.0 } else { smallest as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_step_is_at_least_a_nanosecond() {
        let step = clock_precision();
        assert!(step >= 1.0);
    }
}
