//! One comparison for several types: `types = [..]` instantiates the generic candidate, its
//! baseline and its setup with each type, one test per type, named by it
//! (`sort_unstable_vs_sort_stable::<u32>`).
//!
//! ```sh
//! cargo run --release --example types
//! ```

use rtcompare::{Dprng, compare};

/// A thousand values of any type that can be made from a `u32`.
fn random<T: From<u32>>(rng: &mut Dprng) -> Vec<T> {
    (0..1_000).map(|_| T::from(rng.u32())).collect()
}

fn sort_stable<T: Ord>(v: &mut [T]) {
    v.sort();
}

#[compare(baseline = sort_stable, setup = random, types = [u32, u64, i64])]
fn sort_unstable<T: Ord>(v: &mut [T]) {
    v.sort_unstable();
}

rtcompare::main!();
