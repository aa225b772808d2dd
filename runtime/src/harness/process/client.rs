//! A test process's side of the child protocol (`protocol.rs`): a child started through
//! `child.rs` to serve it (`server.rs`), its hello heard, its answers read, and, when it stops
//! answering, how it ended and its last words. A worker — a fresh process of this binary that
//! measures one plan — is [`measure_in_worker`]; a lock-step pair (`lockstep.rs`) asks two
//! children for one batch at a time.

use crate::child::{Watchdog, Watched};
use crate::harness::error::{CountingError, HarnessError, Process};
use crate::harness::plan::{ProcessPlan, TrialPlan};
use crate::harness::protocol::{self, PROTOCOL, Reply, Request, Unheard};
use crate::harness::variables::{CHILD_VARIABLE, OPTIMISED_VARIABLE};
use rtcompare_judge::Measured;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{ChildStdin, ChildStdout, Command};

/// Measures `process`, one process's plan of `plan`'s test, in a worker: a fresh process of this
/// test binary, killed when it outlives the plan's time limit.
pub(crate) fn measure_in_worker(plan: &TrialPlan<'_>, process: &ProcessPlan) -> Result<Measured, HarnessError> {
    let exe = std::env::current_exe().map_err(HarnessError::OwnBinary)?;
    let mut child = Child::start(Command::new(exe), Process::Worker, None, plan.settings.debug)?;
    let watchdog = Watchdog::start(plan.timeout, &[child.watched()]);
    let measured = child.hello().and_then(|_| child.measure(process));
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
    /// Starts `command`, a test binary with no arguments (or a program that runs one), as a
    /// child, pinned to `cpu` where one is given. `debug` passes `RTCOMPARE_DEBUG=1` on: the
    /// parent measures an unoptimised build on purpose, and the child, the same build, would
    /// refuse to on its own.
    pub(crate) fn start(
        mut command: Command,
        process: Process,
        cpu: Option<usize>,
        debug: bool,
    ) -> Result<Child, HarnessError> {
        command.env(CHILD_VARIABLE, cpu.map_or_else(|| "1".to_owned(), |cpu| format!("cpu={cpu}")));
        // A baseline built from an older rtcompare rejects a variable it does not know.
        command.env_remove(OPTIMISED_VARIABLE);
        if debug {
            command.env("RTCOMPARE_DEBUG", "1");
        }
        let mut watched = Watched::start(&mut command).map_err(|error| HarnessError::Start {
            process: process.clone(),
            program: PathBuf::from(command.get_program()),
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

    /// Asks the child, which runs under callgrind, to count as `request` (a [`Request::Count`])
    /// says: the test's loops in batches of its sizes, in its rounds, under the dump labels of its
    /// id onwards; the child's reason where it refused.
    pub(crate) fn count(&mut self, request: &Request) -> Result<Result<(), CountingError>, HarnessError> {
        let id = match request {
            Request::Count { id, .. } => Some(*id),
            _ => None,
        };
        self.ask(request, |reply| match reply {
            Reply::Counted { id: counted } if Some(counted) == id => Some(Ok(())),
            Reply::Refused { why } => Some(Err(CountingError::Refused(why))),
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::child::How;

    /// A child that runs `script` in the shell: a stand-in for a build of another rtcompare.
    fn child(script: &str) -> Child {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        Child::start(command, Process::Baseline("HEAD~1".to_owned()), None, false).expect("sh starts")
    }

    #[test]
    fn a_child_of_another_protocol_is_named_with_its_version() {
        // What a child of protocol 2 said first, after a line of a measured function's output.
        let said = r#"{"reply":"hello","protocol":2,"has_comparison":true}"#;
        let mut child = child(&format!("echo 'printed by a function'; echo '@rtcompare-lockstep {said}'; read quit"));
        let error = child.hello().expect_err("another version");
        child.finish();
        assert_eq!(
            error.to_string(),
            "the baseline build (HEAD~1)'s process speaks another version of rtcompare's child protocol (version 2; \
             this build speaks version 3); both revisions must use the same rtcompare"
        );
    }

    #[test]
    fn a_child_that_ends_before_its_hello_is_named_with_its_last_words() {
        let mut child = child("echo 'error: unknown setting' >&2; exit 2");
        let Err(HarnessError::Died { how, last_words, .. }) = child.hello() else {
            panic!("the child should have died")
        };
        assert_eq!((how, last_words), (How::Exited(2), vec!["error: unknown setting".to_owned()]));
    }

    #[test]
    fn an_answer_the_request_does_not_allow_breaks_the_protocol() {
        let hello = format!(r#"{{"reply":"hello","protocol":{PROTOCOL},"tests":["t"]}}"#);
        let total = r#"{"reply":"total","total":1}"#;
        let script =
            format!("echo '@rtcompare-lockstep {hello}'; read request; echo '@rtcompare-lockstep {total}'; read quit");
        let mut child = child(&script);
        assert_eq!(child.hello().ok(), Some(vec!["t".to_owned()]));
        let plan = ProcessPlan {
            test: "t".to_owned(),
            budget: std::time::Duration::from_secs(1),
            seed: 1,
            layout: Default::default(),
            role: rtcompare_judge::decide::Role::Fresh,
        };
        let error = child.measure(&plan).expect_err("a total is no measurement");
        child.finish();
        let message = error.to_string();
        assert!(
            message.starts_with(r#"the baseline build (HEAD~1)'s process answered "{\"reply\":\"total\",\"total\":1}" to {"request":"measure""#),
            "{message}"
        );
    }
}
