//! Tests on synthetic data with a known truth: the statistical properties of the engine
//! (`statistics`), the verdict (`verdicts`), the whole decision (`decision`), and the larger
//! calibration run that prints its figures (`calibration`, ignored by default). Seeded and
//! deterministic: each test gives the same figures on every run.
//!
//! This module holds the generators they share, so the figures the tests assert and the ones the
//! calibration prints come from the same data.

mod calibration;
mod decision;
mod statistics;
mod verdicts;

use rtcompare_judge::Dprng;
use rtcompare_judge::measure::{Calibration, Series};

/// A standard normal deviate (Box–Muller; `1 − u` keeps the logarithm finite).
fn normal(rng: &mut Dprng) -> f64 {
    let u = 1.0 - rng.f64();
    let v = rng.f64();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// `n` steps of a stationary Gaussian AR(1) process with lag-1 correlation `rho` and marginal
/// standard deviation `sigma` (started from the stationary distribution, so no burn-in).
fn ar1(n: usize, rho: f64, sigma: f64, rng: &mut Dprng) -> Vec<f64> {
    let innovation = sigma * (1.0 - rho * rho).sqrt();
    let mut x = sigma * normal(rng);
    (0..n)
        .map(|_| {
            let current = x;
            x = rho * x + innovation * normal(rng);
            current
        })
        .collect()
}

/// One simulated comparison of `n` paired rounds in which the candidate is `delta` faster.
///
/// Each round shares a common factor (the machine's state at that moment, 10 % log-normal)
/// that cancels in the ratio; the ratio's own log-noise is AR(1) with correlation `rho` and
/// standard deviation `sigma`. Because that noise is symmetric around 0, the population median
/// of `cᵢ / bᵢ` is exactly `1 − delta`: the true difference is `delta`.
fn paired_rounds(n: usize, delta: f64, rho: f64, sigma: f64, rng: &mut Dprng) -> (Vec<f64>, Vec<f64>) {
    let noise = ar1(n, rho, sigma, rng);
    let baseline: Vec<f64> = (0..n).map(|_| 100.0 * (0.1 * normal(rng)).exp()).collect();
    let candidate = baseline.iter().zip(&noise).map(|(b, e)| b * (1.0 - delta) * e.exp()).collect();
    (candidate, baseline)
}

/// A routine's series of per-op values, one per round, at positions `first, first + 4, …` (each
/// round takes four positions, one per routine).
fn series(values: Vec<f64>, first_position: u32) -> Series {
    let position = (0..values.len() as u32).map(|i| first_position + i * 4).collect();
    Series { per_op: values, position, placements: Vec::new() }
}

/// A calibration of 10,000 operations a batch for both arms, 100 µs batches, a 40 ns clock.
fn calibration() -> Calibration {
    Calibration {
        resolution: 40.0,
        clock_step_ns: 40.0,
        candidate_iters: 10_000,
        baseline_iters: 10_000,
        target_batch_ns: 100_000.0,
        candidate_batch_ns: 100_000.0,
        baseline_batch_ns: 100_000.0,
        first_call_ns: 0.0,
    }
}
