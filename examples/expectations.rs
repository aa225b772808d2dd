//! What a comparison asserts and reports: `expect`, `thresholds`, `parity`, `time`, `name`,
//! `ignore`.
//!
//! ```sh
//! cargo run --release --example expectations
//! cargo run --release --example expectations -- --include-ignored
//! ```

use rtcompare::compare;
use std::hint::black_box;

fn collatz_steps(mut n: u64) -> u32 {
    let mut steps = 0;
    while n != 1 {
        n = if n.is_multiple_of(2) { n / 2 } else { 3 * n + 1 };
        steps += 1;
    }
    steps
}

fn steps_by_branch() -> u32 {
    (1..black_box(2_000u64)).map(collatz_steps).sum()
}

fn collatz_steps_shifts(mut n: u64) -> u32 {
    let mut steps = 0;
    while n != 1 {
        let zeros = n.trailing_zeros();
        n >>= zeros;
        steps += zeros;
        if n != 1 {
            n = 3 * n + 1;
            steps += 1;
        }
    }
    steps
}

// "This optimisation must stay faster": the test fails unless the candidate wins, and reports
// the confidence that it is at least 10 % and 30 % faster.
#[compare(
    baseline = steps_by_branch,
    expect = "win",
    thresholds = [0.10, 0.30],
    name = "collatz/shifts_vs_branches",
    time = "2s"
)]
fn steps_by_shifts() -> u32 {
    (1..black_box(2_000u64)).map(collatz_steps_shifts).sum()
}

// A stricter tolerance (1 %), and kept out of normal runs with `ignore`.
#[compare(baseline = steps_by_branch, parity = 0.01, ignore)]
fn steps_by_branch_again() -> u32 {
    steps_by_branch()
}

rtcompare::main!();
