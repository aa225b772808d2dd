//! How often identical code is reported as a loss: runs the fixture's identical-code pairs
//! (tests/fixtures/verdicts/tests/identical.rs) through the real harness, idle and with a CPU
//! hog on another core, and counts first-round losses and confirmed losses.
//!
//! ```sh
//! cargo run --release --example false_failures              # 200 pairs, 1 s each, ~10 minutes
//! cargo run --release --example false_failures -- --quick   # 50 pairs, 300 ms each
//! ```
//!
//! Prints a Markdown table and writes it to `target/rtcompare/false-failures.md` (or the path
//! after `--out`).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a hog may live if this program dies without stopping it.
const HOG_LIMIT: Duration = Duration::from_secs(1_800);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--hog") {
        hog();
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let (pairs, time) = if quick { (50, "300ms") } else { (200, "1s") };
    let out = args
        .iter()
        .position(|a| a == "--out")
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| "target/rtcompare/false-failures.md".to_owned());
    build_fixture();
    let mut rows = Vec::new();
    for loaded in [false, true] {
        let hog = loaded.then(start_hog);
        let counts = run_pairs(pairs, time);
        if let Some(mut hog) = hog {
            // Stopped by its PID; the hog also ends itself after HOG_LIMIT.
            let _ = hog.kill();
            let _ = hog.wait();
        }
        let condition = if loaded { "CPU hog on another core" } else { "idle" };
        println!("{condition}: {counts:?}");
        rows.push((condition, counts));
    }
    let table = table(pairs, time, &rows);
    println!("\n{table}");
    if let Some(dir) = std::path::Path::new(&out).parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match std::fs::write(&out, &table) {
        Ok(()) => println!("written to {out}"),
        Err(e) => eprintln!("could not write {out}: {e}"),
    }
}

/// Counts read from one run's output.
#[derive(Debug, Default)]
struct Counts {
    measured: usize,
    first_round_losses: usize,
    confirmed_losses: usize,
    wins: usize,
    failed_tests: usize,
    wall: Duration,
}

fn cargo() -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    command.args(["test", "--release", "-p", "rtcompare-fixture-verdicts", "--test", "identical"]);
    command
}

fn build_fixture() {
    let status = cargo().arg("--no-run").status();
    if !matches!(status, Ok(s) if s.success()) {
        eprintln!("could not build the fixture: {status:?}");
        std::process::exit(1);
    }
}

fn run_pairs(pairs: usize, time: &str) -> Counts {
    let started = Instant::now();
    let mut command = cargo();
    command.arg("--").arg("copy_").env("RTCOMPARE_TIME", time).env("NO_COLOR", "1");
    // Only the first `pairs` copies: skip the rest by name.
    for skipped in pairs..200 {
        command.args(["--skip", &format!("copy_{skipped:03}_")]);
    }
    let output = command.stderr(Stdio::inherit()).output().unwrap_or_else(|e| {
        eprintln!("could not run the fixture: {e}");
        std::process::exit(1)
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut counts = Counts { wall: started.elapsed(), ..Counts::default() };
    for line in stdout.lines() {
        let line = line.trim();
        if line.starts_with("test identical::") {
            counts.measured += 1;
        }
        if line.starts_with("loss (") {
            counts.first_round_losses += 1;
        }
        if line == "loss (confirmed)" {
            counts.confirmed_losses += 1;
        }
        if line.starts_with("win (") {
            counts.wins += 1;
        }
        if line.starts_with("test identical::") && line.ends_with("FAILED") {
            counts.failed_tests += 1;
        }
    }
    counts
}

fn start_hog() -> Child {
    let exe = std::env::current_exe().unwrap_or_else(|e| {
        eprintln!("cannot find this program to start the hog: {e}");
        std::process::exit(1)
    });
    Command::new(exe).arg("--hog").spawn().unwrap_or_else(|e| {
        eprintln!("could not start the hog: {e}");
        std::process::exit(1)
    })
}

/// Spins one core until killed, or until HOG_LIMIT.
fn hog() {
    let started = Instant::now();
    let mut x = 0u64;
    while started.elapsed() < HOG_LIMIT {
        for _ in 0..1_000_000 {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
    }
}

fn table(pairs: usize, time: &str, rows: &[(&str, Counts)]) -> String {
    let mut out = format!(
        "Identical-code pairs: {pairs}, budget {time} each, `RTCOMPARE_CONFIRM` on (default).\n\n\
         | condition | pairs measured | first-round losses | confirmed losses (failed tests) | wins | wall time |\n\
         | --- | --- | --- | --- | --- | --- |\n"
    );
    for (condition, c) in rows {
        out.push_str(&format!(
            "| {condition} | {} | {} | {} ({}) | {} | {:.0} s |\n",
            c.measured,
            c.first_round_losses,
            c.confirmed_losses,
            c.failed_tests,
            c.wins,
            c.wall.as_secs_f64()
        ));
    }
    out
}
