//! Order statistics: quantiles, medians and the five-number summary.

/// The `q`-quantile of already sorted values, interpolating linearly between order statistics
/// (Hyndman–Fan type 7, the default of R and NumPy). Returns NaN for an empty slice.
///
/// ```
/// use rtcompare_judge::stats::quantile_sorted;
/// assert_eq!(quantile_sorted(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
/// ```
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let position = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let lower = position.floor() as usize;
            let upper = (lower + 1).min(n - 1);
            let weight = position - lower as f64;
            sorted[lower] + (sorted[upper] - sorted[lower]) * weight
        }
    }
}

/// Sorts a copy of `values` (NaN last) for the quantile functions.
pub fn sorted_copy(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// The median of `values` (NaN for an empty slice).
///
/// ```
/// use rtcompare_judge::stats::median;
/// assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
/// ```
pub fn median(values: &[f64]) -> f64 {
    quantile_sorted(&sorted_copy(values), 0.5)
}

/// Minimum, quartiles, median and maximum of a set of values.
///
/// ```
/// use rtcompare::stats::Summary;
/// let s = Summary::of(&[4.0, 1.0, 3.0, 2.0]);
/// assert_eq!((s.count, s.median, s.mean), (4, 2.5, 2.5));
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    /// How many values.
    pub count: usize,
    /// The smallest value.
    pub min: f64,
    /// The first quartile (25 %).
    pub q1: f64,
    /// The median.
    pub median: f64,
    /// The third quartile (75 %).
    pub q3: f64,
    /// The largest value.
    pub max: f64,
    /// The arithmetic mean.
    pub mean: f64,
}

impl Summary {
    /// Summarises `values`; all fields are NaN (and `count` 0) for an empty slice.
    ///
    /// ```
    /// use rtcompare::stats::Summary;
    /// let s = Summary::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
    /// assert_eq!((s.min, s.q1, s.median, s.q3, s.max), (1.0, 2.0, 3.0, 4.0, 5.0));
    /// ```
    pub fn of(values: &[f64]) -> Summary {
        let sorted = sorted_copy(values);
        let mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
        Summary {
            count: sorted.len(),
            min: quantile_sorted(&sorted, 0.0),
            q1: quantile_sorted(&sorted, 0.25),
            median: quantile_sorted(&sorted, 0.5),
            q3: quantile_sorted(&sorted, 0.75),
            max: quantile_sorted(&sorted, 1.0),
            mean,
        }
    }

    /// The interquartile range relative to the median, `(q3 − q1) / median`: the spread the
    /// parity rule uses. Zero when the median is zero.
    ///
    /// ```
    /// use rtcompare::stats::Summary;
    /// assert_eq!(Summary::of(&[90.0, 95.0, 100.0, 105.0, 110.0]).relative_iqr(), 0.1);
    /// ```
    pub fn relative_iqr(&self) -> f64 {
        if self.median == 0.0 { 0.0 } else { (self.q3 - self.q1) / self.median.abs() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_like_r_type_7() {
        let sorted = [10.0, 20.0, 30.0, 40.0];
        assert_eq!(quantile_sorted(&sorted, 0.0), 10.0);
        assert_eq!(quantile_sorted(&sorted, 1.0), 40.0);
        assert!((quantile_sorted(&sorted, 0.25) - 17.5).abs() < 1e-12);
        assert!((quantile_sorted(&sorted, 0.9) - 37.0).abs() < 1e-12);
        assert!(quantile_sorted(&[], 0.5).is_nan());
        assert_eq!(quantile_sorted(&[5.0], 0.3), 5.0);
    }

    #[test]
    fn relative_iqr_sees_two_modes() {
        let s = Summary::of(&[570.0, 575.0, 580.0, 715.0, 720.0, 725.0]);
        assert!(s.relative_iqr() > 0.2, "{}", s.relative_iqr());
    }
}
