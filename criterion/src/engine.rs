//! Where criterion's API meets rtcompare: every `bench_function` and `bench_with_input` ends in
//! [`benchmark`], every `Bencher::iter*` in the `serve` it is handed, and `criterion_main!` in
//! [`run`].
//!
//! STUB: the interface is settled; the bodies are being written.

use rtcompare::__private::{BuildInfo, Meter};
use std::panic::Location;
use std::process::ExitCode;
use std::time::Duration;

/// What one benchmark is, as the API knows it when its `bench_function` is called.
#[derive(Clone, Debug)]
pub(crate) struct Benchmark {
    /// criterion's id: `group/function/parameter`, `group/function`, `group/parameter` or
    /// `function`, as criterion names it.
    pub id: String,
    /// The group's (or the call's) throughput, if one was set.
    pub throughput: Option<crate::Throughput>,
    /// `measurement_time`, if one was set on the group or the `Criterion`.
    pub measurement_time: Option<Duration>,
    /// `noise_threshold`, if one was set on the group or the `Criterion`.
    pub noise_threshold: Option<f64>,
    /// The `bench_function` call (`#[track_caller]`).
    pub location: &'static Location<'static>,
    /// The type name of a custom `Measurement` (`None` for criterion's wall time).
    pub custom_measurement: Option<&'static str>,
}

/// A measured routine, as a `Bencher::iter*` method builds it from the user's closure.
pub(crate) trait Routine {
    /// Runs `iters` operations in placement copy `copy` (`0..4`, each a distinct monomorphised
    /// loop starting with `place::<copy>()`) of the primary loop, or of its A/A twin when
    /// `twin`, metered by `meter` (setup outside the meter), and returns the metered total.
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64;
}

/// What a `Bencher` hands its routine to.
pub(crate) type Serve<'a> = dyn FnMut(&mut dyn Routine) + 'a;

/// Every `bench_function` and `bench_with_input` (of `Criterion` and of `BenchmarkGroup`) ends
/// here: `call` runs the user's function with a `Bencher` built on the `Serve` it is given, and
/// is called only when this process measures this benchmark.
pub(crate) fn benchmark(benchmark: Benchmark, call: &mut dyn FnMut(&mut Serve<'_>)) {
    let _ = benchmark;
    call(&mut |routine: &mut dyn Routine| {
        for copy in 0..4 {
            for twin in [false, true] {
                routine.batch(copy, twin, 1, Meter::new(rtcompare::Metric::Time));
            }
        }
    });
}

/// `criterion_main!`'s `main`: the groups it names, run under rtcompare's harness.
pub fn run(build: BuildInfo, groups: &[fn()]) -> ExitCode {
    let _ = build;
    for group in groups {
        group();
    }
    ExitCode::SUCCESS
}
