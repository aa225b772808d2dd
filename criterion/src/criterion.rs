//! [`Criterion`]: the benchmark manager a `criterion_group!` target receives.

use crate::PlottingBackend;
use crate::measurement::{Measurement, WallTime};
use crate::profiler::Profiler;
use std::marker::PhantomData;
use std::path::Path;
use std::time::Duration;

/// The benchmark manager: its benchmarks, its groups, and the settings they share.
///
/// Of criterion's settings, one reaches rtcompare's engine: [`noise_threshold`] (the smallest
/// relative change that counts as a win or a loss); a group's own value overrides the
/// `Criterion`'s. The others are accepted and change nothing; each says what takes its place.
///
/// [`noise_threshold`]: Self::noise_threshold
///
/// ```no_run
/// use rtcompare_criterion::{Criterion, criterion_group};
/// use std::time::Duration;
///
/// fn bench(c: &mut Criterion) {
///     c.bench_function("sum 100", |b| b.iter(|| (0..100u64).sum::<u64>()));
/// }
///
/// criterion_group! {
///     name = benches;
///     config = Criterion::default().measurement_time(Duration::from_secs(2)).noise_threshold(0.05);
///     targets = bench
/// }
/// # fn main() {}
/// ```
pub struct Criterion<M: Measurement = WallTime> {
    noise_threshold: Option<f64>,
    // The measurement is never called (see `measurement`): only its type is kept.
    measurement: PhantomData<fn() -> M>,
}

impl Default for Criterion {
    /// A manager with no settings of its own: the engine's defaults apply.
    fn default() -> Criterion {
        Criterion { noise_threshold: None, measurement: PhantomData }
    }
}

impl<M: Measurement> Criterion<M> {
    /// Measures with `m` instead. [`WallTime`] is rtcompare's own time; any other measurement
    /// compiles, is never called, and its benchmarks are reported as not measurable by
    /// rtcompare, by the measurement's type name.
    #[must_use]
    pub fn with_measurement<M2: Measurement>(self, m: M2) -> Criterion<M2> {
        let _ = m;
        Criterion { noise_threshold: self.noise_threshold, measurement: PhantomData }
    }

    /// Accepted and ignored: rtcompare has no in-process profiling mode (profile the benchmark
    /// binary from outside, with perf or the like).
    #[must_use]
    pub fn with_profiler<P: Profiler + 'static>(self, p: P) -> Criterion<M> {
        let _ = p;
        self
    }

    /// Accepted and ignored: rtcompare draws no criterion plots.
    #[must_use]
    pub fn plotting_backend(self, backend: PlottingBackend) -> Criterion<M> {
        let _ = backend;
        self
    }

    /// Accepted and ignored: rtcompare chooses how many rounds to measure, within its budget.
    #[must_use]
    pub fn sample_size(self, n: usize) -> Criterion<M> {
        let _ = n;
        self
    }

    /// Accepted and ignored: rtcompare warms up by its own rules.
    #[must_use]
    pub fn warm_up_time(self, dur: Duration) -> Criterion<M> {
        let _ = dur;
        self
    }

    /// Accepted and ignored: rtcompare's budget sizes a decision, not criterion's 100 samples,
    /// and is the run's (`RTCOMPARE_TIME`, 1 s by default), so that a suite configured for
    /// criterion's seconds per benchmark is not measured for as long.
    #[must_use]
    pub fn measurement_time(self, dur: Duration) -> Criterion<M> {
        let _ = dur;
        self
    }

    /// Accepted and ignored: rtcompare chooses its own resampling.
    #[must_use]
    pub fn nresamples(self, n: usize) -> Criterion<M> {
        let _ = n;
        self
    }

    /// The smallest relative change that counts as a win or a loss (rtcompare's parity band),
    /// passed to rtcompare's engine (a group's own value overrides it).
    ///
    /// # Panics
    ///
    /// On a negative threshold (or NaN), as criterion does.
    #[must_use]
    pub fn noise_threshold(mut self, threshold: f64) -> Criterion<M> {
        assert!(threshold >= 0.0, "noise_threshold must not be negative, got {threshold}");
        self.noise_threshold = Some(threshold);
        self
    }

    /// Accepted and ignored: rtcompare's verdicts carry their own confidence.
    #[must_use]
    pub fn confidence_level(self, cl: f64) -> Criterion<M> {
        let _ = cl;
        self
    }

    /// Accepted and ignored: rtcompare's verdicts carry their own confidence.
    #[must_use]
    pub fn significance_level(self, sl: f64) -> Criterion<M> {
        let _ = sl;
        self
    }

    /// Accepted and ignored: rtcompare draws no criterion plots.
    #[must_use]
    pub fn with_plots(self) -> Criterion<M> {
        self
    }

    /// Accepted and ignored: rtcompare draws no criterion plots.
    #[must_use]
    pub fn without_plots(self) -> Criterion<M> {
        self
    }

    /// Accepted and ignored: rtcompare's baseline is a git revision
    /// (`RTCOMPARE_BASELINE=<rev>`), built and measured in the same run, not a saved result.
    #[must_use]
    pub fn save_baseline(self, baseline: String) -> Criterion<M> {
        let _ = baseline;
        self
    }

    /// Accepted and ignored: rtcompare's baseline is a git revision
    /// (`RTCOMPARE_BASELINE=<rev>`), built and measured in the same run, not a saved result.
    #[must_use]
    pub fn retain_baseline(self, baseline: String, strict: bool) -> Criterion<M> {
        let _ = (baseline, strict);
        self
    }

    /// Accepted and ignored: the harness selects benchmarks from the command line, as libtest
    /// does (`cargo bench -- <filter>`, `--exact`, `--skip`).
    #[must_use]
    pub fn with_filter<S: Into<String>>(self, filter: S) -> Criterion<M> {
        let _ = filter.into();
        self
    }

    /// Accepted and ignored: rtcompare's harness decides its own output's colours.
    #[must_use]
    pub fn with_output_color(self, enabled: bool) -> Criterion<M> {
        let _ = enabled;
        self
    }

    /// Accepted and ignored (criterion's own is for its tests): rtcompare writes no files into
    /// criterion's folders.
    #[must_use]
    pub fn output_directory(self, path: &Path) -> Criterion<M> {
        let _ = path;
        self
    }

    /// Accepted and ignored (criterion's own is for its tests): rtcompare has no profiling
    /// mode.
    #[must_use]
    pub fn profile_time(self, profile_time: Option<Duration>) -> Criterion<M> {
        let _ = profile_time;
        self
    }

    /// Does nothing: rtcompare's harness prints its own summary when the run ends.
    pub fn final_summary(&self) {}

    /// Returns this manager unchanged: rtcompare's harness reads the command line itself.
    #[must_use]
    pub fn configure_from_args(self) -> Criterion<M> {
        self
    }

    /// The noise threshold of a benchmark in a group that set one (or not): the group's, else
    /// this manager's.
    pub(crate) fn noise_threshold_or(&self, group: Option<f64>) -> Option<f64> {
        group.or(self.noise_threshold)
    }

    /// The type name of a custom measurement, `None` for [`WallTime`].
    pub(crate) fn custom_measurement() -> Option<&'static str> {
        (!M::__rtcompare_is_wall_time()).then(std::any::type_name::<M>)
    }
}
