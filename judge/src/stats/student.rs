//! Student's t distribution: its distribution function and quantile, for intervals built from
//! a handful of independent estimates (one per process).

/// `P(T ≤ t)` for Student's t with `df` degrees of freedom (`df > 0`), through the regularized
/// incomplete beta function: `P(|T| > |t|) = I_{df / (df + t²)}(df / 2, 1 / 2)`.
///
/// ```
/// use rtcompare_runtime::stats::student_t_cdf;
/// assert!((student_t_cdf(2.776_445, 4.0) - 0.975).abs() < 1e-6);
/// assert_eq!(student_t_cdf(0.0, 3.0), 0.5);
/// ```
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    if t.is_nan() || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if t == 0.0 {
        return 0.5;
    }
    let two_sided = incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    if t > 0.0 { 1.0 - two_sided / 2.0 } else { two_sided / 2.0 }
}

/// The `p`-quantile of Student's t with `df` degrees of freedom, by bisection on
/// [`student_t_cdf`] (to 1e-12 in `t`); ±∞ at 0 and 1, NaN outside.
///
/// ```
/// use rtcompare_runtime::stats::student_t_quantile;
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

/// The regularized incomplete beta function `I_x(a, b)`, by its continued fraction (modified
/// Lentz), using the symmetry `I_x(a, b) = 1 − I_{1−x}(b, a)` where the fraction converges
/// faster (Press et al., Numerical Recipes, `betai`).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..300 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        for numerator in [m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))]
        {
            d = 1.0 + numerator * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + numerator / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// `ln Γ(x)` for `x > 0`, by the Lanczos approximation (g = 7, 9 terms), relative error about
/// 1e-15.
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (i, c) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
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

    #[test]
    fn ln_gamma_matches_factorials() {
        for (n, factorial) in [(1.0, 1.0f64), (2.0, 1.0), (5.0, 24.0), (11.0, 3_628_800.0)] {
            assert!((ln_gamma(n) - factorial.ln()).abs() < 1e-10, "{n}");
        }
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-10);
    }
}
