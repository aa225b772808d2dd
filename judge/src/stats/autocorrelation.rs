//! Serial dependence: how much each measurement resembles the one before it.
//!
//! Neighbouring rounds share the machine's state (frequency, cache, a background job), so their
//! timings are rarely independent. The bootstrap in [`super::bootstrap`] assumes independence
//! unless told otherwise; the lag-1 autocorrelation measured here is what tells it otherwise.

/// The lag-1 autocorrelation of `series`: the correlation of each value with its successor.
///
/// It is the usual sample estimator
/// `r₁ = Σₜ (xₜ − x̄)(xₜ₊₁ − x̄) / Σₜ (xₜ − x̄)²`, with both sums around the mean of the whole
/// series and the denominator over all `n` values (the form whose values always lie in [−1, 1]).
/// Independent data give values near 0 (about ±2/√n); a series that wanders slowly gives values
/// near 1.
///
/// Returns 0.0 for fewer than three values or a series without variance (a constant series,
/// which quantized timings produce often): there is then no dependence to speak of, and 0.0 keeps
/// the caller on the plain (independent) resampling scheme instead of propagating a NaN.
///
/// ```
/// use rtcompare_judge::stats::lag1_autocorrelation;
/// // A series that alternates is strongly negatively correlated with itself at lag 1.
/// let r = lag1_autocorrelation(&[1.0, -1.0, 1.0, -1.0, 1.0, -1.0]);
/// assert!(r < -0.8);
/// assert_eq!(lag1_autocorrelation(&[3.0, 3.0, 3.0, 3.0]), 0.0);
/// // Also where the mean of equal values rounds off them (exact counts, repeated).
/// assert_eq!(lag1_autocorrelation(&[1.0299801381584701; 10]), 0.0);
/// ```
pub fn lag1_autocorrelation(series: &[f64]) -> f64 {
    let n = series.len();
    // Equal values do not vary, so they cannot vary together; their mean may round off them,
    // which would leave a spurious variance of rounding errors, all of one sign.
    if n < 3 || series.iter().all(|&x| x == series[0]) {
        return 0.0;
    }
    let mean = series.iter().sum::<f64>() / n as f64;
    let variance: f64 = series.iter().map(|x| (x - mean) * (x - mean)).sum();
    // A non-finite variance (an infinite value in the series) has no meaningful correlation either.
    if variance <= 0.0 || !variance.is_finite() {
        return 0.0;
    }
    let covariance: f64 = series.windows(2).map(|pair| (pair[0] - mean) * (pair[1] - mean)).sum();
    covariance / variance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dprng;

    /// An AR(1) series `xₜ = ρ·xₜ₋₁ + eₜ` with uniform innovations (enough for these checks).
    fn ar1(rho: f64, n: usize, seed: u64) -> Vec<f64> {
        let mut rng = Dprng::new(seed);
        let mut x = 0.0;
        (0..n)
            .map(|_| {
                x = rho * x + (rng.f64() - 0.5);
                x
            })
            .collect()
    }

    #[test]
    fn short_or_constant_series_have_no_autocorrelation() {
        assert_eq!(lag1_autocorrelation(&[]), 0.0);
        assert_eq!(lag1_autocorrelation(&[1.0, 2.0]), 0.0);
        assert_eq!(lag1_autocorrelation(&[5.0; 10]), 0.0);
        assert_eq!(lag1_autocorrelation(&[1.0, f64::INFINITY, 2.0]), 0.0);
    }

    #[test]
    fn recovers_the_coefficient_of_an_ar1_series() {
        for rho in [0.0, 0.4, 0.8] {
            let r = lag1_autocorrelation(&ar1(rho, 20_000, 11));
            println!("rho {rho}: measured {r:.3}");
            assert!((r - rho).abs() < 0.03, "rho {rho}: measured {r}");
        }
    }

    #[test]
    fn a_trend_is_strongly_autocorrelated() {
        let trend: Vec<f64> = (0..100).map(f64::from).collect();
        assert!(lag1_autocorrelation(&trend) > 0.9);
    }
}
