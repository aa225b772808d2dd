//! Inputs built outside the timer with `setup`.
//!
//! `setup` returns the input (`fn() -> I`, or `fn(&mut Dprng) -> I` for seeded random data).
//! A candidate taking `&mut I` gets a fresh input for every call, built before the clock starts;
//! one taking `&I` shares one input across a batch; one taking `I` consumes a fresh one. Both
//! arms of a round get identical inputs.
//!
//! ```sh
//! cargo run --release --example inputs
//! ```

use rtcompare::{Dprng, compare};

fn random_numbers(rng: &mut Dprng) -> Vec<u32> {
    rng.vec_u32(1_000)
}

fn stable_sort(v: &mut [u32]) {
    v.sort();
}

#[compare(baseline = stable_sort, setup = random_numbers)]
fn unstable_sort(v: &mut [u32]) {
    v.sort_unstable();
}

fn sorted_numbers(rng: &mut Dprng) -> Vec<u32> {
    let mut v = rng.vec_u32(10_000);
    v.sort_unstable();
    v
}

fn contains_by_scan(v: &[u32]) -> bool {
    v.contains(&12_345)
}

#[compare(baseline = contains_by_scan, setup = sorted_numbers)]
fn contains_by_bisection(v: &[u32]) -> bool {
    v.binary_search(&12_345).is_ok()
}

rtcompare::main!();
