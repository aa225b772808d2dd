//! What `main!()` tells the harness about the build it expands in: the facts the optimised
//! re-build of an unoptimised binary and the baseline build of a git revision need.

/// What `main!()` knows about the build of the crate it expands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildInfo {
    /// `cfg!(debug_assertions)` in the test crate: on in unoptimised builds.
    pub debug_assertions: bool,
    /// The package the test target belongs to (`CARGO_PKG_NAME`).
    pub package: &'static str,
    /// The package's folder when it was built (`CARGO_MANIFEST_DIR`).
    pub manifest_dir: &'static str,
    /// The package's declared features, each with whether it is on in this build: a
    /// comparison against another revision builds that revision with the same ones.
    pub features: &'static [(&'static str, bool)],
    /// The cargo that built the test crate (`CARGO` at compile time), for re-building it when
    /// the running process was not told which cargo started it.
    pub cargo: Option<&'static str>,
}
