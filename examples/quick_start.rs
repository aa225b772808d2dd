//! The smallest comparison: two zero-argument functions.
//!
//! ```sh
//! cargo run --release --example quick_start
//! ```

use rtcompare::compare;
use std::hint::black_box;

fn sum_loop() -> u64 {
    let mut total = 0;
    for i in 0..black_box(10_000u64) {
        total += black_box(i);
    }
    total
}

#[compare(baseline = sum_loop)]
fn sum_formula() -> u64 {
    let n = black_box(10_000u64);
    n * (n - 1) / 2
}

rtcompare::main!();
