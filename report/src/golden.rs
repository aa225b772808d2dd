//! The outputs of a few seeded reports, compared byte for byte with `golden.txt`: the text
//! blocks, failure messages, Markdown summary, rankings, tracking files and pictures must not
//! change when the code that renders them is restructured. `RTCOMPARE_BLESS=1` rewrites the file
//! (after a change of wording that is meant).

use super::fixtures;
use super::json;
use super::run::Test;
use super::{Detail, Failure, bmf, failure_message, gha, markdown, placement_summary, rankings, text_lines};
use rtcompare_judge::decide::{Confirmation, conclude};
use rtcompare_judge::measure::{Calibration, Samples, Series, ThroughputUnit, Work};
use rtcompare_judge::stats::Outcome;
use rtcompare_judge::verdict::{Caveat, DriftSeries, Ending, Judgement, Report};
use rtcompare_judge::{JudgeOptions, Measured, Metric, judge_processes};
use std::fmt::Write;

/// One process's rounds: a candidate around `candidate` and a baseline around `baseline` ns/op,
/// with a wobble that depends on `phase`.
fn process(candidate: f64, baseline: f64, phase: usize) -> Measured {
    let series = |ns: f64, slot: u32| Series {
        per_op: (0..40).map(|i| ns * (1.0 + 0.003 * (((i * 13 + phase + slot as usize) % 7) as f64 - 3.0))).collect(),
        position: (0..40).map(|round| round * 4 + slot).collect(),
        placements: Vec::new(),
    };
    let samples = Samples {
        candidate_iters: 500,
        baseline_iters: 500,
        candidate: series(candidate, 0),
        candidate_twin: series(candidate, 1),
        baseline: series(baseline, 2),
        baseline_twin: series(baseline, 3),
    };
    let calibration = Calibration {
        resolution: 20.0,
        clock_step_ns: 20.0,
        candidate_iters: 500,
        baseline_iters: 500,
        target_batch_ns: 50_000.0,
        candidate_batch_ns: candidate * 500.0,
        baseline_batch_ns: baseline * 500.0,
        first_call_ns: 0.0,
    };
    Measured { candidate: "fast".into(), baseline: "slow".into(), calibration, samples }
}

/// Four fresh processes pooled.
fn pooled(candidate: f64, baseline: f64) -> Report {
    let processes = (1..=4).map(|phase| process(candidate * (1.0 + 0.002 * phase as f64), baseline, phase)).collect();
    judge_processes(processes, Metric::Time, &JudgeOptions { resamples: 500, seed: 9, ..JudgeOptions::default() })
}

fn confirmation(report: Report, confirmed: bool, ending: Ending) -> Confirmation {
    Confirmation { report, confirmed, planned: 16, ending, settle: None }
}

/// A first round that leaned to a win it could not establish: a parity whose interval lies
/// beyond the tolerance, with the caveats such a parity carries.
fn leaning() -> Report {
    let mut first = fixtures::report(90.0, 100.0);
    first.verdict.outcome = Outcome::Parity;
    first.verdict.resolved = false;
    let tolerance = first.verdict.tolerance;
    first.warnings = vec![
        Caveat::Drift { series: DriftSeries::Candidate, shift: 0.031, rho: 0.42, p_value: 0.004 },
        Caveat::NotBeyondTolerance { side: Outcome::Win, estimate: first.estimate, tolerance },
    ];
    first
}

/// The reports every output is rendered for, by name.
fn reports() -> Vec<(&'static str, Judgement)> {
    let confirmed_loss =
        conclude(fixtures::report(100.0, 50.0), confirmation(pooled(100.0, 50.0), true, Ending::Confirmed));
    let unconfirmed_loss =
        conclude(fixtures::report(100.0, 96.0), confirmation(pooled(100.0, 99.5), false, Ending::RuledOut));
    let time_cap = conclude(fixtures::report(100.0, 96.0), confirmation(pooled(100.0, 98.0), false, Ending::TimeCap));
    let established = conclude(leaning(), confirmation(pooled(90.0, 100.0), true, Ending::Confirmed));
    let refuted = conclude(leaning(), confirmation(pooled(100.0, 100.0), false, Ending::LastLook));
    let mut allocs = fixtures::report(25.0, 100.0);
    allocs.metric = Metric::AllocBytes;
    let mut placed = fixtures::report(99.0, 100.0);
    placed.warnings.push(Caveat::Placement {
        arm: rtcompare_judge::verdict::ArmRole::Baseline,
        copies: 4,
        spread: 0.12,
    });
    vec![
        ("perf::quarter_vs_slow", Judgement::of(fixtures::report(25.0, 100.0))),
        ("perf::close_vs_slow", Judgement::of(placed)),
        ("perf::double_vs_half", confirmed_loss),
        ("perf::near_vs_slow", unconfirmed_loss),
        ("perf::capped_vs_slow", time_cap),
        ("perf::leaning_vs_slow", established),
        ("perf::refuted_vs_slow", refuted),
        ("perf::bytes_vs_slow", Judgement::of(allocs)),
    ]
}

/// Everything the outputs show of `reports`, one section each.
fn rendered(reports: &[(&'static str, Judgement)]) -> String {
    let mut out = String::new();
    let work = Some(Work { unit: ThroughputUnit::Bytes, per_call: 4096 });
    for (name, report) in reports {
        for (detail, work) in [(Detail::Short, None), (Detail::Verbose, None), (Detail::Verbose, work)] {
            let _ = writeln!(out, "== {name} {detail:?} {}", work.is_some());
            for (kind, line) in text_lines(report, work, detail) {
                let _ = writeln!(out, "{kind:?} {line}");
            }
        }
        let _ = writeln!(out, "== {name} failures");
        let _ = writeln!(out, "{}", failure_message(report, Failure::Loss, None));
        let _ = writeln!(out, "{}", failure_message(report, Failure::NoWin, None));
        let _ = writeln!(out, "== {name} svg\n{}", super::svg::picture(report, name));
    }
    let all: Vec<&Judgement> = reports.iter().map(|(_, r)| r).collect();
    let _ = writeln!(out, "== placement summary\n{:?}", placement_summary(&all));
    let mut tests: Vec<Test> = reports.iter().map(|(name, r)| fixtures::judged(name, r.clone())).collect();
    tests[0].work = Some(Work { unit: ThroughputUnit::Elements, per_call: 64 });
    tests.push(fixtures::panicked("perf::boom_vs_slow"));
    let environment = fixtures::environment();
    for unoptimised in [false, true] {
        let run = fixtures::run(&environment, &tests, unoptimised);
        let _ = writeln!(out, "== markdown {unoptimised}\n{}", markdown::render(&run));
        let arms = super::tracking::arm_entries(&tests);
        let _ = writeln!(out, "== gha {unoptimised}\n{}", gha::render(&arms, unoptimised));
        if !unoptimised {
            let _ = writeln!(out, "== bmf\n{}", bmf::render(&arms));
        }
    }
    for ranking in rankings(&tests) {
        let _ = writeln!(out, "== ranking\n{}\n{}", ranking.render_text(), ranking.render_markdown());
    }
    // The results file changes shape with the code; it is kept where a test can compare its
    // figures, not here.
    if let Some(path) = std::env::var_os("RTCOMPARE_GOLDEN_JSON") {
        let run = fixtures::run(&environment, &tests, false);
        std::fs::write(path, json::render(&run)).unwrap();
    }
    out
}

#[test]
fn the_outputs_of_seeded_reports_are_unchanged() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/golden.txt");
    let text = rendered(&reports());
    if std::env::var_os("RTCOMPARE_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_default();
    if golden != text {
        let first = golden.lines().zip(text.lines()).position(|(a, b)| a != b);
        panic!("the outputs changed; first different line {first:?}:\n{:?}", first.map(|i| text.lines().nth(i)));
    }
}
