//! What one benchmark is, as criterion's API knows it when its `bench_function` is called: what
//! the engine hands rtcompare's harness, and what a group's baseline pairs.

use std::panic::Location;

/// What one benchmark is, as the API knows it when its `bench_function` is called.
#[derive(Clone, Debug)]
pub(crate) struct Benchmark {
    /// criterion's id: `group/function/parameter`, `group/function`, `group/parameter` or
    /// `function`, as criterion names it.
    pub id: String,
    /// Its group's name (`Criterion::bench_function`'s id is a group of its own).
    pub group: String,
    /// Its function's name within the group, where its `BenchmarkId` names one.
    pub function: Option<String>,
    /// Its parameter, where its `BenchmarkId` has one.
    pub parameter: Option<String>,
    /// The group's (or the call's) throughput, if one was set.
    pub throughput: Option<crate::Throughput>,
    /// `noise_threshold`, if one was set on the group or the `Criterion`.
    pub noise_threshold: Option<f64>,
    /// The `bench_function` call (`#[track_caller]`).
    pub location: &'static Location<'static>,
    /// The type name of a custom `Measurement` (`None` for criterion's wall time).
    pub custom_measurement: Option<&'static str>,
}
