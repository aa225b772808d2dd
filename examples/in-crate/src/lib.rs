//! A small library whose performance claims are checked by `#[compare]` annotations kept next
//! to the code. Without the `perf` feature the annotations vanish and rtcompare is not a
//! dependency at all; `cargo test --release --test perf` turns the feature on through the
//! package's self dev-dependency.

mod checksum;
pub mod text;

pub use checksum::{checksum, checksum_blocked};

/// Sums `0..n` by walking it.
pub fn sum_by_loop(n: u64) -> u64 {
    (0..n).map(std::hint::black_box).sum()
}

/// Sums `0..n` with Gauss's formula.
pub fn sum_by_formula(n: u64) -> u64 {
    n * n.saturating_sub(1) / 2
}

#[cfg(feature = "perf")]
fn loop_sum_10k() -> u64 {
    sum_by_loop(std::hint::black_box(10_000))
}

/// The sum of `0..10_000`. A public function can carry its comparison itself: with `cfg_attr`
/// the attribute exists only when the `perf` feature is on.
#[cfg_attr(feature = "perf", rtcompare::compare(baseline = loop_sum_10k))]
pub fn formula_sum_10k() -> u64 {
    sum_by_formula(std::hint::black_box(10_000))
}
