//! criterion's configuration values: [`BatchSize`] and [`Throughput`], which change what is
//! measured or shown, and [`SamplingMode`], [`PlotConfiguration`], [`AxisScale`],
//! [`PlottingBackend`] and [`Baseline`], which are accepted and change nothing here.

/// How [`Bencher::iter_batched`](crate::Bencher::iter_batched) and
/// [`Bencher::iter_batched_ref`](crate::Bencher::iter_batched_ref) build their inputs: how many
/// are built, outside the meter, before each metered run over them.
///
/// As in criterion: a batch of `iters` operations is cut into chunks of
/// `SmallInput`: ⌈iters / 10⌉, `LargeInput`: ⌈iters / 1000⌉, `PerIteration`: 1,
/// `NumBatches(n)`: ⌈iters / n⌉ and `NumIterations(n)`: `n` inputs. A chunk of one input meters
/// each call on its own and adds the readings.
///
/// ```
/// use rtcompare_criterion::{BatchSize, Bencher};
///
/// fn sort(b: &mut Bencher) {
///     let data: Vec<u64> = (0..1_000).rev().collect();
///     b.iter_batched(|| data.clone(), |mut v| v.sort(), BatchSize::SmallInput);
/// }
/// ```
#[derive(Debug, Eq, PartialEq, Copy, Hash, Clone)]
pub enum BatchSize {
    /// Inputs small enough that millions fit in memory: ten chunks per batch.
    SmallInput,
    /// Large inputs or outputs: a thousand chunks per batch, so fewer are alive at once.
    LargeInput,
    /// One input at a time, each call metered on its own: for inputs too large to hold many of.
    PerIteration,
    /// The batch cut into this many chunks (the last may be smaller).
    NumBatches(u64),
    /// Chunks of exactly this many inputs (the last may be smaller).
    NumIterations(u64),
}

impl BatchSize {
    /// How many inputs each chunk of a batch of `iters` operations holds.
    ///
    /// # Panics
    ///
    /// On `NumBatches(0)` or `NumIterations(0)` with `iters > 0`: no chunk size can cover the
    /// batch (criterion panics on both too).
    pub(crate) fn iters_per_batch(self, iters: u64) -> u64 {
        let size = match self {
            BatchSize::SmallInput => iters.div_ceil(10),
            BatchSize::LargeInput => iters.div_ceil(1000),
            BatchSize::PerIteration => 1,
            BatchSize::NumBatches(0) => panic!("BatchSize::NumBatches(0): the number of batches must not be zero"),
            BatchSize::NumBatches(batches) => iters.div_ceil(batches),
            BatchSize::NumIterations(size) => size,
        };
        assert!(size != 0 || iters == 0, "Batch size must not be zero.");
        size
    }
}

/// What one iteration processes, shown beside the time as a rate; set with
/// [`BenchmarkGroup::throughput`](crate::BenchmarkGroup::throughput) and passed to rtcompare's
/// engine with each benchmark of the group.
///
/// ```
/// use rtcompare_criterion::{Criterion, Throughput};
///
/// fn parse(c: &mut Criterion) {
///     let text = "1,2,3,4";
///     let mut group = c.benchmark_group("parse");
///     group.throughput(Throughput::Bytes(text.len() as u64));
///     group.bench_function("split", |b| b.iter(|| text.split(',').count()));
///     group.finish();
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Throughput {
    /// Bits per iteration (criterion 0.8).
    Bits(u64),
    /// Bytes per iteration, shown in binary multiples (KiB/s, MiB/s).
    Bytes(u64),
    /// Bytes per iteration, shown in decimal multiples (kB/s, MB/s).
    BytesDecimal(u64),
    /// Elements per iteration: items of a collection, lines, values parsed.
    Elements(u64),
    /// Both elements and bytes per iteration, elements first (criterion 0.8).
    ElementsAndBytes {
        /// Elements per iteration.
        elements: u64,
        /// Bytes per iteration.
        bytes: u64,
    },
}

/// How criterion chooses its iteration counts. Accepted and ignored: rtcompare sizes its batches
/// itself, from the measurement budget.
///
/// ```
/// use rtcompare_criterion::{Criterion, SamplingMode};
///
/// fn slow(c: &mut Criterion) {
///     let mut group = c.benchmark_group("slow");
///     group.sampling_mode(SamplingMode::Flat);
///     group.finish();
/// }
/// ```
#[derive(Debug, Default, Clone, Copy)]
pub enum SamplingMode {
    /// criterion picks one of the others from the warm-up.
    #[default]
    Auto,
    /// Iteration counts growing linearly from sample to sample.
    Linear,
    /// The same iteration count in every sample.
    Flat,
}

/// The scale of an axis of criterion's summary plots. Accepted and ignored: rtcompare draws no
/// summary plots.
#[derive(Debug, Default, Clone, Copy)]
pub enum AxisScale {
    /// A linear axis.
    #[default]
    Linear,
    /// A logarithmic axis.
    Logarithmic,
}

/// criterion's settings for a group's plots. Accepted and ignored: rtcompare draws no summary
/// plots.
///
/// ```
/// use rtcompare_criterion::{AxisScale, Criterion, PlotConfiguration};
///
/// fn sizes(c: &mut Criterion) {
///     let mut group = c.benchmark_group("sizes");
///     group.plot_config(PlotConfiguration::default().summary_scale(AxisScale::Logarithmic));
///     group.finish();
/// }
/// ```
#[derive(Debug, Default, Clone)]
pub struct PlotConfiguration {
    // Kept only so the builder has something to set; nothing reads it.
    _summary_scale: AxisScale,
}

impl PlotConfiguration {
    /// Sets the scale of the summary plots' axes (ignored).
    #[must_use]
    pub fn summary_scale(self, new_scale: AxisScale) -> PlotConfiguration {
        PlotConfiguration { _summary_scale: new_scale }
    }
}

/// criterion's plotting backends. Accepted by
/// [`Criterion::plotting_backend`](crate::Criterion::plotting_backend) and ignored: rtcompare
/// writes its own report (and an SVG picture where asked), not criterion's.
#[derive(Debug, Clone, Copy)]
pub enum PlottingBackend {
    /// criterion's gnuplot backend.
    Gnuplot,
    /// criterion's plotters backend.
    Plotters,
    /// No plots.
    None,
}

/// What criterion does with its saved baselines. Public in criterion, though none of its
/// methods takes it; here too it is only a name. rtcompare's baseline is a git revision
/// (`RTCOMPARE_BASELINE=<rev>`), built and measured in the same run, not a saved result.
#[derive(Debug, Clone, Copy)]
pub enum Baseline {
    /// Compare with a saved baseline if there is one.
    CompareLenient,
    /// Compare with a saved baseline, which must exist.
    CompareStrict,
    /// Save the results as the baseline.
    Save,
    /// Keep no results.
    Discard,
}

#[cfg(test)]
mod tests {
    use super::BatchSize;

    #[test]
    fn chunk_sizes_follow_criterion() {
        assert_eq!(BatchSize::SmallInput.iters_per_batch(100), 10);
        assert_eq!(BatchSize::SmallInput.iters_per_batch(101), 11);
        assert_eq!(BatchSize::SmallInput.iters_per_batch(7), 1);
        assert_eq!(BatchSize::LargeInput.iters_per_batch(10_000), 10);
        assert_eq!(BatchSize::LargeInput.iters_per_batch(5), 1);
        assert_eq!(BatchSize::PerIteration.iters_per_batch(1_000), 1);
        assert_eq!(BatchSize::NumBatches(3).iters_per_batch(10), 4);
        assert_eq!(BatchSize::NumIterations(7).iters_per_batch(100), 7);
        assert_eq!(BatchSize::SmallInput.iters_per_batch(0), 0);
        assert_eq!(BatchSize::SmallInput.iters_per_batch(u64::MAX), u64::MAX.div_ceil(10));
    }

    #[test]
    #[should_panic(expected = "must not be zero")]
    fn zero_iterations_per_chunk_is_refused() {
        BatchSize::NumIterations(0).iters_per_batch(10);
    }

    #[test]
    #[should_panic(expected = "NumBatches(0)")]
    fn zero_batches_is_refused() {
        BatchSize::NumBatches(0).iters_per_batch(10);
    }
}
