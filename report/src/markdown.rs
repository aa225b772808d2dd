//! The Markdown summary for CI pages (GitHub's `$GITHUB_STEP_SUMMARY`): one table row per
//! comparison, a table per baseline with several candidates, then the warnings and failures in
//! full below a fold.

use super::alone::measured_alone;
use super::instructions::count as instruction_count;
use super::ranking::rankings;
use super::run::{Run, Test};
use super::sentences::sentence;
use super::text::{factor_words, headline, outcome_line, parity_counts};
use crate::units::{change_pct, format_rate, format_value, headline_interval, level_pct, pct, signed_pct};
use rtcompare_judge::Outcome;
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
    let rates = run.tests.iter().any(|t| t.work.is_some() && t.judgement.is_some());
    let (rates_head, rates_rule) = if rates { (" throughput (candidate / baseline) |", " --- |") } else { ("", "") };
    // A column of instruction changes only when a comparison was counted.
    let counted = run.tests.iter().any(|t| t.instructions.is_some());
    let (counts_head, counts_rule) = if counted { (" instructions |", " --- |") } else { ("", "") };
    // A benchmark measured alone has no verdict: it has a table of its own below.
    let compared: Vec<&Test> = run.tests.iter().filter(|t| t.alone.is_none()).collect();
    if !compared.is_empty() || compared.len() == run.tests.len() {
        let _ = writeln!(
            out,
            "| | pair | outcome | change (interval) | ratio (best) | tolerance |{rates_head}{counts_head} warnings |"
        );
        let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- |{rates_rule}{counts_rule} --- |");
    }
    for test in compared {
        let (row, rates_cell, warnings) = row(test);
        let rates_cell = if rates { format!(" {} |", rates_cell.as_deref().unwrap_or("")) } else { String::new() };
        let counts_cell = if counted { format!(" {} |", instructions_cell(test)) } else { String::new() };
        let _ = writeln!(out, "{row}{rates_cell}{counts_cell} {warnings} |");
    }
    alone_table(&mut out, run.tests);
    for ranking in rankings(run.tests) {
        let _ = write!(out, "\n{}", ranking.render_markdown());
    }
    details(&mut out, "Warnings", run.tests.iter().flat_map(warning_items));
    details(&mut out, "Failures", run.tests.iter().filter_map(failure_item));
    details(&mut out, "Where the instructions went", run.tests.iter().filter_map(functions_item));
    out
}

/// The benchmarks measured alone, a row each: the median per operation with its interval, and
/// the rate at the median where a benchmark has a throughput; nothing when there are none.
fn alone_table(out: &mut String, tests: &[Test]) {
    let alone: Vec<_> = measured_alone(tests).collect();
    let Some((_, first)) = alone.first() else { return };
    let _ = writeln!(
        out,
        "\n**Measured alone**, without a verdict (`RTCOMPARE_BASELINE=<rev>` compares each with a git revision):\n"
    );
    let _ = writeln!(out, "| benchmark | median per op | {} interval | rounds | throughput |", level_pct(first.level));
    let _ = writeln!(out, "| --- | --- | --- | --- | --- |");
    for (test, alone) in alone {
        let value = |v: f64| format_value(v, alone.metric);
        let rate = test.work.map_or_else(String::new, |w| format_rate(w.per_second(alone.median), w.unit));
        let _ = writeln!(
            out,
            "| {} | {} | {} – {} | {} | {rate} |",
            code(&test.name),
            value(alone.median),
            value(alone.low),
            value(alone.high),
            alone.rounds()
        );
    }
}

/// `+25.02 % (agrees)`: the instruction change per call and how it reads beside time; `varies`
/// where a twin counted differently; empty where not counted.
fn instructions_cell(test: &Test) -> String {
    match &test.instructions {
        Some(counts) if counts.counted.stable => {
            format!("{} ({})", signed_pct(counts.counted.change), counts.agreement.as_str().replace('_', " "))
        }
        Some(_) => "varies within the process".to_owned(),
        None => String::new(),
    }
}

/// A counted test's functions whose instructions per call moved most.
fn functions_item(test: &Test) -> Option<String> {
    let counts = test.instructions.as_ref()?;
    let moved: Vec<String> = counts
        .counted
        .functions
        .iter()
        .take(5)
        .map(|f| format!("{} {} → {}", code(&f.name), instruction_count(f.baseline), instruction_count(f.candidate)))
        .collect();
    (!moved.is_empty()).then(|| format!("{}: {}", code(&test.name), moved.join(", ")))
}

/// `2 win(s), 1 parity (1 established in one process, 0 inconclusive), 0 loss(es); 1 of 3 test(s)
/// passed`.
fn counts(tests: &[Test]) -> String {
    let outcome = |o: Outcome| {
        tests.iter().filter_map(|t| t.judgement.as_ref()).filter(move |j| j.verdict.outcome == o).collect::<Vec<_>>()
    };
    let failed = tests.iter().filter(|t| !t.passed()).count();
    let losses = outcome(Outcome::Loss);
    let out_of_time = losses.iter().filter(|j| j.out_of_time()).count();
    let alone = tests.iter().filter(|t| t.alone.is_some()).count();
    format!(
        "{} win(s), {}, {} loss(es){}{}; {} of {} test(s) passed",
        outcome(Outcome::Win).len(),
        parity_counts(&outcome(Outcome::Parity)),
        losses.len(),
        if out_of_time > 0 { format!(" ({out_of_time} out of time to confirm)") } else { String::new() },
        if alone > 0 { format!(", {alone} measured alone") } else { String::new() },
        tests.len() - failed,
        tests.len()
    )
}

/// The test's row up to its tolerance cell, its throughput cell and its warnings cell.
fn row(test: &Test) -> (String, Option<String>, String) {
    let mark = if test.passed() { "✅" } else { "❌" };
    let name = code(&test.name);
    let Some(judgement) = &test.judgement else {
        return (format!("| {mark} | {name} | not measured (see failures) | | | |"), None, String::new());
    };
    let report = &judgement.first;
    let rates = test.work.map(|work| {
        format!(
            "{} / {}",
            format_rate(work.per_second(report.candidate_summary.median), work.unit),
            format_rate(work.per_second(report.baseline_summary.median), work.unit)
        )
    });
    let v = &judgement.verdict;
    // The change the block heads with: the fresh processes' where they ran.
    let (headline, over) = headline(judgement);
    let e = &headline.estimate;
    let outcome = match v.outcome {
        Outcome::Parity => outcome_line(judgement),
        _ => format!("**{}**", outcome_line(judgement)),
    };
    let difference = format!(
        "{} {}{over}: candidate {}",
        change_pct(e.difference),
        headline_interval(e.low, e.high),
        factor_words(e.difference, report.metric)
    );
    let warnings = match judgement.caveats.len() {
        0 => String::new(),
        n => format!("⚠️ {n}: {}", judgement.caveats.iter().map(kind).collect::<Vec<_>>().join(", ")),
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
fn kind(caveat: &rtcompare_judge::Caveat) -> String {
    caveat.kind().as_str().replace('_', " ")
}

fn warning_items(test: &Test) -> Vec<String> {
    let Some(judgement) = &test.judgement else { return Vec::new() };
    let items = judgement.caveats.iter().map(|caveat| sentence(caveat, &judgement.first));
    items.map(|sentence| format!("{}: {sentence}", code(&test.name))).collect()
}

fn failure_item(test: &Test) -> Option<String> {
    Some(format!("{}: {}", code(&test.name), test.failure.as_deref()?))
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
    use crate::fixtures;

    fn summary(tests: &[Test]) -> String {
        let environment = fixtures::environment();
        render(&fixtures::run(&environment, tests, false))
    }

    #[test]
    fn the_counts_say_how_many_losses_ran_out_of_time() {
        let tests = [
            fixtures::judged("perf::slow_vs_fast", fixtures::out_of_time(fixtures::report(100.0, 50.0))),
            fixtures::record("perf::slower_vs_fast", 100.0, 50.0),
        ];
        assert!(summary(&tests).contains("2 loss(es) (1 out of time to confirm); 2 of 2 test(s) passed"));
        assert!(!summary(&tests[1..]).contains("out of time"));
    }

    #[test]
    fn one_row_per_comparison_with_outcome_difference_ratio_and_tolerance() {
        let records = [fixtures::record("perf::fast_vs_slow", 25.0, 100.0), fixtures::panicked("perf::boom_vs_slow")];
        let text = summary(&records);
        let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(rows.len(), 4, "{text}");
        let win = rows[2];
        let v = &records[0].judgement.as_ref().unwrap().verdict;
        let (ratios, tolerance) = (format!("{:.3} ({:.3})", v.ratio, v.best_ratio), format!("±{}", pct(v.tolerance)));
        for part in ["✅", "`perf::fast_vs_slow`", "**win (resolved)**", "candidate is 4.", &ratios, &tolerance] {
            assert!(win.contains(part), "missing {part:?} in {win}");
        }
        assert!(rows[3].starts_with("| ❌ | `perf::boom_vs_slow` | not measured"), "{text}");
        assert!(text.contains("<details><summary>Failures (1)</summary>"), "{text}");
        assert!(text.contains(
            "1 win(s), 0 parity (0 established in one process, 0 inconclusive), 0 loss(es); 1 of 2 test(s) passed"
        ));
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
        use rtcompare_judge::measure::{ThroughputUnit, Work};
        let work = Some(Work { unit: ThroughputUnit::Elements, per_call: 1_000 });
        let records = [
            crate::Test { work, ..fixtures::record("perf::fast_vs_slow", 25.0, 100.0) },
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
    fn counted_comparisons_add_a_column_and_where_the_instructions_went() {
        use crate::instructions::tests::counts;
        let counted = crate::Test {
            instructions: Some(counts(25_027.0, 20_019.0, Outcome::Loss)),
            ..fixtures::record("perf::fast_vs_slow", 125.0, 100.0)
        };
        let records = [counted, fixtures::record("perf::other_vs_slow", 50.0, 100.0)];
        let text = summary(&records);
        assert!(text.contains("| tolerance | instructions | warnings |"), "{text}");
        let row = text.lines().find(|l| l.contains("fast_vs_slow")).unwrap_or_default();
        assert!(row.contains(" +25.02 % (agrees) |"), "{row}");
        let cells = |line: &str| line.matches(" |").count();
        let header = text.lines().find(|l| l.starts_with("| | pair")).unwrap_or_default();
        for line in text.lines().filter(|l| l.starts_with("| ✅")) {
            assert_eq!(cells(line), cells(header), "{line}");
        }
        assert!(text.contains("Where the instructions went (1)"), "{text}");
        assert!(text.contains("`perf::fast_vs_slow`: `perf::fast` 0 → 25,027, "), "{text}");
        assert!(!summary(&records[1..]).contains("instructions"), "no column without counts");
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

    #[test]
    fn benchmarks_measured_alone_have_a_table_of_their_own() {
        let alone = [fixtures::alone_test("parse/small", 1_234.5), fixtures::alone_test("parse/large", 98_765.0)];
        let text = summary(&alone);
        assert!(!text.contains("| pair |"), "no comparison, no table of comparisons: {text}");
        assert!(text.contains("**Measured alone**"), "{text}");
        assert!(text.contains("| median per op | 95 % interval | rounds |"), "{text}");
        let row = text.lines().find(|l| l.starts_with("| `parse/small` | 1.234 µs | ")).expect(&text);
        assert!(row.ends_with(&format!(" | {} |  |", fixtures::ROUNDS)), "{row}");
        assert!(text.contains("0 loss(es), 2 measured alone; 2 of 2 test(s) passed"), "{text}");
        let mixed = summary(&[fixtures::record("perf::fast_vs_slow", 25.0, 100.0), alone[0].clone()]);
        assert!(mixed.contains("| pair |") && mixed.contains("**Measured alone**"), "{mixed}");
        assert_eq!(mixed.matches("`parse/small`").count(), 1, "in its own table only: {mixed}");
    }
}
