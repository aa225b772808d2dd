//! One test's plan, resolved once from its registration and the run's settings and passed down:
//! its budget, how long a process measuring it may take, its arms, and how it is measured and
//! judged with a given seed and budget. The first round, the worker processes and the lock-step
//! pairs of a comparison against a git revision all measure from it.
//!
//! What one process measures is a [`ProcessPlan`], which a test process sends to a worker whole
//! (`protocol.rs`): the worker reads no setting of its own, and resolves what the plan leaves
//! to the test's registration with the same function as its parent.

use super::registry::{Against, Comparison};
use super::settings::Settings;
use crate::measure::Options;
use crate::measure::{Arm, Layout};
use rtcompare_judge::JudgeOptions;
use rtcompare_judge::decide::{PROCESS_LEVEL, Role};
use rtcompare_judge::measure::Metric;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// What one test is measured with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TrialPlan<'a> {
    /// What is compared, at which size.
    pub comparison: Comparison,
    /// The test's name.
    pub name: &'a str,
    /// The run's settings.
    pub settings: &'a Settings,
    /// The comparison's budget: the attribute's `time`, or the run's.
    pub budget: Duration,
    /// How long one process measuring it may take before it is killed.
    pub timeout: Duration,
    /// Draws the progress of what this process measures itself.
    pub progress: Option<fn(f64)>,
}

impl<'a> TrialPlan<'a> {
    /// The plan of the test `name` of `comparison` in a run with `settings`, its progress drawn
    /// by `progress`.
    pub(crate) fn new(
        comparison: Comparison,
        name: &'a str,
        settings: &'a Settings,
        progress: Option<fn(f64)>,
    ) -> TrialPlan<'a> {
        let budget = TestOptions::of(comparison, Some(settings)).budget;
        TrialPlan { comparison, name, settings, budget, timeout: settings.worker_timeout(budget), progress }
    }

    /// What it measures.
    pub(crate) fn metric(&self) -> Metric {
        self.comparison.registration.settings.metric
    }

    /// What its candidate is measured against.
    pub(crate) fn against(&self) -> Against {
        self.comparison.registration.against()
    }

    /// Whether its arms run in processes of their own, a lock-step pair, whatever the run's
    /// settings: a comparison against a git revision or against another test.
    pub(crate) fn in_lockstep(&self) -> bool {
        self.against() != Against::Function
    }

    /// What one process in `role` measures of it for `budget` with the seed `seed`.
    pub(crate) fn process(&self, budget: Duration, seed: u64, role: Role) -> ProcessPlan {
        ProcessPlan { test: self.name.to_owned(), budget, seed, layout: self.settings.layout, role }
    }

    /// How `process` is measured in this process: as a worker would measure it
    /// ([`ProcessPlan::options`]), with this plan's progress.
    pub(crate) fn options(&self, process: &ProcessPlan) -> Options {
        Options { progress: self.progress, ..process.options(self.comparison) }
    }

    /// How its samples are judged at interval level `level` ([`judge_options`]).
    pub(crate) fn judge_options(&self, seed: u64, level: f64) -> JudgeOptions {
        judge_options(self.comparison, self.name, seed, level)
    }

    /// Its candidate and baseline as arms of this process ([`arms`]).
    pub(crate) fn arms(&self) -> (Arm<'static>, Arm<'static>) {
        arms(self.comparison)
    }
}

/// What one process measures: which test, for how long, with which seed and layout. The rest —
/// the code, the size, the metric, the parity and thresholds — is the test's registration, the
/// same in every process of the binary. Serialisable, for [`Request::Measure`]; the seed and the
/// budget travel as whole numbers, so a worker measures exactly what its parent planned.
///
/// [`Request::Measure`]: super::protocol::Request::Measure
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ProcessPlan {
    /// The test's name, which selects the comparison and its size.
    pub test: String,
    /// How long it collects rounds: the comparison's budget, or a confirmation process's share.
    pub budget: Duration,
    /// The process's seed, from which the test's own is drawn: its round order, its inputs and
    /// the resampling of its looks.
    pub seed: u64,
    /// Whether rounds run at a random stack depth over a perturbed heap.
    pub layout: Layout,
    /// What the process is for, which decides what ends its collection early.
    pub role: Role,
}

impl ProcessPlan {
    /// How `comparison`, the test the plan names, is measured: its collection stops early as
    /// its role says, judged at each look as [`judge_options`] says at [`PROCESS_LEVEL`], with no
    /// progress display.
    pub(crate) fn options(&self, comparison: Comparison) -> Options {
        Options {
            budget: self.budget,
            metric: comparison.registration.settings.metric,
            judge: judge_options(comparison, &self.test, self.seed, PROCESS_LEVEL),
            layout: self.layout,
            role: self.role,
            ..Options::default()
        }
    }
}

/// How the samples of the test `name` of `comparison` are judged at interval level `level`: its
/// parity ([`TestOptions`]) and the attribute's thresholds, a seed of the test's own drawn from
/// `seed`, resamples enough for the level, and, against a git revision, arms from two builds.
pub(crate) fn judge_options(comparison: Comparison, name: &str, seed: u64, level: f64) -> JudgeOptions {
    // No setting of the run sets a parity, so a worker, which has none, resolves the same one.
    let parity = TestOptions::of(comparison, None).parity;
    JudgeOptions {
        parity,
        thresholds: comparison.registration.settings.thresholds.to_vec(),
        seed: rtcompare_judge::seeds::named(seed, name),
        level,
        resamples: rtcompare_judge::stats::resamples_for_level(level),
        across_builds: comparison.registration.against() == Against::Revision,
        ..JudgeOptions::default()
    }
}

/// The options of one test that its attribute, the run's settings and rtcompare's defaults may
/// each set, resolved in one place: the attribute over the run's settings over the defaults, as
/// divan's `BenchOptions::overwrite` layers a benchmark's options over its group's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TestOptions {
    /// The measurement budget: `time = "…"`, else `RTCOMPARE_TIME`, else 1 s.
    pub budget: Duration,
    /// The smallest relative difference that counts: `parity = …`, else 4 %.
    pub parity: f64,
}

/// What one layer of options sets; `None` leaves it to the layer below.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Layer {
    time: Option<Duration>,
    parity: Option<f64>,
}

impl Layer {
    /// `self`, with what it leaves unset taken from `under`.
    fn over(self, under: Layer) -> Layer {
        Layer { time: self.time.or(under.time), parity: self.parity.or(under.parity) }
    }

    /// `self` over `defaults`, every option set.
    fn resolve(self, defaults: TestOptions) -> TestOptions {
        TestOptions { budget: self.time.unwrap_or(defaults.budget), parity: self.parity.unwrap_or(defaults.parity) }
    }
}

impl Default for TestOptions {
    /// rtcompare's defaults: [`Options`]' budget and [`JudgeOptions`]' parity.
    fn default() -> TestOptions {
        TestOptions { budget: Options::default().budget, parity: JudgeOptions::default().parity }
    }
}

impl TestOptions {
    /// The options of `comparison`: its attribute over the run's `settings` over the defaults.
    /// A worker passes no settings: it reads none of its own, and measures for the budget its
    /// parent planned.
    pub(crate) fn of(comparison: Comparison, settings: Option<&Settings>) -> TestOptions {
        let attribute = &comparison.registration.settings;
        let attribute = Layer { time: attribute.time, parity: attribute.parity };
        let run = settings.map_or_else(Layer::default, |settings| Layer { time: Some(settings.time), parity: None });
        attribute.over(run).resolve(TestOptions::default())
    }
}

/// The candidate and baseline of `comparison` as arms of this process, every placement copy
/// bound to its size.
pub(crate) fn arms(comparison: Comparison) -> (Arm<'static>, Arm<'static>) {
    let registration = comparison.registration;
    let batches = registration.batches;
    let size = comparison.size.unwrap_or(0);
    (
        Arm::from_placed(registration.candidate, batches.candidate, batches.candidate_twin, size),
        Arm::from_placed(registration.baseline, batches.baseline, batches.baseline_twin, size),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::registry::{AttributeSettings, Batches, Registration};
    use crate::measure::Meter;

    fn batch(_: u64, _: u64, _: u64, _: Meter) -> u64 {
        0
    }

    fn comparison(settings: AttributeSettings) -> Comparison {
        let registration: &'static Registration = Box::leak(Box::new(Registration {
            module_path: "perf",
            candidate: "new",
            baseline: "old",
            baseline_name: "old",
            batches: Batches::uniform(batch),
            settings,
            file: "tests/perf.rs",
            line: 1,
        }));
        Comparison { registration, size: None }
    }

    #[test]
    fn the_attribute_is_layered_over_the_run_over_the_defaults() {
        let run = Settings { time: Duration::from_secs(3), ..Settings::default() };
        let bare = comparison(AttributeSettings::default());
        let defaults = TestOptions::default();
        assert_eq!(TestOptions::of(bare, Some(&run)), TestOptions { budget: run.time, ..defaults });
        assert_eq!(TestOptions::of(bare, None), defaults, "a worker reads no settings");
        let set = AttributeSettings {
            time: Some(Duration::from_millis(200)),
            parity: Some(0.1),
            ..bare.registration.settings
        };
        let options = TestOptions { budget: Duration::from_millis(200), parity: 0.1 };
        assert_eq!(TestOptions::of(comparison(set), Some(&run)), options);
        assert_eq!(TestOptions::of(comparison(set), None), options);
    }

    #[test]
    fn only_a_comparison_against_a_revision_is_judged_as_two_builds() {
        let judged = |settings| judge_options(comparison(settings), "perf::new", 1, 0.95).across_builds;
        assert!(judged(AttributeSettings { revision: true, ..AttributeSettings::default() }));
        assert!(!judged(AttributeSettings::default()), "a function pair runs in one build");
        assert!(
            !judged(AttributeSettings { front_end: true, ..AttributeSettings::default() }),
            "a front-end's pair runs two processes of one binary"
        );
    }
}
