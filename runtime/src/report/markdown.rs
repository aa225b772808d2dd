//! The Markdown summary for CI pages (GitHub's `$GITHUB_STEP_SUMMARY`): one table row per
//! comparison, a table per baseline with several candidates, then the warnings and failures in
//! full below a fold.

use super::ranking::{Ranked, rank, ranked};
use super::run::Test;
use super::sentences::sentence;
use super::{factor_words, outcome_line};
use crate::Outcome;
use crate::units::{change_interval, change_pct, format_rate, pct};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// What one test adds to the summary, as owned data that the processes of one nextest run can
/// share: its row, what its counts and rankings need, its warnings and its failure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Entry {
    /// The test's table row up to its tolerance cell.
    row: String,
    /// Its throughput cell (candidate / baseline rates), when the pair declared `throughput`.
    rates: Option<String>,
    /// Its warnings cell, the row's last.
    warnings_cell: String,
    /// Whether the test passed.
    passed: bool,
    /// `win`, `parity` or `loss`; `None` when the test measured nothing.
    outcome: Option<String>,
    /// Whether a parity is established (or a win or loss resolved).
    resolved: bool,
    /// Its place in the table of its baseline's candidates.
    ranked: Option<Ranked>,
    /// Its warnings, one list item each.
    warnings: Vec<String>,
    /// Its failure, as a list item.
    failure: Option<String>,
}

/// What `test` adds to the summary.
pub(crate) fn entry(test: &Test<'_>) -> Entry {
    let (row, rates, warnings_cell) = row(test);
    Entry {
        row,
        rates,
        warnings_cell,
        passed: test.passed(),
        outcome: test.report.map(|r| r.verdict.outcome.as_str().to_owned()),
        resolved: test.report.is_some_and(|r| r.verdict.resolved),
        ranked: ranked(test),
        warnings: warning_items(test),
        failure: failure_item(test),
    }
}

/// The summary of a run as Markdown.
#[cfg(test)]
pub(crate) fn render(run: &super::Run<'_>) -> String {
    let entries: Vec<Entry> = run.tests.iter().map(entry).collect();
    render_entries(run.binary, run.unoptimised, &entries)
}

/// The summary of the tests of `entries` (from [`entry`]) of the test binary `binary`;
/// `unoptimised` says the run measured a debug build on purpose.
pub(crate) fn render_entries(binary: &str, unoptimised: bool, entries: &[Entry]) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail; the results are ignored for that reason.
    let _ = writeln!(out, "### rtcompare: `{binary}`\n");
    let _ = writeln!(out, "{}\n", counts(entries));
    if unoptimised {
        let _ = writeln!(
            out,
            "⚠️ **Unoptimised build**, measured on purpose (`RTCOMPARE_DEBUG=1`): these figures describe debug \
             code, and no verdict failed a test. `cargo test --release` measures the code you ship.\n"
        );
    }
    // A column of rates only when a pair declared `throughput`.
    let rates = entries.iter().any(|e| e.rates.is_some());
    let (rates_head, rates_rule) = if rates { (" throughput (candidate / baseline) |", " --- |") } else { ("", "") };
    let _ = writeln!(out, "| | pair | outcome | change (interval) | ratio (best) | tolerance |{rates_head} warnings |");
    let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- |{rates_rule} --- |");
    for entry in entries {
        let rates_cell = if rates { format!(" {} |", entry.rates.as_deref().unwrap_or("")) } else { String::new() };
        let _ = writeln!(out, "{}{rates_cell} {} |", entry.row, entry.warnings_cell);
    }
    for ranking in rank(entries.iter().filter_map(|e| e.ranked.clone())) {
        let _ = write!(out, "\n{}", ranking.render_markdown());
    }
    details(&mut out, "Warnings", entries.iter().flat_map(|e| e.warnings.iter().cloned()));
    details(&mut out, "Failures", entries.iter().filter_map(|e| e.failure.clone()));
    out
}

/// `2 wins, 1 parity (1 established, 0 inconclusive), 0 losses; 1 failed`.
fn counts(entries: &[Entry]) -> String {
    let outcome =
        |o: Outcome| entries.iter().filter(move |e| e.outcome.as_deref() == Some(o.as_str())).collect::<Vec<_>>();
    let established = outcome(Outcome::Parity).iter().filter(|e| e.resolved).count();
    let parity = outcome(Outcome::Parity).len();
    let failed = entries.iter().filter(|e| !e.passed).count();
    format!(
        "{} win(s), {parity} parity ({established} established, {} inconclusive), {} loss(es); {} of {} test(s) \
         passed",
        outcome(Outcome::Win).len(),
        parity - established,
        outcome(Outcome::Loss).len(),
        entries.len() - failed,
        entries.len()
    )
}

/// The test's row up to its tolerance cell, its throughput cell and its warnings cell.
fn row(test: &Test<'_>) -> (String, Option<String>, String) {
    let mark = if test.passed() { "✅" } else { "❌" };
    let name = code(test.name);
    let Some(report) = test.report else {
        return (format!("| {mark} | {name} | not measured (see failures) | | | |"), None, String::new());
    };
    let rates = test.work.map(|work| {
        format!(
            "{} / {}",
            format_rate(work.per_second(report.candidate_summary.median), work.unit),
            format_rate(work.per_second(report.baseline_summary.median), work.unit)
        )
    });
    let v = &report.verdict;
    let e = &report.estimate;
    let outcome = match v.outcome {
        Outcome::Parity => outcome_line(report),
        _ => format!("**{}**", outcome_line(report)),
    };
    let difference = format!(
        "{} {}: candidate {}",
        change_pct(e.difference),
        change_interval(e.low, e.high),
        factor_words(e.difference, report.metric)
    );
    let warnings = match report.warnings.len() {
        0 => String::new(),
        n => format!("⚠️ {n}: {}", report.warnings.iter().map(kind).collect::<Vec<_>>().join(", ")),
    };
    let head = format!(
        "| {mark} | {name} | {outcome} | {} | {:.3} ({:.3}) | ±{} |",
        cell(&difference),
        v.ratio,
        v.best_ratio,
        pct(v.tolerance)
    );
    (head, rates, cell(&warnings))
}

/// A caveat's kind in words: its name with spaces (`timing modes`).
fn kind(caveat: &crate::Caveat) -> String {
    caveat.kind().as_str().replace('_', " ")
}

fn warning_items(test: &Test<'_>) -> Vec<String> {
    let Some(report) = test.report else { return Vec::new() };
    report.warnings.iter().map(|caveat| format!("{}: {}", code(test.name), sentence(caveat, report))).collect()
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
