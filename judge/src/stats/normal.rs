//! The standard normal distribution's tail and quantile, which std does not provide: thin calls
//! into `statrs`, with the edge cases (NaN, 0, 1) answered here so no input panics.

use statrs::distribution::{ContinuousCDF, Normal};

/// `P(|Z| ≥ |z|)` for a standard normal `Z`; 1 for NaN.
///
/// ```
/// use rtcompare_judge::stats::two_sided_normal_p;
/// assert!((two_sided_normal_p(1.959_963_985) - 0.05).abs() < 1e-6);
/// ```
pub fn two_sided_normal_p(z: f64) -> f64 {
    if z.is_nan() {
        return 1.0;
    }
    (2.0 * Normal::standard().sf(z.abs())).min(1.0)
}

/// The standard normal quantile: `z` with `P(Z ≤ z) = p`, for `0 < p < 1` (±∞ at 0 and 1, NaN
/// outside).
///
/// ```
/// use rtcompare_judge::stats::normal_quantile;
/// assert!((normal_quantile(0.975) - 1.959_963_985).abs() < 1e-8);
/// assert_eq!(normal_quantile(0.5), 0.0);
/// ```
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    if p == 0.5 {
        return 0.0;
    }
    Normal::standard().inverse_cdf(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_tail_matches_known_values() {
        assert!((two_sided_normal_p(1.959_963_985) - 0.05).abs() < 1e-6);
        assert!((two_sided_normal_p(-2.575_829_304) - 0.01).abs() < 1e-6);
        assert!((two_sided_normal_p(0.0) - 1.0).abs() < 1e-6);
        assert!(two_sided_normal_p(40.0) < 1e-100);
        assert_eq!(two_sided_normal_p(f64::NAN), 1.0);
    }

    #[test]
    fn the_quantile_matches_tables_and_inverts_the_tail() {
        for (p, z) in [(0.975, 1.959_963_985), (0.995, 2.575_829_304), (0.999_75, 3.480_756_404), (0.8, 0.841_621_234)]
        {
            assert!((normal_quantile(p) - z).abs() < 1e-7, "p = {p}");
            assert!((normal_quantile(1.0 - p) + z).abs() < 1e-7, "p = {}", 1.0 - p);
        }
        for p in [0.001, 0.01, 0.2, 0.6, 0.9, 0.9999] {
            let z = normal_quantile(p);
            let upper = two_sided_normal_p(z) / 2.0;
            let expected = if z > 0.0 { 1.0 - p } else { p };
            assert!((upper - expected).abs() < 1e-6, "p = {p}: tail {upper}");
        }
        assert!(normal_quantile(1.5).is_nan() && normal_quantile(0.0) == f64::NEG_INFINITY);
    }
}
