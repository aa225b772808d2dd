//! Pooling several processes' measurements of one comparison: an interval over processes, so it
//! carries the variation between them (hash seeds, address layout, allocator state) and not only
//! the variation within one.
//!
//! Each process gives one estimate `d_j = 1 − median` of its own per-round ratios. Those `k`
//! estimates are independent draws of the same quantity, each carrying both its own sampling
//! error and its process's effect, so the interval is Student's t on them: `d̄ ± t_{k−1} s / √k`.
//! With few processes this is right by construction (for roughly normal `d_j`), where a
//! percentile bootstrap over five clusters cannot reach beyond their range and all five land
//! on one side of a coin-flip effect one time in sixteen. Every process counts once, whatever
//! its number of rounds.

use super::{Estimate, median, student_t_cdf, student_t_quantile};

/// The pooled estimate: the mean of the processes' differences, its t interval, and each
/// process's own difference.
///
/// ```
/// use rtcompare_judge::stats::pool_processes;
/// let pooled = pool_processes(&[&[0.90, 0.91][..], &[0.92, 0.90][..], &[0.91, 0.91][..]], 0.95);
/// assert_eq!((pooled.process_differences.len(), pooled.degrees_of_freedom), (3, 2.0));
/// assert!(pooled.estimate.low < pooled.estimate.difference && pooled.standard_error > 0.0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Pooled {
    /// `d̄`, the mean of the per-process differences, with its t interval at the level asked.
    pub estimate: Estimate,
    /// `d_j = 1 − median` of each process's per-round ratios, in process order.
    pub process_differences: Vec<f64>,
    /// `s / √k`: the standard error of `d̄` from the processes' spread.
    pub standard_error: f64,
    /// Degrees of freedom of `s`: one less than the differences it was computed from.
    pub degrees_of_freedom: f64,
}

impl Pooled {
    /// The confidence that the difference is at least `threshold`: `P(d ≥ threshold)` under the
    /// t distribution of `d̄` with `k − 1` degrees of freedom (1 or 0 when every process agrees
    /// exactly).
    ///
    /// ```
    /// use rtcompare_judge::stats::pool_processes;
    /// let pooled = pool_processes(&[&[0.90, 0.91][..], &[0.92, 0.90][..], &[0.91, 0.91][..]], 0.95);
    /// assert!(pooled.confidence(0.05) > 0.99 && pooled.confidence(0.2) < 0.01);
    /// ```
    pub fn confidence(&self, threshold: f64) -> f64 {
        let df = self.degrees_of_freedom;
        if self.standard_error > 0.0 && df > 0.0 {
            1.0 - student_t_cdf((threshold - self.estimate.difference) / self.standard_error, df)
        } else if self.estimate.difference >= threshold {
            1.0
        } else {
            0.0
        }
    }

    /// `s`, the standard deviation of one process's difference, from the processes' spread
    /// (`standard_error · √k`).
    ///
    /// ```
    /// use rtcompare_judge::stats::pool_processes;
    /// let pooled = pool_processes(&[&[0.90][..], &[0.92][..]], 0.95);
    /// assert!((pooled.process_spread() - 0.02 / 2f64.sqrt()).abs() < 1e-12);
    /// ```
    pub fn process_spread(&self) -> f64 {
        self.standard_error * (self.process_differences.len() as f64).sqrt()
    }

    /// The spread between processes: largest minus smallest per-process difference.
    ///
    /// ```
    /// use rtcompare_judge::stats::pool_processes;
    /// let pooled = pool_processes(&[&[0.90][..], &[0.95][..], &[0.92][..]], 0.95);
    /// assert!((pooled.between_process_range() - 0.05).abs() < 1e-12);
    /// ```
    pub fn between_process_range(&self) -> f64 {
        let (low, high) = self
            .process_differences
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &d| (lo.min(d), hi.max(d)));
        if low.is_finite() { high - low } else { 0.0 }
    }
}

/// Pools `groups`, one slice of per-round ratios per process, into the t interval of the mean
/// per-process difference at `level`. With one process the interval is unknown (NaN): one
/// estimate says nothing about the spread between processes.
///
/// ```
/// use rtcompare_judge::stats::pool_processes;
/// let a = [0.90, 0.91, 0.89, 0.90, 0.92];
/// let b = [0.95, 0.94, 0.96, 0.95, 0.93];
/// let pooled = pool_processes(&[&a[..], &b[..]], 0.95);
/// assert_eq!(pooled.process_differences.len(), 2);
/// assert!((pooled.estimate.difference - 0.075).abs() < 1e-12);
/// // Two processes, one degree of freedom: t = 12.7, so the interval is wide.
/// assert!(pooled.estimate.low < 0.0 && pooled.estimate.high > 0.15);
/// ```
pub fn pool_processes(groups: &[&[f64]], level: f64) -> Pooled {
    let process_differences: Vec<f64> = groups.iter().map(|g| 1.0 - median(g)).collect();
    let k = process_differences.len();
    let mean = process_differences.iter().sum::<f64>() / k.max(1) as f64;
    let degrees_of_freedom = k.saturating_sub(1) as f64;
    let variance = process_differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / degrees_of_freedom;
    let standard_error = (variance / k as f64).sqrt();
    let half = if standard_error == 0.0 {
        0.0
    } else {
        student_t_quantile(0.5 + level / 2.0, degrees_of_freedom) * standard_error
    };
    let estimate = Estimate { difference: mean, low: mean - half, high: mean + half, level };
    Pooled { estimate, process_differences, standard_error, degrees_of_freedom }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dprng;

    fn noisy(rng: &mut Dprng, centre: f64, n: usize) -> Vec<f64> {
        (0..n).map(|_| centre * (1.0 + 0.01 * (rng.f64() - 0.5))).collect()
    }

    #[test]
    fn agreeing_processes_give_a_narrow_interval_and_disagreeing_ones_a_wide_one() {
        let mut rng = Dprng::new(3);
        let agree: Vec<Vec<f64>> = (0..4).map(|_| noisy(&mut rng, 0.9, 100)).collect();
        let disagree: Vec<Vec<f64>> = [0.85, 0.95, 0.88, 0.93].iter().map(|&c| noisy(&mut rng, c, 100)).collect();
        let width = |groups: &[Vec<f64>]| {
            let slices: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
            let e = pool_processes(&slices, 0.95).estimate;
            e.high - e.low
        };
        assert!(width(&disagree) > 5.0 * width(&agree), "{} vs {}", width(&disagree), width(&agree));
    }

    #[test]
    fn identical_processes_give_a_point_and_one_process_no_interval() {
        let g = [0.9, 0.91, 0.92];
        let pooled = pool_processes(&[&g, &g, &g], 0.95);
        assert_eq!(
            (pooled.estimate.low, pooled.estimate.high),
            (pooled.estimate.difference, pooled.estimate.difference)
        );
        assert_eq!(pooled.confidence(0.0), 1.0);
        let one = pool_processes(&[&g], 0.95);
        assert!(one.estimate.low.is_nan() && one.estimate.high.is_nan());
    }

    /// Coverage of the interval, by construction and by simulation: `k` processes of 200
    /// rounds with 2 % noise, each shifted by its own normal per-process effect of `effect`
    /// within-process standard errors. 3,000 data sets per case (Monte-Carlo error 0.4 pp, so
    /// 93.5–96.5 % is nearly four errors each side).
    #[test]
    fn the_interval_covers_at_its_level_with_few_processes() {
        let within = (std::f64::consts::PI / 2.0).sqrt() * 0.02 / 200f64.sqrt();
        for (k, effect, seed) in [(2, 0.0, 1), (3, 1.0, 2), (5, 0.0, 3), (5, 2.0, 4), (5, 10.0, 5)] {
            let mut rng = Dprng::new(seed);
            let sets = 3_000;
            let covered = (0..sets)
                .filter(|_| {
                    let groups: Vec<Vec<f64>> = (0..k)
                        .map(|_| {
                            let shift = effect * within * normal(&mut rng);
                            (0..200).map(|_| (shift + 0.02 * normal(&mut rng)).exp()).collect()
                        })
                        .collect();
                    let slices: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
                    let e = pool_processes(&slices, 0.95).estimate;
                    // The true difference: 1 − median of exp(N(0, ·)) = 0.
                    e.low <= 0.0 && 0.0 <= e.high
                })
                .count();
            let coverage = covered as f64 / sets as f64;
            println!(
                "pooled t interval, {k} processes, per-process effect {effect} × se: covers {:.2} %",
                coverage * 100.0
            );
            assert!((0.935..=0.965).contains(&coverage), "k {k}, effect {effect}: {coverage}");
        }
    }

    fn normal(rng: &mut Dprng) -> f64 {
        let u = 1.0 - rng.f64();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * rng.f64()).cos()
    }
}
