//! The standard normal distribution's tail and quantile, which std does not provide.

/// `P(|Z| ≥ |z|)` for a standard normal `Z`; 1 for NaN.
///
/// ```
/// use rtcompare_runtime::stats::two_sided_normal_p;
/// assert!((two_sided_normal_p(1.959_963_985) - 0.05).abs() < 1e-6);
/// ```
pub fn two_sided_normal_p(z: f64) -> f64 {
    if z.is_nan() {
        return 1.0;
    }
    erfc(z.abs() / std::f64::consts::SQRT_2).min(1.0)
}

/// The complementary error function for `x ≥ 0`, by the Chebyshev-fitted rational approximation
/// of Press et al. (Numerical Recipes, `erfcc`), relative error below 1.2·10⁻⁷ everywhere: far
/// finer than any decision taken at a 5 % level needs, and std has no `erfc` on stable Rust.
fn erfc(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * x);
    let poly = -1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    t * (-x * x + poly).exp()
}

/// The standard normal quantile: `z` with `P(Z ≤ z) = p`, for `0 < p < 1` (±∞ at 0 and 1, NaN
/// outside). Acklam's rational approximation, relative error below 1.2·10⁻⁹.
///
/// ```
/// use rtcompare_runtime::stats::normal_quantile;
/// assert!((normal_quantile(0.975) - 1.959_963_985).abs() < 1e-8);
/// assert_eq!(normal_quantile(0.5), 0.0);
/// ```
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    const LOW: f64 = 0.024_25;
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
    let tail = |q: f64| {
        let q = (-2.0 * q.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < LOW {
        tail(p)
    } else if p > 1.0 - LOW {
        -tail(1.0 - p)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
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
