//! Caveats in words: each [`Caveat`] as the sentence a non-statistician can act on (what was
//! seen, what it means, what to do), its one line in the short block, and the run's one line on
//! placement.

use crate::units::{change_interval, change_pct, format_ns, level_pct, pct, signed_pct};
use rtcompare_judge::caveats::beyond_doubt;
use rtcompare_judge::stats::Outcome;
use rtcompare_judge::verdict::{
    ArmRole, Caveat, DriftSeries, Ending, Judgement, Report, RoundFigures, Settle, WarningKind,
};

/// The sentence of `caveat`, one of `report`'s, with the arms' names taken from `report`.
///
/// ```
/// use rtcompare::report::sentence;
/// use rtcompare::{Arm, Caveat, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let blocks = Caveat::Autocorrelated { block: 8 };
/// assert!(sentence(&blocks, &report).starts_with("neighbouring rounds were correlated"));
/// ```
pub fn sentence(caveat: &Caveat, report: &Report) -> String {
    match *caveat {
        Caveat::Drift { series, shift, rho, p_value } => drift(series, shift, rho, p_value),
        Caveat::DriftedTogether { candidate, baseline } => drifted_together(candidate, baseline),
        Caveat::NoisyHarness { floor, parity } => noisy_harness(floor, parity),
        Caveat::Placement { arm, copies, spread } => placement(arm, report, copies, spread),
        Caveat::TimingModes { ratio, best_ratio, best_tolerance } => timing_modes(ratio, best_ratio, best_tolerance),
        Caveat::BelowFloor { side, difference, floor } => below_floor(side, difference, floor),
        Caveat::BuildsApart { builds_floor, parity } => format!(
            "the two builds lay this code out apart: its copies at each code offset ran up to {} apart, more than the \
             parity ±{}, and the A/A twins of one build cannot show what another layout does. Against the revision only \
             a difference beyond {} counts, and parity cannot be established. The instruction counts, where counted, \
             say whether the work changed; `metric = \"instructions\"` on the attribute judges on them.",
            pct(builds_floor),
            pct(parity),
            pct(builds_floor)
        ),
        Caveat::NotBeyondTolerance { side, estimate, tolerance } => format!(
            "the candidate looked {} ({}) but the {} interval, {}, is not wholly beyond the tolerance ±{}, so the \
             difference is not established and this is parity. Rerun with more time to tell.",
            looked(side),
            change_pct(estimate.difference),
            level_pct(estimate.level),
            change_interval(estimate.low, estimate.high),
            pct(tolerance)
        ),
        Caveat::CoarseMeter { parity, resolution } => format!(
            "parity is not established: the interval lies within ±{}, but the meter's resolution spread over a batch \
             ({} of the fastest rounds) is coarser than that; give the comparison more time so batches grow.",
            pct(parity),
            pct(resolution)
        ),
        Caveat::TooWide { estimate, parity } => format!(
            "parity is not established: the {} interval of the change, {}, reaches beyond ±{}. The measurements are \
             too noisy to rule out a difference of that size; give the comparison more time (RTCOMPARE_TIME=5s, or \
             `time = \"5s\"` on the attribute) or run on a quieter machine.",
            level_pct(estimate.level),
            change_interval(estimate.low, estimate.high),
            pct(parity)
        ),
        Caveat::Autocorrelated { block } => format!(
            "neighbouring rounds were correlated, so the interval resampled blocks of {block} rounds instead of single \
             rounds; it is wider, and honest. This usually means background load that comes and goes."
        ),
        Caveat::ProcessesDisagree { processes, lowest, highest, width } => {
            processes_disagree(processes, lowest, highest, width)
        }
        Caveat::FewRounds { rounds, operations, batch_ns } => format!(
            "only {rounds} rounds fit in the time budget (one batch of {operations} operations takes about {}), so the \
             interval is rough; give the comparison more time.",
            format_ns(batch_ns)
        ),
        Caveat::Unconfirmed { side, first, fresh, ending, settle } => unconfirmed(side, &first, &fresh, ending, settle),
        Caveat::NoRoom { side, first, fewest, room, budget } => no_room(side, &first, fewest, room, budget),
        Caveat::Leaned { side, first, fresh } => leaned(side, &first, &fresh),
        // `Caveat` is `#[non_exhaustive]` for users; this crate is released with the judging
        // crate at the same version, so every caveat it makes has its arm above, and this one
        // only keeps a caveat without a sentence from being an error.
        _ => one_line(caveat.kind()),
    }
}

fn drift(series: DriftSeries, shift: f64, rho: f64, p_value: f64) -> String {
    let what = match series {
        DriftSeries::Candidate => "the candidate's timings",
        DriftSeries::Baseline => "the baseline's timings",
        DriftSeries::Ratio => "the candidate-to-baseline ratio",
    };
    format!(
        "{what} drifted during the run: the second half was {} against the first (Spearman ρ = {rho:+.2}, p = \
         {p_value:.3}). The machine did not hold still (frequency scaling, heat, or other work starting or stopping); \
         close other programs and rerun before trusting a small difference.",
        signed_pct(shift)
    )
}

fn drifted_together(candidate: f64, baseline: f64) -> String {
    format!(
        "both arms' timings drifted during the run, the same way (second half against the first: candidate {}, baseline \
         {}): the machine did not hold still (frequency scaling, heat, or other work starting or stopping). Each \
         round's ratio cancels what the arms share and it did not drift, so the verdict stands; the per-operation times \
         describe a machine that changed under them, which matters if you track those figures (close other programs \
         for steadier ones).",
        signed_pct(candidate),
        signed_pct(baseline)
    )
}

fn noisy_harness(floor: f64, parity: f64) -> String {
    format!(
        "two copies of identical code (each arm against its A/A twin) ran up to {} apart, more than the parity of {}: \
         where the code sits in memory or the machine's own noise moves this pair that much, so only a difference \
         beyond twice that ({}) counts, and parity cannot be established. If the placement warning below names an \
         arm, build with aligned code (the recipe in rtcompare's docs/placement.md); otherwise quiet the machine or give \
         the comparison more time.",
        pct(floor),
        pct(parity),
        pct(2.0 * floor)
    )
}

fn placement(arm: ArmRole, report: &Report, copies: usize, spread: f64) -> String {
    let (role, name) = arm_name(arm, report);
    format!(
        "where the linker puts the {role} `{name}` changes its speed: its copies at {copies} code offsets ran up to {} \
         apart. Each arm is measured at every offset and averaged, so the verdict is about the code, but one build of \
         it can run at either extreme. To make your own builds independent of placement, align functions and loops \
         (the recipe in rtcompare's docs/placement.md).",
        pct(spread)
    )
}

/// An arm's role and its name in `report`.
fn arm_name(arm: ArmRole, report: &Report) -> (&'static str, &str) {
    match arm {
        ArmRole::Candidate => ("candidate", &report.candidate),
        ArmRole::Baseline => ("baseline", &report.baseline),
    }
}

fn timing_modes(ratio: f64, best_ratio: f64, best_tolerance: f64) -> String {
    format!(
        "the medians differ (ratio {ratio:.3}) but the best runs agree (best ratio {best_ratio:.3}, within ±{}): the \
         arms landed in different timing modes rather than running at different speeds, so this is parity. Read the \
         raw samples if you need to know why.",
        pct(best_tolerance)
    )
}

fn below_floor(side: Outcome, difference: f64, floor: f64) -> String {
    format!(
        "the candidate looked {} ({}) but that is within what this harness shows on identical code (A/A noise floor \
         {}), so it is reported as parity. Rerun on a quieter machine or with more time to tell.",
        looked(side),
        change_pct(difference),
        pct(floor)
    )
}

/// How the candidate looked to the parity rule.
fn looked(side: Outcome) -> &'static str {
    if side == Outcome::Loss { "slower" } else { "faster" }
}

fn processes_disagree(processes: usize, lowest: f64, highest: f64, width: f64) -> String {
    format!(
        "the {processes} processes disagree: their own changes span {} (from {} to {}), more than the interval is wide \
         ({}). Per-process randomness (hash seeds, memory layout) moves this comparison; the pooled interval accounts \
         for it, and more processes (RTCOMPARE_PROCESSES) narrow it.",
        pct(highest - lowest),
        change_pct(highest),
        change_pct(lowest),
        pct(width)
    )
}

/// Both figures, why the confirmation ended where it did, and what would settle it. A signal
/// the processes ruled out gets no advice: more of them would only say the same.
fn unconfirmed(
    side: Outcome,
    first: &RoundFigures,
    fresh: &RoundFigures,
    ending: Ending,
    settle: Option<Settle>,
) -> String {
    let why = match ending {
        Ending::Confirmed | Ending::RuledOut => {
            return with_figures(
                side,
                first,
                fresh,
                "an effect that does not repeat across processes is not reported.",
            );
        }
        Ending::LastLook => "they neither confirmed nor ruled it out at this binary's confirmation level",
        Ending::TimeCap => {
            "the comparison reached its time cap (4 times its budget) before the planned look, so none was taken"
        }
        Ending::NoRoom => {
            "what the first of them cost leaves the time cap (4 times the budget) too little room for the processes \
             the test needs at this binary's level, so none was taken"
        }
    };
    let advice = match settle {
        Some(settle) => format!(
            "{why}. About {} fresh processes (about {:.1} s) would settle it, which a budget of {} holds \
             (RTCOMPARE_TIME, or the attribute's `time`).",
            settle.processes,
            settle.seconds,
            budget_text(settle.budget)
        ),
        None => {
            format!("{why}, and their own estimate lies inside the tolerance: more of them would likely say parity.")
        }
    };
    with_figures(side, first, fresh, &advice)
}

/// A budget as `RTCOMPARE_TIME` accepts it, rounded up to a tenth of a second.
fn budget_text(budget: std::time::Duration) -> String {
    format!("{:.1}s", (budget.as_secs_f64() * 10.0).ceil() / 10.0)
}

/// A signal that no fresh process was measured for: the time cap left too little room.
fn no_room(side: Outcome, first: &RoundFigures, fewest: usize, room: usize, budget: std::time::Duration) -> String {
    format!(
        "the first round {} (ratio {:.3}, change {}), but the time cap (4 times the budget) leaves room for {room} \
         fresh processes, and confirming at this binary's level takes at least {fewest}; none was started. A budget \
         of {} holds them (RTCOMPARE_TIME, or the attribute's `time`).",
        first_round_said(first.outcome, side),
        first.ratio,
        change_pct(first.estimate.difference),
        budget_text(budget)
    )
}

fn with_figures(side: Outcome, first: &RoundFigures, fresh: &RoundFigures, advice: &str) -> String {
    format!(
        "the first round {} (ratio {:.3}, change {}), but {} fresh processes pooled said {} (ratio {:.3}, change {} \
         {}); {advice}",
        first_round_said(first.outcome, side),
        first.ratio,
        change_pct(first.estimate.difference),
        fresh.processes,
        fresh.outcome.as_str(),
        fresh.ratio,
        change_pct(fresh.estimate.difference),
        change_interval(fresh.estimate.low, fresh.estimate.high),
    )
}

fn leaned(side: Outcome, first: &RoundFigures, fresh: &RoundFigures) -> String {
    format!(
        "the first round {} without establishing it (change {} {} at {}, tolerance ±{}), so fresh processes were \
         asked: {} of them pooled said {} (change {} {}), and that is the verdict.",
        first_round_said(first.outcome, side),
        change_pct(first.estimate.difference),
        change_interval(first.estimate.low, first.estimate.high),
        level_pct(first.estimate.level),
        pct(first.tolerance),
        fresh.processes,
        fresh.outcome.as_str(),
        change_pct(fresh.estimate.difference),
        change_interval(fresh.estimate.low, fresh.estimate.high),
    )
}

/// What a first round whose own outcome was `said` said of `side`, for a sentence: `said loss`,
/// or `leaned to a loss` for a parity that leaned to `side`.
pub fn first_round_said(said: Outcome, side: Outcome) -> String {
    match (said, side) {
        (Outcome::Parity, Outcome::Win | Outcome::Loss) => format!("leaned to a {}", side.as_str()),
        (said, _) => format!("said {}", said.as_str()),
    }
}

/// A caveat's kind in one line, as the short block prints it: its kind, what it means for the
/// verdict, and where the HOWTO explains it and its fix (`docs/howto.md`, a section per kind).
/// The full sentence with the figures ([`sentence`]) is printed under `RTCOMPARE_VERBOSE=1`.
pub(crate) fn one_line(kind: WarningKind) -> String {
    let meaning = meaning(kind).unwrap_or("a caveat about the verdict");
    format!("warning[{}]: {meaning}; see \"{}\" in rtcompare's HOWTO", kind.as_str(), kind.as_str())
}

/// What a warning of `kind` means for the verdict, in one clause; `None` only for a kind this
/// crate has no words for, which `WarningKind` being `#[non_exhaustive]` makes possible in the
/// types, and a test here rules out for every kind in [`WarningKind::ALL`].
fn meaning(kind: WarningKind) -> Option<&'static str> {
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
        WarningKind::BuildsApart => {
            "the two builds lay this code out apart by more than the tolerance; only a difference beyond that counts"
        }
        WarningKind::Autocorrelated => "neighbouring rounds moved together (a busy or throttling machine)",
        WarningKind::FewRounds => "few rounds were measured, so the interval is rough",
        WarningKind::ProcessesDisagree => "separate processes disagree by more than the interval is wide",
        WarningKind::Unconfirmed => {
            "fresh processes did not repeat this result (a loss fails a test only when repeated)"
        }
        WarningKind::Leaned => "the first round only leaned this way; fresh processes established it",
        _ => return None,
    };
    Some(meaning)
}

/// The short format's one line for placement, in place of a caveat in each block: the arms
/// whose speed depends on where the linker puts them, in the verdicts it could change (not those
/// beyond doubt); `None` when there are none.
pub fn placement_summary(judgements: &[&Judgement]) -> Option<String> {
    let arms: Vec<String> = judgements
        .iter()
        .filter(|judgement| !beyond_doubt(judgement))
        .flat_map(|judgement| judgement.caveats.iter().map(move |caveat| (judgement, caveat)))
        .filter_map(|(judgement, caveat)| match *caveat {
            Caveat::Placement { arm, .. } => Some(format!("`{}`", arm_name(arm, &judgement.first).1)),
            _ => None,
        })
        .collect();
    if arms.is_empty() {
        return None;
    }
    // Five names, then how many more.
    let shown = match arms.len() {
        0..=6 => arms.join(", "),
        n => format!("{} and {} more", arms[..5].join(", "), n - 5),
    };
    Some(format!(
        "where the linker puts the code changes the speed of {} {} by more than {} tolerance ({shown}); see \
         \"placement\" in rtcompare's HOWTO, and RTCOMPARE_VERBOSE=1 for the figures",
        arms.len(),
        if arms.len() == 1 { "arm" } else { "arms" },
        if arms.len() == 1 { "its" } else { "their" }
    ))
}

#[cfg(test)]
mod tests {
    /// Every warning kind the judging crate makes has words of its own in the short block.
    #[test]
    fn every_warning_kind_has_its_meaning() {
        let missing: Vec<&str> =
            WarningKind::ALL.iter().filter(|kind| super::meaning(**kind).is_none()).map(|kind| kind.as_str()).collect();
        assert!(missing.is_empty(), "warning kinds without a meaning: {missing:?}");
    }

    use super::*;
    use crate::fixtures;

    /// A caveat names no arm itself: its sentence takes the names of the report it is rendered
    /// with, so a caveat made at an interim look reads the same as one made at the end.
    #[test]
    fn a_placement_caveat_names_its_arm_from_the_report() {
        let report = fixtures::report(50.0, 100.0);
        let on = |arm| sentence(&Caveat::Placement { arm, copies: 4, spread: 0.2 }, &report);
        assert!(on(ArmRole::Candidate).starts_with("where the linker puts the candidate `fast` changes its speed"));
        assert!(on(ArmRole::Baseline).contains("the baseline `slow` changes its speed: its copies at 4 code offsets"));
    }

    /// The run's placement line lists the arms of the reports whose placement caveats could
    /// change their verdicts, and none for a verdict beyond doubt.
    #[test]
    fn the_placement_summary_names_the_arms_of_verdicts_in_doubt() {
        let placed = |candidate: f64| {
            let mut report = fixtures::report(candidate, 100.0);
            report.warnings.push(Caveat::Placement { arm: ArmRole::Candidate, copies: 4, spread: 0.2 });
            Judgement::of(report)
        };
        let (close, clear) = (placed(99.0), placed(25.0));
        let line = placement_summary(&[&close, &clear]).expect("one arm in doubt");
        assert!(
            line.starts_with("where the linker puts the code changes the speed of 1 arm by more than its tolerance")
        );
        assert!(line.contains("(`fast`)"), "{line}");
        assert_eq!(placement_summary(&[&clear]), None);
    }
}
