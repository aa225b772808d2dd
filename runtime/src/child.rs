//! Child processes, started in one place: the programs rtcompare runs to the end (git, cargo,
//! rustc, an optimised build of the perf binary) and the processes it watches while they measure
//! (the children of `harness/process/client.rs`: a worker, the two processes of a lock-step pair), whose
//! standard error is collected as they run, which are killed when they outlive a time limit, and
//! whose last words explain a failure.

use std::fmt;
use std::io::{self, Read};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// How many lines of a child's standard error its last words keep.
const LAST_WORDS: usize = 6;

/// Runs `command` to its end without input and returns what it printed. Its standard error is
/// captured unless the command already routes it elsewhere.
pub(crate) fn output(command: &mut Command) -> io::Result<Output> {
    command.stdin(Stdio::null()).output()
}

/// Runs `command` to its end on this process's own standard streams.
pub(crate) fn run_attached(command: &mut Command) -> io::Result<ExitStatus> {
    command.status()
}

/// A child process talked to over pipes ([`Watched::input`], [`Watched::output`]), whose
/// standard error is collected on a thread of its own, so a chatty child can never block on a
/// full pipe.
pub(crate) struct Watched {
    child: Arc<Mutex<Child>>,
    input: Option<ChildStdin>,
    output: Option<ChildStdout>,
    stderr: Option<JoinHandle<String>>,
}

impl Watched {
    /// Starts `command` with pipes for its standard input, output and error.
    pub(crate) fn start(command: &mut Command) -> io::Result<Watched> {
        let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn()?;
        let stderr = child.stderr.take();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut stderr) = stderr {
                // What could be read is kept; a broken pipe only shortens the last words.
                let _ = stderr.read_to_string(&mut text);
            }
            text
        });
        Ok(Watched {
            input: child.stdin.take(),
            output: child.stdout.take(),
            child: Arc::new(Mutex::new(child)),
            stderr: Some(reader),
        })
    }

    /// The child's standard input, once.
    pub(crate) fn input(&mut self) -> Option<ChildStdin> {
        self.input.take()
    }

    /// The child's standard output, once.
    pub(crate) fn output(&mut self) -> Option<ChildStdout> {
        self.output.take()
    }

    /// Waits for the child to end and returns how it ended with what it wrote to standard error.
    /// A child closes its standard error as it exits, so the wait for the collected text comes
    /// first, without the lock a [`Watchdog`] needs to kill the child meanwhile; only then is the
    /// child polled, briefly, for the exit status that follows.
    pub(crate) fn wait(&mut self) -> Ending {
        let stderr = self.stderr.take().and_then(|reader| reader.join().ok()).unwrap_or_default();
        let mut pause = Duration::from_micros(50);
        let status = loop {
            let polled = self.child.lock().unwrap_or_else(PoisonError::into_inner).try_wait();
            match polled {
                Ok(Some(status)) => break Some(status),
                Ok(None) => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(5));
                }
                Err(_) => break None,
            }
        };
        Ending { status, stderr }
    }

    /// Kills the child (it may have ended already).
    pub(crate) fn kill(&self) {
        kill(&self.child);
    }
}

fn kill(child: &Mutex<Child>) {
    // A child that already ended cannot be killed, which is what was wanted.
    let _ = child.lock().unwrap_or_else(PoisonError::into_inner).kill();
}

/// How a watched child ended, with what it wrote to standard error.
#[derive(Debug)]
pub(crate) struct Ending {
    status: Option<ExitStatus>,
    stderr: String,
}

impl Ending {
    /// How it ended.
    pub(crate) fn how(&self) -> How {
        match self.status {
            Some(status) => match (status.code(), signal(status)) {
                (Some(code), _) => How::Exited(code),
                (None, Some(signal)) => How::Signalled(signal),
                (None, None) => How::Abnormally,
            },
            None => How::Abnormally,
        }
    }

    /// Its last words: a panic's message without the backtrace `RUST_BACKTRACE` adds after it,
    /// else the last non-blank lines of its standard error.
    pub(crate) fn last_words(&self) -> Vec<String> {
        last_words(&self.stderr)
    }
}

/// How a child ended, in words that follow "the process": "exited with code 3".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum How {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
    /// It ended in a way this platform does not say, or could not be waited for.
    Abnormally,
}

impl fmt::Display for How {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            How::Exited(code) => write!(f, "exited with code {code}"),
            How::Signalled(signal) => write!(f, "was killed by signal {signal}"),
            How::Abnormally => write!(f, "ended abnormally"),
        }
    }
}

fn last_words(stderr: &str) -> Vec<String> {
    let lines = non_blank(stderr);
    let shown = match lines.iter().position(|l| l.contains(" panicked at ")) {
        Some(at) => lines[at..].iter().take(LAST_WORDS).take_while(|l| !l.starts_with("stack backtrace:")).collect(),
        None => lines[lines.len().saturating_sub(LAST_WORDS)..].iter().collect::<Vec<_>>(),
    };
    shown.into_iter().map(|line| (*line).to_owned()).collect()
}

/// The last `count` non-blank lines of what a program printed, joined by line breaks.
pub(crate) fn last_lines(text: &str, count: usize) -> String {
    let lines = non_blank(text);
    lines[lines.len().saturating_sub(count)..].join("\n")
}

/// What a panic said: its message, the payload of `panic!` with a message.
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)")
}

fn non_blank(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty()).collect()
}

#[cfg(unix)]
fn signal(status: ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(&status)
}

#[cfg(not(unix))]
fn signal(_status: ExitStatus) -> Option<i32> {
    None
}

/// Kills watched children that outlive a time limit.
pub(crate) struct Watchdog {
    stop: Sender<()>,
    fired: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Watchdog {
    /// Watches `children`, killing every one of them once `timeout` has passed.
    pub(crate) fn start(timeout: Duration, children: &[&Watched]) -> Watchdog {
        let children: Vec<Arc<Mutex<Child>>> = children.iter().map(|watched| Arc::clone(&watched.child)).collect();
        let fired = Arc::new(AtomicBool::new(false));
        let killed = Arc::clone(&fired);
        let (stop, stopped) = mpsc::channel::<()>();
        // It sleeps until told to stop or until the time is up, so stopping it costs nothing.
        let thread = std::thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(timeout) {
                killed.store(true, Ordering::Relaxed);
                children.iter().for_each(|child| kill(child));
            }
        });
        Watchdog { stop, fired, thread }
    }

    /// Stops watching; whether it had to kill the children.
    pub(crate) fn stop(self) -> bool {
        // A watchdog that fired has ended and dropped its receiver; nothing is left to tell.
        let _ = self.stop.send(());
        let _ = self.thread.join();
        self.fired.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_words_are_a_panic_without_its_backtrace_or_else_the_last_lines() {
        let panic = "noise\n\nthread 'main' panicked at src/lib.rs:3:5:\nboom\nstack backtrace:\n   0: x\n";
        assert_eq!(last_words(panic), ["thread 'main' panicked at src/lib.rs:3:5:", "boom"]);
        let many: String = (1..=9).map(|n| format!("line {n}\n\n")).collect();
        assert_eq!(last_words(&many), ["line 4", "line 5", "line 6", "line 7", "line 8", "line 9"]);
        assert!(last_words("").is_empty());
    }

    #[test]
    fn the_last_lines_skip_blank_ones() {
        assert_eq!(last_lines("a\n\nb\nc\n \n", 2), "b\nc");
        assert_eq!(last_lines("", 3), "");
    }

    #[test]
    fn endings_read_as_words() {
        assert_eq!(How::Exited(3).to_string(), "exited with code 3");
        assert_eq!(How::Signalled(9).to_string(), "was killed by signal 9");
        assert_eq!(How::Abnormally.to_string(), "ended abnormally");
    }

    #[cfg(unix)]
    #[test]
    fn a_watched_child_is_killed_at_its_time_limit_and_its_stderr_kept() {
        let mut command = Command::new("sh");
        // `exec`, so the killed process is the one holding the pipe (a child of `sh` would keep it open).
        command.args(["-c", "echo started >&2; exec sleep 30"]);
        let mut child = Watched::start(&mut command).expect("sh starts");
        let watchdog = Watchdog::start(Duration::from_millis(300), &[&child]);
        let ending = child.wait();
        assert!(watchdog.stop(), "the watchdog should have fired");
        assert_eq!(ending.how(), How::Signalled(9));
        assert_eq!(ending.last_words(), ["started"]);
    }

    /// A child that ends on its own is not killed, and stopping the watchdog wakes it: the
    /// test would otherwise wait out the whole minute.
    #[cfg(unix)]
    #[test]
    fn a_watchdog_stopped_before_its_limit_kills_nothing() {
        let mut command = Command::new("sh");
        command.args(["-c", "echo done >&2; exit 3"]);
        let mut child = Watched::start(&mut command).expect("sh starts");
        let watchdog = Watchdog::start(Duration::from_secs(60), &[&child]);
        let ending = child.wait();
        assert!(!watchdog.stop(), "the child ended on its own");
        assert_eq!(ending.how(), How::Exited(3));
        assert_eq!(ending.last_words(), ["done"]);
    }
}
