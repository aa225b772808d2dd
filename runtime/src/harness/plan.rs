//! One test's plan, resolved once from its registration and the run's settings and passed down:
//! its budget, how long a process measuring it may take, its arms, and how it is measured and
//! judged with a given seed and budget. The first round, the worker processes and the lock-step
//! pairs of a comparison against a git revision all measure from it.

use super::{Comparison, Settings};
use crate::decide::{PROCESS_LEVEL, Role};
use crate::measure::{Arm, Metric};
use crate::{JudgeOptions, Options};
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
}

impl<'a> TrialPlan<'a> {
    /// The plan of the test `name` of `comparison` in a run with `settings`.
    pub(crate) fn new(comparison: Comparison, name: &'a str, settings: &'a Settings) -> TrialPlan<'a> {
        let budget = comparison.registration.settings.time.unwrap_or(settings.time);
        TrialPlan { comparison, name, settings, budget, timeout: settings.worker_timeout(budget) }
    }

    /// What it measures.
    pub(crate) fn metric(&self) -> Metric {
        self.comparison.registration.settings.metric
    }

    /// Whether its baseline is the candidate itself at a git revision.
    pub(crate) fn against_revision(&self) -> bool {
        self.comparison.registration.settings.revision
    }

    /// How it is measured for `budget` with the seed `seed`: its collection stops early as a
    /// fresh process's does ([`Role::Fresh`]), which the first round in the test process
    /// overrides.
    pub(crate) fn options(&self, budget: Duration, seed: u64) -> Options {
        Options {
            budget,
            metric: self.metric(),
            judge: self.judge_options(seed, PROCESS_LEVEL),
            progress: super::console::progress_hook(),
            layout: self.settings.layout,
            role: Role::Fresh,
            ..Options::default()
        }
    }

    /// How its samples are judged at interval level `level`: the attribute's parity and
    /// thresholds, a seed of the test's own drawn from `seed`, and resamples enough for the level.
    pub(crate) fn judge_options(&self, seed: u64, level: f64) -> JudgeOptions {
        let attribute = &self.comparison.registration.settings;
        JudgeOptions {
            parity: attribute.parity.unwrap_or(JudgeOptions::default().parity),
            thresholds: attribute.thresholds.to_vec(),
            seed: crate::seeds::named(seed, self.name),
            level,
            resamples: crate::stats::resamples_for_level(level),
            ..JudgeOptions::default()
        }
    }

    /// Its candidate and baseline as arms of this process, every placement copy bound to its size.
    pub(crate) fn arms(&self) -> (Arm<'static>, Arm<'static>) {
        let registration = self.comparison.registration;
        let batches = registration.batches;
        let size = self.comparison.size.unwrap_or(0);
        (
            Arm::from_placed(registration.candidate, batches.candidate, batches.candidate_twin, size),
            Arm::from_placed(registration.baseline, batches.baseline, batches.baseline_twin, size),
        )
    }
}
