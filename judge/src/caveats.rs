//! Caveats: which situations qualify a verdict, each as a [`Caveat`] with the figures that show
//! it. Deciding only; `report::sentence` words them.

use crate::stats::{Drift, Outcome, ParityVerdict, Resampling, win_margin};
use crate::validate::PlacementSpread;
use crate::verdict::{
    ArmRole, CLEAR_BEYOND_TOLERANCE, Caveat, DriftSeries, Ending, Judgement, Report, RoundFigures, Settle, WarningKind,
};
use std::time::Duration;

/// Fewer rounds than this make the interval rough.
const FEW_ROUNDS: usize = 30;

/// A statistically significant drift is worth a caveat only when its half-to-half shift is at
/// least this share of the tolerance: with hundreds of rounds the test flags shifts of a tenth of
/// a percent, which move no verdict.
const DRIFT_THAT_MATTERS: f64 = 0.25;

/// Lists the caveats on a report's verdict, in the order the outputs show them. `parity` is what
/// the parity rule alone said, before the interval, the A/A floor and the meter were weighed.
pub fn explain(report: &Report, parity: &ParityVerdict) -> Vec<Caveat> {
    let mut caveats = drift(report);
    caveats.extend(noisy_harness(report));
    caveats.extend(builds_apart(report));
    caveats.extend(placement(report));
    caveats.extend(parity_reading(report, parity));
    caveats.extend(inconclusive(report, parity));
    caveats.extend(autocorrelated(report));
    caveats.extend(processes_disagree(report));
    caveats.extend(few_rounds(report));
    caveats
}

/// The drift caveats: one per series that drifted by an amount that matters, except that arms
/// drifting the same way while their ratio holds steady get one caveat saying so. Each round's
/// ratio cancels what both arms share, so such a drift moves the per-operation times but not
/// the verdict, and telling the user to distrust the difference would be wrong advice.
fn drift(report: &Report) -> Vec<Caveat> {
    let (candidate, baseline, ratio) = (&report.drift.candidate, &report.drift.baseline, &report.drift.ratio);
    if drifted_together(report) {
        return vec![Caveat::DriftedTogether { candidate: candidate.shift(), baseline: baseline.shift() }];
    }
    [(DriftSeries::Candidate, candidate), (DriftSeries::Baseline, baseline), (DriftSeries::Ratio, ratio)]
        .into_iter()
        .filter(|(_, drift)| drift_matters(report, drift))
        .map(|(series, drift)| Caveat::Drift { series, shift: drift.shift(), rho: drift.rho, p_value: drift.p_value })
        .collect()
}

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

/// Whether the ratio's drift could have moved the verdict. Each round's ratio is what the verdict
/// is judged on, so an arm's drift reaches it only through the ratio; had the run measured only
/// its first or only its second half, the estimate would have moved by less than the ratio's
/// half-to-half shift. The verdict holds when its interval, widened by that shift on both sides,
/// still reads the same: an established parity still within its band, a win or a loss still
/// wholly beyond its tolerance. An inconclusive parity can always move.
fn drift_could_move_verdict(report: &Report) -> bool {
    let shift = report.drift.ratio.shift().abs();
    if !shift.is_finite() {
        return true;
    }
    let (verdict, estimate) = (&report.verdict, &report.estimate);
    let (low, high) = (estimate.low - shift, estimate.high + shift);
    match verdict.outcome {
        Outcome::Parity if verdict.resolved => low < -verdict.parity_band || high > verdict.parity_band,
        Outcome::Parity => true,
        Outcome::Win => low <= verdict.tolerance,
        Outcome::Loss => high >= -verdict.tolerance,
    }
}

/// Identical code ran further apart than the parity: the tolerance doubled the A/A floor.
fn noisy_harness(report: &Report) -> Option<Caveat> {
    let verdict = &report.verdict;
    (verdict.floor > verdict.parity_band)
        .then_some(Caveat::NoisyHarness { floor: verdict.floor, parity: verdict.parity_band })
}

/// Arms from two builds whose copies show placement moving the code beyond the parity: the
/// tolerance holds the builds floor.
fn builds_apart(report: &Report) -> Option<Caveat> {
    let verdict = &report.verdict;
    (verdict.builds_floor > verdict.parity_band)
        .then_some(Caveat::BuildsApart { builds_floor: verdict.builds_floor, parity: verdict.parity_band })
}

/// A caveat for each arm whose speed depends on where the linker puts it.
fn placement(report: &Report) -> Vec<Caveat> {
    placement_sensitive_arms(report)
        .into_iter()
        .map(|(arm, placement)| Caveat::Placement { arm, copies: placement.medians.len(), spread: placement.spread })
        .collect()
}

/// The arms whose copies at different code offsets ran further apart than the parity band:
/// where the linker puts them changes their speed by more than the verdict allows for.
fn placement_sensitive_arms(report: &Report) -> Vec<(ArmRole, &PlacementSpread)> {
    let placements = [
        (ArmRole::Candidate, &report.validation.candidate_placement),
        (ArmRole::Baseline, &report.validation.baseline_placement),
    ];
    placements
        .into_iter()
        .filter_map(|(arm, placement)| {
            placement.as_ref().filter(|p| p.exceeds(report.verdict.parity_band)).map(|p| (arm, p))
        })
        .collect()
}

/// Why the verdict reads differently from the parity rule: a win or a loss the rule saw that
/// did not hold up, or medians apart while the fast ends agree.
fn parity_reading(report: &Report, parity: &ParityVerdict) -> Option<Caveat> {
    let verdict = &report.verdict;
    if parity.outcome != Outcome::Parity && verdict.outcome == Outcome::Parity {
        Some(unestablished_difference(report, parity.outcome))
    } else if parity.outcome == Outcome::Parity && beyond(parity.ratio, parity.tolerance) {
        Some(Caveat::TimingModes {
            ratio: parity.ratio,
            best_ratio: parity.best_ratio,
            best_tolerance: parity.best_tolerance,
        })
    } else {
        None
    }
}

/// Whether a ratio lies beyond the tolerance on either side: above `1 + tolerance`, or below
/// its reciprocal.
fn beyond(ratio: f64, tolerance: f64) -> bool {
    ratio > 1.0 + tolerance || ratio * (1.0 + tolerance) < 1.0
}

/// A win or a loss (`side`) the parity rule saw but the verdict did not establish: within the
/// A/A floor, or with an interval not wholly beyond the tolerance.
fn unestablished_difference(report: &Report, side: Outcome) -> Caveat {
    let verdict = &report.verdict;
    let difference = report.estimate.difference;
    if difference.abs() <= verdict.floor {
        Caveat::BelowFloor { side, difference, floor: verdict.floor }
    } else {
        Caveat::NotBeyondTolerance { side, estimate: report.estimate, tolerance: verdict.tolerance }
    }
}

/// Why a parity the rule saw is not established: the meter is too coarse for the band the
/// interval lies within, or the interval reaches beyond the band.
fn inconclusive(report: &Report, parity: &ParityVerdict) -> Option<Caveat> {
    let (verdict, estimate) = (&report.verdict, &report.estimate);
    if parity.outcome != Outcome::Parity || verdict.resolved {
        return None;
    }
    let within_band = estimate.low >= -verdict.parity_band && estimate.high <= win_margin(verdict.parity_band);
    if !within_band {
        Some(Caveat::TooWide { estimate: *estimate, parity: verdict.parity_band })
    } else if verdict.floor <= verdict.parity_band && verdict.builds_floor <= verdict.parity_band {
        Some(Caveat::CoarseMeter { parity: verdict.parity_band, resolution: verdict.best_tolerance })
    } else {
        // The noisy-harness or builds-apart caveat already says why.
        None
    }
}

/// The interval resampled blocks of rounds.
fn autocorrelated(report: &Report) -> Option<Caveat> {
    match report.resampling.scheme {
        Resampling::Blocks { len } => Some(Caveat::Autocorrelated { block: len }),
        Resampling::Iid => None,
    }
}

/// The processes' own differences span more than the pooled interval is wide.
fn processes_disagree(report: &Report) -> Option<Caveat> {
    let differences = &report.process_differences;
    if differences.len() < 2 {
        return None;
    }
    let lowest = differences.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = differences.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let width = report.estimate.high - report.estimate.low;
    (highest - lowest > width).then_some(Caveat::ProcessesDisagree {
        processes: differences.len(),
        lowest,
        highest,
        width,
    })
}

/// Few rounds, unless the figures are exact or the verdict is beyond doubt: a difference far
/// beyond its tolerance needs no more rounds (and may have stopped early).
fn few_rounds(report: &Report) -> Option<Caveat> {
    let clear = report.clears(CLEAR_BEYOND_TOLERANCE);
    let calibration = &report.calibration;
    (report.samples.rounds() < FEW_ROUNDS && !report.resampling.exact && !clear).then(|| Caveat::FewRounds {
        rounds: report.samples.rounds(),
        operations: calibration.candidate_iters.max(calibration.baseline_iters),
        batch_ns: calibration.baseline_batch_ns.max(calibration.candidate_batch_ns),
    })
}

/// Whether a caveat of `kind` on `judgement` changes how its verdict reads, so that the short
/// block shows it. Not placement (said once for the whole run); not a drift both arms shared
/// while their ratio held (the verdict stands), nor one too small to have moved the verdict;
/// not correlated or few rounds under an established parity (they widen the interval, which
/// still lies within the band).
pub fn changes_reading(kind: WarningKind, judgement: &Judgement) -> bool {
    let established = judgement.verdict.outcome == Outcome::Parity && judgement.verdict.resolved;
    match kind {
        WarningKind::Placement => false,
        WarningKind::Drift => !drifted_together(&judgement.first) && drift_could_move_verdict(&judgement.first),
        WarningKind::Autocorrelated | WarningKind::FewRounds => !established,
        _ => true,
    }
}

/// Whether a win or a loss stands beyond every noise: counted (not refuted by fresh
/// processes) and with its whole interval more than [`CLEAR_BEYOND_TOLERANCE`] tolerances from
/// zero. No caveat changes how such a verdict reads, so the short block shows none.
pub fn beyond_doubt(judgement: &Judgement) -> bool {
    judgement.confirmed() != Some(false) && judgement.clears(CLEAR_BEYOND_TOLERANCE)
}

/// The caveat for a first round whose signal (`side`) fresh processes did not confirm, with
/// why the confirmation ended.
pub fn unconfirmed(first: &Report, side: Outcome, fresh: &Report, ending: Ending, settle: Option<Settle>) -> Caveat {
    Caveat::Unconfirmed { side, first: figures(first), fresh: figures(fresh), ending, settle }
}

/// The caveat for a first round whose signal (`side`) the time cap left no room to confirm: it
/// had room for `room` fresh processes, and the test needs `fewest`, which a budget of `budget`
/// would hold.
pub fn no_room(first: &Report, side: Outcome, fewest: usize, room: usize, budget: Duration) -> Caveat {
    Caveat::NoRoom { side, first: figures(first), fewest, room, budget }
}

/// The caveat for a first round that leaned to a win or a loss (`side`) it could not establish,
/// and fresh processes established it.
pub fn established_lean(first: &Report, side: Outcome, fresh: &Report) -> Caveat {
    Caveat::Leaned { side, first: figures(first), fresh: figures(fresh) }
}

/// A round's figures, with its own outcome.
fn figures(report: &Report) -> RoundFigures {
    RoundFigures {
        outcome: report.verdict.outcome,
        ratio: report.verdict.ratio,
        estimate: report.estimate,
        tolerance: report.verdict.tolerance,
        processes: report.resampling.processes,
    }
}
