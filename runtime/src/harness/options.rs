//! The settings one comparison is measured and judged with, and the seeds of its processes: what
//! the first round, the worker processes and the lock-step processes of a comparison against a
//! git revision all derive from the same registration and run settings.

use super::{Comparison, Settings};
use crate::decide::{PROCESS_LEVEL, Role};
use crate::{JudgeOptions, Options};

/// How a comparison is measured in this process: its budget (a worker's share when it is one), its
/// metric, its layout and its judging options; its collection stops early as a fresh process's
/// does ([`Role::Fresh`]), which the first round in the test process overrides.
pub(crate) fn options(comparison: Comparison, name: &str, settings: &Settings) -> Options {
    let attribute = &comparison.registration.settings;
    Options {
        // A confirmation worker measures for its share of the budget.
        budget: settings.worker_time.or(attribute.time).unwrap_or(settings.time),
        metric: attribute.metric,
        judge: judge_options(comparison, name, settings.seed, PROCESS_LEVEL),
        progress: super::console::progress_hook(),
        layout: settings.layout,
        role: Role::Fresh,
        ..Options::default()
    }
}

/// How a comparison's samples are judged at interval level `level`: the attribute's parity and
/// thresholds, a seed of the pair's own, and resamples enough for the level.
pub(crate) fn judge_options(comparison: Comparison, name: &str, seed: u64, level: f64) -> JudgeOptions {
    let attribute = &comparison.registration.settings;
    JudgeOptions {
        parity: attribute.parity.unwrap_or(JudgeOptions::default().parity),
        thresholds: attribute.thresholds.to_vec(),
        seed: crate::seeds::named(seed, name),
        level,
        resamples: crate::stats::resamples_for_level(level),
        ..JudgeOptions::default()
    }
}
