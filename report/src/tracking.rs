//! What the continuous-benchmarking formats ([`super::bmf`], [`super::gha`]) share: one entry
//! per arm of every measured comparison, `<test name>/candidate` and `<test name>/baseline`, and
//! one per benchmark measured alone, `<test name>`, each with its median per-operation value and
//! its interquartile range over rounds.

use super::run::Test;
use super::text::outcome_line;
use rtcompare_judge::Metric;
use rtcompare_judge::alone::Alone;
use rtcompare_judge::measure::Work;
use rtcompare_judge::stats::Summary;
use rtcompare_judge::verdict::Judgement;

/// One arm of one measured comparison, as the tracking formats report it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ArmEntry {
    /// `<test name>/candidate` or `<test name>/baseline`, or `<test name>` for a benchmark
    /// measured alone: stable while the test keeps its name.
    pub name: String,
    /// `candidate` or `baseline`, or [`ALONE`].
    pub arm: &'static str,
    /// The arm's function.
    pub function: String,
    /// What was measured; its unit is [`Metric::unit`].
    pub metric: Metric,
    /// Median per-operation value over the rounds.
    pub median: f64,
    /// First quartile of the per-operation values over the rounds.
    pub q1: f64,
    /// Third quartile of the per-operation values over the rounds.
    pub q3: f64,
    /// Rounds measured.
    pub rounds: usize,
    /// The comparison's verdict, `win (confirmed)` and so on.
    pub verdict: String,
    /// The comparison's median ratio, candidate over baseline in the same round.
    pub ratio: f64,
    /// The other arm's function.
    pub against: String,
    /// What one call processes, for a pair with `throughput`.
    pub work: Option<Work>,
    /// Instructions per call as callgrind counted them, where it did and the count is stable.
    pub instructions: Option<f64>,
}

/// The `arm` of a benchmark measured alone's entry.
pub(crate) const ALONE: &str = "alone";

/// Two entries (candidate, then baseline) per comparison that measured something and one per
/// benchmark measured alone, in the order of the tests; tests that measured nothing, and arms
/// whose figures are not finite, have none.
pub(crate) fn arm_entries(tests: &[Test]) -> Vec<ArmEntry> {
    let mut entries = Vec::new();
    for test in tests {
        if let Some(alone) = &test.alone {
            entries.extend(alone_entry(test, alone));
            continue;
        }
        let Some(judgement) = &test.judgement else { continue };
        let report = &judgement.first;
        let arms = [
            ("candidate", &report.candidate, &report.candidate_summary, &report.baseline),
            ("baseline", &report.baseline, &report.baseline_summary, &report.candidate),
        ];
        let counts = test.instructions.as_ref().filter(|i| i.counted.stable).map(|i| i.counted.per_call);
        let counted = [counts.map(|c| c.candidate), counts.map(|c| c.baseline)];
        for ((arm, function, summary, against), instructions) in arms.into_iter().zip(counted) {
            if ![summary.median, summary.q1, summary.q3].iter().all(|v| v.is_finite()) {
                continue;
            }
            let entry = entry(&test.name, judgement, arm, function, summary, against);
            entries.push(ArmEntry { work: test.work, instructions, ..entry });
        }
    }
    entries
}

/// The entry of `test`, measured alone: its rounds' median and quartiles, with no verdict and no
/// ratio (NaN). `None` where its figures are not finite.
fn alone_entry(test: &Test, alone: &Alone) -> Option<ArmEntry> {
    let summary = &alone.summary;
    [summary.median, summary.q1, summary.q3].iter().all(|v| v.is_finite()).then(|| ArmEntry {
        name: test.name.clone(),
        arm: ALONE,
        function: test.candidate.clone(),
        metric: alone.metric,
        median: summary.median,
        q1: summary.q1,
        q3: summary.q3,
        rounds: summary.count,
        verdict: "measured alone, without a verdict".to_owned(),
        ratio: f64::NAN,
        against: String::new(),
        work: test.work,
        instructions: None,
    })
}

fn entry(
    test: &str,
    judgement: &Judgement,
    arm: &'static str,
    function: &str,
    summary: &Summary,
    against: &str,
) -> ArmEntry {
    ArmEntry {
        name: format!("{test}/{arm}"),
        arm,
        function: function.to_owned(),
        metric: judgement.first.metric,
        median: summary.median,
        q1: summary.q1,
        q3: summary.q3,
        rounds: summary.count,
        verdict: outcome_line(judgement),
        ratio: judgement.verdict.ratio,
        against: against.to_owned(),
        work: None,
        instructions: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    #[test]
    fn each_measured_test_gives_its_candidate_and_its_baseline() {
        let records = [fixtures::record("perf::fast_vs_slow", 25.0, 100.0), fixtures::panicked("perf::boom_vs_slow")];
        let entries = arm_entries(&records);
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["perf::fast_vs_slow/candidate", "perf::fast_vs_slow/baseline"]);
        let report = &records[0].judgement.as_ref().unwrap().first;
        let (c, b) = (&entries[0], &entries[1]);
        assert_eq!(
            (c.median, c.q1, c.q3),
            (report.candidate_summary.median, report.candidate_summary.q1, report.candidate_summary.q3)
        );
        assert_eq!(
            (b.median, b.function.as_str(), b.against.as_str()),
            (report.baseline_summary.median, "slow", "fast")
        );
        assert!(c.q1 <= c.median && c.median <= c.q3);
        assert_eq!(c.rounds, fixtures::ROUNDS);
        assert_eq!((c.instructions, b.instructions), (None, None), "not counted");
    }

    #[test]
    fn a_counted_test_gives_each_arm_its_instructions_unless_they_vary() {
        use crate::instructions::tests::counts;
        let mut counted = Test {
            instructions: Some(counts(25_027.0, 20_019.0, rtcompare_judge::Outcome::Loss)),
            ..fixtures::record("perf::fast_vs_slow", 125.0, 100.0)
        };
        let entries = arm_entries(std::slice::from_ref(&counted));
        assert_eq!((entries[0].instructions, entries[1].instructions), (Some(25_027.0), Some(20_019.0)));
        if let Some(i) = counted.instructions.as_mut() {
            i.counted.stable = false;
        }
        let entries = arm_entries(&[counted]);
        assert_eq!((entries[0].instructions, entries[1].instructions), (None, None), "a count that varies");
    }
}
