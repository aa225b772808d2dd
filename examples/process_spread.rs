//! The verdict's spread over repeated runs when per-process randomness moves the timings:
//! identical code whose speed depends on the process's `HashMap` seed
//! (tests/fixtures/verdicts/tests/seeded.rs), judged from one process and from several pooled
//! processes (`RTCOMPARE_PROCESSES`). Confirmation is off so each run's first verdict shows.
//!
//! ```sh
//! cargo run --release --example process_spread              # 8 runs each
//! cargo run --release --example process_spread -- --runs 3  # quicker
//! ```
//!
//! Prints a Markdown table and writes it to `target/rtcompare/process-spread.md`.

use std::process::Command;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize =
        args.iter().position(|a| a == "--runs").and_then(|i| args.get(i + 1)).and_then(|n| n.parse().ok()).unwrap_or(8);
    let dir = std::env::temp_dir().join(format!("rtcompare-process-spread-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        std::process::exit(1);
    }
    let mut table = format!(
        "Identical code, per-process `HashMap` seeds decide its speed; {runs} runs per setting, budget 300 ms, \
         confirmation off.\n\n| processes | run | difference d [95 % interval] | verdict |\n| --- | --- | --- | --- |\n"
    );
    let mut summary = String::new();
    for processes in [1, 4] {
        let mut outcomes = Vec::new();
        for run in 1..=runs {
            let results = dir.join(format!("p{processes}-r{run}.json"));
            let (d, low, high, outcome) = run_once(processes, run, &results);
            println!(
                "processes {processes}, run {run}: d {:+.2} % [{:+.2} %, {:+.2} %] {outcome}",
                d * 100.0,
                low * 100.0,
                high * 100.0
            );
            table.push_str(&format!(
                "| {processes} | {run} | {:+.2} % [{:+.2} %, {:+.2} %] | {outcome} |\n",
                d * 100.0,
                low * 100.0,
                high * 100.0
            ));
            outcomes.push(outcome);
        }
        let count = |word: &str| outcomes.iter().filter(|o| o.starts_with(word)).count();
        summary.push_str(&format!(
            "- {processes} process{}: {} wins, {} losses, {} parity out of {runs} runs of identical code\n",
            if processes == 1 { "" } else { "es" },
            count("win"),
            count("loss"),
            count("parity")
        ));
    }
    table.push('\n');
    table.push_str(&summary);
    println!("\n{table}");
    let out = "target/rtcompare/process-spread.md";
    let _ = std::fs::create_dir_all("target/rtcompare");
    match std::fs::write(out, &table) {
        Ok(()) => println!("written to {out}"),
        Err(e) => eprintln!("could not write {out}: {e}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the fixture once and reads the difference, its interval and the verdict from the
/// results file.
fn run_once(processes: usize, run: usize, results: &std::path::Path) -> (f64, f64, f64, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args(["test", "-q", "--release", "-p", "rtcompare-fixture-verdicts", "--test", "seeded"])
        .env("RTCOMPARE_PROCESSES", processes.to_string())
        .env("RTCOMPARE_CONFIRM", "0")
        .env("RTCOMPARE_TIME", "300ms")
        .env("RTCOMPARE_SEED", run.to_string())
        .env("RTCOMPARE_RESULTS", results)
        .stdout(std::process::Stdio::null())
        .status();
    if status.is_err() {
        eprintln!("could not run the fixture: {status:?}");
        std::process::exit(1);
    }
    let text = std::fs::read_to_string(results).unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let comparison = &json["comparisons"][0];
    let number = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
    let verdict = &comparison["verdict"];
    let outcome = format!(
        "{} ({})",
        verdict["outcome"].as_str().unwrap_or("?"),
        if verdict["resolved"].as_bool() == Some(true) { "resolved" } else { "inconclusive" }
    );
    let estimate = &comparison["first"]["estimate"];
    (number(&estimate["difference"]), number(&estimate["low"]), number(&estimate["high"]), outcome)
}
