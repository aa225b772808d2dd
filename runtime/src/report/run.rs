//! A finished run as the outputs read it. The harness hands this down as plain data, so the
//! renderers depend on the verdicts they show and never on the harness that ran them.

use crate::environment::Environment;
use crate::measure::Work;
use crate::{Metric, Report};
use std::time::Duration;

/// A finished run: everything the files are made from.
pub(crate) struct Run<'a> {
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
    pub tests: &'a [Test<'a>],
}

/// One test of a run: what its attribute declared and what came of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Test<'a> {
    /// The libtest name.
    pub name: &'a str,
    /// The module the attribute is in; the same baseline text elsewhere may name another
    /// function.
    pub module_path: &'static str,
    /// The candidate as written in the attribute.
    pub candidate: &'static str,
    /// The baseline as written in the attribute.
    pub baseline: &'static str,
    /// The metric the attribute asked for (a report, when there is one, says the same).
    pub metric: Metric,
    /// The attribute's `expect`, as the results file names it: `no_loss` or `win`.
    pub expect: &'static str,
    /// The size passed to setup, for pairs with `args`.
    pub size: Option<u64>,
    /// What one call processes, for pairs with `throughput`: each arm's rate is shown.
    pub work: Option<Work>,
    /// Where the attribute is.
    pub file: &'static str,
    /// The attribute's line.
    pub line: u32,
    /// The report, or `None` when measuring failed before one existed.
    pub report: Option<&'a Report>,
    /// Why the test failed, or `None` when it passed.
    pub failure: Option<&'a str>,
}

impl Test<'_> {
    /// Whether the test passed.
    pub(crate) fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// A [`Metric`] in the files that processes of one run share, by its name (`time`,
/// `alloc_bytes`, `allocs`): `#[serde(with = "metric_name")]`.
pub(crate) mod metric_name {
    use crate::Metric;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the metric's name.
    pub(crate) fn serialize<S: Serializer>(metric: &Metric, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(metric.as_str())
    }

    /// Reads a metric's name.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Metric, D::Error> {
        let name = String::deserialize(deserializer)?;
        [Metric::Time, Metric::AllocBytes, Metric::Allocs]
            .into_iter()
            .find(|metric| metric.as_str() == name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown metric `{name}`")))
    }
}
