//! Student's t distribution: its distribution function and quantile, for intervals built from
//! a handful of independent estimates (one per process). The distribution function is `statrs`'s;
//! the edge cases (NaN, `df ≤ 0`, `p` at 0 or 1) are answered here so no input panics.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// `P(T ≤ t)` for Student's t with `df` degrees of freedom (`df > 0`), through the regularized
/// incomplete beta function: `P(|T| > |t|) = I_{df / (df + t²)}(df / 2, 1 / 2)`. NaN for a NaN
/// `t` or a `df` that is NaN or not positive.
///
/// ```
/// use rtcompare_judge::stats::student_t_cdf;
/// assert!((student_t_cdf(2.776_445, 4.0) - 0.975).abs() < 1e-6);
/// assert_eq!(student_t_cdf(0.0, 3.0), 0.5);
/// ```
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    match StudentsT::new(0.0, 1.0, df) {
        Ok(distribution) if !t.is_nan() => distribution.cdf(t),
        _ => f64::NAN,
    }
}

/// The `p`-quantile of Student's t with `df` degrees of freedom, by bisection on
/// [`student_t_cdf`] (to 1e-12 in `t`); ±∞ at 0 and 1, NaN outside and for a `df` that is NaN or
/// not positive. Not `statrs`'s own quantile: it inverts the incomplete beta function, which
/// loses its way for many degrees of freedom (−0.19 for the 0.188-quantile at a million, where
/// −0.885 is right).
///
/// ```
/// use rtcompare_judge::stats::student_t_quantile;
/// assert!((student_t_quantile(0.975, 4.0) - 2.776_445).abs() < 1e-5);
/// assert!((student_t_quantile(0.975, 1e6) - 1.959_966).abs() < 1e-4);
/// ```
pub fn student_t_quantile(p: f64, df: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    if p < 0.5 {
        return -student_t_quantile(1.0 - p, df);
    }
    let mut high = 1.0;
    while student_t_cdf(high, df) < p && high < 1e12 {
        high *= 2.0;
    }
    let mut low = 0.0;
    while high - low > 1e-12 * high.max(1.0) {
        let mid = (low + high) / 2.0;
        if student_t_cdf(mid, df) < p { low = mid } else { high = mid }
    }
    (low + high) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_the_tables() {
        // (p, df, t) from standard tables.
        for (p, df, t) in [
            (0.975, 1.0, 12.706_205),
            (0.975, 2.0, 4.302_653),
            (0.975, 3.0, 3.182_446),
            (0.975, 4.0, 2.776_445),
            (0.95, 4.0, 2.131_847),
            (0.995, 4.0, 4.604_095),
            (0.975, 10.0, 2.228_139),
            (0.975, 30.0, 2.042_272),
        ] {
            let q = student_t_quantile(p, df);
            assert!((q - t).abs() < 1e-5 * t, "p {p}, df {df}: {q} against {t}");
            assert!((student_t_quantile(1.0 - p, df) + t).abs() < 1e-5 * t);
        }
    }
}
