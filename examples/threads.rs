//! Calls under contention: `threads = N` runs every batch on N threads released together, and
//! the batch takes as long as the slowest thread. Here a shared atomic counter against a
//! per-call local one: on several cores the shared cache line makes the atomic the loser.
//! rtcompare warns when the machine has fewer cores than N.
//!
//! ```sh
//! cargo run --release --example threads
//! ```

use rtcompare::compare;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

static SHARED: AtomicU64 = AtomicU64::new(0);

fn count_locally() -> u64 {
    let mut count = 0u64;
    for _ in 0..black_box(1_000) {
        count = black_box(count + 1);
    }
    count
}

#[compare(baseline = count_locally, threads = 2)]
fn count_in_a_shared_atomic() -> u64 {
    for _ in 0..black_box(1_000) {
        SHARED.fetch_add(1, Ordering::Relaxed);
    }
    SHARED.load(Ordering::Relaxed)
}

rtcompare::main!();
