//! The Markdown summary for CI pages (GitHub's `$GITHUB_STEP_SUMMARY`): one table row per
//! comparison, a table per baseline with several candidates, then the warnings and failures in
//! full below a fold.

use super::run::{Run, Test};
use super::{factor_words, outcome_line, rankings};
use crate::Outcome;
use crate::units::{format_rate, pct, signed_pct};
use std::fmt::Write;

/// The summary of a run as Markdown.
pub(crate) fn render(run: &Run<'_>) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail; the results are ignored for that reason.
    let _ = writeln!(out, "### rtcompare: `{}`\n", run.binary);
    let _ = writeln!(out, "{}\n", counts(run.tests));
    if run.unoptimised {
        let _ = writeln!(
            out,
            "⚠️ **Unoptimised build**, measured on purpose (`RTCOMPARE_DEBUG=1`): these figures describe debug \
             code, and no verdict failed a test. `cargo test --release` measures the code you ship.\n"
        );
    }
    // A column of rates only when a pair declared `throughput`.
    let rates = run.tests.iter().any(|t| t.work.is_some());
    let (rates_head, rates_rule) = if rates { (" throughput (candidate / baseline) |", " --- |") } else { ("", "") };
    let _ =
        writeln!(out, "| | pair | outcome | difference (interval) | ratio (best) | tolerance |{rates_head} warnings |");
    let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- |{rates_rule} --- |");
    for test in run.tests {
        let _ = writeln!(out, "{}", row(test, rates));
    }
    for ranking in rankings(run.tests) {
        let _ = write!(out, "\n{}", ranking.render_markdown());
    }
    details(&mut out, "Warnings", run.tests.iter().flat_map(warning_items));
    details(&mut out, "Failures", run.tests.iter().filter_map(failure_item));
    out
}

/// `2 wins, 1 parity (1 established, 0 inconclusive), 0 losses; 1 failed`.
fn counts(tests: &[Test<'_>]) -> String {
    let outcome = |o: Outcome| tests.iter().filter_map(|t| t.report).filter(move |r| r.verdict.outcome == o);
    let established = outcome(Outcome::Parity).filter(|r| r.verdict.resolved).count();
    let parity = outcome(Outcome::Parity).count();
    let failed = tests.iter().filter(|t| !t.passed()).count();
    format!(
        "{} win(s), {parity} parity ({established} established, {} inconclusive), {} loss(es); {} of {} test(s) \
         passed",
        outcome(Outcome::Win).count(),
        parity - established,
        outcome(Outcome::Loss).count(),
        tests.len() - failed,
        tests.len()
    )
}

fn row(test: &Test<'_>, rates: bool) -> String {
    let mark = if test.passed() { "✅" } else { "❌" };
    let name = code(test.name);
    let Some(report) = test.report else {
        let rates = if rates { " |" } else { "" };
        return format!("| {mark} | {name} | not measured (see failures) | | | |{rates} |");
    };
    let rates = match (rates, test.work) {
        (false, _) => String::new(),
        (true, None) => " |".to_owned(),
        (true, Some(work)) => format!(
            " {} / {} |",
            format_rate(work.per_second(report.candidate_summary.median), work.unit),
            format_rate(work.per_second(report.baseline_summary.median), work.unit)
        ),
    };
    let v = &report.verdict;
    let e = &report.estimate;
    let outcome = match v.outcome {
        Outcome::Parity => outcome_line(report),
        _ => format!("**{}**", outcome_line(report)),
    };
    let difference = format!(
        "{} [{}, {}]: candidate {}",
        signed_pct(e.difference),
        signed_pct(e.low),
        signed_pct(e.high),
        factor_words(e.difference, report.metric)
    );
    let warnings = match report.warnings.len() {
        0 => String::new(),
        n => format!("⚠️ {n}: {}", report.warnings.iter().map(kind).collect::<Vec<_>>().join(", ")),
    };
    format!(
        "| {mark} | {name} | {outcome} | {} | {:.3} ({:.3}) | ±{} |{rates} {} |",
        cell(&difference),
        v.ratio,
        v.best_ratio,
        pct(v.tolerance),
        cell(&warnings)
    )
}

/// A warning kind in words: its name with spaces (`timing modes`).
fn kind(warning: &crate::Warning) -> String {
    warning.kind.as_str().replace('_', " ")
}

fn warning_items(test: &Test<'_>) -> Vec<String> {
    let Some(report) = test.report else { return Vec::new() };
    report.warnings.iter().map(|w| format!("{}: {}", code(test.name), w.message)).collect()
}

fn failure_item(test: &Test<'_>) -> Option<String> {
    Some(format!("{}: {}", code(test.name), test.failure?))
}

/// A folded list under a heading, or nothing when the list is empty.
fn details(out: &mut String, title: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.map(|item| format!("- {}", item.replace('\n', " "))).collect();
    if items.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n<details><summary>{title} ({})</summary>\n", items.len());
    for item in &items {
        let _ = writeln!(out, "{item}");
    }
    let _ = writeln!(out, "\n</details>");
}

/// Text made safe for a table cell: no line breaks, no bare column separators.
fn cell(text: &str) -> String {
    text.replace('\n', " ").replace('|', "\\|")
}

/// A name in backticks (test names may hold `<`, `>` or `|`, which code spans keep literal; a
/// pipe still needs its escape inside a table).
fn code(name: &str) -> String {
    format!("`{}`", name.replace('`', "'").replace('|', "\\|"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;

    fn summary(tests: &[Test<'_>]) -> String {
        let environment = fixtures::environment();
        render(&fixtures::run(&environment, tests, false))
    }

    #[test]
    fn one_row_per_comparison_with_outcome_difference_ratio_and_tolerance() {
        let records = [fixtures::record("perf::fast_vs_slow", 25.0, 100.0), fixtures::panicked("perf::boom_vs_slow")];
        let text = summary(&records);
        let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(rows.len(), 4, "{text}");
        let win = rows[2];
        let v = &records[0].report.unwrap().verdict;
        let (ratios, tolerance) = (format!("{:.3} ({:.3})", v.ratio, v.best_ratio), format!("±{}", pct(v.tolerance)));
        for part in ["✅", "`perf::fast_vs_slow`", "**win (resolved)**", "candidate is 4.", &ratios, &tolerance] {
            assert!(win.contains(part), "missing {part:?} in {win}");
        }
        assert!(rows[3].starts_with("| ❌ | `perf::boom_vs_slow` | not measured"), "{text}");
        assert!(text.contains("<details><summary>Failures (1)</summary>"), "{text}");
        assert!(text.contains("1 win(s), 0 parity (0 established, 0 inconclusive), 0 loss(es); 1 of 2 test(s) passed"));
    }

    #[test]
    fn several_candidates_of_one_baseline_get_their_own_table_below_the_rows() {
        let records = [
            fixtures::record("perf::fast_vs_slow", 25.0, 100.0),
            fixtures::record("perf::faster_vs_slow", 10.0, 100.0),
        ];
        let text = summary(&records);
        let heading = text.find("#### 2 candidates against `slow`, fastest first").unwrap_or_else(|| panic!("{text}"));
        assert!(text.find("| ✅ | `perf::faster_vs_slow` |").is_some_and(|row| row < heading), "{text}");
        assert!(summary(&records[..1]).find("####").is_none(), "one candidate gets no table");
    }

    #[test]
    fn a_pair_with_throughput_adds_a_column_of_rates() {
        use crate::measure::{ThroughputUnit, Work};
        let work = Some(Work { unit: ThroughputUnit::Elements, per_call: 1_000 });
        let records = [
            crate::report::Test { work, ..fixtures::record("perf::fast_vs_slow", 25.0, 100.0) },
            fixtures::record("perf::other_vs_slow", 50.0, 100.0),
            fixtures::panicked("perf::boom_vs_slow"),
        ];
        let text = summary(&records);
        assert!(text.contains("| tolerance | throughput (candidate / baseline) | warnings |"), "{text}");
        let row = text.lines().find(|l| l.contains("fast_vs_slow")).unwrap_or_default();
        assert!(row.contains(" Gelem/s / ") && row.contains(" Gelem/s |"), "{row}");
        // Every row has as many cells as the header.
        let cells = |line: &str| line.matches(" |").count();
        let header = text.lines().find(|l| l.starts_with("| | pair")).unwrap_or_default();
        for line in text.lines().filter(|l| l.starts_with("| ✅") || l.starts_with("| ❌")) {
            assert_eq!(cells(line), cells(header), "{line}");
        }
        assert!(!summary(&records[1..]).contains("throughput"), "no column without throughput");
    }

    #[test]
    fn an_unoptimised_run_says_so_at_the_top() {
        let records = [fixtures::record("perf::fast_vs_slow", 25.0, 100.0)];
        let environment = fixtures::environment();
        let text = render(&fixtures::run(&environment, &records, true));
        assert!(text.contains("**Unoptimised build**, measured on purpose (`RTCOMPARE_DEBUG=1`)"), "{text}");
        assert!(!summary(&records).contains("Unoptimised"));
    }

    #[test]
    fn table_cells_never_break_the_table() {
        assert_eq!(cell("a | b\nc"), "a \\| b c");
        assert_eq!(code("generic::sort::<u32>|x"), "`generic::sort::<u32>\\|x`");
    }
}
