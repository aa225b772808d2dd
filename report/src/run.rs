//! A finished run as the outputs read it: one [`Test`] per comparison, the value every output is
//! rendered from and each comparison's record is made of. The harness hands it down as plain
//! data, so the renderers depend on the verdicts they show and never on the harness that ran them.

use super::failure::Failure;
use crate::environment::Environment;
use rtcompare_judge::Metric;
use rtcompare_judge::alone::Alone;
use rtcompare_judge::counts::Instructions;
use rtcompare_judge::measure::Work;
use rtcompare_judge::verdict::Judgement;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A finished run: everything the files are made from.
pub struct Run<'a> {
    /// The test binary's name without Cargo's hash (`perf`).
    pub binary: &'a str,
    /// The measurement budget per comparison (`RTCOMPARE_TIME`).
    pub budget: Duration,
    /// The run's seed (`RTCOMPARE_SEED`).
    pub seed: u64,
    /// Whether an unoptimised build was measured on purpose (`RTCOMPARE_DEBUG=1`).
    pub unoptimised: bool,
    /// The machine and build.
    pub environment: &'a Environment,
    /// Every test that ran, in order.
    pub tests: &'a [Test],
}

/// One test of a run: what its attribute declared and what came of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Test {
    /// The libtest name.
    pub name: String,
    /// The module the attribute is in; the same baseline text elsewhere may name another
    /// function.
    pub module_path: String,
    /// The candidate as written in the attribute.
    pub candidate: String,
    /// The baseline as written in the attribute.
    pub baseline: String,
    /// The metric the attribute asked for (a judgement, when there is one, says the same).
    pub metric: Metric,
    /// The attribute's `expect`, as the results file names it: `no_loss` or `win`.
    pub expect: String,
    /// The size passed to setup, for pairs with `args`.
    pub size: Option<u64>,
    /// What one call processes, for pairs with `throughput`: each arm's rate is shown.
    pub work: Option<Work>,
    /// Where the attribute is.
    pub file: String,
    /// The attribute's line.
    pub line: u32,
    /// The judgement, or `None` when measuring failed before one existed (a panic, a missing
    /// counting allocator) or, in a test that passed, when there was nothing to compare against:
    /// a comparison against a git revision at which the function is new, or a benchmark measured
    /// alone (`alone`).
    pub judgement: Option<Judgement>,
    /// Why the verdict fails the test, decided once by the harness; also set in an unoptimised
    /// build measured on purpose, where it is reported and not enforced.
    pub fails: Option<Failure>,
    /// Why the test failed, or `None` when it passed.
    pub failure: Option<String>,
    /// Each arm's instructions per call as callgrind counted them beside the time verdict, or
    /// `None` where they were not counted.
    #[serde(default)]
    pub instructions: Option<Instructions>,
    /// Why instructions were not counted, where counting was on and they were not.
    #[serde(default)]
    pub instructions_not_counted: Option<String>,
    /// The git revision a comparison of a function with itself was measured against
    /// (`RTCOMPARE_BASELINE`); `None` for a pair in one build.
    #[serde(default)]
    pub revision: Option<Revision>,
    /// A benchmark measured alone, without a verdict: a front-end benchmark (rtcompare-criterion's)
    /// in a run that names no git revision. Its `judgement` is then `None`, and it passed.
    #[serde(default)]
    pub alone: Option<Alone>,
    /// How long the test took, in seconds: its first round, its confirmation and its count.
    #[serde(default)]
    pub duration_s: f64,
}

/// The git revision a comparison was measured against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revision {
    /// The revision as the run was given it (`main`, `HEAD~1`, a tag).
    pub name: String,
    /// The commit it resolved to.
    pub commit: String,
}

impl Test {
    /// Whether the test passed.
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }

    /// Whether it passed with nothing to compare against: a comparison against a git revision at
    /// which the function is new (a benchmark measured alone has its figures, and is not new).
    pub fn new_at_revision(&self) -> bool {
        self.judgement.is_none() && self.alone.is_none() && self.passed()
    }
}
