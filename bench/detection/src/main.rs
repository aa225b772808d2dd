//! The detection benchmark: how good rtcompare's verdicts are per second of measuring.
//!
//! ```sh
//! cargo run --release -p rtcompare-detection -- --quick     # a few minutes
//! cargo run --release -p rtcompare-detection                # full, ~15 minutes on 2 cores (more with --criterion)
//! cargo run --release -p rtcompare-detection -- --quick --criterion   # also criterion, side by side
//! cargo run --release -p rtcompare-detection -- --quick --layout random # RTCOMPARE_LAYOUT for every run
//! ```
//!
//! It builds `bench/detection-fixture` once, measures the true difference of each workload at
//! each k with a long run, measures the harness's cost around an empty function, then runs the
//! trials — one run of the fixture binary per trial, `--exact <pair>` — idle and beside a CPU
//! hog, and writes `docs/detection.md` and `docs/detection.json` (or into `--out <dir>`).
//! Nothing here asserts on timing: it prints figures.

mod criterion;
mod figures;
mod outcome;
mod plan;
mod report;
mod runner;

use criterion::Truths;
use figures::aggregate;
use outcome::Trial;
use plan::{Condition, PARITIES, Parity, Plan, Workload, pair_name, truth_name};
use report::{Calibration, Cell, Context, Overhead};
use runner::{Hog, Run, die, root, run_pair, trial};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--hog") {
        let limit = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(60);
        runner::spin_for(Duration::from_secs(limit));
        return;
    }
    let Args { quick, criterion: with_criterion, out, layout } =
        parse_args(&args).unwrap_or_else(|message| die(&message));
    if let Some(layout) = layout {
        runner::set_layout(layout);
    }
    let out_dir = out.unwrap_or_else(|| root().join("docs"));
    let plan = if quick { Plan::quick() } else { Plan::full() };
    let command = if args.is_empty() {
        "cargo run --release -p rtcompare-detection".to_owned()
    } else {
        format!("cargo run --release -p rtcompare-detection -- {}", args.join(" "))
    };
    run(&plan, with_criterion, &out_dir, command);
}

/// The command line.
#[derive(Debug, PartialEq)]
struct Args {
    quick: bool,
    criterion: bool,
    out: Option<PathBuf>,
    /// `RTCOMPARE_LAYOUT` for every run of the fixture (unset: the harness's default).
    layout: Option<String>,
}

/// Parses `--quick`, `--criterion`, `--out <dir>` and `--layout <fixed|random>`; anything else is
/// a typo worth stopping for.
fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut parsed = Args { quick: false, criterion: false, out: None, layout: None };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--quick" => parsed.quick = true,
            "--criterion" => parsed.criterion = true,
            "--out" => parsed.out = Some(rest.next().ok_or("--out needs a directory")?.into()),
            "--layout" => match rest.next().map(String::as_str) {
                Some(layout @ ("fixed" | "random")) => parsed.layout = Some(layout.to_owned()),
                _ => return Err("--layout needs fixed or random".to_owned()),
            },
            other => {
                return Err(format!(
                    "unknown argument {other:?}; use --quick, --criterion, --out <dir>, --layout <fixed|random>"
                ));
            }
        }
    }
    Ok(parsed)
}

fn run(plan: &Plan, with_criterion: bool, out_dir: &Path, command: String) {
    let started = Instant::now();
    // Read before building: the figures describe the code the fixture was built from, even if
    // the working tree changes while the run goes on.
    let commit = commit_described();
    // "Today's" time per verdict, for the suite-time target: the run whose file this one
    // replaces, read now because the new one overwrites it at the end.
    let previous =
        std::fs::read_to_string(out_dir.join("detection.json")).ok().and_then(|text| report::previous(&text));
    println!("previous run: {previous:?}");
    let binary = runner::build_fixture();
    let scratch = runner::scratch_dir("trials");
    println!("fixture: {}\nscratch: {}", binary.display(), scratch.display());
    let overhead = measure_overhead(&binary, &scratch, plan);
    let mut calibration = Vec::new();
    let mut cells = Vec::new();
    for &condition in &plan.conditions {
        calibration.extend(calibrate(&binary, &scratch, plan, condition));
        let trials = run_condition(&binary, &scratch, plan, condition);
        cells.extend(to_cells(plan, condition, &trials, &truths_of(&calibration)));
    }
    let truths = truths_of(&calibration);
    let criterion_rows = if with_criterion { criterion::run_all(plan, &truths, &scratch) } else { Vec::new() };
    let _ = std::fs::remove_dir_all(&scratch);
    let mut context = context(command, commit, started.elapsed(), runner::registered(&binary));
    context.previous = previous;
    let markdown = report::markdown(plan, &context, overhead, &calibration, &cells, &criterion_rows);
    let json = report::json(plan, &context, overhead, &calibration, &cells, &criterion_rows);
    println!("\n{markdown}");
    write(&out_dir.join("detection.md"), &markdown);
    write(&out_dir.join("detection.json"), &format!("{json:#}\n"));
}

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match std::fs::write(path, text) {
        Ok(()) => println!("written to {}", path.display()),
        Err(e) => eprintln!("could not write {}: {e}", path.display()),
    }
}

/// The empty-function A/A pair: its per-op medians are what the harness adds around a call.
fn measure_overhead(binary: &Path, scratch: &Path, plan: &Plan) -> Option<Overhead> {
    let run = Run { name: "detection/empty/aa", k: 0, seed: 0, budget: plan.overhead_budget, confirm: false };
    let (reading, _) = run_pair(binary, scratch, &run);
    let overhead = reading.medians.map(|(candidate_ns, baseline_ns)| Overhead { candidate_ns, baseline_ns });
    println!("overhead of an empty call: {overhead:?}");
    overhead
}

/// The true difference of each workload at each k under `condition`: the median of several long
/// runs, confirmation off, each in a fresh process with its own seed. Per condition, because the
/// hog changes what some workloads cost relative to each other (memory and allocator-bound
/// code shares more with it than a register-bound loop). Fresh processes, because some
/// workloads (the allocating one) differ by a per-process offset of up to ±2 pp, set by the
/// address layout (`docs/design.md`): more, shorter runs average it better than fewer long ones. The sweeps are interleaved (every workload and
/// k once, then again) so that a minute of disturbance — another build on the machine — spoils
/// one run of many cells rather than every run of one cell; a single run per cell was seen off
/// by 0.9 pp that way.
fn calibrate(binary: &Path, scratch: &Path, plan: &Plan, condition: Condition) -> Vec<Calibration> {
    let per_run = plan.calibration_budget_s() * 1.5 + 0.5;
    let cells = plan.workloads.len() * plan.ks.len();
    let limit = Duration::from_secs_f64(per_run * (cells as u64 * plan.calibration_runs) as f64 + 120.0);
    let _hog = (condition == Condition::Hog).then(|| Hog::start(limit));
    let mut runs: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    for sweep in 0..plan.calibration_runs {
        for (w, workload) in plan.workloads.iter().enumerate() {
            let name = truth_name(workload.name);
            for (i, &k) in plan.ks.iter().enumerate() {
                let seed = 1_000_000 + sweep;
                let run = Run { name: &name, k, seed, budget: plan.calibration_budget, confirm: false };
                let (reading, _) = run_pair(binary, scratch, &run);
                let label = condition.label();
                println!("truth ({label}) {} k={k:+} run {}: d = {:?}", workload.name, sweep + 1, reading.difference);
                runs.entry((w, i)).or_default().extend(reading.difference);
            }
        }
    }
    let mut calibration = Vec::new();
    for (w, workload) in plan.workloads.iter().enumerate() {
        for (i, &k) in plan.ks.iter().enumerate() {
            let values = runs.remove(&(w, i)).unwrap_or_default();
            calibration.push(Calibration {
                condition,
                workload: workload.name,
                k,
                measured: figures::median(&values),
                runs: values,
            });
        }
    }
    calibration
}

/// The measured truths by condition, workload and k.
fn truths_of(calibration: &[Calibration]) -> Truths {
    calibration.iter().filter_map(|c| c.measured.map(|m| ((c.condition, c.workload, c.k), m))).collect()
}

type Key = (&'static str, i64, Parity);

/// One condition's block of trials. Trials are interleaved — trial 0 of every cell, then trial 1,
/// ... — so a slow change of the machine spreads over all cells instead of biasing a few.
fn run_condition(binary: &Path, scratch: &Path, plan: &Plan, condition: Condition) -> BTreeMap<Key, Vec<Trial>> {
    let per_trial = plan.budget_s() * 2.5 + 0.5;
    let limit = Duration::from_secs_f64(plan.trials_per_condition() as f64 * per_trial + 120.0);
    let hog = (condition == Condition::Hog).then(|| Hog::start(limit));
    let started = Instant::now();
    let mut trials: BTreeMap<Key, Vec<Trial>> = BTreeMap::new();
    let most = plan.trials_aa.max(plan.trials);
    for seed in 0..most {
        for workload in &plan.workloads {
            for &k in plan.ks.iter().filter(|&&k| seed < plan.trials_for(k)) {
                for parity in PARITIES {
                    let name = pair_name(workload.name, parity);
                    let t = trial(binary, scratch, &Run { name: &name, k, seed, budget: plan.budget, confirm: true });
                    trials.entry((workload.name, k, parity)).or_default().push(t);
                }
            }
        }
        println!("{}: trial {}/{most} done ({:.0} s)", condition.label(), seed + 1, started.elapsed().as_secs_f64());
    }
    drop(hog);
    trials
}

fn to_cells(plan: &Plan, condition: Condition, trials: &BTreeMap<Key, Vec<Trial>>, truth: &Truths) -> Vec<Cell> {
    let mut cells = Vec::new();
    for &workload in &plan.workloads {
        for parity in PARITIES {
            for &k in &plan.ks {
                cells.push(cell(workload, k, condition, parity, trials, truth));
            }
        }
    }
    cells
}

fn cell(
    workload: Workload,
    k: i64,
    condition: Condition,
    parity: Parity,
    trials: &BTreeMap<Key, Vec<Trial>>,
    truth: &Truths,
) -> Cell {
    let truth = truth.get(&(condition, workload.name, k)).copied();
    let empty = Vec::new();
    let trials = trials.get(&(workload.name, k, parity)).unwrap_or(&empty);
    Cell { workload, k, condition, parity, truth, figures: aggregate(trials, k, truth) }
}

/// The output of a command, trimmed; `unknown` when it cannot run.
fn output_of(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map_or_else(|| "unknown".to_owned(), |o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
}

/// The short commit, marked when the working tree has uncommitted changes.
fn commit_described() -> String {
    let dirty = !output_of("git", &["status", "--porcelain"]).is_empty();
    let commit = output_of("git", &["rev-parse", "--short", "HEAD"]);
    if dirty { format!("{commit} (with uncommitted changes)") } else { commit }
}

fn context(command: String, commit: String, elapsed: Duration, registered: usize) -> Context {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned());
    Context {
        date: output_of("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        cores: output_of("nproc", &[]),
        cpu,
        commit,
        command,
        minutes: elapsed.as_secs_f64() / 60.0,
        registered,
        previous: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| (*a).to_owned()).collect()
    }

    #[test]
    fn parses_the_command_line() {
        let args = parse_args(&strings(&["--quick", "--out", "x", "--criterion"])).expect("valid");
        assert_eq!(args, Args { quick: true, criterion: true, out: Some(PathBuf::from("x")), layout: None });
        let args = parse_args(&strings(&["--layout", "random"])).expect("valid");
        assert_eq!(args.layout.as_deref(), Some("random"));
        assert!(parse_args(&strings(&["--layout", "sometimes"])).is_err());
        assert!(parse_args(&strings(&["--out"])).is_err());
        assert!(parse_args(&strings(&["--quik"])).is_err());
    }
}
