//! Pooling rounds measured in several processes: a two-stage bootstrap that resamples the
//! processes, then rounds within each, so the interval carries the variation between processes
//! (hash seeds, address layout, allocator state) and not only the variation within one.

use super::{Estimate, Resampling, choose_resampling, median, quantile_sorted};
use crate::Dprng;

/// The pooled estimate: the difference over all rounds of all processes, its two-stage
/// bootstrap interval, and each process's own difference.
#[derive(Clone, Debug, PartialEq)]
pub struct Pooled {
    /// `d = 1 − median` of the per-round ratios of all processes together, with the interval.
    pub estimate: Estimate,
    /// `d_j = 1 − median` of each process's per-round ratios, in process order.
    pub process_differences: Vec<f64>,
    /// Sorted replicate differences.
    replicates: Vec<f64>,
}

impl Pooled {
    /// The sorted replicate differences.
    pub fn replicates(&self) -> &[f64] {
        &self.replicates
    }

    /// Share of replicates with `d* ≥ threshold` (the same rule as
    /// [`Bootstrap::confidence`](super::Bootstrap::confidence)).
    pub fn confidence(&self, threshold: f64) -> f64 {
        super::bootstrap::share_at_least(&self.replicates, threshold)
    }

    /// The spread between processes: largest minus smallest per-process difference.
    pub fn between_process_range(&self) -> f64 {
        let (low, high) = self
            .process_differences
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &d| (lo.min(d), hi.max(d)));
        if low.is_finite() { high - low } else { 0.0 }
    }
}

/// Two-stage bootstrap of `d = 1 − median(ratios)` over `groups`, one slice of per-round ratios
/// per process.
///
/// Each replicate draws as many processes as there are, with replacement; from each drawn
/// process it draws that process's number of rounds — independently, or in circular blocks when
/// that process's rounds are autocorrelated ([`choose_resampling`]) — and takes the median of
/// everything drawn. The percentile interval at `level` comes from the sorted replicates. Seeded:
/// the same groups and seed give the same result.
///
/// ```
/// use rtcompare_runtime::stats::bootstrap_pooled;
/// let a = [0.90, 0.91, 0.89, 0.90, 0.92];
/// let b = [0.95, 0.94, 0.96, 0.95, 0.93];
/// let pooled = bootstrap_pooled(&[&a[..], &b[..]], 0.95, 2_000, 1);
/// assert_eq!(pooled.process_differences.len(), 2);
/// assert!(pooled.estimate.low < pooled.estimate.high);
/// ```
pub fn bootstrap_pooled(groups: &[&[f64]], level: f64, resamples: usize, seed: u64) -> Pooled {
    let all: Vec<f64> = groups.iter().flat_map(|g| g.iter().copied()).collect();
    let process_differences = groups.iter().map(|g| 1.0 - median(g)).collect();
    let schemes: Vec<Resampling> = groups.iter().map(|g| choose_resampling(g)).collect();
    let mut rng = Dprng::new(seed);
    let mut buffer = Vec::with_capacity(all.len());
    let mut replicates: Vec<f64> = (0..if all.is_empty() { 0 } else { resamples })
        .map(|_| {
            buffer.clear();
            for _ in 0..groups.len() {
                let j = rng.below(groups.len());
                draw(groups[j], schemes[j], &mut rng, &mut buffer);
            }
            1.0 - middle(&mut buffer)
        })
        .collect();
    replicates.sort_by(f64::total_cmp);
    let estimate = Estimate {
        difference: 1.0 - median(&all),
        low: quantile_sorted(&replicates, (1.0 - level) / 2.0),
        high: quantile_sorted(&replicates, (1.0 + level) / 2.0),
        level,
    };
    Pooled { estimate, process_differences, replicates }
}

/// Appends `group.len()` rounds drawn from `group` to `out`.
fn draw(group: &[f64], scheme: Resampling, rng: &mut Dprng, out: &mut Vec<f64>) {
    let n = group.len();
    if n == 0 {
        return;
    }
    match scheme {
        Resampling::Blocks { len } if len > 1 => {
            let target = out.len() + n;
            while out.len() < target {
                let start = rng.below(n);
                let take = len.min(target - out.len());
                out.extend((0..take).map(|k| group[(start + k) % n]));
            }
        }
        _ => out.extend((0..n).map(|_| group[rng.below(n)])),
    }
}

/// The median of `values` by selection (reorders them).
fn middle(values: &mut [f64]) -> f64 {
    let n = values.len();
    if n == 0 {
        return f64::NAN;
    }
    let (_, upper, _) = values.select_nth_unstable_by(n / 2, f64::total_cmp);
    let upper = *upper;
    if n % 2 == 1 {
        upper
    } else {
        let lower = values[..n / 2].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lower + upper) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noisy(rng: &mut Dprng, centre: f64, n: usize) -> Vec<f64> {
        (0..n).map(|_| centre * (1.0 + 0.01 * (rng.f64() - 0.5))).collect()
    }

    #[test]
    fn one_process_matches_its_own_median() {
        let mut rng = Dprng::new(1);
        let g = noisy(&mut rng, 0.9, 101);
        let pooled = bootstrap_pooled(&[&g], 0.95, 1_000, 2);
        assert!((pooled.estimate.difference - (1.0 - median(&g))).abs() < 1e-12);
        assert_eq!(pooled.between_process_range(), 0.0);
    }

    #[test]
    fn disagreeing_processes_widen_the_interval() {
        let mut rng = Dprng::new(3);
        let agree: Vec<Vec<f64>> = (0..4).map(|_| noisy(&mut rng, 0.9, 100)).collect();
        let disagree: Vec<Vec<f64>> = [0.85, 0.95, 0.88, 0.93].iter().map(|&c| noisy(&mut rng, c, 100)).collect();
        let width = |groups: &[Vec<f64>]| {
            let slices: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
            let e = bootstrap_pooled(&slices, 0.95, 2_000, 5).estimate;
            e.high - e.low
        };
        assert!(width(&disagree) > 5.0 * width(&agree), "{} vs {}", width(&disagree), width(&agree));
    }

    #[test]
    fn pooling_is_deterministic() {
        let g = [0.9, 0.91, 0.92, 0.88];
        let h = [0.95, 0.97, 0.96, 0.94];
        assert_eq!(bootstrap_pooled(&[&g, &h], 0.95, 500, 9), bootstrap_pooled(&[&g, &h], 0.95, 500, 9));
    }
}
