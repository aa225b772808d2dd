//! Instruction counts in words: the clause the verdict line gains where they change its reading,
//! the verbose lines, and the failure message's account of where the instructions went.

use super::text::{Detail, Line};
use crate::units::{pct, signed_pct};
use rtcompare_judge::counts::{Agreement, FunctionChange, Instructions};
use rtcompare_judge::stats::Outcome;

/// The functions a failure message names.
const NAMED_IN_FAILURE: usize = 3;

/// The functions the verbose block lists.
const LISTED_IN_VERBOSE: usize = 5;

/// A text block's `lines` (the verdict line first, for a time verdict of `time`) with a test's
/// instruction counts (`counted`, or why not, `not_counted`): the verdict line's clause
/// (`verdict_clause`), and in the verbose block the counts' lines, or why there are none,
/// after the figures.
pub fn with_counts(
    mut lines: Vec<(Line, String)>,
    (counted, not_counted): (Option<&Instructions>, Option<&str>),
    time: Outcome,
    detail: Detail,
) -> Vec<(Line, String)> {
    if let (Some(counts), Some((_, verdict))) = (counted, lines.first_mut()) {
        verdict.push_str(&verdict_clause(counts, time).unwrap_or_default());
    }
    if detail == Detail::Verbose {
        let added = match (counted, not_counted) {
            (Some(counts), _) => verbose_lines(counts),
            (None, Some(why)) => vec![not_counted_line(why)],
            (None, None) => Vec::new(),
        };
        let at = lines.iter().position(|(kind, _)| *kind == Line::Warning).unwrap_or(lines.len());
        let indented = added.into_iter().map(|line| (Line::Figure, format!("    {line}")));
        lines.splice(at..at, indented);
    }
    lines
}

/// `; instructions +25.02 %` after a verdict line, where the count changes how the verdict reads:
/// beside a win or a loss, or where time and instructions disagree; `None` beside a parity the
/// instructions agree with. A count that varies within the process gives no figure.
pub(crate) fn verdict_clause(instructions: &Instructions, time: Outcome) -> Option<String> {
    let counted = &instructions.counted;
    if !counted.stable {
        return Some(format!("; {}", varying(instructions)));
    }
    let agreement = instructions.agreement;
    if time == Outcome::Parity && agreement == Agreement::Agrees {
        return None;
    }
    let note = match agreement {
        Agreement::Agrees => String::new(),
        other => format!(" ({})", agreement_words(other, counted.change)),
    };
    Some(format!("; instructions {}{note}", signed_pct(counted.change)))
}

/// A count that varies within the process, in words: the change as an approximate figure with
/// how far the twins were apart where the change is well beyond that, else only that it varies.
fn varying(instructions: &Instructions) -> String {
    let (change, spread) = (instructions.counted.change, instructions.counted.twin_spread());
    if change.abs() > 2.0 * spread {
        format!("instructions about {} (they vary by up to {} within the process)", signed_pct(change), pct(spread))
    } else {
        format!("instructions vary by up to {} within the process, as much as the change: no figure", pct(spread))
    }
}

/// What an agreement asks the reader to think, short.
fn agreement_words(agreement: Agreement, change: f64) -> &'static str {
    match agreement {
        Agreement::Agrees => "agrees with time",
        Agreement::TimeOnly => "time only: memory, cache or layout",
        Agreement::InstructionsOnly if change > 0.0 => "instructions only: more work the CPU hid",
        Agreement::InstructionsOnly => "instructions only: less work, which did not save time here",
        Agreement::Opposite => "opposite to time",
    }
}

/// The verbose block's lines: both arms' counts and their twins', the change and its
/// agreement, then the functions that moved most.
pub(crate) fn verbose_lines(instructions: &Instructions) -> Vec<String> {
    let (counted, per_call) = (&instructions.counted, &instructions.counted.per_call);
    let figure = if counted.stable {
        format!("change {}", signed_pct(counted.change))
    } else {
        format!(
            "{} (a twin counts differently from its arm: hash seeds, heap state, paths that depend on timing)",
            varying(instructions)
        )
    };
    let mut lines = vec![format!(
        "instructions per call (callgrind, valgrind {}): candidate {} (twin {}), baseline {} (twin {}); {figure}; {}",
        instructions.valgrind,
        count(per_call.candidate),
        count(per_call.candidate_twin),
        count(per_call.baseline),
        count(per_call.baseline_twin),
        agreement_words(instructions.agreement, counted.change)
    )];
    if !counted.functions.is_empty() {
        let listed: Vec<String> = counted.functions.iter().take(LISTED_IN_VERBOSE).map(function_change).collect();
        lines.push(format!("instructions moved most in: {}", listed.join(", ")));
    }
    lines
}

/// The verbose line of a comparison whose instructions were not counted.
pub(crate) fn not_counted_line(why: &str) -> String {
    format!("instructions: {why}")
}

/// `; instructions +25.02 % per call (agrees with time), most in `spin` 20,007 → 25,007` for a
/// failure message: the change, and the functions other than the arms themselves whose counts
/// moved most.
pub(crate) fn failure_clause(instructions: &Instructions, candidate: &str, baseline: &str) -> String {
    let counted = &instructions.counted;
    let is_arm =
        |name: &str| [candidate, baseline].iter().any(|arm| name == *arm || name.ends_with(&format!("::{arm}")));
    let named: Vec<String> =
        counted.functions.iter().filter(|f| !is_arm(&f.name)).take(NAMED_IN_FAILURE).map(function_change).collect();
    let most = if named.is_empty() { String::new() } else { format!(", most in {}", named.join(", ")) };
    if !counted.stable {
        return format!("; {}{most}", varying(instructions));
    }
    format!(
        "; instructions {} per call ({}){most}",
        signed_pct(counted.change),
        agreement_words(instructions.agreement, counted.change)
    )
}

/// `` `spin` 20,007 → 25,007 ``: a function's instructions per call, baseline then candidate.
fn function_change(f: &FunctionChange) -> String {
    format!("`{}` {} → {}", f.name, count(f.baseline), count(f.candidate))
}

/// An instruction count per call: whole numbers grouped by thousands (`25,027`), others to a
/// tenth.
pub(crate) fn count(value: f64) -> String {
    let rounded = value.round();
    if (value - rounded).abs() > 1e-6 {
        return format!("{value:.1}");
    }
    let digits = format!("{:.0}", rounded.abs());
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if rounded < 0.0 { format!("-{grouped}") } else { grouped }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rtcompare_judge::counts::{Counted, Routines};

    /// A count of `candidate` against `baseline` instructions per call, twins alike, read
    /// beside a time verdict of `time` within 1 %.
    pub(crate) fn counts(candidate: f64, baseline: f64, time: Outcome) -> Instructions {
        let per_call = Routines { candidate, candidate_twin: candidate, baseline, baseline_twin: baseline };
        let functions = vec![
            FunctionChange { name: "perf::fast".to_owned(), candidate, baseline: 0.0 },
            FunctionChange { name: "perf::slow".to_owned(), candidate: 0.0, baseline },
            FunctionChange { name: "perf::spin".to_owned(), candidate: candidate - 6.0, baseline: baseline - 1.0 },
            FunctionChange { name: "perf::extra_step".to_owned(), candidate: 6.0, baseline: 0.0 },
        ];
        let counted = Counted { change: candidate / baseline - 1.0, stable: true, per_call, functions };
        Instructions::new(counted, "3.19.0", time, 0.01)
    }

    #[test]
    fn counts_are_grouped_by_thousands_and_fractions_keep_a_tenth() {
        assert_eq!(count(25_027.0), "25,027");
        assert_eq!(count(999.0), "999");
        assert_eq!(count(1_000_000.0), "1,000,000");
        assert_eq!(count(0.0), "0");
        assert_eq!(count(12.5), "12.5");
        assert_eq!(count(-1_234.0), "-1,234");
    }

    #[test]
    fn the_verdict_line_gains_the_count_where_it_changes_the_reading() {
        let loss = counts(25_027.0, 20_019.0, Outcome::Loss);
        assert_eq!(verdict_clause(&loss, Outcome::Loss).as_deref(), Some("; instructions +25.02 %"));
        let quiet = counts(20_019.0, 20_019.0, Outcome::Parity);
        assert_eq!(verdict_clause(&quiet, Outcome::Parity), None, "a parity the instructions agree with");
        let memory = counts(20_019.0, 20_019.0, Outcome::Loss);
        assert_eq!(
            verdict_clause(&memory, Outcome::Loss).as_deref(),
            Some("; instructions +0.00 % (time only: memory, cache or layout)")
        );
        let hidden = counts(25_027.0, 20_019.0, Outcome::Parity);
        assert!(verdict_clause(&hidden, Outcome::Parity).is_some_and(|c| c.contains("more work the CPU hid")));
        let mut unstable = counts(25_027.0, 20_019.0, Outcome::Loss);
        unstable.counted.stable = false;
        unstable.counted.per_call.candidate_twin = 25_527.0;
        let clause = verdict_clause(&unstable, Outcome::Loss).unwrap_or_default();
        assert_eq!(clause, "; instructions about +25.02 % (they vary by up to 2.00 % within the process)");
        unstable.counted.per_call.candidate_twin = 35_000.0;
        let clause = verdict_clause(&unstable, Outcome::Loss).unwrap_or_default();
        assert_eq!(clause, "; instructions vary by up to 39.85 % within the process, as much as the change: no figure");
    }

    #[test]
    fn a_failure_names_the_functions_that_moved_other_than_the_arms() {
        let loss = counts(25_027.0, 20_019.0, Outcome::Loss);
        let clause = failure_clause(&loss, "fast", "slow");
        assert_eq!(
            clause,
            "; instructions +25.02 % per call (agrees with time), most in `perf::spin` 20,018 → 25,021, \
             `perf::extra_step` 0 → 6"
        );
    }

    #[test]
    fn verbose_gives_both_arms_and_their_twins() {
        let lines = verbose_lines(&counts(25_027.0, 20_019.0, Outcome::Loss));
        assert_eq!(
            lines[0],
            "instructions per call (callgrind, valgrind 3.19.0): candidate 25,027 (twin 25,027), baseline 20,019 \
             (twin 20,019); change +25.02 %; agrees with time"
        );
        assert!(lines[1].starts_with("instructions moved most in: `perf::fast` 0 → 25,027, "), "{}", lines[1]);
    }
}
