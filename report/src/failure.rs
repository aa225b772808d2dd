//! A test's failure in words: why its verdict failed it, what the verdict of an unoptimised
//! build would have done, and why a signal could not be confirmed. The harness decides; these
//! only say it.

use super::instructions::failure_clause;
use crate::units::{change_interval, change_pct, format_value};
use rtcompare_judge::Metric;
use rtcompare_judge::counts::Instructions;
use rtcompare_judge::stats::Outcome;
use rtcompare_judge::verdict::Judgement;
use serde::{Deserialize, Serialize};

/// Why a verdict fails its test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// A confirmed loss, where none was allowed.
    Loss,
    /// A loss that the time cap left no room to confirm or rule out, where the run fails such a
    /// loss (`RTCOMPARE_OUT_OF_TIME=fail`).
    LossOutOfTime,
    /// Anything but a confirmed win, where a win was expected (`expect = "win"`).
    NoWin,
}

/// The failure message of a test whose verdict in `judgement` failed it for `failure`: what was
/// compared, the verdict, and the figures it rests on; with `instructions`, where the
/// instructions went.
pub fn failure_message(judgement: &Judgement, failure: Failure, instructions: Option<&Instructions>) -> String {
    let report = &judgement.first;
    let counts = instructions.map(|i| failure_clause(i, &report.candidate, &report.baseline)).unwrap_or_default();
    format!("{}{counts}", verdict_failure(judgement, failure))
}

/// The failure of a comparison whose instructions could not be counted, where counting is
/// required (`RTCOMPARE_INSTRUCTIONS=callgrind`).
pub fn uncounted_message(why: &str) -> String {
    format!("instructions could not be counted, and RTCOMPARE_INSTRUCTIONS=callgrind requires it: {why}")
}

/// The failure message without instruction counts.
fn verdict_failure(judgement: &Judgement, failure: Failure) -> String {
    let (v, report) = (&judgement.verdict, &judgement.first);
    let metric = report.metric;
    let figures = format!(
        "median {}/op against {}/op, ratio {:.3}, best-run ratio {:.3}, tolerance ±{:.2} %",
        format_value(report.candidate_summary.median, metric),
        format_value(report.baseline_summary.median, metric),
        v.ratio,
        v.best_ratio,
        v.tolerance * 100.0
    );
    match failure {
        Failure::Loss => {
            let worse = match metric {
                Metric::Time => "is slower than",
                Metric::AllocBytes | Metric::Allocs => "allocates more than",
                Metric::Instructions => "executes more instructions than",
            };
            let second = confirmed_in(judgement);
            format!("`{}` {worse} `{}`: {figures}{second}", report.candidate, report.baseline)
        }
        Failure::LossOutOfTime => format!(
            "`{}` is slower than `{}` in the first round, and the time cap left no room for fresh processes to \
             confirm or rule it out (RTCOMPARE_OUT_OF_TIME=fail fails such a loss): {figures}; {}",
            report.candidate,
            report.baseline,
            judgement
                .caveats
                .iter()
                .find(|c| c.kind() == rtcompare_judge::verdict::WarningKind::Unconfirmed)
                .map_or_else(String::new, |caveat| crate::sentence(caveat, report))
        ),
        Failure::NoWin => format!(
            "`{}` was expected to win against `{}` (`expect = \"win\"`) but the verdict is {}{}: {figures}",
            report.candidate,
            report.baseline,
            v.outcome.as_str(),
            match v.outcome {
                Outcome::Parity => " — no difference beyond the tolerance was established",
                Outcome::Win => " — a win that fresh processes did not confirm",
                Outcome::Loss => "",
            }
        ),
    }
}

/// `; confirmed in 4 fresh processes (…)` for a confirmed verdict, or nothing.
fn confirmed_in(judgement: &Judgement) -> String {
    match &judgement.confirmation {
        Some(found) if found.confirmed => format!(
            "; confirmed in {} fresh processes (ratio {:.3}, change {} {})",
            found.report.resampling.processes,
            found.report.verdict.ratio,
            change_pct(found.report.estimate.difference),
            change_interval(found.report.estimate.low, found.report.estimate.high)
        ),
        _ => String::new(),
    }
}

/// The line under a verdict measured in an unoptimised build (`RTCOMPARE_DEBUG=1`): that the
/// figures describe debug code, and whether the verdict would have failed the test in an
/// optimised build (`would_fail`).
pub fn unoptimised_note(would_fail: bool) -> String {
    let consequence = if would_fail {
        "in an optimised build this verdict would fail the test; here it is reported and the test passes"
    } else {
        "its verdict cannot fail the test"
    };
    format!("unoptimised code (RTCOMPARE_DEBUG=1): these figures describe a debug build, and {consequence}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    /// The failure of a loss the time cap left unconfirmed names the setting that failed it and
    /// says what would make room, from the caveat.
    #[test]
    fn a_loss_out_of_time_says_why_it_failed_and_what_would_make_room() {
        let judgement = fixtures::out_of_time(fixtures::report(100.0, 50.0));
        let message = failure_message(&judgement, Failure::LossOutOfTime, None);
        assert!(message.starts_with("`fast` is slower than `slow` in the first round, and the time cap"), "{message}");
        assert!(message.contains("RTCOMPARE_OUT_OF_TIME=fail") && message.contains("leaves room for 4"), "{message}");
    }

    #[test]
    fn a_failure_names_the_arms_and_gives_the_figures() {
        let loss = Judgement::of(fixtures::report(100.0, 50.0));
        let message = failure_message(&loss, Failure::Loss, None);
        assert!(message.starts_with("`fast` is slower than `slow`: median "), "{message}");
        let ratio = format!("/op, ratio {:.3}, best-run ratio ", loss.verdict.ratio);
        assert!(message.contains(&ratio) && message.ends_with(" %"), "no confirmation ran: {message}");
        let parity = Judgement::of(fixtures::report(100.0, 100.0));
        let message = failure_message(&parity, Failure::NoWin, None);
        assert!(
            message.starts_with(
                "`fast` was expected to win against `slow` (`expect = \"win\"`) but the verdict is parity — no \
                 difference beyond the tolerance was established: median "
            ),
            "{message}"
        );
        let counts = crate::instructions::tests::counts(25_027.0, 20_019.0, Outcome::Loss);
        let message = failure_message(&loss, Failure::Loss, Some(&counts));
        assert!(message.ends_with("; instructions +25.02 % per call (agrees with time), most in `perf::spin` 20,018 → 25,021, `perf::extra_step` 0 → 6"), "{message}");
    }
}
