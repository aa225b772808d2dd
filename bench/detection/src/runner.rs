//! Building the fixture, running it, and the CPU hog.

use crate::outcome::{Outcome, Reading, Trial, read_results};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Prints `message` and exits: a benchmark that cannot run has nothing to report.
pub fn die(message: &str) -> ! {
    eprintln!("rtcompare-detection: {message}");
    std::process::exit(1)
}

/// The workspace root (two levels above this crate's manifest).
pub fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().nth(2).map(Path::to_path_buf).unwrap_or(manifest)
}

/// A `cargo` command in `dir`.
pub fn cargo(dir: &Path) -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    command.current_dir(dir);
    command
}

/// Runs a `cargo ... --message-format=json` build and returns the path of the executable it
/// reports (the last one, for a single target).
pub fn build_executable(mut command: Command, what: &str) -> PathBuf {
    command.arg("--message-format=json").stderr(Stdio::inherit());
    let output = command.output().unwrap_or_else(|e| die(&format!("could not run cargo to build {what}: {e}")));
    if !output.status.success() {
        die(&format!("building {what} failed ({})", output.status));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| die(&format!("cargo built {what} but reported no executable")))
}

/// Builds the fixture's `detection` test binary in release and returns its path.
pub fn build_fixture() -> PathBuf {
    let mut command = cargo(&root());
    command.args(["test", "--release", "-p", "rtcompare-detection-fixture", "--test", "detection", "--no-run"]);
    build_executable(command, "the fixture")
}

/// How many comparisons the fixture registers (its `--list`): the `m` its confirmation level is
/// computed from. 0 when the list cannot be read.
pub fn registered(binary: &Path) -> usize {
    Command::new(binary)
        .arg("--list")
        .stderr(Stdio::null())
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.ends_with(": test")).count())
        .unwrap_or(0)
}

/// `RTCOMPARE_LAYOUT` for every run of the fixture, from `--layout` (unset: the harness's default).
static LAYOUT: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Sets `RTCOMPARE_LAYOUT` for every later run of the fixture (the first call wins).
pub fn set_layout(layout: String) {
    let _ = LAYOUT.set(layout);
}

/// How to run one comparison of the fixture.
#[derive(Debug, Clone)]
pub struct Run<'a> {
    /// The pair's test name.
    pub name: &'a str,
    /// The injected difference in percent.
    pub k: i64,
    /// `RTCOMPARE_SEED`.
    pub seed: u64,
    /// `RTCOMPARE_TIME`.
    pub budget: &'a str,
    /// Whether a loss is confirmed in a fresh process (`RTCOMPARE_CONFIRM=0` when not).
    pub confirm: bool,
}

/// Runs one comparison with `--exact`, in `scratch` (a results file there, no git repository
/// around it to inspect), and reads its results file.
pub fn run_pair(binary: &Path, scratch: &Path, run: &Run) -> (Reading, Duration) {
    let results = scratch.join("results.json");
    let _ = std::fs::remove_file(&results);
    let mut command = Command::new(binary);
    command.args([run.name, "--exact"]).current_dir(scratch);
    // The outer environment's settings must not change what is measured.
    for (name, _) in std::env::vars() {
        if name.starts_with("RTCOMPARE_") {
            command.env_remove(name);
        }
    }
    command
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("NO_COLOR", "1")
        .env("DETECTION_K", run.k.to_string())
        .env("RTCOMPARE_RESULTS", &results)
        .env("RTCOMPARE_SEED", run.seed.to_string())
        .env("RTCOMPARE_TIME", run.budget)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if !run.confirm {
        command.env("RTCOMPARE_CONFIRM", "0");
    }
    if let Some(layout) = LAYOUT.get() {
        command.env("RTCOMPARE_LAYOUT", layout);
    }
    let started = Instant::now();
    let status = command.status();
    let wall = started.elapsed();
    if let Err(e) = status {
        die(&format!("could not run the fixture {}: {e}", binary.display()));
    }
    let reading = std::fs::read_to_string(&results)
        .map_err(|e| format!("no results file: {e}"))
        .and_then(|text| read_results(&text, run.name))
        .unwrap_or_else(|message| {
            eprintln!("  {} k={} seed={}: {message}", run.name, run.k, run.seed);
            Reading {
                outcome: Outcome::Failed,
                confirmed: None,
                difference: None,
                leaned: false,
                ratio: None,
                medians: None,
                duration_s: None,
            }
        });
    (reading, wall)
}

/// Runs one trial and keeps what the figures need.
pub fn trial(binary: &Path, scratch: &Path, run: &Run) -> Trial {
    let (reading, wall) = run_pair(binary, scratch, run);
    Trial {
        outcome: reading.outcome,
        confirmed: reading.confirmed,
        difference: reading.difference,
        leaned: reading.leaned,
        wall_s: wall.as_secs_f64(),
        duration_s: reading.duration_s,
    }
}

/// A process spinning on one core, stopped by its PID when dropped; it also ends itself after
/// `limit`, so a benchmark that dies without stopping it leaves no hog behind for long.
pub struct Hog(Child);

impl Hog {
    /// Starts this program again as `--hog <seconds>`.
    pub fn start(limit: Duration) -> Hog {
        let exe =
            std::env::current_exe().unwrap_or_else(|e| die(&format!("cannot find this program to start the hog: {e}")));
        let child = Command::new(exe)
            .args(["--hog", &limit.as_secs().to_string()])
            .spawn()
            .unwrap_or_else(|e| die(&format!("could not start the hog: {e}")));
        Hog(child)
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The hog's body: spins until `limit` has passed.
pub fn spin_for(limit: Duration) {
    let started = Instant::now();
    let mut x = 0u64;
    while started.elapsed() < limit {
        for _ in 0..1_000_000 {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
    }
}

/// A fresh scratch directory for this process's runs.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rtcompare-detection-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| die(&format!("cannot create {}: {e}", dir.display())));
    dir
}
