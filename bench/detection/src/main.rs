//! The detection benchmark: how good rtcompare's verdicts are per second of measuring.
//!
//! ```sh
//! cargo run --release -p rtcompare-detection -- --quick            # a few minutes, checks the program
//! cargo run --release -p rtcompare-detection -- --plan confirm36   # issue 36's targets, about an hour
//! cargo run --release -p rtcompare-detection -- --plan issue49 --conditions idle  # issue 49's, one condition
//! cargo run --release -p rtcompare-detection                       # full, over an hour on 2 cores
//! cargo run --release -p rtcompare-detection -- --quick --criterion       # also criterion, side by side
//! cargo run --release -p rtcompare-detection -- --quick --layout random   # RTCOMPARE_LAYOUT for every run
//! cargo run --release -p rtcompare-detection -- --quick --conditions idle,bandwidth
//! cargo run --release -p rtcompare-detection -- --plan confirm36 --counting  # counting off and on
//! ```
//!
//! It builds `bench/detection-fixture` once, measures the true difference of each workload at
//! each k with a long run, measures the harness's cost around an empty function, then runs the
//! trials — one run of the fixture binary per trial, `--exact <pair>` — idle, beside a CPU hog
//! and beside a memory-bandwidth neighbour, and writes its report beside this program, in
//! `bench/detection/results/` (or into `--out <dir>`): `detection.md` and `detection.json` for the
//! full plan, `detection-<plan>.md` and `.json` for another (`detection-confirm36.md`), so that a
//! run reads the previous run of its own plan. Every run has `RTCOMPARE_INSTRUCTIONS=off`:
//! counting runs after the verdict and changes none, but its valgrind start would add half a
//! second to each trial's wall time. With `--counting` every trial runs twice, with the variable
//! `off` and unset, and the report gives the suite's wall time both ways. Nothing here asserts on
//! timing: it prints figures.

mod criterion;
mod figures;
mod issue49;
mod outcome;
mod plan;
mod report;
mod runner;

use criterion::Truths;
use figures::aggregate;
use outcome::Trial;
use plan::{Condition, Parity, Plan, Spec, pair_name, truth_name};
use report::{Calibration, Cell, Context, Counting, Overhead};
use runner::{BANDWIDTH_BYTES, BANDWIDTH_FLAG, HOG_FLAG, Instructions, Neighbour, Run, die, root, run_pair, trial};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(mode) = neighbour_mode(&args) {
        match mode {
            Ok(Mode::Hog { limit, parent }) => runner::spin_for(limit, parent),
            Ok(Mode::Bandwidth { limit, parent, bytes }) => {
                runner::stream_for(limit, bytes, parent);
            }
            Err(message) => die(&message),
        }
        return;
    }
    let Args { plan, criterion: with_criterion, out, layout, conditions, counting } =
        parse_args(&args).unwrap_or_else(|message| die(&message));
    if let Some(layout) = layout {
        runner::set_layout(layout);
    }
    let out_dir = out.unwrap_or_else(|| root().join("bench/detection/results"));
    let mut plan = Plan::named(plan.unwrap_or("full")).unwrap_or_else(|message| die(&message));
    if let Some(conditions) = conditions {
        plan.conditions = conditions;
    }
    let command = if args.is_empty() {
        "cargo run --release -p rtcompare-detection".to_owned()
    } else {
        format!("cargo run --release -p rtcompare-detection -- {}", args.join(" "))
    };
    run(&plan, with_criterion, counting, &out_dir, command);
}

/// What this program runs as when started as a neighbour of the loaded conditions.
#[derive(Debug, PartialEq)]
enum Mode {
    /// `--hog <seconds> [--parent <pid>]`: spin.
    Hog { limit: Duration, parent: Option<u32> },
    /// `--bandwidth <seconds> [--parent <pid>] [--mib <n>]`: stream memory (256 MiB unless
    /// `--mib` says otherwise, which the tests use).
    Bandwidth { limit: Duration, parent: Option<u32>, bytes: usize },
}

/// The neighbour mode the arguments ask for, when the first one is [`HOG_FLAG`] or
/// [`BANDWIDTH_FLAG`]; `None` for a benchmark run.
fn neighbour_mode(args: &[String]) -> Option<Result<Mode, String>> {
    let flag = args.first()?.as_str();
    (flag == HOG_FLAG || flag == BANDWIDTH_FLAG).then(|| parse_neighbour(flag, &args[1..]))
}

/// Parses the arguments after a neighbour's `flag`: its time limit in seconds, then
/// `--parent <pid>` and, for the bandwidth neighbour, `--mib <n>`.
fn parse_neighbour(flag: &str, args: &[String]) -> Result<Mode, String> {
    let number = |what: &str, value: Option<&String>| -> Result<u64, String> {
        value.and_then(|v| v.parse().ok()).ok_or_else(|| format!("{flag} needs {what} as a whole number"))
    };
    let limit = Duration::from_secs(number("a time limit in seconds", args.first())?);
    let (mut parent, mut bytes) = (None, BANDWIDTH_BYTES);
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--parent" => {
                let pid = number("--parent <pid>", rest.next())?;
                parent = Some(u32::try_from(pid).map_err(|_| format!("--parent {pid} is not a process id"))?);
            }
            "--mib" if flag == BANDWIDTH_FLAG => {
                let mib = number("--mib <n>", rest.next())?.max(1);
                bytes = mib.checked_mul(1 << 20).and_then(|b| usize::try_from(b).ok()).ok_or("--mib is too large")?;
            }
            other => return Err(format!("unknown argument {other:?} after {flag}")),
        }
    }
    Ok(if flag == HOG_FLAG { Mode::Hog { limit, parent } } else { Mode::Bandwidth { limit, parent, bytes } })
}

/// The command line.
#[derive(Debug, PartialEq)]
struct Args {
    /// The plan's name (`--plan`, `--quick`); the full plan when none is given.
    plan: Option<&'static str>,
    criterion: bool,
    out: Option<PathBuf>,
    /// `RTCOMPARE_LAYOUT` for every run of the fixture (unset: the harness's default).
    layout: Option<String>,
    /// The conditions to run instead of the plan's (`--conditions idle,hog,bandwidth`).
    conditions: Option<Vec<Condition>>,
    /// Every trial twice, counting off and at its default (`--counting`).
    counting: bool,
}

/// Parses `--quick`, `--plan <name>`, `--criterion`, `--out <dir>`, `--layout <fixed|random>`,
/// `--conditions <list>` and `--counting`; anything else is a typo worth stopping for.
fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut parsed = Args { plan: None, criterion: false, out: None, layout: None, conditions: None, counting: false };
    let choose = |plan: &'static str, into: &mut Option<&'static str>| match *into {
        Some(chosen) if chosen != plan => Err(format!("two plans given ({chosen} and {plan}); give one")),
        _ => {
            *into = Some(plan);
            Ok(())
        }
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--quick" => choose("quick", &mut parsed.plan)?,
            "--plan" => {
                let name = rest.next().ok_or("--plan needs a name: quick, full, confirm36 or issue49")?;
                choose(Plan::named(name)?.mode, &mut parsed.plan)?;
            }
            "--criterion" => parsed.criterion = true,
            "--counting" => parsed.counting = true,
            "--out" => parsed.out = Some(rest.next().ok_or("--out needs a directory")?.into()),
            "--layout" => match rest.next().map(String::as_str) {
                Some(layout @ ("fixed" | "random")) => parsed.layout = Some(layout.to_owned()),
                _ => return Err("--layout needs fixed or random".to_owned()),
            },
            "--conditions" => {
                let list = rest.next().ok_or("--conditions needs a list, such as idle,hog,bandwidth")?;
                parsed.conditions = Some(Condition::parse_list(list)?);
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}; use --quick, --plan <quick|full|confirm36|issue49>, --criterion, --out <dir>, \
                     --layout <fixed|random>, --conditions <idle,hog,bandwidth>, --counting"
                ));
            }
        }
    }
    Ok(parsed)
}

fn run(plan: &Plan, with_criterion: bool, counting: bool, out_dir: &Path, command: String) {
    let started = Instant::now();
    // Read before building: the figures describe the code the fixture was built from, even if
    // the working tree changes while the run goes on.
    let commit = commit_described();
    // The run whose file this one replaces, for the suite-time target's comparison, read now
    // because the new one overwrites it at the end.
    let stem = file_stem(plan.mode);
    let previous =
        std::fs::read_to_string(out_dir.join(format!("{stem}.json"))).ok().and_then(|text| report::previous(&text));
    println!("previous run: {previous:?}");
    let binary = runner::build_fixture();
    if counting {
        // Before anything is measured: a fixture that rejects the variable would fail every trial.
        runner::check_instructions_variable(&binary).unwrap_or_else(|message| die(&message));
    }
    let scratch = runner::scratch_dir("trials");
    println!("fixture: {}\nscratch: {}", binary.display(), scratch.display());
    let registered = runner::registered(&binary);
    println!("registered comparisons: {registered}");
    let overhead = measure_overhead(&binary, &scratch, plan);
    let mut calibration = Vec::new();
    let mut cells = Vec::new();
    let mut counted = Vec::new();
    for &condition in &plan.conditions {
        calibration.extend(calibrate(&binary, &scratch, plan, condition));
        let (trials, sides) = run_condition(&binary, &scratch, plan, condition, counting);
        cells.extend(to_cells(plan, condition, &trials, &truths_of(&calibration)));
        counted.extend(sides);
    }
    let truths = truths_of(&calibration);
    let criterion_rows = if with_criterion { criterion::run_all(plan, &truths, &scratch) } else { Vec::new() };
    let _ = std::fs::remove_dir_all(&scratch);
    let mut context = context(command, commit, started.elapsed(), registered);
    context.previous = previous;
    context.counting = counted;
    if plan.mode == "issue49" {
        context.plan_targets = issue49::targets(plan, &cells, registered);
    }
    let markdown = report::markdown(plan, &context, overhead, &calibration, &cells, &criterion_rows);
    let json = report::json(plan, &context, overhead, &calibration, &cells, &criterion_rows);
    println!("\n{markdown}");
    write(&out_dir.join(format!("{stem}.md")), &markdown);
    write(&out_dir.join(format!("{stem}.json")), &format!("{json:#}\n"));
}

/// The name, without extension, of the report a plan writes: `detection` for the full plan,
/// `detection-<plan>` for another, so that a quick run does not replace the full one.
fn file_stem(mode: &str) -> String {
    if mode == "full" { "detection".to_owned() } else { format!("detection-{mode}") }
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
    let run = Run {
        name: "detection/empty/aa",
        k: 0,
        seed: 0,
        budget: plan.overhead_budget,
        confirm: false,
        instructions: Instructions::Off,
    };
    let (reading, _) = run_pair(binary, scratch, &run);
    let overhead = reading.medians.map(|(candidate_ns, baseline_ns)| Overhead { candidate_ns, baseline_ns });
    println!("overhead of an empty call: {overhead:?}");
    overhead
}

/// The true difference of each workload at each k under `condition`: the median of several
/// runs, confirmation off, each in a fresh process with its own seed (each measures until its
/// screen establishes the truth pair's wide parity, a fraction of its budget; the report says
/// how long). Per condition, because a
/// neighbour changes what some workloads cost relative to each other (memory and allocator-bound
/// code shares more with it than a register-bound loop). Fresh processes, because some
/// workloads (the allocating one) differ by a per-process offset of up to ±2 pp, set by the
/// address layout (`docs/design.md` at 498582d, "What limits the rest"): more, shorter runs
/// average it better than fewer long ones.
/// The sweeps are interleaved (every workload and k once, then again) so that a minute of
/// disturbance — another build on the machine — spoils one run of many cells rather than every
/// run of one cell; a single run per cell was seen off by 0.9 pp that way.
fn calibrate(binary: &Path, scratch: &Path, plan: &Plan, condition: Condition) -> Vec<Calibration> {
    let per_run = plan.calibration_budget_s() * 1.5 + 0.5;
    let truths = plan.truths();
    let limit = Duration::from_secs_f64(per_run * (truths.len() as u64 * plan.calibration_runs) as f64 + 120.0);
    let _neighbour = Neighbour::start(condition, limit);
    let mut runs: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    let mut seconds: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for sweep in 0..plan.calibration_runs {
        for (i, &(workload, k)) in truths.iter().enumerate() {
            let name = truth_name(workload.name);
            let seed = 1_000_000 + sweep;
            let run = Run {
                name: &name,
                k,
                seed,
                budget: plan.calibration_budget,
                confirm: false,
                instructions: Instructions::Off,
            };
            let (reading, _) = run_pair(binary, scratch, &run);
            let label = condition.label();
            println!("truth ({label}) {} k={k:+} run {}: d = {:?}", workload.name, sweep + 1, reading.difference);
            runs.entry(i).or_default().extend(reading.difference);
            seconds.entry(i).or_default().extend(reading.duration_s);
        }
    }
    truths
        .iter()
        .enumerate()
        .map(|(i, &(workload, k))| {
            let values = runs.remove(&i).unwrap_or_default();
            let measured = figures::median(&values);
            let seconds = seconds.remove(&i).unwrap_or_default();
            Calibration { condition, workload: workload.name, k, measured, runs: values, seconds }
        })
        .collect()
}

/// The measured truths by condition, workload and k.
fn truths_of(calibration: &[Calibration]) -> Truths {
    calibration.iter().filter_map(|c| c.measured.map(|m| ((c.condition, c.workload, c.k), m))).collect()
}

type Key = (&'static str, i64, Parity);

/// One condition's block of trials. Trials are interleaved — trial 0 of every cell, then trial 1,
/// ... — so a slow change of the machine spreads over all cells instead of biasing a few. With
/// `counting`, each trial runs twice, with `RTCOMPARE_INSTRUCTIONS=off` and with the variable
/// unset, in an order that alternates from one trial to the next so neither side always runs
/// second; the cells keep the unset run's trials (what a user's default does), and the
/// [`Counting`] the wall times of both.
fn run_condition(
    binary: &Path,
    scratch: &Path,
    plan: &Plan,
    condition: Condition,
    counting: bool,
) -> (BTreeMap<Key, Vec<Trial>>, Option<Counting>) {
    // A trial ends within the cap of 4× its budget plus its process's start; counting under
    // valgrind adds its own start and slow calls, allowed for generously: the limit only stops a
    // neighbour that outlives a benchmark that died.
    let per_trial = (plan.budget_s() * 5.0 + 1.0) * if counting { 4.0 } else { 1.0 };
    let limit = Duration::from_secs_f64(plan.trials_per_condition() as f64 * per_trial + 300.0);
    let neighbour = Neighbour::start(condition, limit);
    let started = Instant::now();
    let mut trials: BTreeMap<Key, Vec<Trial>> = BTreeMap::new();
    let mut sides = Counting { condition, trials: 0, off_s: 0.0, default_s: 0.0 };
    let most = plan.trials_aa.max(plan.trials);
    for seed in 0..most {
        for &Spec { workload, parity, k } in plan.specs.iter().filter(|s| seed < plan.trials_for(s.k)) {
            let name = pair_name(workload.name, parity);
            let run = |instructions| Run { name: &name, k, seed, budget: plan.budget, confirm: true, instructions };
            if counting {
                let order = if seed % 2 == 0 {
                    [Instructions::Off, Instructions::Default]
                } else {
                    [Instructions::Default, Instructions::Off]
                };
                for instructions in order {
                    let t = trial(binary, scratch, &run(instructions));
                    if instructions == Instructions::Off {
                        sides.off_s += t.wall_s;
                    } else {
                        sides.default_s += t.wall_s;
                        trials.entry((workload.name, k, parity)).or_default().push(t);
                    }
                }
                sides.trials += 1;
            } else {
                let t = trial(binary, scratch, &run(Instructions::Off));
                trials.entry((workload.name, k, parity)).or_default().push(t);
            }
        }
        println!("{}: trial {}/{most} done ({:.0} s)", condition.label(), seed + 1, started.elapsed().as_secs_f64());
    }
    drop(neighbour);
    (trials, counting.then_some(sides))
}

fn to_cells(plan: &Plan, condition: Condition, trials: &BTreeMap<Key, Vec<Trial>>, truth: &Truths) -> Vec<Cell> {
    plan.specs.iter().map(|&spec| cell(spec, condition, trials, truth)).collect()
}

fn cell(spec: Spec, condition: Condition, trials: &BTreeMap<Key, Vec<Trial>>, truth: &Truths) -> Cell {
    let Spec { workload, parity, k } = spec;
    let truth = truth.get(&(condition, workload.truth_from, k)).copied();
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
        counting: Vec::new(),
        plan_targets: Vec::new(),
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
        let expected = Args {
            plan: Some("quick"),
            criterion: true,
            out: Some(PathBuf::from("x")),
            layout: None,
            conditions: None,
            counting: false,
        };
        assert_eq!(args, expected);
        let args = parse_args(&strings(&["--layout", "random"])).expect("valid");
        assert_eq!((args.layout.as_deref(), args.plan), (Some("random"), None));
        assert!(parse_args(&strings(&["--layout", "sometimes"])).is_err());
        assert!(parse_args(&strings(&["--out"])).is_err());
        assert!(parse_args(&strings(&["--quik"])).is_err());
    }

    #[test]
    fn names_the_report_after_its_plan() {
        assert_eq!(file_stem("full"), "detection");
        assert_eq!(file_stem("confirm36"), "detection-confirm36");
        assert_eq!(file_stem("quick"), "detection-quick");
    }

    #[test]
    fn parses_the_plan_the_conditions_and_counting() {
        let args = parse_args(&strings(&["--plan", "confirm36", "--conditions", "idle,bandwidth", "--counting"]))
            .expect("valid");
        assert_eq!(args.plan, Some("confirm36"));
        assert_eq!(args.conditions, Some(vec![Condition::Idle, Condition::Bandwidth]));
        assert!(args.counting);
        assert_eq!(parse_args(&strings(&["--quick", "--plan", "quick"])).map(|a| a.plan), Ok(Some("quick")));
        let two = parse_args(&strings(&["--quick", "--plan", "full"])).unwrap_err();
        assert!(two.contains("two plans"), "{two}");
        let unknown = parse_args(&strings(&["--plan", "issue36"])).unwrap_err();
        assert!(unknown.contains("quick | full | confirm36 | issue49"), "{unknown}");
        assert!(parse_args(&strings(&["--conditions", "idle,noisy"])).is_err());
        assert!(parse_args(&strings(&["--conditions"])).is_err());
    }

    #[test]
    fn neighbour_modes_parse_what_the_runner_passes() {
        let limit = Duration::from_secs(90);
        for condition in [Condition::Hog, Condition::Bandwidth] {
            let args = runner::neighbour_args(condition, limit).expect("a loaded condition has a neighbour");
            let parent = Some(std::process::id());
            let expected = match condition {
                Condition::Hog => Mode::Hog { limit, parent },
                _ => Mode::Bandwidth { limit, parent, bytes: BANDWIDTH_BYTES },
            };
            assert_eq!(neighbour_mode(&args), Some(Ok(expected)), "{args:?}");
        }
        assert_eq!(runner::neighbour_args(Condition::Idle, limit), None);
        let small = neighbour_mode(&strings(&["--bandwidth", "5", "--mib", "8"]));
        assert_eq!(small, Some(Ok(Mode::Bandwidth { limit: Duration::from_secs(5), parent: None, bytes: 8 << 20 })));
        assert!(
            matches!(neighbour_mode(&strings(&["--hog", "5", "--mib", "8"])), Some(Err(_))),
            "--mib is the neighbour's"
        );
        assert!(matches!(neighbour_mode(&strings(&["--bandwidth"])), Some(Err(_))));
        assert_eq!(neighbour_mode(&strings(&["--quick"])), None);
    }
}
