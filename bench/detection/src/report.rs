//! The table, the targets and the JSON beside them.

use crate::criterion::Row;
use crate::figures::{Figures, injected, median};
use crate::plan::{Condition, Parity, Plan, Workload};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// One cell of the main table.
#[derive(Debug, Clone)]
pub struct Cell {
    /// The workload.
    pub workload: Workload,
    /// The injected difference in percent.
    pub k: i64,
    /// Idle or hog.
    pub condition: Condition,
    /// Which parity registration.
    pub parity: Parity,
    /// The measured true difference (`d`), from the calibration step.
    pub truth: Option<f64>,
    /// The figures.
    pub figures: Figures,
}

/// One calibration measurement: a long run without confirmation.
#[derive(Debug, Clone)]
pub struct Calibration {
    /// Idle or beside the hog.
    pub condition: Condition,
    /// The workload.
    pub workload: &'static str,
    /// The injected difference in percent.
    pub k: i64,
    /// The measured difference `d`: the median of `runs`.
    pub measured: Option<f64>,
    /// Each calibration run's difference.
    pub runs: Vec<f64>,
}

/// The empty-function A/A pair's per-op medians, ns.
#[derive(Debug, Clone, Copy)]
pub struct Overhead {
    /// The candidate's median.
    pub candidate_ns: f64,
    /// The baseline's median.
    pub baseline_ns: f64,
}

/// Where the run happened.
#[derive(Debug, Clone)]
pub struct Context {
    /// When it finished, UTC.
    pub date: String,
    /// `nproc`.
    pub cores: String,
    /// CPU model from /proc/cpuinfo.
    pub cpu: String,
    /// `git rev-parse --short HEAD`, with `-dirty` when the tree had changes.
    pub commit: String,
    /// The command that produced the file.
    pub command: String,
    /// Wall-clock minutes of the whole run.
    pub minutes: f64,
    /// Comparisons registered in the fixture binary: the `m` of its confirmation level.
    pub registered: usize,
    /// The run this one replaces, read from its `detection.json` before this run overwrites it.
    pub previous: Option<Previous>,
}

/// The run a new one replaces, as its JSON recorded it: "today's" figure of the suite-time target.
#[derive(Debug, Clone, PartialEq)]
pub struct Previous {
    /// Mean wall-clock seconds per verdict over its rtcompare trials.
    pub mean_wall_s: f64,
    /// Whether the file recorded that mean (`mean_wall_s`). Files written before it did give only
    /// the cells' medians, and the mean is then their trial-weighted mean: a proxy.
    pub exact: bool,
    /// Its plan's mode, `quick` or `full`.
    pub mode: String,
    /// Its `RTCOMPARE_TIME` per trial.
    pub budget: String,
    /// Its commit, as recorded.
    pub commit: String,
}

/// Reads the previous run from the text of its `detection.json`; `None` when the text is not
/// such a file or holds no wall time.
pub fn previous(text: &str) -> Option<Previous> {
    let run: Value = serde_json::from_str(text).ok()?;
    let recorded = run["mean_wall_s"].as_f64();
    let mean_wall_s = recorded.or_else(|| proxy_mean(&run["cells"]))?;
    let text_of = |value: &Value| value.as_str().unwrap_or("unknown").to_owned();
    Some(Previous {
        mean_wall_s,
        exact: recorded.is_some(),
        mode: text_of(&run["plan"]["mode"]),
        budget: text_of(&run["plan"]["budget"]),
        commit: text_of(&run["commit"]),
    })
}

/// `Σ median × trials / Σ trials` over the cells of a results JSON: every trial counted at its
/// cell's median wall time, the nearest a file without per-trial times comes to their mean.
fn proxy_mean(cells: &Value) -> Option<f64> {
    let (mut total, mut trials) = (0.0, 0.0);
    for figures in cells.as_array()?.iter().map(|c| &c["figures"]) {
        if let (Some(wall), Some(n)) = (figures["median_wall_s"].as_f64(), figures["trials"].as_f64()) {
            total += wall * n;
            trials += n;
        }
    }
    (trials > 0.0).then(|| total / trials)
}

/// A target from the issue and what this run saw.
#[derive(Debug, Clone)]
pub struct Target {
    /// The target as stated (time limits scaled to the run's budget).
    pub target: String,
    /// What was observed.
    pub observed: String,
    /// `Some(true)` met, `Some(false)` missed, `None` not enough data in this run to say.
    pub met: Option<bool>,
}

/// Percent with sign, from a fraction.
fn pct(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_owned(), |v| format!("{:+.2} %", v * 100.0))
}

fn opt(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "–".to_owned(), |v| format!("{v:.digits$}"))
}

/// Writes a Markdown table: the header row, its separator, then one row per entry of `rows`.
fn table(out: &mut String, header: &[&str], rows: impl IntoIterator<Item = Vec<String>>) {
    let line = |cells: &[String]| format!("| {} |", cells.join(" | "));
    let _ = writeln!(out, "{}", line(&header.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>()));
    let _ = writeln!(out, "{}", line(&vec!["---".to_owned(); header.len()]));
    for row in rows {
        let _ = writeln!(out, "{}", line(&row));
    }
}

/// Evaluates the issue's targets on the cells and the overhead. `registered` is the size of the
/// fixture's suite; `previous` the run this one replaces, for the suite-time target.
pub fn targets(
    plan: &Plan,
    cells: &[Cell],
    overhead: Option<Overhead>,
    registered: usize,
    previous: Option<&Previous>,
) -> Vec<Target> {
    let budget_s = plan.budget_s();
    vec![
        aa_target(cells),
        sensitivity_target(cells, 2, Parity::Tight, SENSITIVITY, registered),
        sensitivity_target(cells, 5, Parity::Default, SENSITIVITY_DEFAULT, registered),
        parity_time_target(cells, budget_s),
        close_call_target(cells, budget_s),
        cap_target(cells, budget_s),
        suite_time_target(cells, plan, previous),
        large_difference_target(cells),
        direction_target(cells),
        estimate_target(cells),
        overhead_target(overhead),
    ]
}

fn aa_target(cells: &[Cell]) -> Target {
    let aa: Vec<&Cell> = cells.iter().filter(|c| c.k == 0).collect();
    let comparisons: usize = aa.iter().map(|c| c.figures.trials).sum();
    let seeded: usize = aa.iter().filter(|c| c.workload.per_process).map(|c| c.figures.trials).sum();
    let confirmed: usize = aa.iter().map(|c| c.figures.confirmed_losses).sum();
    let first_round: usize = aa.iter().map(|c| c.figures.losses).sum();
    let met = if confirmed > 0 {
        Some(false)
    } else if comparisons >= 400 && seeded >= 100 {
        Some(true)
    } else {
        None
    };
    Target {
        target: "0 confirmed losses (failed tests) on A/A across ≥ 400 comparisons, idle and loaded, ≥ 100 of them on \
                 workloads that depend on per-process hash seeds or memory layout"
            .to_owned(),
        observed: format!(
            "{confirmed} confirmed ({first_round} first-round) losses in {comparisons} A/A comparisons ({seeded} of them \
             on the HashMap, memory-walk and allocation workloads)"
        ),
        met,
    }
}

/// A `k` % slowdown at `parity` is a confirmed loss in ≥ 95 % of trials of every ≥ 10 µs cell,
/// each trial in a binary of at least 50 registered comparisons.
fn sensitivity_target(cells: &[Cell], k: i64, parity: Parity, target: &'static str, registered: usize) -> Target {
    let chosen: Vec<&Cell> = cells.iter().filter(|c| c.k == k && c.parity == parity && c.workload.long).collect();
    if chosen.is_empty() {
        return not_measured(target.to_owned());
    }
    let mut observed = vec![format!("in a binary of {registered} comparisons")];
    let mut met = registered >= 50;
    for c in &chosen {
        let rate = c.figures.confirmed_losses as f64 / c.figures.trials.max(1) as f64;
        met &= rate >= 0.95;
        observed.push(format!(
            "{} {}: {}/{} confirmed ({} first-round), {:.2} s",
            c.workload.name,
            c.condition.label(),
            c.figures.confirmed_losses,
            c.figures.trials,
            c.figures.losses,
            c.figures.median_wall_s.unwrap_or(f64::NAN)
        ));
    }
    Target { target: target.to_owned(), observed: observed.join("; "), met: Some(met) }
}

const SENSITIVITY: &str = "parity 0.01: a 2 % slowdown is a confirmed loss in ≥ 95 % of trials on ≥ 10 µs workloads, in a suite of ≥ 50 pairs";

const SENSITIVITY_DEFAULT: &str = "default parity (0.04): a 5 % slowdown is a confirmed loss in ≥ 95 % of trials on ≥ 10 µs workloads, in a suite of ≥ 50 pairs";

/// A target this run has no cells for.
fn not_measured(target: String) -> Target {
    Target { target, observed: "not measured in this run".to_owned(), met: None }
}

/// Every trial's wall-clock seconds in `cells`, pooled.
fn walls<'a>(cells: impl IntoIterator<Item = &'a Cell>) -> Vec<f64> {
    cells.into_iter().flat_map(|c| c.figures.walls_s.iter().copied()).filter(|w| w.is_finite()).collect()
}

/// The mean wall-clock seconds per verdict over every rtcompare trial of the run.
pub fn mean_wall(cells: &[Cell]) -> Option<f64> {
    let all = walls(cells);
    (!all.is_empty()).then(|| all.iter().sum::<f64>() / all.len() as f64)
}

/// The issue states its time targets for rtcompare's default budget of 1 s; a run at another
/// budget is held to them scaled by budget / 1 s. The stated target and its scaled limit.
fn scaled(stated: &str, at_1s: f64, budget_s: f64) -> (String, f64) {
    let limit = at_1s * budget_s;
    (format!("{stated} at a 1 s budget; ≤ {limit:.3} s at this run's {budget_s} s (scaled by budget / 1 s)"), limit)
}

/// How long parity on identical code takes: the median over every A/A trial, both conditions
/// and parities pooled.
fn parity_time_target(cells: &[Cell], budget_s: f64) -> Target {
    let (target, limit) = scaled("median time to parity on identical code ≤ 0.35 s", 0.35, budget_s);
    let aa = |condition: Option<Condition>| {
        walls(cells.iter().filter(|c| c.k == 0 && condition.is_none_or(|wanted| c.condition == wanted)))
    };
    let all = aa(None);
    let Some(pooled) = median(&all) else { return not_measured(target) };
    Target {
        target,
        observed: format!(
            "{pooled:.3} s over {} A/A trials, idle and beside the hog (idle {} s, beside the hog {} s)",
            all.len(),
            opt(median(&aa(Some(Condition::Idle))), 3),
            opt(median(&aa(Some(Condition::Hog))), 3)
        ),
        met: Some(pooled <= limit),
    }
}

/// The close calls of the issue: an injected difference just beyond each parity.
const CLOSE_CALLS: [(i64, Parity); 2] = [(5, Parity::Default), (2, Parity::Tight)];

/// How long a close call takes: the median over the trials of each close-call group, both
/// signs and conditions pooled. Missed when a measured group is over; met when both are within.
fn close_call_target(cells: &[Cell], budget_s: f64) -> Target {
    let (target, limit) = scaled("median close call ≤ 3 s (5 % at parity 0.04, 2 % at parity 0.01)", 3.0, budget_s);
    let mut observed = Vec::new();
    let (mut over, mut missing) = (false, false);
    for (k, parity) in CLOSE_CALLS {
        let group = walls(cells.iter().filter(|c| c.k.abs() == k && c.parity == parity));
        let label = format!("±{k} % at parity {}", parity.value());
        match median(&group) {
            Some(m) => {
                over |= m > limit;
                observed.push(format!("{label}: {m:.2} s over {} trials", group.len()));
            }
            None => {
                missing = true;
                observed.push(format!("{label}: not measured"));
            }
        }
    }
    let met = match (over, missing) {
        (true, _) => Some(false),
        (false, true) => None,
        (false, false) => Some(true),
    };
    Target { target, observed: observed.join("; "), met }
}

/// The longest comparison against the hard cap of 4× its budget, confirmation included. The cap
/// is on the comparison, so it is judged on the duration rtcompare records (`duration_s`): the
/// process wall time also holds the test binary's start and the writing of its output files,
/// which lie outside the comparison. That wall time is given beside it, as what a user waits for.
fn cap_target(cells: &[Cell], budget_s: f64) -> Target {
    let target = "no comparison over 4× its budget, confirmation included (longest comparison duration as \
                  rtcompare records it (`duration_s`) / the trial budget; the process wall time beside it)"
        .to_owned();
    // A budget that did not parse would divide by zero: say nothing rather than infinity.
    if budget_s <= 0.0 {
        return not_measured(target);
    }
    let wall = longest_of(cells, |f| f.longest_wall_s).map(|(wall, cell)| {
        format!(
            "longest process wall time {wall:.2} s = {:.2}× the budget ({}), which includes the process's start \
             and its output files",
            wall / budget_s,
            cell_label(cell)
        )
    });
    let Some((duration, cell)) = longest_of(cells, |f| f.longest_duration_s) else {
        // Trials without a recorded duration (failed runs, older fixtures) cannot be judged:
        // the wall time is an upper bound, not the comparison's time.
        return match wall {
            Some(wall) => Target { target, observed: format!("no comparison duration recorded; {wall}"), met: None },
            None => not_measured(target),
        };
    };
    let ratio = duration / budget_s;
    let mut observed =
        format!("longest comparison {duration:.2} s = {ratio:.2}× the {budget_s} s budget ({})", cell_label(cell));
    if let Some(wall) = wall {
        observed = format!("{observed}; {wall}");
    }
    Target { target, observed, met: Some(ratio <= 4.0) }
}

/// The largest value `figure` gives over `cells`, with its cell.
fn longest_of(cells: &[Cell], figure: impl Fn(&Figures) -> Option<f64>) -> Option<(f64, &Cell)> {
    cells.iter().filter_map(|c| figure(&c.figures).map(|v| (v, c))).max_by(|a, b| a.0.total_cmp(&b.0))
}

/// A cell as the targets name it: `cpu_10us at parity 0.01, hog, k = +2`.
fn cell_label(cell: &Cell) -> String {
    format!("{} at parity {}, {}, k = {:+}", cell.workload.name, cell.parity.value(), cell.condition.label(), cell.k)
}

/// The suite's mean time per verdict against half of the previous run's. Only a run of the
/// same plan and budget is compared: another mix of k or another budget changes the mean by
/// itself.
fn suite_time_target(cells: &[Cell], plan: &Plan, previous: Option<&Previous>) -> Target {
    let target = "suite mean per verdict at most half of today's (today's: the previous run's, from the \
                  detection.json this run replaces)"
        .to_owned();
    let Some(mean) = mean_wall(cells) else { return not_measured(target) };
    let now = format!("{mean:.3} s per verdict over {} trials", walls(cells).len());
    let Some(before) = previous else {
        return Target { target, observed: format!("{now}; no previous run to compare with"), met: None };
    };
    let how = if before.exact { "recorded" } else { "proxy: mean of cell medians, weighted by their trials" };
    let then = format!(
        "previous run ({}, {} plan at {}): {:.3} s ({how})",
        before.commit, before.mode, before.budget, before.mean_wall_s
    );
    if before.mode != plan.mode || before.budget != plan.budget {
        let why = format!("not comparable: this run is the {} plan at {}", plan.mode, plan.budget);
        return Target { target, observed: format!("{now}; {then}; {why}"), met: None };
    }
    let ratio = mean / before.mean_wall_s;
    Target { target, observed: format!("{now} = {ratio:.2}× the {then}"), met: Some(mean <= before.mean_wall_s / 2.0) }
}

/// Cells whose injected difference is at least three times the parity: decided in ≤ 0.5 s.
fn large_difference_target(cells: &[Cell]) -> Target {
    let chosen: Vec<&Cell> =
        cells.iter().filter(|c| c.k != 0 && c.k.unsigned_abs() as f64 >= 300.0 * c.parity.value()).collect();
    let slowest = largest(chosen.iter().filter_map(|c| c.figures.median_wall_s));
    let within = chosen.iter().filter(|c| c.figures.median_wall_s.is_some_and(|w| w <= 0.5)).count();
    Target {
        target: "a difference of ≥ 3× the parity decided in ≤ 0.5 s (median per cell)".to_owned(),
        observed: format!("{within}/{} cells within; slowest cell median {} s", chosen.len(), opt(slowest, 2)),
        met: slowest.map(|w| w <= 0.5),
    }
}

/// The largest of `values`; `None` when there are none.
fn largest(values: impl Iterator<Item = f64>) -> Option<f64> {
    values.fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
}

fn direction_target(cells: &[Cell]) -> Target {
    let errors: usize = cells.iter().map(|c| c.figures.direction_errors).sum();
    let confirmed: usize = cells.iter().map(|c| c.figures.confirmed_direction_errors).sum();
    let trials: usize = cells.iter().filter(|c| c.k != 0).map(|c| c.figures.trials).sum();
    Target {
        target: "no direction errors (first-round verdicts)".to_owned(),
        observed: format!("{errors} first-round ({confirmed} confirmed) in {trials} trials with k ≠ 0"),
        met: Some(errors == 0),
    }
}

fn estimate_target(cells: &[Cell]) -> Target {
    let chosen: Vec<&Cell> = cells.iter().filter(|c| c.k.abs() == 10 && c.workload.long).collect();
    let worst = largest(chosen.iter().filter_map(|c| c.figures.median_error_pp));
    let within = chosen.iter().filter(|c| c.figures.median_error_pp.is_some_and(|e| e <= 0.5)).count();
    Target {
        target: "estimate within ±0.5 pp of the truth at k = ±10 on ≥ 10 µs workloads (median per cell)".to_owned(),
        observed: format!("{within}/{} cells within; worst cell median {} pp", chosen.len(), opt(worst, 2)),
        met: worst.map(|w| w <= 0.5),
    }
}

fn overhead_target(overhead: Option<Overhead>) -> Target {
    Target {
        target: "empty-function overhead ≤ 0.5 ns per call".to_owned(),
        observed: overhead.map_or_else(
            || "not measured".to_owned(),
            |o| format!("{:.3} ns (candidate), {:.3} ns (baseline)", o.candidate_ns, o.baseline_ns),
        ),
        met: overhead.map(|o| o.candidate_ns.max(o.baseline_ns) <= 0.5),
    }
}

fn met_label(met: Option<bool>) -> &'static str {
    match met {
        Some(true) => "met",
        Some(false) => "**missed**",
        None => "not enough data",
    }
}

/// The whole Markdown document.
pub fn markdown(
    plan: &Plan,
    context: &Context,
    overhead: Option<Overhead>,
    calibration: &[Calibration],
    cells: &[Cell],
    criterion: &[Row],
) -> String {
    let mut out = String::new();
    header(&mut out, plan, context);
    let _ = writeln!(out, "## Targets\n");
    let rows = targets(plan, cells, overhead, context.registered, context.previous.as_ref())
        .into_iter()
        .map(|t| vec![t.target, t.observed, met_label(t.met).to_owned()]);
    table(&mut out, &["target", "observed", ""], rows);
    let _ = writeln!(
        out,
        "\n## Calibration of the truth\n\nEach workload at each k measured {} times for {}, each in a fresh process, \
        with confirmation off (`RTCOMPARE_CONFIRM=0`), idle and again beside the hog; the sweeps are interleaved. They run the \
        workload's `truth` pair, the same functions at `parity = 0.5`, so that no difference is clear enough to end a run \
        early and each measures its whole budget. Their median is the truth the \
        estimate errors below are taken against, each condition's trials against that condition's truth; \
        it differs from the injected one by the fixed costs of a call (and, at k = 0, by code placement).\n",
        plan.calibration_runs, plan.calibration_budget
    );
    let rows = calibration.iter().map(|c| {
        let runs: Vec<String> = c.runs.iter().map(|&r| pct(Some(r))).collect();
        vec![
            c.condition.label().to_owned(),
            c.workload.to_owned(),
            format!("{:+}", c.k),
            pct(Some(injected(c.k))),
            pct(c.measured),
            runs.join(", "),
        ]
    });
    table(&mut out, &["condition", "workload", "k", "injected Δ", "measured Δ (median)", "runs"], rows);
    side_by_side(&mut out, cells, criterion);
    verdict_table(&mut out, cells);
    criterion_table(&mut out, criterion);
    out
}

/// What each workload is, and why its measured truth can differ from the injected k.
const WORKLOAD_NOTES: &str = "Workloads (candidate and baseline run the same function; only the iteration count differs):\n\n\
- `cpu_100ns`: 100 steps of a dependent multiply-xorshift chain (~90 ns). Consecutive calls are independent chains, so \
the out-of-order core overlaps the end of one call with the start of the next: the cost is affine, not proportional, \
in the step count, and the measured truth at k = 10 is larger than 10 %.\n\
- `cpu_10us`: the same chain, 8,400 steps (~10 µs).\n\
- `memwalk_10us`: 200 dependent loads along one random cycle through the 512 Ki cache lines of a 32 MiB buffer (64× \
a core's 512 KiB L2, as large as the 32 MiB L3), continuing where the previous call stopped, so every load misses L2. \
Each process builds the buffer once (tens of milliseconds).\n\
- `alloc_10us`: 600 rounds of a small `String` and a small `Vec` built and dropped.\n\
- `hashmap_10us`: a `HashMap` with the default per-process random hasher, 400 keys inserted at a fixed capacity of \
1,024 (so the load factor does not grow with k), then 800 lookups.\n\n";

fn header(out: &mut String, plan: &Plan, context: &Context) {
    let _ = writeln!(out, "# Detection benchmark\n");
    let _ = writeln!(
        out,
        "How good rtcompare's verdicts are per second of measuring, on workloads whose candidate runs the \
        baseline's iteration count scaled by exactly 1 + k/100 (`bench/detection-fixture`). Written by `bench/detection`; \
        rerun it to reproduce.\n"
    );
    let _ = writeln!(
        out,
        "- date: {}\n- machine: {} cores (`nproc`), {}\n- commit: {}\n- command: `{}`\n- wall time of the run: {:.1} min",
        context.date, context.cores, context.cpu, context.commit, context.command, context.minutes
    );
    let names: Vec<&str> = plan.workloads.iter().map(|w| w.name).collect();
    let _ = writeln!(
        out,
        "- plan ({}): workloads {}; k ∈ {:?}; conditions idle and a CPU hog on the other core; parity 0.04 and 0.01; \
        {} trials per cell at k = 0, {} otherwise; `RTCOMPARE_TIME={}` per trial, confirmation on (default), `RTCOMPARE_SEED` = trial number; \
        each trial runs one pair of a binary of {} registered comparisons, so it is confirmed at the level of a suite that size\n",
        plan.mode,
        names.join(", "),
        plan.ks,
        plan.trials_aa,
        plan.trials,
        plan.budget,
        context.registered
    );
    out.push_str(WORKLOAD_NOTES);
    let _ = writeln!(
        out,
        "Δ is rtcompare's `d = 1 − candidate/baseline`: a slowdown of k % is Δ = −k %. \
        *loss/win/parity* are first-round verdicts; *confirmed* losses are the ones that fail a test; *confirmed* wins the ones reported as wins. \
        Both count a first-round parity that leaned to the outcome (estimate beyond the tolerance, whole interval on that side of zero) and that fresh processes established. \
        A direction error is a true slowdown reported as a win or a true speed-up reported as a loss. \
        *leaned, not established* counts the first-round parities that leaned to a win or a loss, went to fresh processes and stayed parity. \
        *|est − true|* is the median absolute difference between the estimate and the calibrated truth, in percentage points; \
        the estimate is the mean over every process once a confirmation ran (`over_processes`), the first round's otherwise. \
        *wall* is the median wall-clock time of one verdict: process start to exit, confirmation included; \
        *longest* the longest of the cell; *longest comparison* the longest duration of the comparison itself as rtcompare records it \
        (`duration_s`, confirmation included, without the process's start or its output files), which the 4× cap is judged on.\n"
    );
}

fn verdict_table(out: &mut String, cells: &[Cell]) {
    let _ = writeln!(out, "\n## Verdicts\n");
    let header = [
        "workload",
        "parity",
        "condition",
        "k",
        "true Δ",
        "trials",
        "loss",
        "win",
        "parity",
        "confirmed loss",
        "confirmed win",
        "direction errors",
        "leaned, not established",
        "\\|est − true\\| (pp)",
        "wall (s)",
        "longest (s)",
        "longest comparison (s)",
    ];
    let rows = cells.iter().map(|c| {
        let f = &c.figures;
        vec![
            c.workload.name.to_owned(),
            c.parity.value().to_string(),
            c.condition.label().to_owned(),
            format!("{:+}", c.k),
            pct(c.truth),
            f.trials.to_string(),
            f.losses.to_string(),
            f.wins.to_string(),
            f.parity.to_string(),
            f.confirmed_losses.to_string(),
            f.confirmed_wins.to_string(),
            f.direction_errors.to_string(),
            f.unestablished_leans.to_string(),
            opt(f.median_error_pp, 2),
            opt(f.median_wall_s, 2),
            opt(f.longest_wall_s, 2),
            opt(f.longest_duration_s, 2),
        ]
    });
    table(out, &header, rows);
}

/// One line of the side-by-side summary: a tool and setting, its reports on the cells criterion
/// also ran, under one condition.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Idle or beside the hog.
    pub condition: Condition,
    /// The tool and setting.
    pub setting: String,
    /// A/A trials reported as a change (for rtcompare: confirmed), and the trials.
    pub aa_changes: (usize, usize),
    /// 2 % slowdowns reported as such, and the trials.
    pub slowdowns_2: (usize, usize),
    /// 2 % speed-ups reported as such, and the trials.
    pub speedups_2: (usize, usize),
    /// 10 % differences (both directions) reported as such, and the trials.
    pub found_10: (usize, usize),
    /// Differences reported in the wrong direction (for rtcompare: confirmed).
    pub direction_errors: usize,
    /// The median of the cells' median wall times per verdict.
    pub wall_s: Option<f64>,
}

/// What a cell's trials reported, for the summary: changes counted as an rtcompare user sees
/// them (confirmed) or as criterion prints them.
fn reported(f: &Figures, confirmed: bool) -> (usize, usize) {
    if confirmed { (f.confirmed_losses, f.confirmed_wins) } else { (f.losses, f.wins) }
}

fn summarise(condition: Condition, setting: String, cells: &[(i64, &Figures)], confirmed: bool) -> Summary {
    let mut s = Summary {
        condition,
        setting,
        aa_changes: (0, 0),
        slowdowns_2: (0, 0),
        speedups_2: (0, 0),
        found_10: (0, 0),
        direction_errors: 0,
        wall_s: None,
    };
    let add = |into: &mut (usize, usize), found: usize, trials: usize| {
        into.0 += found;
        into.1 += trials;
    };
    for &(k, f) in cells {
        let (losses, wins) = reported(f, confirmed);
        match k {
            0 => add(&mut s.aa_changes, losses + wins, f.trials),
            2 => add(&mut s.slowdowns_2, losses, f.trials),
            -2 => add(&mut s.speedups_2, wins, f.trials),
            10 => add(&mut s.found_10, losses, f.trials),
            -10 => add(&mut s.found_10, wins, f.trials),
            _ => {}
        }
        s.direction_errors += if confirmed { f.confirmed_direction_errors } else { f.direction_errors };
    }
    let walls: Vec<f64> = cells.iter().filter_map(|(_, f)| f.median_wall_s).collect();
    s.wall_s = crate::figures::median(&walls);
    s
}

/// rtcompare (both parities) and criterion (both settings) on the cells criterion ran: the
/// workloads and k of its rows, under each condition.
pub fn summaries(cells: &[Cell], criterion: &[Row]) -> Vec<Summary> {
    let mut out = Vec::new();
    for condition in [Condition::Idle, Condition::Hog] {
        let rows: Vec<&Row> = criterion.iter().filter(|r| r.condition == condition).collect();
        if rows.is_empty() {
            continue;
        }
        let covered = |c: &&Cell| rows.iter().any(|r| r.workload == c.workload.name && r.k == c.k);
        for parity in [Parity::Tight, Parity::Default] {
            let ours: Vec<(i64, &Figures)> = cells
                .iter()
                .filter(|c| c.condition == condition && c.parity == parity)
                .filter(covered)
                .map(|c| (c.k, &c.figures))
                .collect();
            let label = format!("rtcompare, parity {} (confirmed)", parity.value());
            out.push(summarise(condition, label, &ours, true));
        }
        let mut settings: Vec<&str> = Vec::new();
        for r in &rows {
            if !settings.contains(&r.setting.as_str()) {
                settings.push(&r.setting);
            }
        }
        for setting in settings {
            let theirs: Vec<(i64, &Figures)> =
                rows.iter().filter(|r| r.setting == setting).map(|r| (r.k, &r.figures)).collect();
            out.push(summarise(condition, setting.to_owned(), &theirs, false));
        }
    }
    out
}

fn side_by_side(out: &mut String, cells: &[Cell], criterion: &[Row]) {
    let all = summaries(cells, criterion);
    if all.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n## Side by side with criterion\n\nOn the cells both ran (the per-cell tables are below). rtcompare counts what a \
        user is told: a win or a loss confirmed in a fresh process. criterion counts its own report of one comparing run \
        against the saved baseline: *regressed* or *improved*. *wall* is the median time per verdict.\n"
    );
    let header = [
        "condition",
        "tool, setting",
        "A/A reported as a change",
        "2 % slowdowns reported",
        "2 % speed-ups reported",
        "±10 % reported",
        "direction errors",
        "wall (s)",
    ];
    let frac = |(found, trials): (usize, usize)| format!("{found}/{trials}");
    let rows = all.iter().map(|s| {
        vec![
            s.condition.label().to_owned(),
            s.setting.clone(),
            frac(s.aa_changes),
            frac(s.slowdowns_2),
            frac(s.speedups_2),
            frac(s.found_10),
            s.direction_errors.to_string(),
            opt(s.wall_s, 2),
        ]
    });
    table(out, &header, rows);
}

fn criterion_table(out: &mut String, rows: &[Row]) {
    if rows.is_empty() {
        let _ = writeln!(out, "\n## Criterion\n\nNot run (`--criterion` runs it).");
        return;
    }
    let _ = writeln!(
        out,
        "\n## Criterion, per cell\n\ncriterion 0.8 in its regression workflow (`bench/criterion-compare`), idle and beside the hog: \
        per trial one `--save-baseline base` run at k = 0, then one `--baseline base` run per k. *regressed* counts as a loss, \
        *improved* as a win, *no change* and *within noise* as parity. Criterion has no confirmation step. \
        *wall* is the saving run plus the comparing run.\n"
    );
    let header = [
        "condition",
        "setting",
        "workload",
        "k",
        "trials",
        "regressed",
        "improved",
        "no change / within noise",
        "direction errors",
        "\\|est − true\\| (pp)",
        "wall (s)",
    ];
    let rows = rows.iter().map(|r| {
        let f = &r.figures;
        vec![
            r.condition.label().to_owned(),
            r.setting.clone(),
            r.workload.to_owned(),
            format!("{:+}", r.k),
            f.trials.to_string(),
            f.losses.to_string(),
            f.wins.to_string(),
            f.parity.to_string(),
            f.direction_errors.to_string(),
            opt(f.median_error_pp, 2),
            opt(f.median_wall_s, 2),
        ]
    });
    table(out, &header, rows);
}

fn figures_json(f: &Figures) -> Value {
    json!({
        "trials": f.trials, "losses": f.losses, "wins": f.wins, "parity": f.parity, "failed": f.failed,
        "confirmed_losses": f.confirmed_losses, "confirmed_wins": f.confirmed_wins, "direction_errors": f.direction_errors, "confirmed_direction_errors": f.confirmed_direction_errors,
        "leaned_not_established": f.unestablished_leans, "median_abs_error_pp": f.median_error_pp, "median_wall_s": f.median_wall_s,
        "longest_wall_s": f.longest_wall_s, "longest_duration_s": f.longest_duration_s,
    })
}

/// The same figures as JSON.
pub fn json(
    plan: &Plan,
    context: &Context,
    overhead: Option<Overhead>,
    calibration: &[Calibration],
    cells: &[Cell],
    criterion: &[Row],
) -> Value {
    json!({
        "date": context.date, "cores": context.cores, "cpu_model": context.cpu, "commit": context.commit,
        "command": context.command, "minutes": context.minutes, "registered": context.registered,
        "mean_wall_s": mean_wall(cells),
        "plan": {
            "mode": plan.mode, "workloads": plan.workloads.iter().map(|w| w.name).collect::<Vec<_>>(), "ks": plan.ks,
            "trials_aa": plan.trials_aa, "trials": plan.trials, "budget": plan.budget, "calibration_budget": plan.calibration_budget, "calibration_runs": plan.calibration_runs,
        },
        "overhead_ns": overhead.map(|o| json!({"candidate": o.candidate_ns, "baseline": o.baseline_ns})),
        "calibration": calibration.iter().map(|c| json!({"condition": c.condition.label(), "workload": c.workload, "k": c.k, "injected": injected(c.k), "measured": c.measured, "runs": c.runs})).collect::<Vec<_>>(),
        "cells": cells.iter().map(|c| json!({
            "workload": c.workload.name, "k": c.k, "condition": c.condition.label(), "parity": c.parity.value(),
            "true_difference": c.truth, "figures": figures_json(&c.figures),
        })).collect::<Vec<_>>(),
        "criterion": criterion.iter().map(|r| json!({
            "condition": r.condition.label(), "setting": r.setting, "workload": r.workload, "k": r.k, "figures": figures_json(&r.figures),
        })).collect::<Vec<_>>(),
        "side_by_side": summaries(cells, criterion).iter().map(|s| json!({
            "condition": s.condition.label(), "setting": s.setting, "aa_changes": s.aa_changes, "slowdowns_2": s.slowdowns_2,
            "speedups_2": s.speedups_2, "found_10": s.found_10, "direction_errors": s.direction_errors, "wall_s": s.wall_s,
        })).collect::<Vec<_>>(),
        "targets": targets(plan, cells, overhead, context.registered, context.previous.as_ref()).iter().map(|t| json!({"target": t.target, "observed": t.observed, "met": t.met})).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::aggregate;
    use crate::outcome::{Outcome, Trial};
    use crate::plan::WORKLOADS;

    fn cell(k: i64, parity: Parity, outcomes: &[(Outcome, bool)]) -> Cell {
        let trials: Vec<Trial> = outcomes
            .iter()
            .map(|&(outcome, confirmed)| Trial {
                outcome,
                confirmed: confirmed.then_some(outcome),
                difference: Some(injected(k)),
                leaned: false,
                wall_s: 1.0,
                duration_s: Some(0.8),
            })
            .collect();
        Cell {
            workload: WORKLOADS[1],
            k,
            condition: Condition::Idle,
            parity,
            truth: Some(injected(k)),
            figures: aggregate(&trials, k, Some(injected(k))),
        }
    }

    /// A cell of parities that took `walls` seconds each, with no comparison duration recorded.
    fn timed(k: i64, parity: Parity, condition: Condition, walls: &[f64]) -> Cell {
        let times: Vec<(f64, Option<f64>)> = walls.iter().map(|&wall| (wall, None)).collect();
        recorded(k, parity, condition, &times)
    }

    /// A cell of parities that took `(process wall time, comparison duration)` seconds each.
    fn recorded(k: i64, parity: Parity, condition: Condition, times: &[(f64, Option<f64>)]) -> Cell {
        let trials: Vec<Trial> = times
            .iter()
            .map(|&(wall_s, duration_s)| Trial {
                outcome: Outcome::Parity,
                confirmed: None,
                difference: None,
                leaned: false,
                wall_s,
                duration_s,
            })
            .collect();
        Cell { condition, figures: aggregate(&trials, k, None), ..cell(k, parity, &[]) }
    }

    /// The quick plan at `budget`.
    fn plan(budget: &'static str) -> Plan {
        Plan { budget, ..Plan::quick() }
    }

    fn find<'a>(all: &'a [Target], name: &str) -> &'a Target {
        all.iter().find(|t| t.target.contains(name)).unwrap_or_else(|| panic!("no target {name}"))
    }

    /// The target named `name` evaluated on `cells` at `budget`, after a run with `previous`.
    fn target(cells: &[Cell], budget: &'static str, previous: Option<&Previous>, name: &str) -> Target {
        find(&targets(&plan(budget), cells, None, 51, previous), name).clone()
    }

    #[test]
    fn targets_follow_the_cells() {
        let cells = [
            cell(0, Parity::Default, &[(Outcome::Parity, false); 3]),
            cell(2, Parity::Tight, &[(Outcome::Loss, true), (Outcome::Loss, true)]),
            cell(10, Parity::Tight, &[(Outcome::Loss, true)]),
        ];
        let t = targets(&plan("1s"), &cells, Some(Overhead { candidate_ns: 0.24, baseline_ns: 0.25 }), 51, None);
        let met = |name: &str| find(&t, name).met;
        assert_eq!(met("on A/A"), None, "3 A/A comparisons are too few to claim the target");
        assert_eq!(met("2 % slowdown"), Some(true));
        assert_eq!(met("5 % slowdown"), None, "no 5 % cell measured");
        assert_eq!(met("3× the parity"), Some(false), "k = 10 at parity 0.01 took 1 s");
        assert_eq!(met("direction errors"), Some(true));
        assert_eq!(met("estimate within"), Some(true));
        assert_eq!(met("overhead"), Some(true));
        assert!(t.iter().all(|t| !t.target.contains("median wall time per verdict ≤ 2 s")), "superseded");
        let missed = [cell(2, Parity::Tight, &[(Outcome::Loss, true), (Outcome::Parity, false)])];
        let t = targets(&plan("1s"), &missed, None, 51, None);
        assert_eq!(find(&t, "2 % slowdown").met, Some(false));
        let small_suite = targets(&plan("1s"), &cells, None, 11, None);
        let found = find(&small_suite, "2 % slowdown").met;
        assert_eq!(found, Some(false), "every 2 % slowdown found, but in a binary of 11 comparisons");
        assert_eq!(find(&t, "estimate within").met, None);
    }

    #[test]
    fn time_to_parity_is_the_median_of_every_aa_trial_scaled_to_the_budget() {
        let cells = [
            timed(0, Parity::Default, Condition::Idle, &[0.2, 0.3]),
            timed(0, Parity::Tight, Condition::Idle, &[0.3]),
            timed(0, Parity::Default, Condition::Hog, &[0.4, 0.5]),
            timed(2, Parity::Tight, Condition::Idle, &[5.0, 5.0, 5.0]),
        ];
        let at_1s = target(&cells, "1s", None, "time to parity");
        assert_eq!(at_1s.met, Some(true), "0.3 s pooled: {}", at_1s.observed);
        assert!(at_1s.observed.starts_with("0.300 s over 5 A/A trials"), "{}", at_1s.observed);
        assert!(at_1s.observed.contains("idle 0.300 s, beside the hog 0.450 s"), "{}", at_1s.observed);
        let at_500ms = target(&cells, "500ms", None, "time to parity");
        assert!(at_500ms.target.contains("≤ 0.175 s at this run's 0.5 s"), "{}", at_500ms.target);
        assert_eq!(at_500ms.met, Some(false), "0.3 s is over 0.35 × 0.5 s");
        let none = target(&cells[3..], "1s", None, "time to parity");
        assert_eq!((none.met, none.observed.as_str()), (None, "not measured in this run"));
    }

    #[test]
    fn close_calls_are_5_percent_at_the_default_parity_and_2_at_the_tight_one() {
        let cells = [
            timed(5, Parity::Default, Condition::Idle, &[2.0, 2.5]),
            timed(-5, Parity::Default, Condition::Hog, &[3.0]),
            timed(2, Parity::Tight, Condition::Idle, &[1.0]),
            timed(-2, Parity::Tight, Condition::Hog, &[2.0, 4.0]),
            // Neither is a close call at its parity.
            timed(5, Parity::Tight, Condition::Idle, &[10.0; 5]),
            timed(2, Parity::Default, Condition::Idle, &[10.0; 5]),
        ];
        let at_1s = target(&cells, "1s", None, "close call");
        assert_eq!(at_1s.met, Some(true), "{}", at_1s.observed);
        assert_eq!(
            at_1s.observed,
            "±5 % at parity 0.04: 2.50 s over 3 trials; ±2 % at parity 0.01: 2.00 s over 3 trials"
        );
        assert_eq!(target(&cells, "500ms", None, "close call").met, Some(false), "over 1.5 s");
        // Only the tight group measured: within says nothing of both, over is a miss already.
        let tight_only = target(&cells[2..4], "1s", None, "close call");
        assert_eq!(tight_only.met, None);
        assert!(tight_only.observed.contains("±5 % at parity 0.04: not measured"), "{}", tight_only.observed);
        assert_eq!(target(&cells[2..4], "500ms", None, "close call").met, Some(false));
        assert_eq!(target(&[], "1s", None, "close call").met, None);
    }

    #[test]
    fn the_cap_is_4_times_the_budget_on_the_longest_comparison_duration() {
        let cells = [
            recorded(0, Parity::Default, Condition::Idle, &[(0.3, Some(0.2)), (4.6, Some(1.0))]),
            recorded(2, Parity::Tight, Condition::Hog, &[(4.5, Some(3.9)), (1.0, None)]),
        ];
        let within = target(&cells, "1s", None, "4× its budget");
        assert_eq!(within.met, Some(true), "3.9 s of comparison, though 4.6 s of process: {}", within.observed);
        assert!(within.target.contains("(`duration_s`) / the trial budget"), "{}", within.target);
        assert_eq!(
            within.observed,
            "longest comparison 3.90 s = 3.90× the 1 s budget (cpu_10us at parity 0.01, hog, k = +2); longest \
             process wall time 4.60 s = 4.60× the budget (cpu_10us at parity 0.04, idle, k = +0), which includes \
             the process's start and its output files"
        );
        let missed = target(&cells, "500ms", None, "4× its budget");
        assert_eq!(missed.met, Some(false), "7.8× a 0.5 s budget: {}", missed.observed);
        assert!(
            missed.observed.starts_with("longest comparison 3.90 s = 7.80× the 0.5 s budget"),
            "{}",
            missed.observed
        );
        let over = [recorded(-10, Parity::Default, Condition::Idle, &[(4.2, Some(4.1))])];
        assert_eq!(target(&over, "1s", None, "4× its budget").met, Some(false));
    }

    #[test]
    fn the_cap_is_not_judged_without_a_comparison_duration() {
        let unrecorded = target(&[timed(0, Parity::Default, Condition::Idle, &[9.0])], "1s", None, "4× its budget");
        assert_eq!(unrecorded.met, None, "the wall time is no comparison's duration");
        assert!(unrecorded.observed.starts_with("no comparison duration recorded; longest process wall time 9.00 s"));
        let none = target(&[], "1s", None, "4× its budget");
        assert_eq!((none.met, none.observed.as_str()), (None, "not measured in this run"));
    }

    fn before(mean_wall_s: f64, budget: &str) -> Previous {
        let (mode, commit) = ("quick".to_owned(), "abc1234".to_owned());
        Previous { mean_wall_s, exact: true, mode, budget: budget.to_owned(), commit }
    }

    #[test]
    fn the_suite_mean_is_held_to_half_of_the_previous_run_of_the_same_plan() {
        let cells =
            [timed(0, Parity::Default, Condition::Idle, &[1.0, 2.0]), timed(2, Parity::Tight, Condition::Hog, &[3.0])];
        assert_eq!(mean_wall(&cells), Some(2.0));
        let halved = target(&cells, "1s", Some(&before(4.0, "1s")), "suite mean");
        assert_eq!(halved.met, Some(true), "{}", halved.observed);
        assert!(halved.observed.starts_with("2.000 s per verdict over 3 trials = 0.50× the previous run"));
        assert!(halved.observed.contains("(recorded)"), "{}", halved.observed);
        assert_eq!(target(&cells, "1s", Some(&before(3.9, "1s")), "suite mean").met, Some(false));
        let proxy = Previous { exact: false, ..before(3.9, "1s") };
        let by_proxy = target(&cells, "1s", Some(&proxy), "suite mean");
        assert!(by_proxy.observed.contains("proxy: mean of cell medians"), "{}", by_proxy.observed);
        let other_budget = target(&cells, "1s", Some(&before(40.0, "500ms")), "suite mean");
        assert_eq!(other_budget.met, None, "another budget changes the mean by itself");
        assert!(other_budget.observed.contains("not comparable"), "{}", other_budget.observed);
        let first_run = target(&cells, "1s", None, "suite mean");
        assert_eq!(first_run.met, None);
        assert!(first_run.observed.contains("no previous run"));
        assert_eq!(target(&[], "1s", Some(&before(4.0, "1s")), "suite mean").met, None);
        assert_eq!(mean_wall(&[]), None);
    }

    #[test]
    fn reads_the_previous_mean_or_its_proxy() {
        let recorded = r#"{"commit": "e36201b", "mean_wall_s": 0.9, "plan": {"mode": "full", "budget": "500ms"},
            "cells": [{"figures": {"median_wall_s": 5.0, "trials": 20}}]}"#;
        assert_eq!(
            previous(recorded),
            Some(Previous {
                mean_wall_s: 0.9,
                exact: true,
                mode: "full".to_owned(),
                budget: "500ms".to_owned(),
                commit: "e36201b".to_owned()
            })
        );
        let older = r#"{"plan": {"mode": "full"}, "cells": [
            {"figures": {"median_wall_s": 1.0, "trials": 20}}, {"figures": {"median_wall_s": 4.0, "trials": 5}},
            {"figures": {"median_wall_s": null, "trials": 0}}]}"#;
        let proxy = previous(older).expect("cells with wall times");
        assert!((proxy.mean_wall_s - 1.6).abs() < 1e-12, "(20 × 1 + 5 × 4) / 25: {}", proxy.mean_wall_s);
        assert_eq!((proxy.exact, proxy.budget.as_str(), proxy.commit.as_str()), (false, "unknown", "unknown"));
        assert_eq!(previous(r#"{"cells": []}"#), None);
        assert_eq!(previous("not json"), None);
    }

    fn context() -> Context {
        Context {
            date: "2026-12-02 15:00 UTC".to_owned(),
            cores: "2".to_owned(),
            cpu: "test".to_owned(),
            commit: "abc1234".to_owned(),
            command: "cargo run --release -p rtcompare-detection -- --quick".to_owned(),
            minutes: 1.0,
            registered: 51,
            previous: None,
        }
    }

    #[test]
    fn the_json_has_the_mean_and_longest_wall_times_and_no_second_budget() {
        let cells = [recorded(0, Parity::Default, Condition::Idle, &[(1.0, Some(0.5)), (3.0, Some(2.5))])];
        let value = json(&plan("1s"), &context(), None, &[], &cells, &[]);
        assert_eq!(value["mean_wall_s"], 2.0);
        let figures = &value["cells"][0]["figures"];
        assert_eq!((figures["longest_wall_s"].as_f64(), figures["median_wall_s"].as_f64()), (Some(3.0), Some(2.0)));
        assert_eq!(figures["longest_duration_s"].as_f64(), Some(2.5));
        assert!(figures.get("second_budget").is_none() && figures.get("walls_s").is_none(), "{figures}");
        assert_eq!(json(&plan("1s"), &context(), None, &[], &[], &[])["mean_wall_s"], Value::Null);
        let text = markdown(&plan("1s"), &context(), None, &[], &cells, &[]);
        assert!(!text.contains("second budget") && text.contains("| longest (s) | longest comparison (s) |"), "{text}");
    }

    #[test]
    fn tables_are_markdown_with_a_separator_row() {
        let mut out = String::new();
        table(&mut out, &["a", "b"], [vec!["1".to_owned(), "2".to_owned()]]);
        assert_eq!(out, "| a | b |\n| --- | --- |\n| 1 | 2 |\n");
    }

    #[test]
    fn the_verdict_table_has_a_row_per_cell() {
        let mut out = String::new();
        verdict_table(&mut out, &[cell(2, Parity::Tight, &[(Outcome::Loss, true)])]);
        let row =
            "| cpu_10us | 0.01 | idle | +2 | -2.00 % | 1 | 1 | 0 | 0 | 1 | 0 | 0 | 0 | 0.00 | 1.00 | 1.00 | 0.80 |";
        assert!(out.lines().any(|l| l == row), "{out}");
    }

    #[test]
    fn summaries_count_confirmed_changes_for_rtcompare_and_reports_for_criterion() {
        let cells = [
            cell(0, Parity::Tight, &[(Outcome::Loss, false), (Outcome::Parity, false)]),
            cell(2, Parity::Tight, &[(Outcome::Loss, true), (Outcome::Loss, false)]),
            cell(-2, Parity::Tight, &[(Outcome::Win, true)]),
            cell(5, Parity::Tight, &[(Outcome::Loss, true)]),
        ];
        let row = |k: i64, outcomes: &[Outcome]| {
            let trials: Vec<Trial> = outcomes
                .iter()
                .map(|&outcome| Trial {
                    outcome,
                    confirmed: None,
                    difference: None,
                    leaned: false,
                    wall_s: 20.0,
                    duration_s: None,
                })
                .collect();
            Row {
                condition: Condition::Idle,
                setting: "criterion".to_owned(),
                workload: WORKLOADS[1].name,
                k,
                figures: aggregate(&trials, k, None),
            }
        };
        let rows = [row(0, &[Outcome::Win, Outcome::Parity]), row(2, &[Outcome::Loss, Outcome::Loss]), row(-2, &[])];
        let all = summaries(&cells, &rows);
        assert_eq!(all.len(), 3, "rtcompare at two parities, criterion once; idle only");
        let ours = &all[0];
        assert_eq!(ours.setting, "rtcompare, parity 0.01 (confirmed)");
        assert_eq!((ours.aa_changes, ours.slowdowns_2, ours.speedups_2), ((0, 2), (1, 2), (1, 1)));
        assert_eq!(all[1].slowdowns_2, (0, 0), "no parity-0.04 cells were given");
        let theirs = &all[2];
        assert_eq!((theirs.aa_changes, theirs.slowdowns_2, theirs.speedups_2), ((1, 2), (2, 2), (0, 0)));
        assert_eq!(theirs.wall_s, Some(20.0));
        assert!(summaries(&cells, &[]).is_empty());
    }
}
