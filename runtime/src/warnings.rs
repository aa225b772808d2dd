//! Warnings: every caveat on a verdict as a sentence a non-statistician can act on.

use crate::stats::{Drift, Outcome, ParityVerdict, Resampling};
use crate::units::{change_interval, change_pct, format_ns, level_pct, pct, signed_pct};
use crate::validate::PlacementSpread;
use crate::verdict::{CLEAR_BEYOND_TOLERANCE, Ending, Report, Warning, WarningKind};

/// Fewer rounds than this make the interval rough.
const FEW_ROUNDS: usize = 30;

/// A statistically significant drift is worth a warning only when its half-to-half shift is at
/// least this share of the tolerance: with hundreds of rounds the test flags shifts of a tenth of
/// a percent, which move no verdict.
const DRIFT_THAT_MATTERS: f64 = 0.25;

/// Lists the caveats on a report's verdict.
pub(crate) fn explain(report: &Report, parity: &ParityVerdict) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let mut add = |kind, message: String| warnings.push(Warning { kind, message });
    let verdict = &report.verdict;
    for message in drift_messages(report) {
        add(WarningKind::Drift, message);
    }
    let estimate = &report.estimate;
    if verdict.floor > verdict.parity_band {
        add(
            WarningKind::NoisyHarness,
            format!(
                "two copies of identical code (each arm against its A/A twin) ran up to {} apart, more than the parity \
                 of {}: where the code sits in memory or the machine's own noise moves this pair that much, so only a \
                 difference beyond twice that ({}) counts, and parity cannot be established. If the placement \
                 warning below names an arm, build with aligned code (\"Code placement\" in rtcompare's README); \
                 otherwise quiet the machine or give the comparison more time.",
                pct(verdict.floor),
                pct(verdict.parity_band),
                pct(2.0 * verdict.floor)
            ),
        );
    }
    for (role, name, placement) in placement_sensitive_arms(report) {
        add(WarningKind::Placement, placement_sentence(role, name, placement));
    }
    if parity.outcome != Outcome::Parity && verdict.outcome == Outcome::Parity {
        add_unconfirmed_difference(&mut add, report, parity);
    } else if parity.outcome == Outcome::Parity && (parity.ratio - 1.0).abs() > parity.tolerance {
        add(
            WarningKind::TimingModes,
            format!(
                "the medians differ (ratio {:.3}) but the best runs agree (best ratio {:.3}, within ±{}): the arms \
                 landed in different timing modes rather than running at different speeds, so this is parity. Read \
                 the raw samples if you need to know why.",
                parity.ratio,
                parity.best_ratio,
                pct(parity.best_tolerance)
            ),
        );
    }
    let within_band = estimate.low >= -verdict.parity_band && estimate.high <= verdict.parity_band;
    if parity.outcome == Outcome::Parity && !verdict.resolved && within_band && verdict.floor <= verdict.parity_band {
        add(
            WarningKind::Inconclusive,
            format!(
                "parity is not established: the interval lies within ±{}, but the meter's resolution spread over a \
                 batch ({} of the fastest rounds) is coarser than that; give the comparison more time so batches grow.",
                pct(verdict.parity_band),
                pct(verdict.best_tolerance)
            ),
        );
    }
    if parity.outcome == Outcome::Parity && !verdict.resolved && !within_band {
        add(
            WarningKind::Inconclusive,
            format!(
                "parity is not established: the {} interval of the change, {}, reaches beyond ±{}. The \
                 measurements are too noisy to rule out a difference of that size; give the comparison more time \
                 (RTCOMPARE_TIME=5s, or `time = \"5s\"` on the attribute) or run on a quieter machine.",
                level_pct(estimate.level),
                change_interval(estimate.low, estimate.high),
                pct(verdict.parity_band)
            ),
        );
    }
    if let Resampling::Blocks { len } = report.resampling.scheme {
        add(
            WarningKind::Autocorrelated,
            format!(
                "neighbouring rounds were correlated, so the interval resampled blocks of {len} rounds instead of single \
                 rounds; it is wider, and honest. This usually means background load that comes and goes."
            ),
        );
    }
    if let Some(range) = process_range(&report.process_differences) {
        let width = estimate.high - estimate.low;
        if range > width {
            add(
                WarningKind::ProcessesDisagree,
                format!(
                    "the {} processes disagree: their own changes span {} (from {} to {}), more than the interval \
                     is wide ({}). Per-process randomness (hash seeds, memory layout) moves this comparison; the \
                     pooled interval accounts for it, and more processes (RTCOMPARE_PROCESSES) narrow it.",
                    report.process_differences.len(),
                    pct(range),
                    change_pct(report.process_differences.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
                    change_pct(report.process_differences.iter().copied().fold(f64::INFINITY, f64::min)),
                    pct(width)
                ),
            );
        }
    }
    // A difference far beyond its tolerance needs no more rounds (and may have stopped early).
    let clear = report.clears(CLEAR_BEYOND_TOLERANCE);
    if report.samples.rounds() < FEW_ROUNDS && !report.resampling.exact && !clear {
        add(
            WarningKind::FewRounds,
            format!(
                "only {} rounds fit in the time budget (one batch of {} operations takes about {}), so the interval is \
                 rough; give the comparison more time.",
                report.samples.rounds(),
                report.calibration.candidate_iters.max(report.calibration.baseline_iters),
                format_ns(report.calibration.baseline_batch_ns.max(report.calibration.candidate_batch_ns))
            ),
        );
    }
    warnings
}

fn add_unconfirmed_difference(add: &mut impl FnMut(WarningKind, String), report: &Report, parity: &ParityVerdict) {
    let verdict = &report.verdict;
    let difference = report.estimate.difference;
    let word = if parity.outcome == Outcome::Loss { "slower" } else { "faster" };
    if difference.abs() <= verdict.floor {
        add(
            WarningKind::BelowFloor,
            format!(
                "the candidate looked {} ({}) but that is within what this harness shows on identical code \
                 (A/A noise floor {}), so it is reported as parity. Rerun on a quieter machine or with more time to \
                 tell.",
                word,
                change_pct(difference),
                pct(verdict.floor)
            ),
        );
    } else {
        add(
            WarningKind::Inconclusive,
            format!(
                "the candidate looked {} ({}) but the {} interval, {}, is not wholly beyond the tolerance \
                 ±{}, so the difference is not established and this is parity. Rerun with more time to tell.",
                word,
                change_pct(difference),
                level_pct(report.estimate.level),
                change_interval(report.estimate.low, report.estimate.high),
                pct(verdict.tolerance)
            ),
        );
    }
}

/// The arms whose copies at different code offsets ran further apart than the parity band,
/// each with its role (`candidate` or `baseline`) and name: where the linker puts them changes
/// their speed by more than the verdict allows for.
pub(crate) fn placement_sensitive_arms(report: &Report) -> Vec<(&'static str, &str, &PlacementSpread)> {
    let placements = [
        ("candidate", report.candidate.as_str(), &report.validation.candidate_placement),
        ("baseline", report.baseline.as_str(), &report.validation.baseline_placement),
    ];
    placements
        .into_iter()
        .filter_map(|(role, name, placement)| {
            placement.as_ref().filter(|p| p.exceeds(report.verdict.parity_band)).map(|p| (role, name, p))
        })
        .collect()
}

fn placement_sentence(role: &str, name: &str, placement: &PlacementSpread) -> String {
    format!(
        "where the linker puts the {role} `{name}` changes its speed: its copies at {} code offsets ran up to {} apart. \
         Each arm is measured at every offset and averaged, so the verdict is about the code, but one build of it can \
         run at either extreme. To make your own builds independent of placement, align functions and loops \
         (\"Code placement\" in rtcompare's README).",
        placement.medians.len(),
        pct(placement.spread)
    )
}

/// Largest minus smallest per-process difference, when there are several processes.
fn process_range(differences: &[f64]) -> Option<f64> {
    if differences.len() < 2 {
        return None;
    }
    let low = differences.iter().copied().fold(f64::INFINITY, f64::min);
    let high = differences.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some(high - low)
}

/// The drift warnings: one per series that drifted by an amount that matters, except that arms
/// drifting the same way while their ratio holds steady get one sentence saying so. Each round's
/// ratio cancels what both arms share, so such a drift moves the per-operation times but not
/// the verdict, and telling the user to distrust the difference would be wrong advice.
/// Whether a series drifted by enough to mention, against the verdict's tolerance.
fn drift_matters(report: &Report, drift: &Drift) -> bool {
    drift.drifted && drift.shift().abs() >= DRIFT_THAT_MATTERS * report.verdict.tolerance
}

/// Whether both arms drifted the same way while their ratio held: the machine changed under
/// them, and each round's ratio cancelled it, so the verdict stands.
fn drifted_together(report: &Report) -> bool {
    let (candidate, baseline, ratio) = (&report.drift.candidate, &report.drift.baseline, &report.drift.ratio);
    drift_matters(report, candidate)
        && drift_matters(report, baseline)
        && candidate.shift().signum() == baseline.shift().signum()
        && !drift_matters(report, ratio)
}

/// Whether a warning of `kind` on `report` changes how its verdict reads, so that the short
/// block shows it. Not placement (said once for the whole run); not a drift both arms shared
/// while their ratio held (the verdict stands); not correlated or few rounds under an
/// established parity (they widen the interval, which still lies within the band).
pub(crate) fn changes_reading(kind: WarningKind, report: &Report) -> bool {
    let established = report.verdict.outcome == Outcome::Parity && report.verdict.resolved;
    match kind {
        WarningKind::Placement => false,
        WarningKind::Drift => !drifted_together(report),
        WarningKind::Autocorrelated | WarningKind::FewRounds => !established,
        _ => true,
    }
}

fn drift_messages(report: &Report) -> Vec<String> {
    let matters = |drift: &Drift| drift_matters(report, drift);
    let (candidate, baseline, ratio) = (&report.drift.candidate, &report.drift.baseline, &report.drift.ratio);
    if drifted_together(report) {
        return vec![together_sentence(candidate, baseline)];
    }
    [
        ("the candidate's timings", candidate),
        ("the baseline's timings", baseline),
        ("the candidate-to-baseline ratio", ratio),
    ]
    .into_iter()
    .filter(|(_, drift)| matters(drift))
    .map(|(what, drift)| drift_sentence(what, drift))
    .collect()
}

fn together_sentence(candidate: &Drift, baseline: &Drift) -> String {
    format!(
        "both arms' timings drifted during the run, the same way (second half against the first: candidate {}, baseline \
         {}): the machine did not hold still (frequency scaling, heat, or other work starting or stopping). Each \
         round's ratio cancels what the arms share and it did not drift, so the verdict stands; the per-operation times \
         describe a machine that changed under them, which matters if you track those figures (close other programs \
         for steadier ones).",
        signed_pct(candidate.shift()),
        signed_pct(baseline.shift())
    )
}

fn drift_sentence(what: &str, drift: &Drift) -> String {
    format!(
        "{what} drifted during the run: the second half was {} against the first (Spearman ρ = {:+.2}, p = {:.3}). \
         The machine did not hold still (frequency scaling, heat, or other work starting or stopping); close other \
         programs and rerun before trusting a small difference.",
        signed_pct(drift.shift()),
        drift.rho,
        drift.p_value
    )
}

/// The warning for a first round that fresh processes did not confirm: both figures, and why the
/// confirmation ended where it did. A signal the processes ruled out gets no advice: more of
/// them would only say the same.
pub(crate) fn unconfirmed(first: &Report, side: Outcome, fresh: &Report, ending: Ending) -> Warning {
    let processes = fresh.resampling.processes;
    let advice = match ending {
        Ending::Confirmed | Ending::RuledOut => "an effect that does not repeat across processes is not reported.",
        Ending::LastLook => {
            "that is as many as RTCOMPARE_MAX_PROCESSES allows, and they neither confirmed nor ruled it out: the \
             difference is too close to the tolerance to settle at this binary's confirmation level."
        }
        Ending::TimeCap => {
            "the comparison reached its time cap (4 times its budget) before more processes could settle it; a \
             longer budget (`time = \"2s\"`, or RTCOMPARE_TIME) gives each process more rounds."
        }
    };
    Warning {
        kind: WarningKind::Unconfirmed,
        message: format!(
            "the first round {} (ratio {:.3}, change {}), but {processes} fresh processes pooled said {} \
             (ratio {:.3}, change {} {}); {advice}",
            first_round_said(first, side),
            first.verdict.ratio,
            change_pct(first.estimate.difference),
            fresh.verdict.outcome.as_str(),
            fresh.verdict.ratio,
            change_pct(fresh.estimate.difference),
            change_interval(fresh.estimate.low, fresh.estimate.high),
        ),
    }
}

/// The warning for a first round that leaned to a win or a loss it could not establish, and
/// fresh processes established it: why the verdict is not the parity the first round's figures
/// suggest.
pub(crate) fn established_lean(first: &Report, side: Outcome, fresh: &Report) -> Warning {
    Warning {
        kind: WarningKind::Leaned,
        message: format!(
            "the first round {} without establishing it (change {} {} at {}, tolerance ±{}), so fresh processes were \
             asked: {} of them pooled said {} (change {} {}), and that is the verdict.",
            first_round_said(first, side),
            change_pct(first.estimate.difference),
            change_interval(first.estimate.low, first.estimate.high),
            level_pct(first.estimate.level),
            pct(first.verdict.tolerance),
            fresh.resampling.processes,
            fresh.verdict.outcome.as_str(),
            change_pct(fresh.estimate.difference),
            change_interval(fresh.estimate.low, fresh.estimate.high),
        ),
    }
}

/// What the first round said, for a sentence: `said loss`, or `leaned to a loss` for a parity
/// that leaned to `side`.
pub(crate) fn first_round_said(first: &Report, side: Outcome) -> String {
    match (first.verdict.first_round, side) {
        (Outcome::Parity, Outcome::Win | Outcome::Loss) => format!("leaned to a {}", side.as_str()),
        (said, _) => format!("said {}", said.as_str()),
    }
}

/// A warning in one line, as the short block prints it: its kind, what it means for the verdict,
/// and where the HOWTO explains it and its fix (`docs/howto.md`, a section per kind). The full
/// sentence with the figures is the warning's `message`, printed under `RTCOMPARE_VERBOSE=1`.
pub(crate) fn one_line(kind: WarningKind) -> String {
    let meaning = match kind {
        WarningKind::Drift => {
            "the timings drifted while they were measured, so the verdict may lean on when each arm ran"
        }
        WarningKind::Inconclusive => {
            "the interval is too wide for a firm verdict; more time (RTCOMPARE_TIME) or a quieter machine settles it"
        }
        WarningKind::TimingModes => {
            "the medians differ but the fastest runs agree: the code switched between speeds, not a difference"
        }
        WarningKind::BelowFloor => "the difference is within what identical copies of the code measure apart here",
        WarningKind::NoisyHarness => "identical copies of the code measured apart by more than the tolerance here",
        WarningKind::Placement => "where the linker puts the code changes its speed by more than the tolerance",
        WarningKind::Autocorrelated => "neighbouring rounds moved together (a busy or throttling machine)",
        WarningKind::FewRounds => "few rounds were measured, so the interval is rough",
        WarningKind::ProcessesDisagree => "separate processes disagree by more than the interval is wide",
        WarningKind::Unconfirmed => {
            "fresh processes did not repeat this result (a loss fails a test only when repeated)"
        }
        WarningKind::Leaned => "the first round only leaned this way; fresh processes established it",
    };
    format!("warning[{}]: {meaning}; see \"{}\" in rtcompare's HOWTO", kind.as_str(), kind.as_str())
}
