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
//! The messages are the typed [`Request`] and [`Reply`] of `protocol.rs`, one JSON object a
//! line; what the processes print starts with a prefix, so a measured function's own printing
//! (lines without it, and whatever precedes it) is skipped.

use super::error::{HarnessError, Process};
use super::plan::TrialPlan;
use super::protocol::{LOCKSTEP_PREFIX, LOCKSTEP_PROTOCOL, Reply, Request, Twin};
use super::revision::{Baseline, how_to_run, prepared};
use super::variables::{LOCKSTEP_VARIABLE, OPTIMISED_VARIABLE, WORKER_VARIABLE};
use super::{Comparison, Settings};
use crate::child::{Talk, Watchdog, Watched};
use crate::measure::{Arm, Halt, Meter, PLACEMENTS};
use crate::{Measured, Options, try_measure};
use libtest_mimic::Arguments;
use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, ChildStdout, Command, ExitCode};
use std::rc::Rc;
use std::time::Duration;

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
    let hello = Reply::Hello { protocol: LOCKSTEP_PROTOCOL, has_comparison: found.is_some() };
    if send(&mut stdout, &hello).is_err() {
        return ExitCode::from(1);
    }
    let Some(comparison) = found else { return ExitCode::SUCCESS };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let reply = match serde_json::from_str::<Request>(&line) {
            Ok(Request::Quit) => break,
            Ok(Request::Run { routine, copy, iters, seed, metric }) => {
                let batches = comparison.registration.batches;
                let copies = match routine {
                    Twin::Primary => batches.candidate,
                    Twin::Twin => batches.candidate_twin,
                };
                match copies.get(copy) {
                    Some(batch) => {
                        Reply::Total { total: batch(iters, seed, comparison.size.unwrap_or(0), Meter::new(metric)) }
                    }
                    None => Reply::Refused { why: format!("there is no placement copy {copy}") },
                }
            }
            Err(error) => Reply::Refused { why: format!("cannot read the request {line:?}: {error}") },
        };
        if send(&mut stdout, &reply).is_err() {
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

/// Writes one message as a line after the prefix, and flushes it.
fn send(out: &mut impl Write, message: &impl serde::Serialize) -> std::io::Result<()> {
    let json = serde_json::to_string(message).map_err(std::io::Error::from)?;
    writeln!(out, "{LOCKSTEP_PREFIX} {json}").and_then(|()| out.flush())
}

/// Measures one lock-step pair of processes for `budget` with the seed `seed`. `None` when the
/// baseline build has no such comparison: the function is new since the baseline revision.
pub(crate) fn measure_against_revision(
    plan: &TrialPlan<'_>,
    seed: u64,
    budget: Duration,
) -> Result<Option<Measured>, HarnessError> {
    let Some(baseline) = prepared() else { return Err(HarnessError::NoRevision(how_to_run())) };
    measure_pair(plan, baseline, plan.options(budget, seed))
}

/// One pair: this build's process and the baseline's, measured in lock-step with `options`.
fn measure_pair(plan: &TrialPlan<'_>, baseline: &Baseline, options: Options) -> Result<Option<Measured>, HarnessError> {
    let (name, settings, timeout) = (plan.name, plan.settings, plan.timeout);
    let exe = std::env::current_exe().map_err(HarnessError::OwnBinary)?;
    let cpu = current_cpu();
    let current = Side::start(&exe, name, settings, Process::ThisBuild, cpu)?;
    let before = Side::start(&baseline.binary, name, settings, Process::Baseline(baseline.revision.clone()), cpu)?;
    let watchdog = Watchdog::start(timeout, &[&current.child, &before.child]);
    let (current, before) = (Rc::new(RefCell::new(current)), Rc::new(RefCell::new(before)));
    let announced = current.borrow_mut().announce().and_then(|here| Ok((here, before.borrow_mut().announce()?)));
    let result = match announced {
        Err(problem) => Err(problem),
        Ok((false, _)) => Err(HarnessError::MissingHere(name.to_owned())),
        Ok((true, false)) => Ok(None),
        Ok((true, true)) => {
            let candidate = plan.comparison.registration.candidate;
            let arms = (
                remote_arm(candidate.to_owned(), &current),
                remote_arm(format!("{candidate} at {}", baseline.revision), &before),
            );
            try_measure(arms.0, arms.1, &options).map(Some).map_err(|Halt| {
                // The side whose batch halted the measurement kept why.
                let failure = [&current, &before].into_iter().find_map(|side| side.borrow_mut().failure.take());
                failure.unwrap_or(HarnessError::Halted)
            })
        }
    };
    let timed_out = watchdog.stop();
    for side in [&current, &before] {
        side.borrow_mut().finish();
    }
    match result {
        Err(_) if timed_out => Err(HarnessError::TimedOut { process: Process::Pair, after: timeout }),
        other => other,
    }
}

/// An arm whose batches `side` runs: every placement copy of the primary routine and of its
/// twin forwards to the process.
fn remote_arm(name: String, side: &Rc<RefCell<Side>>) -> Arm<'static> {
    let copy = |routine: Twin, copy: usize| {
        let side = Rc::clone(side);
        move |iters: u64, seed: u64, meter: Meter| -> Result<u64, Halt> {
            let request = Request::Run { routine, copy, iters, seed, metric: meter.metric() };
            let mut side = side.borrow_mut();
            side.run(&request).map_err(|problem| {
                side.failure = Some(problem);
                Halt
            })
        }
    };
    Arm::from_copies(
        name,
        (0..PLACEMENTS).map(|k| copy(Twin::Primary, k)).collect(),
        (0..PLACEMENTS).map(|k| copy(Twin::Twin, k)).collect(),
    )
}

/// One process of a lock-step pair.
struct Side {
    process: Process,
    child: Watched,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
    /// Why its batch halted the measurement, once one did.
    failure: Option<HarnessError>,
}

impl Side {
    fn start(
        exe: &Path,
        name: &str,
        settings: &Settings,
        process: Process,
        cpu: Option<usize>,
    ) -> Result<Side, HarnessError> {
        let mut command = Command::new(exe);
        let mode = cpu.map_or_else(|| "1".to_owned(), |cpu| format!("cpu={cpu}"));
        command.args([name, "--exact", "--color", "never"]).env(LOCKSTEP_VARIABLE, mode).env_remove(WORKER_VARIABLE);
        // A baseline built from an older rtcompare rejects a variable it does not know.
        command.env_remove(OPTIMISED_VARIABLE);
        if settings.debug {
            command.env("RTCOMPARE_DEBUG", "1");
        }
        let mut child = Watched::start(&mut command, Talk::Piped).map_err(|error| HarnessError::Start {
            process: process.clone(),
            program: exe.to_path_buf(),
            error,
        })?;
        let (input, output) = (child.input(), child.output());
        let Some(output) = output else {
            child.kill();
            let how = child.wait().how();
            return Err(HarnessError::Died { process, how, last_words: Vec::new() });
        };
        Ok(Side { process, child, input, output: BufReader::new(output), failure: None })
    }

    /// Reads the announcement: whether the process has the comparison.
    fn announce(&mut self) -> Result<bool, HarnessError> {
        let line = self.reply()?;
        match serde_json::from_str::<Reply>(&line) {
            Ok(Reply::Hello { protocol: LOCKSTEP_PROTOCOL, has_comparison }) => Ok(has_comparison),
            _ => Err(HarnessError::OtherProtocol { process: self.process.clone(), line, ours: LOCKSTEP_PROTOCOL }),
        }
    }

    /// Sends one request to run a batch and reads the metered total.
    fn run(&mut self, request: &Request) -> Result<u64, HarnessError> {
        let sent = match self.input.as_mut() {
            Some(input) => send_request(input, request),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if sent.is_err() {
            return Err(self.died());
        }
        let line = self.reply()?;
        match serde_json::from_str::<Reply>(&line) {
            Ok(Reply::Total { total }) => Ok(total),
            _ => Err(HarnessError::Protocol {
                process: self.process.clone(),
                answer: line,
                request: serde_json::to_string(request).unwrap_or_default(),
            }),
        }
    }

    /// The next protocol line, without its prefix.
    fn reply(&mut self) -> Result<String, HarnessError> {
        let mut line = String::new();
        loop {
            line.clear();
            match self.output.read_line(&mut line) {
                Ok(0) | Err(_) => return Err(self.died()),
                Ok(_) => {
                    // After whatever a measured function printed without a line break.
                    if let Some(at) = line.find(LOCKSTEP_PREFIX) {
                        return Ok(line[at + LOCKSTEP_PREFIX.len()..].trim().to_owned());
                    }
                }
            }
        }
    }

    /// Why the process stopped answering: how it ended and its last words.
    fn died(&mut self) -> HarnessError {
        self.input = None;
        let ending = self.child.wait();
        HarnessError::Died { process: self.process.clone(), how: ending.how(), last_words: ending.last_words() }
    }

    /// Tells the process to quit and waits for it.
    fn finish(&mut self) {
        if let Some(mut input) = self.input.take() {
            // A process that cannot be told has ended already; the wait below finds it so.
            let _ = send_request(&mut input, &Request::Quit);
        }
        self.child.wait();
    }
}

/// Writes one request as a line, and flushes it.
fn send_request(input: &mut ChildStdin, request: &Request) -> std::io::Result<()> {
    let json = serde_json::to_string(request).map_err(std::io::Error::from)?;
    writeln!(input, "{json}").and_then(|()| input.flush())
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
}
