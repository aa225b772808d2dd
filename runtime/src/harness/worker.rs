//! Measuring in a fresh process: the parent re-runs its own test binary for one comparison with
//! `RTCOMPARE_WORKER=<file>`; the worker calibrates and collects afresh and writes the samples
//! to that file, which the parent reads back and judges.
//!
//! A fresh process draws new per-process randomness — hash seeds, address layout, allocator
//! state — so a second round in a worker samples that distribution instead of repeating one
//! draw of it.

use super::Settings;
use super::error::{HarnessError, Process};
use super::protocol::{EXIT_NO_SUCH_COMPARISON, read_result};
use super::variables::{WORKER_TIME_VARIABLE, WORKER_VARIABLE};
use crate::Measured;
use crate::child::{How, Talk, Watchdog, Watched};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// What one worker process is asked to do.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WorkerRun {
    /// Seed of its round order and inputs.
    pub seed: u64,
    /// Its budget: the comparison's, or a confirmation process's share of it.
    pub budget: Duration,
    /// How long it may take before it is killed.
    pub timeout: Duration,
}

/// Runs the comparison `name` in a fresh process of this test binary, with its own seed and a
/// time limit, and returns what it measured — or why it could not.
pub(crate) fn measure_in_worker(name: &str, settings: &Settings, run: WorkerRun) -> Result<Measured, HarnessError> {
    let output = output_path();
    let result = run_worker(name, settings, run, &output).and_then(|()| read_result(&output));
    // The file is ours alone; a failed removal only leaves a stray file in the temp directory.
    let _ = std::fs::remove_file(&output);
    result
}

/// A fresh file name in the temporary directory for one worker's result.
fn output_path() -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("rtcompare-worker-{}-{n}.json", std::process::id()))
}

fn run_worker(name: &str, settings: &Settings, run: WorkerRun, output: &Path) -> Result<(), HarnessError> {
    let exe = std::env::current_exe().map_err(HarnessError::OwnBinary)?;
    let mut command = worker_command(&exe, name, settings, run, output);
    let mut child = Watched::start(&mut command, Talk::Silent).map_err(|error| HarnessError::Start {
        process: Process::Worker,
        program: exe,
        error,
    })?;
    let watchdog = Watchdog::start(run.timeout, &[&child]);
    let ending = child.wait();
    if watchdog.stop() {
        return Err(HarnessError::TimedOut { process: Process::Worker, after: run.timeout });
    }
    match ending.how() {
        _ if ending.success() => Ok(()),
        How::Exited(code) if code == i32::from(EXIT_NO_SUCH_COMPARISON) => Err(HarnessError::NotSelected),
        how => Err(HarnessError::Died { process: Process::Worker, how, last_words: ending.last_words() }),
    }
}

/// This test binary in worker mode for the comparison `name`, writing its samples to `output`.
fn worker_command(exe: &Path, name: &str, settings: &Settings, run: WorkerRun, output: &Path) -> Command {
    let mut command = Command::new(exe);
    command
        .args([name, "--exact", "--color", "never"])
        .env(WORKER_VARIABLE, output)
        .env("RTCOMPARE_SEED", run.seed.to_string())
        .env("RTCOMPARE_TIME", format!("{}ns", settings.time.as_nanos()));
    command.env(WORKER_TIME_VARIABLE, format!("{}ns", run.budget.as_nanos()));
    // The parent opted in to measuring an unoptimised build; the worker, the same binary, would
    // refuse on its own.
    if settings.debug {
        command.env("RTCOMPARE_DEBUG", "1");
    }
    command
}
