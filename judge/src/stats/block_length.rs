//! How long the blocks of a block bootstrap should be, estimated from the data.
//!
//! Resampling contiguous blocks keeps the dependence between neighbouring rounds inside each
//! block. Blocks that are too short lose that dependence (intervals too narrow); blocks that are
//! too long leave few distinct blocks to draw from (intervals noisy). Politis & White (2004)
//! derive the length that minimises the mean squared error of the bootstrap variance estimate and
//! a way to estimate it; Patton, Politis & White (2009) corrected one constant in it. This module
//! implements that estimate for the circular block bootstrap, and the variance correction that
//! the bootstrap applies on top of it ([`block_variance_inflation`]).

use std::cmp::Ordering;

use super::quantile::median;

/// The automatic block length for a circular block bootstrap of `series`.
///
/// The estimate, after Politis & White (2004) with the correction of Patton, Politis & White
/// (2009), in plain steps (n = number of values, ρ̂(k) the sample autocorrelation, R̂(k) the
/// sample autocovariance, both with denominator n):
///
/// 1. **How many lags matter.** With `K_N = max(5, ⌈√log₁₀ n⌉)` and the significance bound
///    `c·√(log₁₀ n / n)`, `c = 2`, find the first lag `m̂ ≥ 1` from which `K_N` consecutive
///    autocorrelations are all inside the bound. If no such run exists within the first
///    `m_max = ⌈√n⌉ + K_N` lags, `m̂` is the last lag outside the bound.
/// 2. **Window.** `M = min(2·m̂, m_max)`, and the flat-top lag window `λ(s) = 1` for `|s| ≤ ½`,
///    `2(1 − |s|)` for `½ < |s| ≤ 1`, 0 beyond: it keeps the first half of the lags whole and
///    tapers the rest, which makes the estimate converge faster than the usual tapered windows.
/// 3. **Two sums.** `Ĝ = Σ_{|k|≤M} λ(k/M)·|k|·R̂(k)` and the long-run variance
///    `σ̂² = Σ_{|k|≤M} λ(k/M)·R̂(k)`; for the circular bootstrap `D̂ = (4/3)·σ̂⁴`.
/// 4. **Length.** `b = (2·Ĝ² / D̂)^(1/3) · n^(1/3)`, capped at the paper's
///    `⌈min(3√n, n/3)⌉`, rounded to the nearest integer.
///
/// The result is then clamped to `[1, max(1, n/2)]`: at least one value per block, and at least
/// two blocks' worth of choice. It is 1 for independent data and grows with the dependence.
/// Fewer than three values, or a series without variance, give 1.
///
/// [`choose_resampling`](super::choose_resampling) raises the result to at least 2 when it
/// decides on blocks: it only does so because the lag-1 autocorrelation is high, and a block of
/// one is the independent bootstrap it has just ruled out.
///
/// ```
/// use rtcompare_judge::stats::block_length;
/// // A slow sine wave is dependent over many steps: long blocks.
/// let wave: Vec<f64> = (0..400).map(|i| (i as f64 / 15.0).sin()).collect();
/// assert!(block_length(&wave) > 10);
/// assert_eq!(block_length(&[1.0, 2.0]), 1);
/// ```
pub fn block_length(series: &[f64]) -> usize {
    let n = series.len();
    let upper = (n / 2).max(1);
    let Some(autocovariance) = autocovariances(series, max_lag(n)) else {
        return 1;
    };
    let window = window_width(&autocovariance, n);
    let optimal = circular_optimum(&autocovariance, window, n);
    if !optimal.is_finite() {
        return 1;
    }
    let cap = (3.0 * (n as f64).sqrt()).min(n as f64 / 3.0).ceil();
    (optimal.min(cap).round() as usize).clamp(1, upper)
}

/// How much a circular block bootstrap with blocks of `len` underestimates the variance of the
/// median of `series`, as a factor `ψ ≥ 1` to multiply that variance by.
///
/// Resampling blocks of `len` rounds reproduces the dependence between rounds only within a
/// block: its variance is, to first order, the long-run variance seen through the triangular
/// (Bartlett) window `1 − |k|/len`, too small by about `Ĝ / len` (Künsch 1989; Politis & White's
/// `Ĝ`). The flat-top window used by [`block_length`] has no such first-order bias, so
///
/// `ψ = σ̂²_flat-top / ((1 − W/n) · σ̂²_Bartlett(len))`,
///
/// both from the same sample autocovariances. `W = Σ_{|k|≤M} λ(k/M)` is the flat-top window's
/// total weight: every sample autocovariance is centred on the sample's own centre, which takes
/// about `σ²/n` off each lag in the window, so the flat-top sum is divided by `1 − W/n` to
/// restore it. (The bootstrap's own variance carries the same centring, so the Bartlett sum is
/// left as it is: it is what the bootstrap delivers.)
///
/// A median depends on the data through the signs `sign(xᵢ − median)` (its influence
/// function), so the autocovariances are those of the sign series, not of the values.
///
/// Clamped to `[1, 4]`: the correction exists to undo a known downward bias, so it never
/// narrows, and beyond a doubling of the spread the estimate's own noise would dominate.
/// 1 when there is nothing to estimate from (fewer than three values, constant signs).
pub(super) fn block_variance_inflation(series: &[f64], len: usize) -> f64 {
    let n = series.len();
    let centre = median(series);
    let signs: Vec<f64> = series
        .iter()
        .map(|&x| match x.total_cmp(&centre) {
            Ordering::Less => -1.0,
            Ordering::Equal => 0.0,
            Ordering::Greater => 1.0,
        })
        .collect();
    let m_max = max_lag(n);
    let lags = m_max.max(len.saturating_sub(1)).min(n.saturating_sub(1));
    let Some(autocovariance) = autocovariances(&signs, lags) else {
        return 1.0;
    };
    // The window rule looks at the first m_max lags only, as in `block_length`.
    let window = window_width(&autocovariance[..=m_max.min(lags)], n);
    let lambda = |k: usize| flat_top(k as f64 / window as f64);
    let weight_total = 1.0 + 2.0 * (1..=window).map(lambda).sum::<f64>();
    let centring = (1.0 - weight_total / n as f64).max(0.5);
    let flat_top_variance = windowed_variance(&autocovariance, window, lambda) / centring;
    let bartlett_variance = windowed_variance(&autocovariance, len, |k| 1.0 - k as f64 / len as f64);
    let inflation = flat_top_variance / bartlett_variance;
    if inflation.is_finite() { inflation.clamp(1.0, 4.0) } else { 1.0 }
}

/// `Σ_{|k|≤width} weight(|k|)·R̂(k)`: a long-run variance estimate with a symmetric lag window
/// (lags beyond the computed autocovariances count as zero).
fn windowed_variance(autocovariance: &[f64], width: usize, weight: impl Fn(usize) -> f64) -> f64 {
    let lags = autocovariance.iter().enumerate().take(width + 1).skip(1);
    autocovariance[0] + 2.0 * lags.map(|(k, r)| weight(k) * r).sum::<f64>()
}

/// `K_N`: how many consecutive insignificant autocorrelations end the search for `m̂`.
fn consecutive_insignificant(n: usize) -> usize {
    ((n as f64).log10().sqrt().ceil() as usize).max(5)
}

/// `m_max = ⌈√n⌉ + K_N`, capped so that every lag leaves at least one pair of values.
fn max_lag(n: usize) -> usize {
    let lag = ((n as f64).sqrt().ceil() as usize) + consecutive_insignificant(n);
    lag.min(n.saturating_sub(1))
}

/// Sample autocovariances `R̂(0..=max_lag)` with denominator n, or `None` when the series is too
/// short or has no (finite) variance.
fn autocovariances(series: &[f64], max_lag: usize) -> Option<Vec<f64>> {
    let n = series.len();
    if n < 3 {
        return None;
    }
    let mean = series.iter().sum::<f64>() / n as f64;
    let centred: Vec<f64> = series.iter().map(|x| x - mean).collect();
    let covariances: Vec<f64> = (0..=max_lag)
        .map(|lag| {
            let products = centred.iter().zip(&centred[lag..]).map(|(a, b)| a * b);
            products.sum::<f64>() / n as f64
        })
        .collect();
    (covariances[0] > 0.0 && covariances[0].is_finite()).then_some(covariances)
}

/// The window width `M = min(2·m̂, m_max)` from the `m̂` rule (steps 1–2 of [`block_length`]).
fn window_width(autocovariance: &[f64], n: usize) -> usize {
    let m_max = autocovariance.len() - 1;
    let k_n = consecutive_insignificant(n);
    let bound = 2.0 * ((n as f64).log10() / n as f64).sqrt();
    // insignificant[k - 1] tells whether lag k's autocorrelation is inside the bound.
    let insignificant: Vec<bool> = autocovariance[1..].iter().map(|r| (r / autocovariance[0]).abs() < bound).collect();
    let first_quiet_run =
        insignificant.windows(k_n).position(|run| run.iter().all(|&quiet| quiet)).map(|start| start + 1);
    let m_hat = first_quiet_run.unwrap_or_else(|| {
        // No quiet run in range: the dependence reaches at least as far as the last loud lag.
        insignificant.iter().rposition(|&quiet| !quiet).map_or(1, |index| index + 1)
    });
    (2 * m_hat).min(m_max).max(1)
}

/// The flat-top lag window.
fn flat_top(s: f64) -> f64 {
    let s = s.abs();
    if s <= 0.5 {
        1.0
    } else if s <= 1.0 {
        2.0 * (1.0 - s)
    } else {
        0.0
    }
}

/// `b = (2Ĝ² / D̂)^(1/3) · n^(1/3)` for the circular block bootstrap (steps 3–4).
fn circular_optimum(autocovariance: &[f64], window: usize, n: usize) -> f64 {
    let lambda = |k: usize| flat_top(k as f64 / window as f64);
    // Ĝ weighs each lag by |k|; lag 0 contributes nothing, so the window sum can be reused.
    let g = windowed_variance(autocovariance, window, |k| lambda(k) * k as f64) - autocovariance[0];
    let long_run_variance = windowed_variance(autocovariance, window, lambda);
    let d = 4.0 / 3.0 * long_run_variance * long_run_variance;
    (2.0 * g * g / d).cbrt() * (n as f64).cbrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dprng;

    /// Gaussian AR(1) with stationary start (Box–Muller innovations).
    fn ar1(rho: f64, n: usize, rng: &mut Dprng) -> Vec<f64> {
        let mut normal = || {
            let u = 1.0 - rng.f64();
            let v = rng.f64();
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        let mut x = normal() / (1.0 - rho * rho).sqrt();
        (0..n)
            .map(|_| {
                x = rho * x + normal();
                x
            })
            .collect()
    }

    /// The median block length over a few series, so that one unlucky series does not decide.
    fn typical_length(rho: f64, n: usize) -> usize {
        let mut rng = Dprng::new(2004);
        let mut lengths: Vec<usize> = (0..21).map(|_| block_length(&ar1(rho, n, &mut rng))).collect();
        lengths.sort_unstable();
        lengths[lengths.len() / 2]
    }

    /// The optimal circular-block length of a Gaussian AR(1) series, from the closed forms
    /// `G = 2ρ/(1 − ρ)²` and `σ² = (1 + ρ)/(1 − ρ)` (unit innovation variance cancels):
    /// `b = 6^(1/3) · (ρ / (1 − ρ²))^(2/3) · n^(1/3)`.
    fn theoretical_length(rho: f64, n: usize) -> f64 {
        6f64.cbrt() * (rho / (1.0 - rho * rho)).powf(2.0 / 3.0) * (n as f64).cbrt()
    }

    #[test]
    fn grows_with_autocorrelation_and_tracks_the_theory() {
        let rhos = [0.0, 0.2, 0.4, 0.6, 0.8];
        let lengths: Vec<usize> = rhos.iter().map(|&rho| typical_length(rho, 500)).collect();
        let theory: Vec<f64> = rhos.iter().map(|&rho| theoretical_length(rho, 500)).collect();
        println!("block lengths for rho {rhos:?} at n = 500: {lengths:?} (theory {theory:.1?})");
        assert!(lengths[0] <= 2, "{lengths:?}");
        assert!(lengths.windows(2).all(|pair| pair[0] < pair[1]), "{lengths:?}");
        for (&length, &optimum) in lengths.iter().zip(&theory).skip(1) {
            let relative = length as f64 / optimum;
            assert!((0.6..1.4).contains(&relative), "{lengths:?} vs {theory:?}");
        }
    }

    #[test]
    fn stays_within_bounds() {
        assert_eq!(block_length(&[]), 1);
        assert_eq!(block_length(&[1.0, 1.0, 1.0, 1.0]), 1);
        let trend: Vec<f64> = (0..12).map(f64::from).collect();
        // A steady trend is one long dependence: more than one round per block, at most half.
        let b = block_length(&trend);
        assert!((2..=6).contains(&b), "{b}");
        let mut rng = Dprng::new(9);
        // Near-unit dependence asks for long blocks (the cap is half the rounds)...
        let b = block_length(&ar1(0.99, 100, &mut rng));
        assert!((10..=50).contains(&b), "{b}");
        // ... and independent rounds for none.
        let b = block_length(&ar1(0.0, 500, &mut rng));
        assert!(b <= 2, "{b}");
    }

    #[test]
    fn inflation_is_one_without_dependence_and_about_right_with_it() {
        let mut rng = Dprng::new(31);
        let mean_inflation = |rho: f64, rng: &mut Dprng| {
            let total: f64 = (0..200)
                .map(|_| {
                    let series = ar1(rho, 200, rng);
                    block_variance_inflation(&series, block_length(&series).max(2))
                })
                .sum();
            total / 200.0
        };
        let quiet = mean_inflation(0.0, &mut rng);
        let loud = mean_inflation(0.4, &mut rng);
        // For the signs of a Gaussian AR(1) series, corr(k) = (2/π)·asin(ρᵏ); at ρ = 0.4 and the
        // typical block of 7 at n = 200, Σ corr / Σ (1 − k/7)·corr ≈ 1.12.
        println!("mean inflation at n = 200: independent {quiet:.3}, AR(1) 0.4 {loud:.3}");
        assert!(quiet < 1.08, "{quiet}");
        assert!((1.05..1.3).contains(&loud), "{loud}");
        assert_eq!(block_variance_inflation(&[2.0; 50], 5), 1.0);
        assert_eq!(block_variance_inflation(&[1.0, 2.0], 5), 1.0);
    }

    #[test]
    fn flat_top_window_shape() {
        assert_eq!(flat_top(0.3), 1.0);
        assert_eq!(flat_top(-0.5), 1.0);
        assert!((flat_top(0.75) - 0.5).abs() < 1e-12);
        assert_eq!(flat_top(1.2), 0.0);
    }
}
