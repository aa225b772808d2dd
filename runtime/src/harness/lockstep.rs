//! Measuring a function against itself at a git revision: two processes in lock-step, one of
//! this build and one of the baseline build, each running batches on command.
//!
//! The test process starts both with `RTCOMPARE_LOCKSTEP=1 <binary> <name> --exact`, and each
//! answers whether it has that comparison. The test process then runs the ordinary protocol —
//! calibration, warm-up, rounds of {candidate, candidate twin, baseline, baseline twin} in a
//! seeded random order — over arms whose batches are run by those processes: the candidate's
//! by this build's process, the baseline's by the baseline build's. Only one process runs at a
//! time, so the rounds stay interleaved and paired in time; each build is measured in a fresh
//! process of its own (no build is favoured by running in the test process), and each against
//! its own A/A twin, so what placement does to either build shows in the A/A figures. What
//! comes back is an ordinary [`Measured`], judged like any other.
//!
//! Both processes of a pair are pinned to one CPU, the one the test process was on when it
//! started them (Linux; elsewhere the scheduler places them), so that both builds run where the
//! other ran: unpinned, a loaded machine once in forty first rounds read identical code as one
//! build being much slower (`docs/evidence.md`, "Against a git revision").
//!
//! The protocol is lines of text: the process announces itself with
//! `@rtcompare-lockstep <version> ready` (or `unknown` when it has no such comparison), then
//! answers each `run <primary|twin> <copy> <iters> <seed> <metric>` with
//! `@rtcompare-lockstep <total>`, until `quit` or the end of its input. Lines without the
//! prefix (a measured function's own printing) are skipped, and so is whatever precedes it.

use super::protocol::{LOCKSTEP_VARIABLE, OPTIMISED_VARIABLE, WORKER_VARIABLE};
use super::revision::{Baseline, prepared};
use super::{Comparison, Settings};
use crate::measure::{Arm, BatchFn, Meter, Metric, PLACEMENTS};
use crate::{Measured, measure};
use libtest_mimic::Arguments;
use std::cell::RefCell;
use std::io::{BufRead, BufReader, Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The protocol's version: both builds must speak the same one.
const PROTOCOL: u32 = 1;

/// The prefix of every line the protocol sends back.
const PREFIX: &str = "@rtcompare-lockstep";

/// Lock-step mode: announce the comparison the command line names, then run batches of it on
/// command until told to quit.
pub(crate) fn serve(args: &Arguments, comparisons: &[(String, Comparison)]) -> ExitCode {
    if let Some(cpu) = std::env::var(LOCKSTEP_VARIABLE).ok().and_then(|value| value.strip_prefix("cpu=")?.parse().ok())
    {
        // Best effort: a CPU that cannot be had leaves the process where the scheduler puts it.
        pin_to(cpu);
    }
    let wanted = args.filter.as_deref().filter(|_| args.exact);
    let found = comparisons.iter().find(|(name, _)| Some(name.as_str()) == wanted).map(|(_, c)| *c);
    let mut stdout = std::io::stdout().lock();
    let status = if found.is_some() { "ready" } else { "unknown" };
    if writeln!(stdout, "{PREFIX} {PROTOCOL} {status}").and_then(|()| stdout.flush()).is_err() {
        return ExitCode::from(1);
    }
    let Some(comparison) = found else { return ExitCode::SUCCESS };
    let batches = comparison.registration.batches;
    let arg = comparison.size.unwrap_or(0);
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let command: Vec<&str> = line.split_whitespace().collect();
        let reply = match command.as_slice() {
            ["quit"] => break,
            ["run", routine, copy, iters, seed, metric] => {
                let routine: Option<[BatchFn; PLACEMENTS]> = match *routine {
                    "primary" => Some(batches.candidate),
                    "twin" => Some(batches.candidate_twin),
                    _ => None,
                };
                let batch = routine.zip(copy.parse::<usize>().ok()).and_then(|(r, k)| r.get(k).copied());
                match (batch, iters.parse::<u64>(), seed.parse::<u64>(), parse_metric(metric)) {
                    (Some(batch), Ok(iters), Ok(seed), Some(metric)) => {
                        format!("{}", batch(iters, seed, arg, Meter::new(metric)))
                    }
                    _ => format!("error cannot read the command {line:?}"),
                }
            }
            _ => format!("error unknown command {line:?}"),
        };
        if writeln!(stdout, "{PREFIX} {reply}").and_then(|()| stdout.flush()).is_err() {
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

fn parse_metric(text: &str) -> Option<Metric> {
    [Metric::Time, Metric::AllocBytes, Metric::Allocs].into_iter().find(|m| m.as_str() == text)
}

/// Measures `count` lock-step pairs of processes one after another, each with its own seed
/// derived from `seed` as for worker processes. `None` when the baseline build has no such
/// comparison: the function is new since the baseline revision.
pub(crate) fn measure_against_revision(
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    seed: u64,
    count: usize,
) -> Result<Option<Vec<Measured>>, String> {
    let Some(baseline) = prepared() else {
        return Err(format!(
            "this comparison is against a git revision, and none was given: {}",
            super::revision::how_to_run()
        ));
    };
    let budget = comparison.registration.settings.time.unwrap_or(settings.time);
    let timeout = settings.worker_timeout(budget);
    let mut all = Vec::with_capacity(count);
    for process in 0..count {
        let pair = Settings { seed: super::protocol::process_seed(seed, process), ..settings.clone() };
        match measure_pair(comparison, name, &pair, baseline, timeout) {
            Ok(Some(measured)) => all.push(measured),
            Ok(None) => return Ok(None),
            Err(why) if count > 1 => return Err(format!("lock-step pair {} of {count}: {why}", process + 1)),
            Err(why) => return Err(why),
        }
    }
    Ok(Some(all))
}

/// A failure inside a remote batch, carried out of the measuring code by unwinding (without
/// the panic hook's message) and turned back into an error.
struct Fault(String);

/// One pair: this build's process and the baseline's, measured in lock-step.
fn measure_pair(
    comparison: Comparison,
    name: &str,
    settings: &Settings,
    baseline: &Baseline,
    timeout: Duration,
) -> Result<Option<Measured>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this test binary: {e}"))?;
    let cpu = current_cpu();
    let current = Side::start(&exe, name, settings, "this build", cpu)?;
    let before =
        Side::start(&baseline.binary, name, settings, &format!("the baseline build ({})", baseline.revision), cpu)?;
    let watchdog = Watchdog::start(timeout, [current.child.clone(), before.child.clone()]);
    let (current, before) = (Rc::new(RefCell::new(current)), Rc::new(RefCell::new(before)));
    let announced = current.borrow_mut().announce().and_then(|here| Ok((here, before.borrow_mut().announce()?)));
    let result = match announced {
        Err(why) => Err(why),
        Ok((false, _)) => Err(format!("this build's own process does not know the comparison `{name}`")),
        Ok((true, false)) => Ok(None),
        Ok((true, true)) => {
            let candidate = comparison.registration.candidate;
            let options = super::options::options(comparison, name, settings);
            let arms = (
                remote_arm(candidate.to_owned(), &current),
                remote_arm(format!("{candidate} at {}", baseline.revision), &before),
            );
            match catch_unwind(AssertUnwindSafe(|| measure(arms.0, arms.1, &options))) {
                Ok(measured) => Ok(Some(measured)),
                Err(payload) => match payload.downcast::<Fault>() {
                    Ok(fault) => Err(fault.0),
                    Err(payload) => resume_unwind(payload),
                },
            }
        }
    };
    let timed_out = watchdog.stop();
    for side in [&current, &before] {
        side.borrow_mut().finish();
    }
    match result {
        Err(_) if timed_out => Err(format!(
            "the lock-step processes measuring it did not finish within {timeout:.0?} and were killed; raise \
             RTCOMPARE_TIMEOUT if the comparison really takes that long"
        )),
        other => other,
    }
}

/// An arm whose batches `side` runs: every placement copy of the primary routine and of its
/// twin forwards to the process.
fn remote_arm(name: String, side: &Rc<RefCell<Side>>) -> Arm<'static> {
    let copy = |routine: &'static str, copy: usize| {
        let side = Rc::clone(side);
        move |iters: u64, seed: u64, meter: Meter| -> u64 {
            let reply = side.borrow_mut().run(routine, copy, iters, seed, meter.metric());
            reply.unwrap_or_else(|why| resume_unwind(Box::new(Fault(why))))
        }
    };
    Arm::from_copies(
        name,
        (0..PLACEMENTS).map(|k| copy("primary", k)).collect(),
        (0..PLACEMENTS).map(|k| copy("twin", k)).collect(),
    )
}

/// One process of a lock-step pair.
struct Side {
    what: String,
    child: Arc<Mutex<Child>>,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
    stderr: Option<JoinHandle<String>>,
}

impl Side {
    fn start(exe: &Path, name: &str, settings: &Settings, what: &str, cpu: Option<usize>) -> Result<Side, String> {
        let mut command = Command::new(exe);
        let mode = cpu.map_or_else(|| "1".to_owned(), |cpu| format!("cpu={cpu}"));
        command.args([name, "--exact", "--color", "never"]).env(LOCKSTEP_VARIABLE, mode).env_remove(WORKER_VARIABLE);
        // A baseline built from an older rtcompare rejects a variable it does not know.
        command.env_remove(OPTIMISED_VARIABLE);
        if settings.debug {
            command.env("RTCOMPARE_DEBUG", "1");
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start {what}'s process ({}): {e}", exe.display()))?;
        let (input, output, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let Some(output) = output else {
            let _ = child.kill();
            return Err(format!("could not read from {what}'s process"));
        };
        // Read stderr on a thread so a chatty process cannot block on a full pipe.
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut stderr) = stderr {
                let _ = stderr.read_to_string(&mut text);
            }
            text
        });
        Ok(Side {
            what: what.to_owned(),
            child: Arc::new(Mutex::new(child)),
            input,
            output: BufReader::new(output),
            stderr: Some(stderr),
        })
    }

    /// Reads the announcement: whether the process has the comparison.
    fn announce(&mut self) -> Result<bool, String> {
        let line = self.reply()?;
        let mut words = line.split_whitespace();
        match (words.next().map(str::parse::<u32>), words.next()) {
            (Some(Ok(PROTOCOL)), Some("ready")) => Ok(true),
            (Some(Ok(PROTOCOL)), Some("unknown")) => Ok(false),
            _ => Err(format!(
                "{} speaks another version of rtcompare's lock-step protocol ({line:?}, this build speaks {PROTOCOL}); \
                 both revisions must use the same rtcompare",
                self.what
            )),
        }
    }

    fn run(&mut self, routine: &str, copy: usize, iters: u64, seed: u64, metric: Metric) -> Result<u64, String> {
        let command = format!("run {routine} {copy} {iters} {seed} {}\n", metric.as_str());
        let sent = self.input.as_mut().map(|input| input.write_all(command.as_bytes()).and_then(|()| input.flush()));
        if !matches!(sent, Some(Ok(()))) {
            return Err(self.died());
        }
        let line = self.reply()?;
        line.parse::<u64>().map_err(|_| format!("{} answered {line:?} to {:?}", self.what, command.trim()))
    }

    /// The next protocol line, without its prefix.
    fn reply(&mut self) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            match self.output.read_line(&mut line) {
                Ok(0) | Err(_) => return Err(self.died()),
                Ok(_) => {
                    // After whatever a measured function printed without a line break.
                    if let Some(at) = line.find(PREFIX) {
                        return Ok(line[at + PREFIX.len()..].trim().to_owned());
                    }
                }
            }
        }
    }

    /// Why the process stopped answering: how it ended and its last words.
    fn died(&mut self) -> String {
        self.input = None;
        let status = self.child.lock().map(|mut child| child.wait()).ok().and_then(Result::ok);
        let stderr = self.stderr.take().and_then(|reader| reader.join().ok()).unwrap_or_default();
        let how = match status.and_then(|s| s.code()) {
            Some(code) => format!("exited with code {code}"),
            None => "was killed".to_owned(),
        };
        let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
        // A panic's message, without the backtrace RUST_BACKTRACE may add after it; else the
        // last lines.
        let shown = match lines.iter().position(|l| l.contains(" panicked at ")) {
            Some(at) => {
                lines[at..].iter().take(6).take_while(|l| !l.starts_with("stack backtrace:")).copied().collect()
            }
            None => lines[lines.len().saturating_sub(6)..].to_vec(),
        };
        let tail = shown.join("\n    ");
        if tail.is_empty() {
            format!("{}'s process {how}", self.what)
        } else {
            format!("{}'s process {how}; its last words:\n    {tail}", self.what)
        }
    }

    /// Tells the process to quit and waits for it.
    fn finish(&mut self) {
        if let Some(mut input) = self.input.take() {
            let _ = input.write_all(b"quit\n");
        }
        if let Ok(mut child) = self.child.lock() {
            let _ = child.wait();
        }
        if let Some(reader) = self.stderr.take() {
            let _ = reader.join();
        }
    }
}

/// Kills both processes of a pair when they outlive the time limit.
struct Watchdog {
    done: Arc<AtomicBool>,
    fired: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Watchdog {
    fn start(timeout: Duration, children: [Arc<Mutex<Child>>; 2]) -> Watchdog {
        let (done, fired) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        let (stop, killed) = (Arc::clone(&done), Arc::clone(&fired));
        let thread = std::thread::spawn(move || {
            let deadline = Instant::now() + timeout;
            while !stop.load(Ordering::Relaxed) {
                if Instant::now() >= deadline {
                    killed.store(true, Ordering::Relaxed);
                    for child in &children {
                        if let Ok(mut child) = child.lock() {
                            let _ = child.kill();
                        }
                    }
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        Watchdog { done, fired, thread }
    }

    /// Stops watching; whether it had to kill the processes.
    fn stop(self) -> bool {
        self.done.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
        self.fired.load(Ordering::Relaxed)
    }
}

/// The CPU this thread is running on (field 39 of `/proc/thread-self/stat`), where Linux tells.
fn current_cpu() -> Option<usize> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may contain spaces; the
    // processor is the 39th field overall, the 37th after the name.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(36)?.parse().ok()
}

/// Pins the calling thread to `cpu`; false when that is not possible.
#[cfg(target_os = "linux")]
fn pin_to(cpu: usize) -> bool {
    /// `cpu_set_t`: 1,024 bits.
    const WORDS: usize = 16;
    unsafe extern "C" {
        fn sched_setaffinity(pid: i32, size: usize, mask: *const u64) -> i32;
    }
    if cpu >= WORDS * 64 {
        return false;
    }
    let mut mask = [0u64; WORDS];
    mask[cpu / 64] = 1 << (cpu % 64);
    // SAFETY: `mask` is a live, initialised `cpu_set_t`-sized buffer (1,024 bits) for the whole
    // call, and `size` is its size in bytes; pid 0 names the calling thread. The call only
    // reads the mask and changes this thread's scheduling, nothing Rust relies on.
    unsafe { sched_setaffinity(0, std::mem::size_of_val(&mask), mask.as_ptr()) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn pin_to(_cpu: usize) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_can_be_pinned_to_the_cpu_it_is_on() {
        // In a thread of its own, so the test's other threads keep their CPUs.
        let pinned = std::thread::spawn(|| match current_cpu() {
            Some(cpu) => pin_to(cpu) && current_cpu() == Some(cpu),
            None => !cfg!(target_os = "linux"),
        });
        assert_eq!(pinned.join().ok(), Some(true));
    }

    #[test]
    fn metrics_are_read_by_name() {
        for metric in [Metric::Time, Metric::AllocBytes, Metric::Allocs] {
            assert_eq!(parse_metric(metric.as_str()), Some(metric));
        }
        assert_eq!(parse_metric("seconds"), None);
    }
}
