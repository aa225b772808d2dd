//! criterion's API over rtcompare: benchmarks written for criterion 0.5 to 0.8 compile
//! unchanged, and each is measured by rtcompare and judged win, parity or loss against a git
//! revision.
//!
//! # The switch
//!
//! One line in `Cargo.toml`, the rest of the bench target as it is (`harness = false` stays):
//!
//! ```toml
//! [dev-dependencies]
//! criterion = { package = "rtcompare-criterion", path = "…" }
//! ```
//!
//! The benchmarks are then compared with the same code at the revision named by
//! `RTCOMPARE_BASELINE=<rev>`, built and measured in the same run; rtcompare's harness reads
//! the command line, prints the verdicts and sets the exit status. Without `RTCOMPARE_BASELINE`
//! each benchmark is measured alone for the run's budget and passes, printed as criterion prints
//! it: `time:   [low median high]`, the median time per iteration with its 95 % interval, and
//! `thrpt:` where a throughput is set.
//!
//! ```no_run
//! use rtcompare_criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
//! use std::hint::black_box;
//!
//! fn fibonacci(n: u64) -> u64 {
//!     if n < 2 { n } else { fibonacci(n - 1) + fibonacci(n - 2) }
//! }
//!
//! fn bench(c: &mut Criterion) {
//!     c.bench_function("fib 20", |b| b.iter(|| fibonacci(black_box(20))));
//!     let mut group = c.benchmark_group("Fibonacci");
//!     for n in [10u64, 15] {
//!         group.bench_with_input(BenchmarkId::new("Recursive", n), &n, |b, &n| b.iter(|| fibonacci(n)));
//!     }
//!     group.finish();
//! }
//!
//! criterion_group!(benches, bench);
//! criterion_main!(benches);
//! ```
//!
//! # criterion's items here
//!
//! *Mapped*: does what it does in criterion, through rtcompare. *Accepted, ignored*: compiles
//! and changes nothing; the cell says what takes its place. *Not provided*: absent, so code
//! using it fails to compile, naming it.
//!
//! | criterion item | here |
//! | --- | --- |
//! | `criterion_group!` (both forms) | mapped |
//! | `criterion_main!` | mapped: `main` runs the groups under rtcompare's harness |
//! | `Criterion::default`, `benchmark_group`, `bench_function`, `bench_with_input` | mapped; ids are criterion's (`group/function/parameter`) |
//! | `Criterion::measurement_time`, `BenchmarkGroup::measurement_time` | accepted, ignored: the budget is the run's, `RTCOMPARE_TIME` (1 s by default); criterion's is sized for 100 samples, rtcompare's for a decision, and a suite set to criterion's seconds would be measured for as long |
//! | `Criterion::noise_threshold`, `BenchmarkGroup::noise_threshold` | mapped: the parity band, the smallest relative change that is a win or a loss (the group's overrides) |
//! | `BenchmarkGroup::throughput`, `Throughput` (all variants of 0.5 and 0.8) | mapped: passed with each benchmark, for its rate |
//! | `Criterion::with_filter` | accepted, ignored: benchmarks are selected on the command line (`cargo bench -- <filter>`, `--exact`, `--skip`) |
//! | `Criterion::configure_from_args` | accepted: returns the `Criterion`; the harness reads the command line |
//! | `Criterion::final_summary` | accepted, ignored: the harness prints its summary |
//! | `sample_size`, `warm_up_time`, `nresamples`, `sampling_mode`, `SamplingMode` | accepted, ignored: rtcompare sizes its batches and rounds within its budget |
//! | `confidence_level`, `significance_level` | accepted, ignored: each verdict carries rtcompare's own confidence, and a benchmark measured alone (no `RTCOMPARE_BASELINE`) a 95 % interval |
//! | `save_baseline`, `retain_baseline`, `Baseline` | accepted, ignored: the baseline is the git revision `RTCOMPARE_BASELINE`, not a saved result |
//! | `plotting_backend`, `with_plots`, `without_plots`, `plot_config`, `PlottingBackend`, `PlotConfiguration`, `AxisScale` | accepted, ignored: rtcompare's own report replaces criterion's plots |
//! | `with_output_color`, `output_directory`, `profile_time` | accepted, ignored: rtcompare's harness has its own output and no profiling mode |
//! | `with_profiler`, `profiler::Profiler`, `profiler::ExternalProfiler` | accepted, ignored: no in-process profiling mode; profile the binary from outside |
//! | `with_measurement`, `measurement::{Measurement, ValueFormatter, WallTime}` | `WallTime` mapped (rtcompare's time); any other measurement compiles and its benchmarks are reported as not measurable by rtcompare |
//! | `BenchmarkGroup::finish` (or drop) | mapped: ends the group |
//! | `BenchmarkId::new`, `from_parameter`, `IntoBenchmarkId` | mapped |
//! | comparing functions (several `BenchmarkId::new(function, input)` in one group) | mapped where `[package.metadata.rtcompare.group-baselines]` in `Cargo.toml` names the group's baseline function (`Fibonacci = "Recursive"`): each other function is judged against it on the same input; else each is against its revision |
//! | `Bencher::iter` | mapped: output dropped inside the meter |
//! | `Bencher::iter_with_large_drop` | mapped: outputs dropped after the meter stops |
//! | `Bencher::iter_batched`, `iter_batched_ref`, `iter_with_setup`, `BatchSize` | mapped: inputs built outside the meter in criterion's chunks |
//! | `Bencher::iter_custom` | mapped for time: the routine's `Duration` is the total; any other metric panics |
//! | `Bencher::to_async`, `AsyncBencher` (feature `async`) | mapped: each batch runs inside one `block_on` of the executor |
//! | `async_executor::AsyncExecutor`; `FuturesExecutor` (`async_futures`), `SmolExecutor` (`async_smol`), tokio's `Runtime` and `Handle` (`async_tokio`) | mapped |
//! | `black_box` | `std::hint::black_box`, re-exported |
//! | features `html_reports`, `csv_output`, `plotters`, `rayon`, `cargo_bench_support`, `real_blackbox` | accepted, ignored |
//! | `async_executor::AsyncStdExecutor`, feature `async_std`, feature `stable` | not provided: async-std is deprecated (criterion 0.8 dropped it too) |
//! | `BenchmarkFilter`, `Criterion::with_benchmark_filter` | not provided: its `Regex` variant would put the `regex` crate in the public API; `with_filter` takes the pattern as a string |
//! | `runner` (nightly custom test frameworks) | not provided |
//!

#![warn(missing_docs)]

#[cfg(feature = "async")]
mod async_bencher;
pub mod async_executor;
mod baselines;
mod bencher;
mod benchmark;
mod config;
mod criterion;
mod engine;
mod group;
mod id;
mod macros;
pub mod measurement;
mod placement;
pub mod profiler;
#[cfg(test)]
mod testing;

#[cfg(feature = "async")]
pub use async_bencher::AsyncBencher;
pub use bencher::Bencher;
pub use config::{AxisScale, Baseline, BatchSize, PlotConfiguration, PlottingBackend, SamplingMode, Throughput};
pub use criterion::Criterion;
pub use group::BenchmarkGroup;
pub use id::{BenchmarkId, IntoBenchmarkId};
pub use std::hint::black_box;

/// Names the macros expand to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::engine::run;
    pub use rtcompare;
}
