//! One test per input size with `args`: where does the crossover lie?
//!
//! Each value of `args` is passed to `setup` (`fn(usize) -> I` or `fn(&mut Dprng, usize) -> I`);
//! the tests are named `pair/size`.
//!
//! ```sh
//! cargo run --release --example sizes
//! ```

use rtcompare::{Dprng, compare};

fn sorted(rng: &mut Dprng, size: usize) -> (Vec<u32>, u32) {
    let mut v = rng.vec_u32(size);
    v.sort_unstable();
    let probe = v.get(size / 3).copied().unwrap_or(0);
    (v, probe)
}

fn scan(input: &(Vec<u32>, u32)) -> bool {
    input.0.contains(&input.1)
}

#[compare(baseline = scan, setup = sorted, args = [8, 64, 4_096])]
fn bisect(input: &(Vec<u32>, u32)) -> bool {
    input.0.binary_search(&input.1).is_ok()
}

rtcompare::main!();
