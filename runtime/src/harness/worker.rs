//! Measuring in a fresh process: the parent re-runs its own test binary for one comparison with
//! `RTCOMPARE_WORKER=<file>`; the worker calibrates and collects afresh and writes the samples
//! to that file, which the parent reads back and judges.
//!
//! A fresh process draws new per-process randomness — hash seeds, address layout, allocator
//! state — so a second round in a worker samples that distribution instead of repeating one
//! draw of it.

use super::Settings;
use super::protocol::{EXIT_NO_SUCH_COMPARISON, WORKER_TIME_VARIABLE, WORKER_VARIABLE, read_result};
use crate::Measured;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What one worker process is asked to do.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WorkerRun {
    /// Seed of its round order and inputs.
    pub seed: u64,
    /// Its budget, when it is not the comparison's own.
    pub budget: Option<Duration>,
    /// How long it may take before it is killed.
    pub timeout: Duration,
}

/// Runs the comparison `name` in a fresh process of this test binary, with its own seed and a
/// time limit, and returns what it measured — or why it could not.
pub(crate) fn measure_in_worker(name: &str, settings: &Settings, run: WorkerRun) -> Result<Measured, String> {
    let output = output_path();
    let result = spawn_and_wait(name, settings, run, &output).and_then(|()| read_result(&output));
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

fn spawn_and_wait(name: &str, settings: &Settings, run: WorkerRun, output: &Path) -> Result<(), String> {
    let WorkerRun { seed, budget, timeout } = run;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this test binary to start a worker: {e}"))?;
    let mut command = Command::new(exe);
    command
        .args([name, "--exact", "--color", "never"])
        .env(WORKER_VARIABLE, output)
        .env("RTCOMPARE_SEED", seed.to_string())
        .env("RTCOMPARE_TIME", format!("{}ns", settings.time.as_nanos()));
    if let Some(budget) = budget {
        command.env(WORKER_TIME_VARIABLE, format!("{}ns", budget.as_nanos()));
    }
    // The parent opted in to measuring an unoptimised build; the worker, the same binary, would
    // refuse on its own.
    if settings.debug {
        command.env("RTCOMPARE_DEBUG", "1");
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start a worker process: {e}"))?;
    // Read stderr on a thread so a chatty worker cannot block on a full pipe.
    let stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut stderr) = stderr {
            let _ = stderr.read_to_string(&mut text);
        }
        text
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "the worker process measuring it did not finish within {:.0?} and was killed; raise \
                     RTCOMPARE_TIMEOUT if the comparison really takes that long",
                    timeout
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("lost track of the worker process: {e}")),
        }
    };
    let stderr = reader.join().unwrap_or_default();
    if status.success() { Ok(()) } else { Err(describe_failure(status, &stderr)) }
}

fn describe_failure(status: ExitStatus, stderr: &str) -> String {
    let how = match (status.code(), signal(status)) {
        (Some(code), _) if code == i32::from(EXIT_NO_SUCH_COMPARISON) => {
            "exited because its command line did not select exactly this comparison".to_owned()
        }
        (Some(code), _) => format!("exited with code {code}"),
        (None, Some(signal)) => format!("was killed by signal {signal}"),
        (None, None) => "ended abnormally".to_owned(),
    };
    let tail: Vec<&str> = stderr.lines().rev().take(6).collect::<Vec<_>>().into_iter().rev().collect();
    if tail.is_empty() {
        format!("the worker process measuring it {how}")
    } else {
        format!("the worker process measuring it {how}; its last words:\n    {}", tail.join("\n    "))
    }
}

#[cfg(unix)]
fn signal(status: ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(&status)
}

#[cfg(not(unix))]
fn signal(_status: ExitStatus) -> Option<i32> {
    None
}
