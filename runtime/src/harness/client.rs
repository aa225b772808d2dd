//! A test process's side of the child protocol (`protocol.rs`): a child started through
//! `child.rs` to serve it (`server.rs`), its hello heard, its answers read, and, when it stops
//! answering, how it ended and its last words. A worker — a fresh process of this binary that
//! measures one plan — is [`measure_in_worker`]; a lock-step pair (`lockstep.rs`) asks two
//! children for one batch at a time.

use super::error::{HarnessError, Process};
use super::plan::{ProcessPlan, TrialPlan};
use super::protocol::{self, PROTOCOL, Reply, Request, Unheard};
use super::variables::{CHILD_VARIABLE, OPTIMISED_VARIABLE};
use crate::Measured;
use crate::child::{Watchdog, Watched};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{ChildStdin, ChildStdout, Command};
use std::time::Duration;

/// Measures `plan`'s test for `budget` with the seed `seed` in a worker: a fresh process of this
/// test binary, killed when it outlives the plan's time limit.
pub(crate) fn measure_in_worker(plan: &TrialPlan<'_>, budget: Duration, seed: u64) -> Result<Measured, HarnessError> {
    let exe = std::env::current_exe().map_err(HarnessError::OwnBinary)?;
    let mut child = Child::start(&exe, Process::Worker, None, plan.settings.debug)?;
    let watchdog = Watchdog::start(plan.timeout, &[child.watched()]);
    let measured = child.hello().and_then(|_| child.measure(&plan.process(budget, seed)));
    // Under the watchdog still: a child that will not end is killed too.
    child.finish();
    let timed_out = watchdog.stop();
    match measured {
        Err(_) if timed_out => Err(HarnessError::TimedOut { process: Process::Worker, after: plan.timeout }),
        other => other,
    }
}

/// A child process serving the child protocol.
pub(crate) struct Child {
    process: Process,
    watched: Watched,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Child {
    /// Starts `program` as a child, pinned to `cpu` where one is given. `debug` passes
    /// `RTCOMPARE_DEBUG=1` on: the parent measures an unoptimised build on purpose, and the
    /// child, the same build, would refuse to on its own.
    pub(crate) fn start(
        program: &Path,
        process: Process,
        cpu: Option<usize>,
        debug: bool,
    ) -> Result<Child, HarnessError> {
        let mut command = Command::new(program);
        command.env(CHILD_VARIABLE, cpu.map_or_else(|| "1".to_owned(), |cpu| format!("cpu={cpu}")));
        // A baseline built from an older rtcompare rejects a variable it does not know.
        command.env_remove(OPTIMISED_VARIABLE);
        if debug {
            command.env("RTCOMPARE_DEBUG", "1");
        }
        let mut watched = Watched::start(&mut command).map_err(|error| HarnessError::Start {
            process: process.clone(),
            program: program.to_path_buf(),
            error,
        })?;
        let (input, output) = (watched.input(), watched.output());
        let Some(output) = output else {
            watched.kill();
            let how = watched.wait().how();
            return Err(HarnessError::Died { process, how, last_words: Vec::new() });
        };
        Ok(Child { process, watched, input, output: BufReader::new(output) })
    }

    /// The process, for a [`Watchdog`].
    pub(crate) fn watched(&self) -> &Watched {
        &self.watched
    }

    /// Reads the child's hello: the tests it has, once it is known to speak this protocol.
    pub(crate) fn hello(&mut self) -> Result<Vec<String>, HarnessError> {
        let line = self.message()?;
        protocol::hello(&line).map_err(|unheard| HarnessError::OtherProtocol {
            process: self.process.clone(),
            theirs: match unheard {
                Unheard::Version(theirs) => Some(theirs),
                Unheard::Garbled => None,
            },
            line,
            ours: PROTOCOL,
        })
    }

    /// Asks the child to measure `plan` and reads what it measured.
    pub(crate) fn measure(&mut self, plan: &ProcessPlan) -> Result<Measured, HarnessError> {
        self.ask(&Request::Measure { plan: plan.clone() }, |reply| match reply {
            Reply::Measured(measured) => Some(*measured),
            _ => None,
        })
    }

    /// Asks the child to run one batch ([`Request::Run`]) and reads its metered total.
    pub(crate) fn run(&mut self, request: &Request) -> Result<u64, HarnessError> {
        self.ask(request, |reply| match reply {
            Reply::Total { total } => Some(total),
            _ => None,
        })
    }

    /// Sends `request` and reads the answer `expected` takes; any other answer breaks the
    /// protocol.
    fn ask<T>(&mut self, request: &Request, expected: impl FnOnce(Reply) -> Option<T>) -> Result<T, HarnessError> {
        let sent = match self.input.as_mut() {
            Some(input) => protocol::write_request(input, request),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if sent.is_err() {
            return Err(self.died());
        }
        let line = self.message()?;
        serde_json::from_str::<Reply>(&line).ok().and_then(expected).ok_or_else(|| HarnessError::Protocol {
            process: self.process.clone(),
            answer: line,
            request: serde_json::to_string(request).unwrap_or_default(),
        })
    }

    /// The next message, without its prefix; the lines before it are what a measured function
    /// printed.
    fn message(&mut self) -> Result<String, HarnessError> {
        let mut line = String::new();
        loop {
            line.clear();
            match self.output.read_line(&mut line) {
                Ok(0) | Err(_) => return Err(self.died()),
                Ok(_) => {
                    if let Some(message) = protocol::message(&line) {
                        return Ok(message.to_owned());
                    }
                }
            }
        }
    }

    /// Why the child stopped answering: how it ended and its last words.
    fn died(&mut self) -> HarnessError {
        self.input = None;
        let ending = self.watched.wait();
        HarnessError::Died { process: self.process.clone(), how: ending.how(), last_words: ending.last_words() }
    }

    /// Tells the child to quit and waits for it to end.
    pub(crate) fn finish(&mut self) {
        if let Some(mut input) = self.input.take() {
            // A child that cannot be told has ended already; the wait below finds it so.
            let _ = protocol::write_request(&mut input, &Request::Quit);
        }
        self.watched.wait();
    }
}
