//! The same workloads in criterion's regression workflow (`bench/criterion-compare`): a run at
//! `k = 0` saves a baseline, then one run per `k` compares against it, and criterion's report
//! ("Performance has regressed." / "improved." / "No change in performance detected." /
//! "Change within noise threshold.") is the verdict.

use crate::figures::{Figures, aggregate};
use crate::outcome::{Outcome, Trial, read_criterion};
use crate::plan::{Condition, Plan};
use crate::runner::{Neighbour, build_executable, cargo, die, root};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The injected differences and trials of the criterion part, in both modes: criterion at its
/// defaults spends about 9 s per run (3 s warm-up, 5 s measuring, the analysis), 6 runs per
/// trial.
pub const KS: [i64; 5] = [0, 2, -2, 10, -10];
/// Trials per workload and setting.
pub const TRIALS: u64 = 3;

/// A criterion setting: its defaults, or the measuring time of an rtcompare trial.
#[derive(Debug, Clone)]
pub struct Setting {
    /// The label in tables.
    pub label: String,
    /// Extra command-line arguments.
    pub args: Vec<String>,
}

/// The two settings compared: criterion's defaults, and warm-up + measurement equal to our budget
/// (a twentieth of it warming up, as rtcompare does).
pub fn settings(budget_s: f64) -> Vec<Setting> {
    let warm_up_s = budget_s / 20.0;
    vec![
        Setting { label: "criterion defaults (3 s + 5 s)".to_owned(), args: Vec::new() },
        Setting {
            label: format!("criterion at our budget ({warm_up_s:.2} s + {budget_s:.2} s)"),
            args: vec![
                "--warm-up-time".to_owned(),
                format!("{warm_up_s}"),
                "--measurement-time".to_owned(),
                format!("{budget_s}"),
            ],
        },
    ]
}

/// One row of the criterion table: setting × workload × k.
#[derive(Debug, Clone)]
pub struct Row {
    /// Idle or beside the hog.
    pub condition: Condition,
    /// The setting's label.
    pub setting: String,
    /// The workload.
    pub workload: &'static str,
    /// The injected difference in percent.
    pub k: i64,
    /// The figures; the wall time per verdict is the saving run plus the comparing run.
    pub figures: Figures,
}

/// Builds the criterion crate and returns its bench binary.
fn build() -> PathBuf {
    let mut command = cargo(&root().join("bench").join("criterion-compare"));
    command.args(["bench", "--bench", "detection", "--no-run"]);
    build_executable(command, "bench/criterion-compare")
}

/// Runs the criterion binary once on `workload`; returns its standard output and wall seconds.
fn run(binary: &Path, home: &Path, workload: &str, k: i64, mode: &[&str], setting: &Setting) -> (String, f64) {
    let mut command = Command::new(binary);
    command
        .args(["--bench", "--noplot", "--color", "never", "--exact", workload])
        .args(mode)
        .args(&setting.args)
        .env("CRITERION_HOME", home)
        .env("DETECTION_K", k.to_string());
    let started = Instant::now();
    let output = command.output().unwrap_or_else(|e| die(&format!("could not run {}: {e}", binary.display())));
    let wall = started.elapsed().as_secs_f64();
    if !output.status.success() {
        eprintln!("  criterion {workload} k={k} failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    (String::from_utf8_lossy(&output.stdout).into_owned(), wall)
}

/// The measured truths by condition, workload and k.
pub type Truths = BTreeMap<(Condition, &'static str, i64), f64>;

/// Runs the whole criterion part, under each of the plan's conditions, and returns its rows.
pub fn run_all(plan: &Plan, truth: &Truths, scratch: &Path) -> Vec<Row> {
    let binary = build();
    let mut rows = Vec::new();
    for &condition in &plan.conditions {
        // Criterion at its defaults takes about 10 s per run; the neighbour must outlive them all.
        let runs = (plan.workloads().len() * (KS.len() + 1)) as u64 * TRIALS * 2;
        let _neighbour = Neighbour::start(condition, Duration::from_secs(runs * 15 + 120));
        rows.extend(run_condition(plan, condition, truth, &binary, &scratch.join("criterion")));
    }
    rows
}

fn run_condition(plan: &Plan, condition: Condition, truth: &Truths, binary: &Path, home: &Path) -> Vec<Row> {
    let mut rows = Vec::new();
    for setting in settings(plan.budget_s()) {
        let mut trials: BTreeMap<(&'static str, i64), Vec<Trial>> = BTreeMap::new();
        for workload in &plan.workloads() {
            for trial in 0..TRIALS {
                let (_, save_wall) = run(binary, home, workload.name, 0, &["--save-baseline", "base"], &setting);
                for &k in &KS {
                    let (stdout, wall) = run(binary, home, workload.name, k, &["--baseline", "base"], &setting);
                    let (outcome, difference) = read_criterion(&stdout, &[workload.name])
                        .into_iter()
                        .next()
                        .map_or((Outcome::Failed, None), |(_, o, d)| (o, d));
                    let label = condition.label();
                    println!("  {label}: {} {} trial {trial} k={k:+}: {outcome:?}", setting.label, workload.name);
                    let entry = trials.entry((workload.name, k)).or_default();
                    entry.push(Trial::bare(outcome, difference, save_wall + wall));
                }
            }
        }
        // In the plan's order (workload, then k as listed), like the main table.
        for workload in &plan.workloads() {
            for k in KS {
                let trials = trials.remove(&(workload.name, k)).unwrap_or_default();
                let figures = aggregate(&trials, k, truth.get(&(condition, workload.truth_from, k)).copied());
                rows.push(Row { condition, setting: setting.label.clone(), workload: workload.name, k, figures });
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_budget_setting_passes_seconds() {
        let s = settings(0.4);
        assert_eq!(s[1].args, ["--warm-up-time", "0.02", "--measurement-time", "0.4"]);
        assert!(s[0].args.is_empty());
    }
}
