//! The compact text block printed under a comparison's libtest line.

use super::sentences::{one_line, sentence};
use crate::units::{
    change_interval, change_pct, format_rate, format_value, headline_interval, level_pct, pct, signed_pct,
};
use rtcompare_judge::Metric;
use rtcompare_judge::caveats::{beyond_doubt, changes_reading};
use rtcompare_judge::measure::Work;
use rtcompare_judge::stats::{Outcome, Resampling, fast_end};
use rtcompare_judge::verdict::{Caveat, Judgement, Report, WarningKind};

/// What a line of the text block says, so that a terminal can colour it without reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A figure: the arms, the difference, the ratio, sampling and confidence.
    Figure,
    /// The verdict, `win (confirmed)` and so on.
    Outcome,
    /// A caveat on the verdict.
    Warning,
}

/// How much of a verdict the text block shows.
///
/// ```
/// use rtcompare::report::Detail;
/// let verbose = std::env::var_os("RTCOMPARE_VERBOSE").is_some_and(|v| v == "1");
/// let detail = if verbose { Detail::Verbose } else { Detail::Short };
/// # let _ = detail;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// The verdict with its change and interval, each arm's median, and one line for each
    /// warning that changes how the verdict reads: at most a few lines.
    Short,
    /// Every figure (fast ends, ratio, the tolerance's parts, placement, rounds, resampling, the
    /// confirmation) and each warning's full text (`RTCOMPARE_VERBOSE=1`).
    Verbose,
}

/// Renders a report as an indented block of plain text (no colour), one fact per line.
///
/// ```
/// use rtcompare::report::{Detail, render_text};
/// use rtcompare::{Arm, Options, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(20), ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// let short = render_text(&report, Detail::Short);
/// assert!(short.lines().next().is_some_and(|l| l.contains(": time ")), "{short}");
/// assert!(render_text(&report, Detail::Verbose).lines().count() > short.lines().count());
/// ```
pub fn render_text(report: &Report, detail: Detail) -> String {
    let judgement = Judgement::of(report.clone());
    text_lines(&judgement, None, detail).into_iter().map(|(_, text)| text + "\n").collect()
}

/// The text block's lines of a comparison's judgement, each with what it says; with `work`, each
/// arm's rate follows its time.
pub fn text_lines(judgement: &Judgement, work: Option<Work>, detail: Detail) -> Vec<(Line, String)> {
    let verbose = detail == Detail::Verbose;
    let report = &judgement.first;
    let mut lines = Vec::new();
    let mut add = |kind, text: String| lines.push((kind, format!("    {text}")));
    add(Line::Outcome, verdict_line(judgement));
    let name_width = report.candidate.len().max(report.baseline.len());
    // One line per arm: its name, median (and fast end when verbose), and the rate at the median.
    let arm_line = |label: &str, name: &str, median: f64, per_op: &[f64]| {
        let rate = work.map_or_else(String::new, |w| format!("  {}", format_rate(w.per_second(median), w.unit)));
        let best =
            if verbose { format!("  (best {})", format_value(fast_end(per_op), report.metric)) } else { String::new() };
        format!("{label:<9} {name:<name_width$}  {}/op{best}{rate}", format_value(median, report.metric))
    };
    let c = arm_line("candidate", &report.candidate, report.candidate_summary.median, &report.samples.candidate.per_op);
    let b = arm_line("baseline", &report.baseline, report.baseline_summary.median, &report.samples.baseline.per_op);
    add(Line::Figure, c);
    add(Line::Figure, b);
    if verbose {
        for line in detail_lines(judgement) {
            add(Line::Figure, line);
        }
        for caveat in &judgement.caveats {
            add(Line::Warning, format!("warning[{}]: {}", caveat.kind().as_str(), sentence(caveat, report)));
        }
    } else if !beyond_doubt(judgement) {
        // One line per kind: the short line names the kind, not the series or arm it is about.
        let mut shown: Vec<WarningKind> = Vec::new();
        for kind in judgement.caveats.iter().map(Caveat::kind).filter(|&kind| changes_reading(kind, judgement)) {
            if !shown.contains(&kind) {
                shown.push(kind);
                add(Line::Warning, one_line(kind));
            }
        }
    }
    lines
}

/// The figures only the verbose block shows, a line each.
fn detail_lines(judgement: &Judgement) -> Vec<String> {
    let (v, report) = (&judgement.verdict, &judgement.first);
    let mut lines = vec![format!(
        "ratio {:.4} (candidate / baseline)  best ratio {:.4}  tolerance ±{} (best ±{})  noise {}  A/A floor {}",
        v.ratio,
        v.best_ratio,
        pct(v.tolerance),
        pct(v.best_tolerance),
        pct(v.noise),
        pct(v.floor)
    )];
    lines.extend(placement_line(report));
    lines.push(sampling_words(report));
    lines.extend(first_round_line(judgement));
    lines.extend(confirmation_line(judgement));
    for c in &report.confidence {
        lines.push(format!(
            "confidence the candidate is ahead by {}: {:.1} %",
            signed_pct(c.threshold),
            c.confidence * 100.0
        ));
    }
    lines
}

/// `loss (confirmed): time +202.03 % [+196.49 %, +215.77 %] at 99.95 % over 13 fresh processes:
/// the candidate takes 3.02x the baseline's time` — the verdict, then the change in the
/// candidate's time (or bytes, or allocations) relative to the baseline's with criterion's sign
/// (negative is faster) and its interval, then what it means in words. Where fresh processes ran,
/// the change is theirs: each draws what a process draws once (its layout, its seeds) anew, where
/// the first round is one process, so theirs is the better estimate (the first round's stays in
/// the verbose block and the results file).
pub(crate) fn verdict_line(judgement: &Judgement) -> String {
    let v = &judgement.verdict;
    let (report, over) = headline(judgement);
    let e = &report.estimate;
    // Within the band: as the verdict established, or as the printed interval of fresh processes
    // lies.
    let inside = -v.parity_band <= e.low && e.high <= v.parity_band;
    let within = match judgement.confirmation {
        Some(_) => inside,
        None => v.resolved,
    };
    let meaning = match (v.outcome, within) {
        (Outcome::Parity, true) => format!(", within ±{}", pct(v.parity_band)),
        // Within the band but not established: a floor or the meter exceeds the parity, which
        // the warnings below say.
        (Outcome::Parity, false) if inside => format!(", within ±{} but not established", pct(v.parity_band)),
        (Outcome::Parity, false) => format!(", not wholly within ±{}", pct(v.parity_band)),
        _ => format!(": the candidate {}", factor_words(e.difference, report.metric)),
    };
    format!(
        "{}: {} {} {} at {}{over}{meaning}",
        outcome_line(judgement),
        quantity(report.metric),
        change_pct(e.difference),
        headline_interval(e.low, e.high),
        level_pct(e.level)
    )
}

/// The report whose change heads a verdict: the fresh processes' where a confirmation ran (and
/// ` over N fresh processes` to say so), else the first round's.
pub(crate) fn headline(judgement: &Judgement) -> (&Report, String) {
    match &judgement.confirmation {
        Some(found) => {
            let n = found.report.resampling.processes;
            (&found.report, format!(" over {n} fresh process{} of this build", if n == 1 { "" } else { "es" }))
        }
        None => (&judgement.first, String::new()),
    }
}

/// `first round: time +20.25 % [+15.54 %, +24.97 %] at 99.78 %`, the verbose block's line for a
/// first round whose change the headline does not give (fresh processes ran).
fn first_round_line(judgement: &Judgement) -> Option<String> {
    judgement.confirmation.as_ref()?;
    let report = &judgement.first;
    let e = &report.estimate;
    Some(format!(
        "first round: {} {} {} at {}",
        quantity(report.metric),
        change_pct(e.difference),
        change_interval(e.low, e.high),
        level_pct(e.level)
    ))
}

/// What a change is a change in, per metric.
pub(crate) fn quantity(metric: Metric) -> &'static str {
    match metric {
        Metric::Time => "time",
        Metric::AllocBytes => "bytes",
        Metric::Allocs => "allocations",
        Metric::Instructions => "instructions",
    }
}

/// `placement: each arm at 4 code offsets, candidate's within 0.31 %, baseline's within 88.00 %`;
/// `None` for arms measured in one copy.
fn placement_line(report: &Report) -> Option<String> {
    let (c, b) = (report.validation.candidate_placement.as_ref(), report.validation.baseline_placement.as_ref());
    let copies = c.or(b)?.medians.len();
    let within = |p: Option<&rtcompare_judge::validate::PlacementSpread>| {
        p.map_or_else(|| "not measured".to_owned(), |p| pct(p.spread))
    };
    Some(format!(
        "placement: each arm at {copies} code offsets, averaged; copies apart by up to {} (candidate), {} (baseline)",
        within(c),
        within(b)
    ))
}

/// `confirmation: 4 fresh processes, time +20.25 % [+15.54 %, +24.97 %] at 99.7 %; over all 5
/// processes +20.37 %` (criterion's sign, as the verdict line); `None` when no confirmation ran.
fn confirmation_line(judgement: &Judgement) -> Option<String> {
    let second = &judgement.confirmation.as_ref()?.report;
    let mean = judgement.over_processes()?;
    let e = &second.estimate;
    Some(format!(
        "confirmation: {} fresh {}, {} {} {} at {}; over all {} processes {}",
        second.resampling.processes,
        if second.resampling.processes == 1 { "process" } else { "processes" },
        quantity(judgement.first.metric),
        change_pct(e.difference),
        change_interval(e.low, e.high),
        level_pct(e.level),
        mean.processes,
        change_pct(mean.difference)
    ))
}

/// Whether a verdict rests on one process alone: a first round in one process, and no fresh
/// processes. Its "parity (established)" is established within that process only: what each
/// process draws once (its layout, its hash seeds) it cannot see.
pub fn in_one_process(judgement: &Judgement) -> bool {
    judgement.confirmation.is_none() && judgement.first.resampling.processes <= 1
}

/// `3 parity (2 established in one process, 1 established across processes, 0 inconclusive)`: the
/// parities among `judgements` (the last clause only where there is one).
///
/// ```
/// assert_eq!(rtcompare_report::parity_counts(&[]), "0 parity (0 established in one process, 0 inconclusive)");
/// ```
pub fn parity_counts(judgements: &[&Judgement]) -> String {
    let parities: Vec<&&Judgement> = judgements.iter().filter(|j| j.verdict.outcome == Outcome::Parity).collect();
    let established = |one: bool| parities.iter().filter(|j| j.verdict.resolved && in_one_process(j) == one).count();
    let inconclusive = parities.iter().filter(|j| !j.verdict.resolved).count();
    let across = match established(false) {
        0 => String::new(),
        n => format!(", {n} established across processes"),
    };
    format!(
        "{} parity ({} established in one process{across}, {inconclusive} inconclusive)",
        parities.len(),
        established(true)
    )
}

/// `win (resolved)`, `parity (inconclusive)`, `loss (confirmed)`, `parity (established in one
/// process)` and so on.
pub(crate) fn outcome_line(judgement: &Judgement) -> String {
    let v = &judgement.verdict;
    let qualifier = match (v.outcome, judgement.confirmed()) {
        (Outcome::Parity, _) if v.resolved && in_one_process(judgement) => "established in one process",
        (Outcome::Parity, _) if v.resolved => "established",
        (Outcome::Parity, _) => "inconclusive",
        (_, Some(true)) => "confirmed",
        (_, Some(false)) if judgement.out_of_time() => "not confirmed: out of time",
        (_, Some(false)) => "not confirmed",
        (_, None) => "resolved",
    };
    format!("{} ({qualifier})", v.outcome.as_str())
}

/// The relative difference `d = 1 − candidate/baseline` as words a person reads at a glance:
/// a factor when the arms are far apart (`is 4.18x faster`, `takes 4.04x the baseline's time`), a
/// percentage when they are close (`is 1.20 % slower`). "4x slower" is avoided: it is read both
/// as "takes 4x the time" and as "takes 5x the time".
pub(crate) fn factor_words(difference: f64, metric: Metric) -> String {
    let ratio = 1.0 - difference;
    let (less, more, factor_less, factor_more) = match metric {
        Metric::Time => ("is {} faster", "is {} slower", "is {}x faster", "takes {}x the baseline's time"),
        Metric::AllocBytes => (
            "allocates {} fewer bytes",
            "allocates {} more bytes",
            "allocates {}x fewer bytes",
            "allocates {}x the baseline's bytes",
        ),
        Metric::Allocs => (
            "makes {} fewer allocations",
            "makes {} more allocations",
            "makes {}x fewer allocations",
            "makes {}x the baseline's allocations",
        ),
        Metric::Instructions => (
            "executes {} fewer instructions",
            "executes {} more instructions",
            "executes {}x fewer instructions",
            "executes {}x the baseline's instructions",
        ),
    };
    let fill = |template: &str, value: String| template.replacen("{}", &value, 1);
    match ratio {
        r if !r.is_finite() => "cannot be compared with the baseline".to_owned(),
        r if (r - 1.0).abs() < 5e-5 => "matches the baseline".to_owned(),
        r if r > 0.0 && r <= 1.0 / FACTOR_FROM => fill(factor_less, format!("{:.2}", 1.0 / r)),
        r if r < 1.0 => fill(less, pct(difference)),
        r if r >= FACTOR_FROM => fill(factor_more, format!("{r:.2}")),
        _ => fill(more, pct(-difference)),
    }
}

/// From this factor on, a difference reads better as `4.2x` than as `+320 %`.
const FACTOR_FROM: f64 = 1.5;

fn batch_words(calibration: &rtcompare_judge::measure::Calibration) -> String {
    if calibration.shared_batch_size() {
        format!("{} ops per batch", calibration.candidate_iters)
    } else {
        format!(
            "{} candidate and {} baseline ops per batch (costs too far apart to share a size)",
            calibration.candidate_iters, calibration.baseline_iters
        )
    }
}

/// Rounds, batch sizes and how the interval was resampled, in one line.
fn sampling_words(report: &Report) -> String {
    let rounds = report.samples.rounds();
    let batches = batch_words(&report.calibration);
    let info = &report.resampling;
    if info.exact {
        return format!("{rounds} rounds, {batches}, exact: every round counted the same, nothing to resample");
    }
    let processes = match info.processes {
        1 => String::new(),
        k => format!(" from {k} processes (processes resampled, then rounds)"),
    };
    format!("{rounds} rounds{processes}, {batches}, {}, {} resamples", scheme_words(info.scheme), info.resamples)
}

fn scheme_words(scheme: Resampling) -> String {
    match scheme {
        Resampling::Iid => "rounds resampled independently".to_owned(),
        Resampling::Blocks { len } => format!("rounds resampled in blocks of {len}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    /// A loss the time cap left no room to confirm says so in its outcome, apart from one that
    /// fresh processes measured and did not repeat.
    #[test]
    fn a_loss_left_unconfirmed_by_the_time_cap_says_it_ran_out_of_time() {
        let out_of_time = fixtures::out_of_time(fixtures::report(100.0, 50.0));
        assert!(out_of_time.out_of_time());
        assert_eq!(outcome_line(&out_of_time), "loss (not confirmed: out of time)");
        let refuted = fixtures::unconfirmed(fixtures::report(100.0, 50.0), fixtures::report(50.0, 50.0));
        assert!(!refuted.out_of_time());
        assert_eq!(outcome_line(&refuted), "loss (not confirmed)");
    }

    #[test]
    fn differences_read_as_factors_when_large_and_percentages_when_small() {
        assert_eq!(factor_words(0.75, Metric::Time), "is 4.00x faster");
        assert_eq!(factor_words(-3.0886, Metric::Time), "takes 4.09x the baseline's time");
        assert_eq!(factor_words(0.012, Metric::Time), "is 1.20 % faster");
        assert_eq!(factor_words(-0.25, Metric::Time), "is 25.00 % slower");
        assert_eq!(factor_words(0.0, Metric::Time), "matches the baseline");
        assert_eq!(factor_words(0.5, Metric::AllocBytes), "allocates 2.00x fewer bytes");
        assert_eq!(factor_words(-1.0, Metric::Allocs), "makes 2.00x the baseline's allocations");
        assert_eq!(factor_words(f64::NAN, Metric::Time), "cannot be compared with the baseline");
    }

    /// A parity whose interval lies within the band but which a floor or the meter keeps from
    /// being established says both, not that the interval reaches beyond the band.
    #[test]
    fn a_parity_within_its_band_but_not_established_says_so() {
        let mut report = fixtures::report(100.0, 100.0);
        (report.verdict.outcome, report.verdict.resolved) = (Outcome::Parity, false);
        (report.estimate.difference, report.estimate.low, report.estimate.high) = (0.001, -0.01, 0.01);
        let line = verdict_line(&Judgement::of(report.clone()));
        assert!(line.ends_with(", within ±4.00 % but not established"), "{line}");
        report.estimate.high = 0.08;
        let line = verdict_line(&Judgement::of(report));
        assert!(line.ends_with(", not wholly within ±4.00 %"), "{line}");
    }

    #[test]
    fn the_short_block_is_the_verdict_with_criterions_sign_and_both_arms() {
        let text = render_text(&fixtures::report(25.0, 100.0), Detail::Short);
        let lines: Vec<&str> = text.lines().collect();
        // The candidate takes a quarter of the baseline's time: a change of -75 %.
        assert!(lines[0].starts_with("    win (resolved): time -7"), "{text}");
        assert!(lines[0].ends_with("x faster"), "{text}");
        assert!(lines[1].starts_with("    candidate fast") && lines[1].ends_with("ns/op"), "{text}");
        assert!(lines[2].starts_with("    baseline  slow") && lines[2].ends_with("ns/op"), "{text}");
        assert_eq!(lines.len(), 3, "a win four times over has no warning that changes its reading: {text}");
    }

    #[test]
    fn the_verbose_block_adds_every_figure_and_the_full_warnings() {
        let mut report = fixtures::report(25.0, 100.0);
        let wide = rtcompare_judge::Caveat::TooWide { estimate: report.estimate, parity: report.verdict.parity_band };
        report.warnings.push(wide.clone());
        let text = render_text(&report, Detail::Verbose);
        assert!(text.lines().nth(1).is_some_and(|l| l.contains("(best ")), "{text}");
        assert!(text.contains("A/A floor"), "{text}");
        let full = format!("    warning[inconclusive]: {}\n", sentence(&wide, &report));
        assert!(full.contains(": parity is not established: the ") && text.contains(&full), "{text}");
        assert!(!text.contains("confirmation:"), "no confirmation ran: {text}");
        // The short block leaves a warning out only when the verdict is beyond doubt.
        assert!(!render_text(&report, Detail::Short).contains("warning"), "a win four times over");
        let mut close = fixtures::report(99.0, 100.0);
        close.warnings = report.warnings.clone();
        let short = render_text(&close, Detail::Short);
        assert!(
            short.lines().any(|l| l.starts_with("    warning[inconclusive]: ")
                && l.ends_with("\"inconclusive\" in rtcompare's HOWTO")),
            "{short}"
        );
    }

    #[test]
    fn with_throughput_each_arm_shows_its_rate_at_its_median() {
        use rtcompare_judge::measure::{ThroughputUnit, Work};
        let judgement = Judgement::of(fixtures::report(25.0, 100.0));
        let report = &judgement.first;
        let work = Work { unit: ThroughputUnit::Bytes, per_call: 4096 };
        let lines: Vec<String> =
            text_lines(&judgement, Some(work), Detail::Verbose).into_iter().map(|(_, l)| l).collect();
        let candidate = format_rate(4096.0 * 1e9 / report.candidate_summary.median, ThroughputUnit::Bytes);
        let baseline = format_rate(4096.0 * 1e9 / report.baseline_summary.median, ThroughputUnit::Bytes);
        assert!(lines[1].ends_with(&format!(")  {candidate}")) && candidate.ends_with(" GiB/s"), "{lines:?}");
        assert!(lines[2].ends_with(&format!(")  {baseline}")) && baseline.ends_with(" GiB/s"), "{lines:?}");
        let without: Vec<String> = text_lines(&judgement, None, Detail::Verbose).into_iter().map(|(_, l)| l).collect();
        assert!(without[1].ends_with(')'), "{without:?}");
    }

    #[test]
    fn a_confirmation_shows_its_own_interval_and_the_mean_over_all_processes() {
        let first = fixtures::report(50.0, 100.0);
        let second = fixtures::report(52.0, 100.0);
        let expected = (first.estimate.difference + second.estimate.difference) / 2.0;
        let judgement = fixtures::confirmed(first, second);
        let text: String = text_lines(&judgement, None, Detail::Verbose).into_iter().map(|(_, l)| l + "\n").collect();
        let line = text.lines().find(|l| l.starts_with("    confirmation: 1 fresh process, time -")).expect(&text);
        assert!(line.ends_with(&format!("over all 2 processes {}", signed_pct(-expected))), "{line}");
    }
}
