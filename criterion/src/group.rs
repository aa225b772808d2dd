//! [`BenchmarkGroup`]: benchmarks sharing a name and settings; every `bench_function` and
//! `bench_with_input` ends here, in one call of the engine.

use crate::benchmark::Benchmark;
use crate::criterion::Criterion;
use crate::engine::{self, Serve};
use crate::id::{BenchmarkId, IntoBenchmarkId, full_id};
use crate::measurement::{Measurement, WallTime};
use crate::{Bencher, PlotConfiguration, SamplingMode, Throughput};
use std::panic::Location;
use std::time::Duration;

/// Benchmarks that share a name (the first part of their ids) and settings, from
/// [`Criterion::benchmark_group`].
///
/// Of criterion's settings, [`noise_threshold`] (overriding the `Criterion`'s) and
/// [`throughput`] reach rtcompare's engine; the others are accepted and change nothing.
/// [`finish`](Self::finish) ends the group; dropping it does the same.
///
/// [`noise_threshold`]: Self::noise_threshold
/// [`throughput`]: Self::throughput
///
/// ```
/// use rtcompare_criterion::{BenchmarkId, Criterion, Throughput};
/// use std::time::Duration;
///
/// fn from_elem(c: &mut Criterion) {
///     let mut group = c.benchmark_group("from_elem");
///     group.measurement_time(Duration::from_secs(2));
///     for size in [1024usize, 4096] {
///         group.throughput(Throughput::Bytes(size as u64));
///         // from_elem/1024, from_elem/4096
///         group.bench_with_input(BenchmarkId::from_parameter(size), &size, |b, &size| {
///             b.iter(|| vec![0u8; size]);
///         });
///     }
///     group.finish();
/// }
/// ```
pub struct BenchmarkGroup<'a, M: Measurement = WallTime> {
    criterion: &'a mut Criterion<M>,
    name: String,
    noise_threshold: Option<f64>,
    throughput: Option<Throughput>,
    // The full ids benchmarked so far, to refuse a duplicate as criterion does.
    ids: Vec<String>,
}

// `Criterion`'s methods that start benchmarks, here beside the group they all run through, so
// that the manager does not reach down to its groups.
impl<M: Measurement> Criterion<M> {
    /// A group of benchmarks sharing a name (the first part of their ids) and settings.
    ///
    /// # Panics
    ///
    /// On an empty name, as criterion does.
    ///
    /// ```
    /// use rtcompare_criterion::Criterion;
    ///
    /// fn bench(c: &mut Criterion) {
    ///     let mut group = c.benchmark_group("My Group");
    ///     group.bench_function("Bench 1", |b| b.iter(|| 1));
    ///     group.bench_function("Bench 2", |b| b.iter(|| 2));
    ///     group.finish();
    /// }
    /// ```
    pub fn benchmark_group<S: Into<String>>(&mut self, group_name: S) -> BenchmarkGroup<'_, M> {
        let group_name = group_name.into();
        assert!(!group_name.is_empty(), "Group name must not be empty.");
        BenchmarkGroup::new(self, group_name)
    }

    /// Benchmarks `f`, with the id `id` as written.
    ///
    /// ```no_run
    /// use rtcompare_criterion::{Criterion, criterion_group, criterion_main};
    /// use std::hint::black_box;
    ///
    /// fn fibonacci(n: u64) -> u64 {
    ///     if n < 2 { n } else { fibonacci(n - 1) + fibonacci(n - 2) }
    /// }
    ///
    /// fn bench(c: &mut Criterion) {
    ///     c.bench_function("fib 20", |b| b.iter(|| fibonacci(black_box(20))));
    /// }
    ///
    /// criterion_group!(benches, bench);
    /// criterion_main!(benches);
    /// ```
    #[track_caller]
    pub fn bench_function<F>(&mut self, id: &str, mut f: F) -> &mut Criterion<M>
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        let location = Location::caller();
        self.benchmark_group(id).run(location, BenchmarkId { function: None, parameter: None }, &(), |b, _| f(b));
        self
    }

    /// Benchmarks `f` on `input`; the id `BenchmarkId::new("name", parameter)` is
    /// `name/parameter`, as in criterion.
    ///
    /// # Panics
    ///
    /// On an id from [`BenchmarkId::from_parameter`], which has no function name to serve as
    /// the group's, as criterion does.
    ///
    /// ```
    /// use rtcompare_criterion::{BenchmarkId, Criterion};
    ///
    /// fn bench(c: &mut Criterion) {
    ///     let size = 1024usize;
    ///     c.bench_with_input(BenchmarkId::new("input_example", size), &size, |b, &s| {
    ///         b.iter(|| vec![0u8; s]);
    ///     });
    /// }
    /// ```
    #[track_caller]
    pub fn bench_with_input<F, I>(&mut self, id: BenchmarkId, input: &I, f: F) -> &mut Criterion<M>
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        let location = Location::caller();
        let Some(group) = id.function else {
            panic!(
                "Cannot use BenchmarkId::from_parameter with Criterion::bench_with_input: it has no function \
                 name. Use a BenchmarkGroup, or BenchmarkId::new."
            );
        };
        self.benchmark_group(group).run(location, BenchmarkId { function: None, parameter: id.parameter }, input, f);
        self
    }
}

impl<'a, M: Measurement> BenchmarkGroup<'a, M> {
    pub(crate) fn new(criterion: &'a mut Criterion<M>, name: String) -> BenchmarkGroup<'a, M> {
        BenchmarkGroup { criterion, name, noise_threshold: None, throughput: None, ids: Vec::new() }
    }

    /// Accepted and ignored: rtcompare chooses how many rounds to measure, within its budget.
    pub fn sample_size(&mut self, n: usize) -> &mut Self {
        let _ = n;
        self
    }

    /// Accepted and ignored: rtcompare warms up by its own rules.
    pub fn warm_up_time(&mut self, dur: Duration) -> &mut Self {
        let _ = dur;
        self
    }

    /// Accepted and ignored: the budget is the run's (`RTCOMPARE_TIME`), as
    /// [`Criterion::measurement_time`] says.
    pub fn measurement_time(&mut self, dur: Duration) -> &mut Self {
        let _ = dur;
        self
    }

    /// Accepted and ignored: rtcompare chooses its own resampling.
    pub fn nresamples(&mut self, n: usize) -> &mut Self {
        let _ = n;
        self
    }

    /// The smallest relative change that counts as a win or a loss in this group (rtcompare's
    /// parity band), passed to rtcompare's engine in place of the `Criterion`'s.
    ///
    /// # Panics
    ///
    /// On a negative threshold (or NaN), as criterion does.
    pub fn noise_threshold(&mut self, threshold: f64) -> &mut Self {
        assert!(threshold >= 0.0, "noise_threshold must not be negative, got {threshold}");
        self.noise_threshold = Some(threshold);
        self
    }

    /// Accepted and ignored: rtcompare's verdicts carry their own confidence.
    pub fn confidence_level(&mut self, cl: f64) -> &mut Self {
        let _ = cl;
        self
    }

    /// Accepted and ignored: rtcompare's verdicts carry their own confidence.
    pub fn significance_level(&mut self, sl: f64) -> &mut Self {
        let _ = sl;
        self
    }

    /// Accepted and ignored: rtcompare draws no summary plots.
    pub fn plot_config(&mut self, new_config: PlotConfiguration) -> &mut Self {
        let _ = new_config;
        self
    }

    /// What each iteration of the benchmarks defined after this call processes, passed to
    /// rtcompare's engine with each of them.
    pub fn throughput(&mut self, throughput: Throughput) -> &mut Self {
        self.throughput = Some(throughput);
        self
    }

    /// Accepted and ignored: rtcompare sizes its batches itself.
    pub fn sampling_mode(&mut self, new_mode: SamplingMode) -> &mut Self {
        let _ = new_mode;
        self
    }

    /// Benchmarks `f` as `group/id`.
    ///
    /// # Panics
    ///
    /// On an id already used in this group, or an empty function name, as criterion does.
    #[track_caller]
    pub fn bench_function<ID: IntoBenchmarkId, F>(&mut self, id: ID, mut f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>),
    {
        let location = Location::caller();
        self.run(location, id.into_benchmark_id(), &(), |b, _| f(b));
        self
    }

    /// Benchmarks `f` on `input` as `group/id`.
    ///
    /// # Panics
    ///
    /// On an id already used in this group, or an empty function name, as criterion does.
    #[track_caller]
    pub fn bench_with_input<ID: IntoBenchmarkId, F, I>(&mut self, id: ID, input: &I, f: F) -> &mut Self
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        let location = Location::caller();
        self.run(location, id.into_benchmark_id(), input, f);
        self
    }

    /// Ends the group (dropping it does the same).
    pub fn finish(self) {}

    /// What the engine is told of the benchmark `id` of this group, called at `location`.
    pub(crate) fn describe(&self, id: &BenchmarkId, location: &'static Location<'static>) -> Benchmark {
        Benchmark {
            id: full_id(&self.name, id.function.as_deref(), id.parameter.as_deref()),
            group: self.name.clone(),
            function: id.function.clone(),
            parameter: id.parameter.clone(),
            throughput: self.throughput.clone(),
            noise_threshold: self.criterion.noise_threshold_or(self.noise_threshold),
            location,
            custom_measurement: Criterion::<M>::custom_measurement(),
        }
    }

    /// Hands the benchmark `id` to the engine, which calls `f` with a [`Bencher`] whenever it
    /// measures it.
    pub(crate) fn run<I, F>(&mut self, location: &'static Location<'static>, id: BenchmarkId, input: &I, mut f: F)
    where
        F: FnMut(&mut Bencher<'_, M>, &I),
        I: ?Sized,
    {
        let benchmark = self.describe(&id, location);
        assert!(
            !self.ids.contains(&benchmark.id),
            "Benchmark IDs must be unique within a group. Encountered duplicated benchmark ID {}",
            benchmark.id
        );
        self.ids.push(benchmark.id.clone());
        engine::benchmark(benchmark, &mut |serve: &mut Serve<'_>| {
            let mut bencher = Bencher::new(serve);
            f(&mut bencher, input);
            assert!(bencher.iterated(), "Benchmark function must call Bencher::iter or related method.");
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::benchmark::Benchmark;
    use crate::measurement::{Measurement, ValueFormatter, WallTime};
    use crate::{BenchmarkId, Criterion, IntoBenchmarkId, Throughput};
    use std::panic::Location;
    use std::time::Duration;

    fn describe<M: Measurement>(c: &mut Criterion<M>, group: &str, id: impl IntoBenchmarkId) -> Benchmark {
        c.benchmark_group(group).describe(&id.into_benchmark_id(), Location::caller())
    }

    #[test]
    fn the_criterions_settings_reach_each_benchmark() {
        let mut c = Criterion::default().measurement_time(Duration::from_secs(7)).noise_threshold(0.02);
        let benchmark = describe(&mut c, "parse", "split");
        assert_eq!(benchmark.id, "parse/split");
        assert_eq!(benchmark.noise_threshold, Some(0.02));
        assert_eq!(benchmark.throughput, None);
        assert_eq!(benchmark.custom_measurement, None);
    }

    #[test]
    fn nothing_set_leaves_the_engines_defaults() {
        let benchmark = describe(&mut Criterion::default(), "g", "f");
        assert_eq!((benchmark.noise_threshold, benchmark.throughput), (None, None));
    }

    #[test]
    fn a_groups_settings_override_the_criterions() {
        let mut c = Criterion::default().measurement_time(Duration::from_secs(7)).noise_threshold(0.02);
        let mut group = c.benchmark_group("parse");
        group.measurement_time(Duration::from_secs(1)).noise_threshold(0.1).throughput(Throughput::Bytes(4096));
        // Ignored settings change nothing.
        group.sample_size(10).warm_up_time(Duration::from_secs(1)).nresamples(1000).confidence_level(0.9);
        let benchmark = group.describe(&BenchmarkId::new("split", 4096), Location::caller());
        assert_eq!(benchmark.id, "parse/split/4096");
        assert_eq!(benchmark.noise_threshold, Some(0.1));
        assert_eq!(benchmark.throughput, Some(Throughput::Bytes(4096)));
        group.finish();
        // The next group starts from the Criterion's values again.
        let benchmark = describe(&mut c, "other", "f");
        assert_eq!(benchmark.noise_threshold, Some(0.02));
        assert_eq!(benchmark.throughput, None);
    }

    #[test]
    fn a_group_setting_alone_applies() {
        let mut c = Criterion::default();
        let mut group = c.benchmark_group("g");
        group.noise_threshold(0.0);
        let benchmark = group.describe(&"f".into_benchmark_id(), Location::caller());
        assert_eq!(benchmark.noise_threshold, Some(0.0));
    }

    #[test]
    fn settings_survive_with_measurement() {
        let c = Criterion::default().noise_threshold(0.03).with_filter("parse/.*");
        let mut c = c.with_measurement(WallTime).measurement_time(Duration::from_secs(3));
        let benchmark = describe(&mut c, "g", "f");
        assert_eq!(benchmark.noise_threshold, Some(0.03));
        assert_eq!(benchmark.custom_measurement, None);
    }

    /// A measurement rtcompare cannot take: named, never called.
    struct Cycles;

    impl Measurement for Cycles {
        type Intermediate = ();
        type Value = u64;
        fn start(&self) {
            unreachable!("a custom measurement is never called")
        }
        fn end(&self, _: ()) -> u64 {
            unreachable!("a custom measurement is never called")
        }
        fn add(&self, _: &u64, _: &u64) -> u64 {
            unreachable!("a custom measurement is never called")
        }
        fn zero(&self) -> u64 {
            unreachable!("a custom measurement is never called")
        }
        fn to_f64(&self, _: &u64) -> f64 {
            unreachable!("a custom measurement is never called")
        }
        fn formatter(&self) -> &dyn ValueFormatter {
            unreachable!("a custom measurement is never called")
        }
    }

    #[test]
    fn a_custom_measurement_is_named_for_the_engine() {
        let mut c = Criterion::default().with_measurement(Cycles);
        let benchmark = describe(&mut c, "g", "f");
        assert_eq!(benchmark.custom_measurement, Some(std::any::type_name::<Cycles>()));
        assert!(std::any::type_name::<Cycles>().ends_with("::Cycles"));
    }

    #[test]
    fn criterions_own_benchmarks_are_named_as_criterion_names_them() {
        // `Criterion::bench_function("fib 20", …)` is the group `fib 20` with no function.
        let benchmark = describe(&mut Criterion::default(), "fib 20", BenchmarkId { function: None, parameter: None });
        assert_eq!(benchmark.id, "fib 20");
    }

    #[test]
    #[should_panic(expected = "Benchmark IDs must be unique within a group. Encountered duplicated benchmark ID g/f")]
    fn a_duplicate_id_in_a_group_is_refused() {
        let mut c = Criterion::default();
        let mut group = c.benchmark_group("g");
        let location = Location::caller();
        // `run` checks before handing the benchmark to the engine; the routine is never served
        // by this test's second call.
        group.ids.push("g/f".to_owned());
        group.run(location, "f".into_benchmark_id(), &(), |b, _| b.iter(|| ()));
    }

    #[test]
    #[should_panic(expected = "Group name must not be empty.")]
    fn an_empty_group_name_is_refused() {
        let _ = Criterion::default().benchmark_group("");
    }

    #[test]
    #[should_panic(expected = "Cannot use BenchmarkId::from_parameter with Criterion::bench_with_input")]
    fn criterions_bench_with_input_needs_a_function_name() {
        Criterion::default().bench_with_input(BenchmarkId::from_parameter(1), &1, |b, _| b.iter(|| ()));
    }
}
