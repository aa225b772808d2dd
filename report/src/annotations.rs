//! GitHub Actions annotations: workflow commands that put a comparison's verdict on its
//! `#[compare]` line, where a pull request is read. An `::error` for each test that failed (a
//! confirmed loss, an `expect = "win"` without a confirmed win, a measurement that failed), a
//! `::warning` for a passing test whose win or loss was not confirmed, nothing for parity or a
//! confirmed win. GitHub shows at most ten of each kind per step, so the most severe come first,
//! and one `::notice` says how many more the step summary holds.
//!
//! The format is GitHub's "workflow commands" (`::error file=…,line=…,title=…::message`), whose
//! values escape `%`, line breaks and, in the properties, `:` and `,`.

use super::instructions::verdict_clause;
use super::run::Test;
use super::text::verdict_line;
use rtcompare_judge::{Caveat, Outcome};

/// How many annotations of one kind GitHub shows for a step.
pub const PER_KIND: usize = 10;

/// The annotations of `tests`, errors first, each kind most severe first and at most
/// [`PER_KIND`] of it, then a notice for those left out; `path` turns a test's source file into
/// the path GitHub knows it by (relative to the repository).
///
/// ```
/// use rtcompare_report::annotations;
/// assert!(annotations(&[], |file| file.to_owned()).is_empty(), "nothing to say, nothing said");
/// ```
pub fn annotations(tests: &[Test], path: impl Fn(&str) -> String) -> Vec<String> {
    let mut errors: Vec<(&Test, Severity)> = tests.iter().filter_map(|t| error(t).map(|s| (t, s))).collect();
    let mut warnings: Vec<(&Test, Severity)> = tests.iter().filter_map(|t| warning(t).map(|s| (t, s))).collect();
    errors.sort_by(|a, b| a.1.cmp(&b.1));
    warnings.sort_by(|a, b| a.1.cmp(&b.1));
    let mut lines = Vec::new();
    for (kind, listed) in [("error", &errors), ("warning", &warnings)] {
        for (test, severity) in listed.iter().take(PER_KIND) {
            lines.push(command(kind, test, severity.title, &path));
        }
    }
    let more = |listed: &[(&Test, Severity)], noun: &str| match listed.len().saturating_sub(PER_KIND) {
        0 => None,
        n => Some(format!("{n} more {noun}{}", if n == 1 { "" } else { "s" })),
    };
    let left_out: Vec<String> =
        [more(&errors, "failed test"), more(&warnings, "unconfirmed difference")].into_iter().flatten().collect();
    if !left_out.is_empty() {
        lines.push(format!(
            "::notice title={}::{}",
            property("rtcompare"),
            data(&format!(
                "{} (GitHub shows {PER_KIND} annotations of a kind); the step summary and the results file hold \
                 every comparison",
                left_out.join(" and ")
            ))
        ));
    }
    lines
}

/// How an annotation reads and ranks: its title, then by kind of failure, then by the size of
/// the change (the largest first).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
struct Severity {
    rank: u8,
    change: f64,
    title: &'static str,
}

impl Severity {
    fn cmp(&self, other: &Severity) -> std::cmp::Ordering {
        self.rank.cmp(&other.rank).then(other.change.total_cmp(&self.change))
    }
}

/// The severity of a failed test, `None` for one that passed.
fn error(test: &Test) -> Option<Severity> {
    if test.passed() {
        return None;
    }
    let change = test.judgement.as_ref().map_or(0.0, |j| j.first.estimate.difference.abs());
    let (rank, title) = match test.fails {
        Some(super::failure::Failure::Loss) => (0, "a confirmed loss (rtcompare's HOWTO: \"When a test fails\")"),
        Some(super::failure::Failure::LossOutOfTime) => (
            0,
            "a loss the time cap left unconfirmed, and RTCOMPARE_OUT_OF_TIME=fail (rtcompare's HOWTO: \"unconfirmed\")",
        ),
        Some(super::failure::Failure::NoWin) => {
            (1, "no confirmed win, and expect = \"win\" (rtcompare's HOWTO: \"When a test fails\")")
        }
        None => (2, "the comparison failed (rtcompare's HOWTO: \"When a test fails\")"),
    };
    Some(Severity { rank, change, title })
}

/// The severity of a passing test whose first round saw a win or a loss (or leaned to one) that
/// fresh processes did not confirm; `None` for any other.
fn warning(test: &Test) -> Option<Severity> {
    let judgement = test.judgement.as_ref().filter(|_| test.passed())?;
    let side = judgement.caveats.iter().find_map(|caveat| match caveat {
        Caveat::Unconfirmed { side, .. } | Caveat::NoRoom { side, .. } => Some(*side),
        _ => None,
    })?;
    let title = match side {
        Outcome::Loss => "a loss fresh processes did not confirm (rtcompare's HOWTO: \"unconfirmed\")",
        _ => "a win fresh processes did not confirm (rtcompare's HOWTO: \"unconfirmed\")",
    };
    Some(Severity { rank: 0, change: judgement.first.estimate.difference.abs(), title })
}

/// One workflow command of `kind` for `test`: its verdict line (with the instruction change, as
/// the block prints it), or for a test measured to no verdict its failure's first line.
fn command(kind: &str, test: &Test, title: &str, path: &impl Fn(&str) -> String) -> String {
    let message = match &test.judgement {
        Some(judgement) => {
            let counts = test.instructions.as_ref().and_then(|i| verdict_clause(i, judgement.verdict.outcome));
            format!("{}: {}{}", test.name, verdict_line(judgement), counts.unwrap_or_default())
        }
        None => format!("{}: {}", test.name, test.failure.as_deref().and_then(|f| f.lines().next()).unwrap_or("")),
    };
    format!(
        "::{kind} file={},line={},title={}::{}",
        property(&path(&test.file)),
        test.line,
        property(&format!("rtcompare: {title}")),
        data(&message)
    )
}

/// A workflow command's message, escaped.
fn data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value, escaped.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{judged, panicked, record, report, unconfirmed};

    /// A test that failed on a confirmed loss of `change` (a fraction of the baseline's time).
    fn lost(name: &str, candidate: f64) -> Test {
        let mut test = record(name, candidate, 100.0);
        test.fails = Some(crate::failure::Failure::Loss);
        test.failure = Some(format!("`{name}` is slower"));
        test
    }

    #[test]
    fn a_failed_test_is_an_error_at_its_line_and_a_parity_or_win_is_nothing() {
        let tests = [
            lost("perf::slow_vs_old", 300.0),
            record("perf::same_vs_old", 100.0, 100.0),
            record("perf::fast_vs_old", 25.0, 100.0),
        ];
        let lines = annotations(&tests, |file| format!("crate/{file}"));
        assert_eq!(lines.len(), 1, "{lines:#?}");
        let line = &lines[0];
        assert!(
            line.starts_with("::error file=crate/tests/perf.rs,line=12,title=rtcompare%3A a confirmed loss "),
            "{line}"
        );
        assert!(line.contains("::perf::slow_vs_old: loss ("), "{line}");
        assert_eq!(line.matches("::").count(), 3, "two for the command, one in the test's name: {line}");
    }

    #[test]
    fn ten_of_a_kind_the_largest_first_and_one_notice_for_the_rest() {
        let tests: Vec<Test> =
            (0..15).map(|i| lost(&format!("perf::f{i:02}_vs_old"), 200.0 + 10.0 * i as f64)).collect();
        let lines = annotations(&tests, str::to_owned);
        assert_eq!(lines.len(), PER_KIND + 1, "{lines:#?}");
        assert!(lines[0].contains("perf::f14_vs_old"), "the largest loss first: {}", lines[0]);
        assert!(lines[9].contains("perf::f05_vs_old"), "{}", lines[9]);
        assert!(lines.iter().all(|l| !l.contains("perf::f04_vs_old")), "the five smallest left out");
        assert!(
            lines[10].starts_with("::notice title=rtcompare::5 more failed tests (GitHub shows 10"),
            "{}",
            lines[10]
        );
    }

    #[test]
    fn a_failure_without_a_verdict_is_an_error_after_the_losses() {
        let tests = [panicked("perf::boom_vs_slow"), lost("perf::slow_vs_old", 300.0)];
        let lines = annotations(&tests, str::to_owned);
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert!(lines[0].contains("perf::slow_vs_old"), "{}", lines[0]);
        assert!(lines[1].ends_with("::perf::boom_vs_slow: a measured function panicked: boom"), "{}", lines[1]);
    }

    #[test]
    fn a_win_or_loss_fresh_processes_did_not_confirm_is_a_warning_after_the_errors() {
        let unconfirmed =
            |name: &str, candidate: f64| judged(name, unconfirmed(report(candidate, 100.0), report(100.0, 100.0)));
        let tests = [
            unconfirmed("perf::maybe_slower_vs_old", 130.0),
            unconfirmed("perf::maybe_faster_vs_old", 85.0),
            lost("perf::slow_vs_old", 300.0),
        ];
        let lines = annotations(&tests, str::to_owned);
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert!(lines[0].starts_with("::error "), "{}", lines[0]);
        assert!(
            lines[1].starts_with(
                "::warning file=tests/perf.rs,line=12,title=rtcompare%3A a loss fresh processes did not confirm"
            ),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].starts_with("::warning ") && lines[2].contains("a win fresh processes did not confirm"),
            "{}",
            lines[2]
        );
        assert!(lines[1].contains("::perf::maybe_slower_vs_old: loss (not confirmed): time "), "{}", lines[1]);
        assert!(
            lines[1].contains(" over 1 fresh process of this build: "),
            "the fresh processes' change heads: {}",
            lines[1]
        );
    }

    #[test]
    fn messages_and_properties_are_escaped() {
        assert_eq!(data("100 %\nnext\r"), "100 %25%0Anext%0D");
        assert_eq!(property("a: b, c"), "a%3A b%2C c");
    }
}
