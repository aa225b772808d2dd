//! Generic functions: the candidate must be concrete, the baseline can be a generic function
//! instantiated with a turbofish. The test is named after the baseline's last path segment
//! (`sort_u32_vs_sorted_copy`).
//!
//! ```sh
//! cargo run --release --example generic
//! ```

use rtcompare::{Dprng, compare};

fn random(rng: &mut Dprng) -> Vec<u32> {
    rng.vec_u32(500)
}

fn sorted_copy<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut copy = v.to_vec();
    copy.sort();
    copy
}

#[compare(baseline = sorted_copy::<u32>, setup = random)]
fn sort_u32(v: &[u32]) -> Vec<u32> {
    let mut copy = v.to_vec();
    copy.sort_unstable();
    copy
}

rtcompare::main!();
