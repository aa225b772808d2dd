//! The environment variables by which a test process tells the processes it starts what to do,
//! and which every process of a run reads alike. What a child is asked to measure is no variable:
//! it is a request of the child protocol (`protocol.rs`).

/// The variable that makes a test binary a child serving the child protocol (`server.rs`): `1`,
/// or `cpu=N` to pin itself to CPU `N` first. Named after the lock-step pairs that were its first
/// use, and kept so: a baseline build of an earlier rtcompare still answers it with the version
/// it speaks, which the parent can then name.
pub(crate) const CHILD_VARIABLE: &str = "RTCOMPARE_LOCKSTEP";

/// The variable that marks the optimised build an unoptimised perf binary built and started in
/// its place; its value is the unoptimised build's target folder, where the results file and
/// baseline builds go as if it had measured itself. It also keeps the optimised build from
/// re-building itself should it have debug assertions on too.
pub(crate) const OPTIMISED_VARIABLE: &str = "RTCOMPARE_OPTIMISED";

/// The variable naming the baseline revision.
pub(crate) const BASELINE_VARIABLE: &str = "RTCOMPARE_BASELINE";
