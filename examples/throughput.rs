//! Rates beside times: `throughput = bytes(N)` or `elements(N)` says what one call processes,
//! and each arm's block line, the results file, the Markdown summary and the Bencher file show
//! its rate (`MiB/s`, `Melem/s`). With `args`, `bytes(arg)` takes the size. The verdict is the
//! same as without: a ratio of times is a ratio of rates.
//!
//! ```sh
//! cargo run --release --example throughput
//! ```

use rtcompare::{Dprng, compare};

fn bytes(rng: &mut Dprng, size: usize) -> Vec<u8> {
    let mut data = vec![0; size];
    rng.fill_bytes(&mut data);
    data
}

fn count_zeros_by_loop(data: &[u8]) -> usize {
    let mut zeros = 0;
    for &b in data {
        if b == 0 {
            zeros += 1;
        }
    }
    zeros
}

#[compare(baseline = count_zeros_by_loop, setup = bytes, args = [4_096, 65_536], throughput = bytes(arg))]
fn count_zeros_by_filter(data: &[u8]) -> usize {
    data.iter().filter(|&&b| b == 0).count()
}

rtcompare::main!();
