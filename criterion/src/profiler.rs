//! criterion's in-process profiler hook: [`Profiler`], accepted by
//! [`Criterion::with_profiler`](crate::Criterion::with_profiler) and never called, since
//! rtcompare has no `--profile-time` mode. Out-of-process profilers (perf and the like) need no
//! hook.

use std::path::Path;

/// Start and stop hooks around a profiled benchmark, as in criterion. Implementations compile
/// and are never called here.
///
/// ```
/// use rtcompare_criterion::{Criterion, profiler::Profiler};
/// use std::path::Path;
///
/// struct Quiet;
///
/// impl Profiler for Quiet {
///     fn start_profiling(&mut self, _id: &str, _dir: &Path) {}
///     fn stop_profiling(&mut self, _id: &str, _dir: &Path) {}
/// }
///
/// let c = Criterion::default().with_profiler(Quiet);
/// # drop(c);
/// ```
pub trait Profiler {
    /// Called by criterion when it starts profiling the benchmark `benchmark_id`, with a folder
    /// for the profiler's data.
    fn start_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);

    /// Called by criterion when it stops profiling the benchmark `benchmark_id`.
    fn stop_profiling(&mut self, benchmark_id: &str, benchmark_dir: &Path);
}

/// criterion's default profiler, for profilers that run as their own process: its hooks do
/// nothing, there as here.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExternalProfiler;

impl Profiler for ExternalProfiler {
    fn start_profiling(&mut self, _benchmark_id: &str, _benchmark_dir: &Path) {}
    fn stop_profiling(&mut self, _benchmark_id: &str, _benchmark_dir: &Path) {}
}
