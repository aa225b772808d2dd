//! The environment variables by which a test process tells the processes it starts what to do,
//! and which every process of a run reads alike.

/// The variable that puts a test binary in worker mode; its value is the file to write.
pub const WORKER_VARIABLE: &str = "RTCOMPARE_WORKER";

/// The variable that gives a worker its budget: the comparison's, or a confirmation process's
/// share of it.
pub const WORKER_TIME_VARIABLE: &str = "RTCOMPARE_WORKER_TIME";

/// The variable that puts a test binary in lock-step mode.
pub const LOCKSTEP_VARIABLE: &str = "RTCOMPARE_LOCKSTEP";

/// The variable that marks the optimised build an unoptimised perf binary built and started in
/// its place; its value is the unoptimised build's target folder, where the results file and
/// baseline builds go as if it had measured itself. It also keeps the optimised build from
/// re-building itself should it have debug assertions on too.
pub const OPTIMISED_VARIABLE: &str = "RTCOMPARE_OPTIMISED";

/// The variable naming the baseline revision.
pub const BASELINE_VARIABLE: &str = "RTCOMPARE_BASELINE";
