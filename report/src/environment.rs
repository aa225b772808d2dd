//! Run-wide facts about the machine and the build, as the results file records them, and the
//! warnings they call for (an unoptimised build, a busy machine, a power-saving CPU governor).
//! The runtime reads them once before measuring; what it cannot read is [`UNKNOWN`] (or `None`).

use serde::{Deserialize, Serialize};

/// Said for any fact that could not be read.
pub const UNKNOWN: &str = "unknown";

/// The machine and build a run measured on, as written to the results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Environment {
    /// When the run started, RFC 3339 in UTC.
    pub started_at: String,
    /// The CPU's model name.
    pub cpu_model: String,
    /// Logical CPUs this process may run on.
    pub cores: usize,
    /// 1-, 5- and 15-minute load averages when the run started.
    pub load_average_start: Option<[f64; 3]>,
    /// The same when the run ended (filled in after the last comparison).
    pub load_average_end: Option<[f64; 3]>,
    /// The first CPU's frequency governor (`performance`, `powersave`, ...).
    pub governor: String,
    /// `ac`, `battery` or `unknown`.
    pub power: String,
    /// `rustc --version` of the compiler that built the binary.
    pub rustc: String,
    /// What is known of the build profile.
    pub profile: Profile,
    /// The target the test binary was built for.
    pub target: Target,
    /// The repository's state, or `None` outside a git repository.
    pub git: Option<Git>,
}

/// What the test binary knows of its build profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// `cfg!(debug_assertions)` in the test crate.
    pub debug_assertions: bool,
    /// The optimisation level; a binary cannot see its own, so `"unknown"`.
    pub opt_level: String,
}

/// The compilation target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// `std::env::consts::ARCH`, e.g. `x86_64`.
    pub arch: String,
    /// `std::env::consts::OS`, e.g. `linux`.
    pub os: String,
    /// `std::env::consts::FAMILY`, e.g. `unix`.
    pub family: String,
}

/// The state of the git repository the run started in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Git {
    /// `git rev-parse HEAD`.
    pub commit: String,
    /// Whether `git status --porcelain` listed any change.
    pub dirty: bool,
}

impl Environment {
    /// The caveats of this machine and build, each a sentence with its fix. They never stop a
    /// run: a verdict on a busy laptop is still worth having, with its caveat.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.profile.debug_assertions {
            warnings.push(
                "this is an unoptimised build (debug assertions are on), measured on purpose (RTCOMPARE_DEBUG=1): the \
                 timings describe debug code, and no verdict fails a test; run `cargo test --release --test perf` \
                 to measure the code you ship (or set `opt-level = 3` and `debug-assertions = false` under \
                 `[profile.test]`)"
                    .to_owned(),
            );
        }
        let one_minute = self.load_average_start.map_or(0.0, |[one, ..]| one);
        if one_minute > BUSY_LOAD_PER_CORE * self.cores as f64 {
            warnings.push(format!(
                "the machine is busy: the 1-minute load average is {one_minute:.2} on {} cores, so other programs compete \
                 with the measurements (a build that just finished still counts for about a minute); close other \
                 programs, or wait a minute and rerun, before trusting a small difference",
                self.cores
            ));
        }
        if self.governor != UNKNOWN && self.governor != "performance" {
            warnings.push(format!(
                "the CPU frequency governor is `{}`, so the clock speed changes under load and timings wander; for \
                 steadier figures set it to `performance` (`sudo cpupower frequency-set -g performance`)",
                self.governor
            ));
        }
        if self.power == "battery" {
            warnings.push(
                "the machine runs on battery, which often slows and varies the CPU; plug in the power".to_owned(),
            );
        }
        if self.cores < 2 {
            warnings.push(format!(
                "only {} core is available, so the operating system and every other program interrupt the \
                 measurements; use a machine (or CI runner) with at least 2 cores",
                self.cores
            ));
        }
        warnings
    }
}

/// A 1-minute load average above this share of the cores means other work competes for them.
const BUSY_LOAD_PER_CORE: f64 = 0.7;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::environment as quiet;

    #[test]
    fn a_quiet_optimised_machine_has_no_warnings() {
        assert!(quiet().warnings().is_empty());
        assert!(
            Environment { governor: UNKNOWN.to_owned(), power: UNKNOWN.to_owned(), ..quiet() }.warnings().is_empty()
        );
    }

    #[test]
    fn each_caveat_is_one_warning_naming_its_figure() {
        let cases = [
            (Environment { profile: Profile { debug_assertions: true, ..quiet().profile }, ..quiet() }, "--release"),
            (Environment { load_average_start: Some([6.5, 1.0, 1.0]), ..quiet() }, "6.50 on 8 cores"),
            (Environment { governor: "powersave".to_owned(), ..quiet() }, "`powersave`"),
            (Environment { power: "battery".to_owned(), ..quiet() }, "plug in"),
            (Environment { cores: 1, ..quiet() }, "only 1 core"),
        ];
        for (environment, phrase) in cases {
            let warnings = environment.warnings();
            assert_eq!(warnings.len(), 1, "{warnings:?}");
            assert!(warnings[0].contains(phrase), "{warnings:?}");
        }
    }
}
