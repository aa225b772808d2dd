//! The settings one comparison is measured and judged with, and the seeds of its processes: what
//! the first round, the worker processes and the lock-step processes of a comparison against a
//! git revision all derive from the same registration and run settings.

use super::{Comparison, Settings};
use crate::{CLEAR_BEYOND_TOLERANCE, JudgeOptions, Options};

/// How a comparison is measured in this process: its budget (a worker's share when it is one), its
/// metric, its layout and its first-round judging options.
pub(crate) fn options(comparison: Comparison, name: &str, settings: &Settings) -> Options {
    let attribute = &comparison.registration.settings;
    Options {
        // A confirmation worker measures for its share of the budget.
        budget: settings.worker_time.or(attribute.time).unwrap_or(settings.time),
        metric: attribute.metric,
        judge: judge_options(comparison, name, settings.seed, 0.95),
        progress: super::console::progress_hook(),
        layout: settings.layout,
        stop_beyond: if settings.worker_time.is_some() { CONFIRMATION_STOP_BEYOND } else { CLEAR_BEYOND_TOLERANCE },
        ..Options::default()
    }
}

/// How many tolerances beyond which a confirmation process's whole 99 % interval must lie for it
/// to stop early ([`Options::stop_beyond`]); a first round keeps [`CLEAR_BEYOND_TOLERANCE`].
///
/// A confirmation process contributes one number, its own difference, to an interval whose
/// width comes from how those numbers spread over processes; once its difference is clear of
/// the tolerance, the rest of its budget narrows that spread less than another process does,
/// and on workloads whose processes differ by more than their sampling error (a `HashMap`, a
/// walk through memory, the allocator) not at all. For a difference at the tolerance itself,
/// each of the three early looks stops a process at most 0.5 % of the time, so the stopped
/// processes cannot lean the pooled mean by a measurable amount.
const CONFIRMATION_STOP_BEYOND: f64 = 1.0;

/// How a comparison's samples are judged at interval level `level`: the attribute's parity and
/// thresholds, a seed of the pair's own, and resamples enough for the level.
pub(crate) fn judge_options(comparison: Comparison, name: &str, seed: u64, level: f64) -> JudgeOptions {
    let attribute = &comparison.registration.settings;
    JudgeOptions {
        parity: attribute.parity.unwrap_or(JudgeOptions::default().parity),
        thresholds: attribute.thresholds.to_vec(),
        seed: pair_seed(seed, name),
        level,
        resamples: crate::stats::resamples_for_level(level),
        ..JudgeOptions::default()
    }
}

/// A seed per test, so tests do not share one random stream, yet every run repeats.
fn pair_seed(seed: u64, name: &str) -> u64 {
    // FNV-1a over the name, then mixed with the run seed.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    hash ^ seed.rotate_left(17)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{AttributeSettings, Batches, Registration};
    use crate::measure::Meter;
    use std::time::Duration;

    fn batch(_: u64, _: u64, _: u64, _: Meter) -> u64 {
        0
    }

    fn registration() -> &'static Registration {
        Box::leak(Box::new(Registration {
            module_path: "m",
            candidate: "new",
            baseline: "old",
            baseline_name: "old",
            batches: Batches::uniform(batch),
            settings: AttributeSettings::default(),
            file: "src/lib.rs",
            line: 1,
        }))
    }

    /// A confirmation process (one told its share of the budget) stops once its difference is
    /// clear of the tolerance; a first round, or a worker measuring part of one, only once it
    /// is clear of twice the tolerance.
    #[test]
    fn only_confirmation_processes_stop_at_the_tolerance() {
        let comparison = Comparison { registration: registration(), size: None };
        let first = Settings::default();
        let confirming = Settings { worker_time: Some(Duration::from_millis(250)), ..Settings::default() };
        assert_eq!(options(comparison, "m::new_vs_old", &first).stop_beyond, CLEAR_BEYOND_TOLERANCE);
        let confirmation = options(comparison, "m::new_vs_old", &confirming);
        assert_eq!(confirmation.stop_beyond, CONFIRMATION_STOP_BEYOND);
        assert_eq!(confirmation.budget, Duration::from_millis(250));
    }
}
