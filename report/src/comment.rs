//! The pull-request comment: a run's verdicts in the short form a comment is read in, written
//! beside the results file for a workflow to post (`docs/revision.md`, "A comment on the pull
//! request"). Failed tests come first, then wins, then differences fresh processes did not
//! confirm; parity is counted, not listed. A hidden marker on the first line names the test
//! binary, so a workflow finds its own comment and updates it instead of adding another, and the
//! whole stays under GitHub's limit for a comment.

use super::run::{Run, Test};
use super::text::verdict_line;
use rtcompare_judge::{Caveat, Outcome};
use std::fmt::Write;

/// The most characters GitHub takes in a comment.
pub const COMMENT_LIMIT: usize = 65_536;

/// Room kept for what follows the last row that fits: the note on the rows left out and the
/// closing lines.
const CLOSING: usize = 1_024;

/// The marker the comment of the test binary `binary` starts with.
///
/// ```
/// assert_eq!(rtcompare_report::comment_marker("perf"), "<!-- rtcompare-comment: perf -->");
/// ```
pub fn comment_marker(binary: &str) -> String {
    format!("<!-- rtcompare-comment: {binary} -->")
}

/// The comment of `run`, under [`COMMENT_LIMIT`] characters.
pub(crate) fn render(run: &Run<'_>) -> String {
    let mut listed: Vec<(u8, f64, &Test)> = run.tests.iter().filter_map(|t| rank(t).map(|(r, c)| (r, c, t))).collect();
    listed.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)).then(a.2.name.cmp(&b.2.name)));
    let mut out = String::new();
    let _ = writeln!(out, "{}", comment_marker(run.binary));
    let _ = writeln!(out, "### rtcompare: `{}`\n", run.binary);
    let _ = writeln!(out, "{}\n", tally(run.tests));
    if run.unoptimised {
        let _ = writeln!(
            out,
            "⚠️ An unoptimised build, measured on purpose (`RTCOMPARE_DEBUG=1`): no verdict failed a test.\n"
        );
    }
    if !listed.is_empty() {
        let _ = writeln!(out, "| | comparison | verdict |\n| --- | --- | --- |");
    }
    let mut left_out = 0;
    for (_, _, test) in &listed {
        let row = row(test);
        if out.len() + row.len() + CLOSING > COMMENT_LIMIT {
            left_out += 1;
        } else {
            out.push_str(&row);
        }
    }
    if left_out > 0 {
        let _ = writeln!(out, "\n{left_out} more not listed: a comment holds at most {COMMENT_LIMIT} characters.");
    }
    let parity = run.tests.iter().filter(|t| rank(t).is_none() && t.judgement.is_some()).count();
    let new = run.tests.iter().filter(|t| t.new_at_revision()).count();
    let alone = run.tests.iter().filter(|t| t.alone.is_some()).count();
    let mut unlisted = Vec::new();
    if parity > 0 {
        unlisted.push(format!("{parity} at parity"));
    }
    if new > 0 {
        unlisted.push(format!("{new} new since the baseline revision"));
    }
    if alone > 0 {
        unlisted.push(format!("{alone} measured alone, without a verdict (no `RTCOMPARE_BASELINE`)"));
    }
    if !unlisted.is_empty() {
        let _ = writeln!(out, "\nNot listed: {}.", unlisted.join(", "));
    }
    let _ = writeln!(out, "\nEvery figure is in the job's step summary and its results file.");
    out
}

/// Where a test is listed, and how large its change is; `None` for a test counted, not listed
/// (a parity, or a comparison new since the baseline revision).
fn rank(test: &Test) -> Option<(u8, f64)> {
    let Some(judgement) = &test.judgement else { return (!test.passed()).then_some((0, 0.0)) };
    let change = judgement.first.estimate.difference.abs();
    if !test.passed() {
        return Some((0, change));
    }
    let unconfirmed = judgement.caveats.iter().any(|c| matches!(c, Caveat::Unconfirmed { .. } | Caveat::NoRoom { .. }));
    match judgement.verdict.outcome {
        _ if unconfirmed => Some((2, change)),
        Outcome::Win | Outcome::Loss => Some((1, change)),
        Outcome::Parity => None,
    }
}

/// A test's row: its mark, name and verdict line (or its failure's first line).
fn row(test: &Test) -> String {
    let mark = match (test.passed(), &test.judgement) {
        (false, _) => "❌",
        (true, Some(j)) if j.verdict.outcome == Outcome::Win && j.confirmed() != Some(false) => "✅",
        _ => "⚠️",
    };
    let verdict = match &test.judgement {
        Some(judgement) => verdict_line(judgement),
        None => test.failure.as_deref().and_then(|f| f.lines().next()).unwrap_or_default().to_owned(),
    };
    format!("| {mark} | `{}` | {} |\n", test.name, verdict.replace('|', "\\|"))
}

/// `2 failed, 1 win, 12 parity of 15 comparisons`.
fn tally(tests: &[Test]) -> String {
    let of = |outcome: Outcome| {
        tests.iter().filter(|t| t.judgement.as_ref().is_some_and(|j| j.verdict.outcome == outcome)).count()
    };
    let failed = tests.iter().filter(|t| !t.passed()).count();
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{} of {}: {}, {}, {}",
        plural(failed, "failed", "failed"),
        plural(tests.len(), "comparison", "comparisons"),
        plural(of(Outcome::Loss), "loss", "losses"),
        plural(of(Outcome::Win), "win", "wins"),
        plural(of(Outcome::Parity), "parity", "parity")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{self, environment, judged, panicked, record, report, run, unconfirmed};

    fn lost(name: &str, candidate: f64) -> Test {
        let mut test = record(name, candidate, 100.0);
        test.fails = Some(crate::failure::Failure::Loss);
        test.failure = Some(format!("`{name}` is slower"));
        test
    }

    #[test]
    fn failures_come_first_then_wins_then_unconfirmed_and_parity_is_counted() {
        let tests = [
            record("perf::same_vs_old", 100.0, 100.0),
            judged("perf::maybe_vs_old", unconfirmed(report(130.0, 100.0), report(100.0, 100.0))),
            record("perf::fast_vs_old", 25.0, 100.0),
            lost("perf::slow_vs_old", 300.0),
            panicked("perf::boom_vs_slow"),
        ];
        let environment = environment();
        let text = render(&run(&environment, &tests, false));
        assert!(text.starts_with("<!-- rtcompare-comment: perf -->\n### rtcompare: `perf`\n"), "{text}");
        // The unconfirmed loss is a loss that passed.
        assert!(text.contains("2 failed of 5 comparisons: 2 losses, 1 win, 1 parity"), "{text}");
        let rows: Vec<&str> =
            text.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| |") && !l.starts_with("| ---")).collect();
        let names: Vec<&str> = rows.iter().filter_map(|r| r.split('`').nth(1)).collect();
        assert_eq!(names, ["perf::slow_vs_old", "perf::boom_vs_slow", "perf::fast_vs_old", "perf::maybe_vs_old"]);
        assert!(rows[0].starts_with("| ❌ | `perf::slow_vs_old` | loss ("), "{}", rows[0]);
        assert!(rows[2].starts_with("| ✅ |") && rows[3].starts_with("| ⚠️ |"), "{rows:#?}");
        assert!(text.contains("\nNot listed: 1 at parity.\n"), "{text}");
    }

    #[test]
    fn a_thousand_comparisons_stay_under_githubs_limit_with_a_note() {
        let tests: Vec<Test> =
            (0..1_000).map(|i| lost(&format!("perf::function_number_{i:04}_vs_its_old_self"), 300.0)).collect();
        let environment = environment();
        let text = render(&run(&environment, &tests, false));
        assert!(text.chars().count() <= COMMENT_LIMIT && text.len() <= COMMENT_LIMIT, "{} bytes", text.len());
        let listed = text.lines().filter(|l| l.starts_with("| ❌")).count();
        assert!(listed > 100, "{listed} rows");
        assert!(
            text.contains(&format!("\n{} more not listed: a comment holds at most 65536 characters.", 1_000 - listed)),
            "{text:.300}"
        );
    }

    #[test]
    fn benchmarks_measured_alone_are_counted_not_listed_and_are_not_new() {
        let tests = [fixtures::alone_test("parse/small", 1_000.0), record("perf::fast_vs_old", 25.0, 100.0)];
        let environment = environment();
        let text = render(&run(&environment, &tests, false));
        assert!(text.contains("Not listed: 1 measured alone, without a verdict (no `RTCOMPARE_BASELINE`)."), "{text}");
        assert!(!text.contains("parse/small") && !text.contains("new since"), "{text}");
    }
}
