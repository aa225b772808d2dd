//! Why the harness could not measure a comparison or prepare what it is measured against: one
//! type, whose message names what failed and, where there is one, the way on.

use crate::child::How;
use crate::report::first_round_said;
use crate::stats::Outcome;
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// A process the harness starts, as its messages name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Process {
    /// A worker measuring the comparison in a fresh process of this test binary.
    Worker,
    /// This build's process of a lock-step pair.
    ThisBuild,
    /// The baseline build's process of a lock-step pair, with the revision as the user wrote it.
    Baseline(String),
    /// Both processes of a lock-step pair.
    Pair,
    /// The process counting instructions under callgrind (`counting.rs`).
    Counter,
}

impl fmt::Display for Process {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Process::Worker => write!(f, "the worker process measuring it"),
            Process::ThisBuild => write!(f, "this build's process"),
            Process::Baseline(revision) => write!(f, "the baseline build ({revision})'s process"),
            Process::Pair => write!(f, "the lock-step processes measuring it"),
            Process::Counter => write!(f, "the process counting instructions under callgrind"),
        }
    }
}

/// Why the harness could not measure a comparison, or prepare its baseline build.
#[derive(Debug)]
pub(crate) enum HarnessError {
    /// A measured function panicked in this process; its message.
    Panicked(String),
    /// The path of this test binary is unknown.
    OwnBinary(io::Error),
    /// This test binary is not where Cargo puts test binaries.
    OutsideTarget(PathBuf),
    /// A process could not be started.
    Start { process: Process, program: PathBuf, error: io::Error },
    /// Processes outlived their time limit and were killed.
    TimedOut { process: Process, after: Duration },
    /// A process ended before doing its part.
    Died { process: Process, how: How, last_words: Vec<String> },
    /// A child speaks another version of the child protocol: the version it announced, where
    /// its first message says one, and that message.
    OtherProtocol { process: Process, theirs: Option<u32>, line: String, ours: u32 },
    /// A child answered what the protocol does not allow.
    Protocol { process: Process, answer: String, request: String },
    /// A lock-step batch halted the measurement without a reason: a defect of rtcompare's.
    Halted,
    /// This build's own lock-step process does not have the comparison.
    MissingHere(String),
    /// The baseline build no longer has the comparison.
    MissingInBaseline(String),
    /// A comparison against a git revision, and no revision was given.
    NoRevision(String),
    /// git could not be run.
    NoGit(io::Error),
    /// git ran and failed.
    Git { args: String, said: String },
    /// `cargo metadata` could not be run or failed.
    Metadata(String),
    /// The test target or package is not where `cargo metadata` and git say.
    Misplaced(String),
    /// A file or folder could not be read, written or removed.
    Io { action: &'static str, path: PathBuf, error: io::Error },
    /// The package is not in a git repository.
    NotInRepository { dir: PathBuf, problem: Box<HarnessError> },
    /// git cannot resolve the revision to a commit.
    UnknownRevision { revision: String, repository: PathBuf },
    /// The baseline commit's own test target does not build either.
    BaselineBuild { commit: String, failure: BuildFailure },
    /// The baseline revision could not be prepared.
    Baseline { revision: String, problem: Box<HarnessError> },
    /// One process of a series failed.
    InSeries { what: &'static str, process: usize, count: usize, problem: Box<HarnessError> },
    /// A comparison judged on instruction counts (`metric = "instructions"`) could not be
    /// counted, and why.
    Uncounted(String),
    /// A confirmation process failed after the first round saw a difference: what the first round
    /// said, the side fresh processes were asked to confirm, and which of them failed.
    Unconfirmed { said: Outcome, side: Outcome, process: usize, problem: Box<HarnessError> },
}

/// Why a build failed: the whole message, and the compiler's first error alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BuildFailure {
    /// The command, where it ran, and its last lines.
    pub message: String,
    /// The compiler's first error, or the whole message when there is none.
    pub first_error: String,
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HarnessError::Panicked(message) => write!(f, "a measured function panicked: {message}"),
            HarnessError::OwnBinary(error) => write!(f, "cannot find this test binary: {error}"),
            HarnessError::OutsideTarget(exe) => write!(
                f,
                "this test binary ({}) is not where Cargo puts test binaries (<target>/<profile>/deps/<name>-<hash>); \
                 run it through `cargo test` or `cargo nextest run`",
                exe.display()
            ),
            HarnessError::Start { process, program, error } => {
                write!(f, "could not start {process} ({}): {error}", program.display())
            }
            HarnessError::TimedOut { process, after } => write!(
                f,
                "{process} did not finish within {after:.0?} and {} killed; raise RTCOMPARE_TIMEOUT if the comparison \
                 really takes that long",
                if *process == Process::Pair { "were" } else { "was" }
            ),
            HarnessError::Died { process, how, last_words } if last_words.is_empty() => write!(f, "{process} {how}"),
            HarnessError::Died { process, how, last_words } => {
                write!(f, "{process} {how}; its last words:\n    {}", last_words.join("\n    "))
            }
            HarnessError::OtherProtocol { process, theirs, line, ours } => {
                write!(f, "{process} speaks another version of rtcompare's child protocol (")?;
                match theirs {
                    Some(theirs) => write!(f, "version {theirs}")?,
                    None => write!(f, "it announced {line:?}")?,
                }
                write!(f, "; this build speaks version {ours}); both revisions must use the same rtcompare")
            }
            HarnessError::Protocol { process, answer, request } => {
                write!(f, "{process} answered {answer:?} to {request}")
            }
            HarnessError::Halted => write!(
                f,
                "a lock-step batch could not run, and no process said why; please report this as a bug of rtcompare"
            ),
            HarnessError::MissingHere(name) => {
                write!(f, "this build's own process does not know the comparison `{name}`")
            }
            HarnessError::MissingInBaseline(name) => {
                write!(f, "the baseline build no longer has the comparison `{name}`")
            }
            HarnessError::NoRevision(how) => {
                write!(f, "this comparison is against a git revision, and none was given: {how}")
            }
            HarnessError::NoGit(error) => write!(f, "could not run git: {error}; install git or put it on PATH"),
            HarnessError::Git { args, said } => write!(f, "git {args} said: {said}"),
            HarnessError::Metadata(why) => write!(f, "{why}"),
            HarnessError::Misplaced(why) => write!(f, "{why}"),
            HarnessError::Io { action, path, error } => write!(f, "cannot {action} {}: {error}", path.display()),
            HarnessError::NotInRepository { dir, problem } => write!(
                f,
                "comparing against a git revision needs a git repository, and {} is not in one ({problem}); run from a \
                 git checkout or unset {}",
                dir.display(),
                super::variables::BASELINE_VARIABLE
            ),
            HarnessError::UnknownRevision { revision, repository } => write!(
                f,
                "git cannot resolve `{revision}` to a commit in {}. Name a branch, tag or commit that exists there; in \
                 CI, fetch the history first (actions/checkout with `fetch-depth: 0`)",
                repository.display()
            ),
            HarnessError::BaselineBuild { commit, failure } => {
                write!(f, "the baseline (commit {commit}) does not build: {}", failure.message)
            }
            HarnessError::Baseline { revision, problem } => {
                write!(f, "{}={revision}: {problem}", super::variables::BASELINE_VARIABLE)
            }
            HarnessError::InSeries { what, process, count, problem } => {
                write!(f, "{what} {process} of {count}: {problem}")
            }
            HarnessError::Uncounted(why) => {
                write!(f, "`metric = \"instructions\"` is judged on instruction counts: {why}")
            }
            HarnessError::Unconfirmed { said, side, process, problem } => write!(
                f,
                "the first round {}, but it could not be confirmed: worker process {process}: {problem}",
                first_round_said(*said, *side)
            ),
        }
    }
}

impl std::error::Error for HarnessError {}

impl HarnessError {
    /// A failed file operation: `action` is a verb ("read", "write", "remove", "create").
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> HarnessError {
        let path = path.into();
        move |error| HarnessError::Io { action, path, error }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_process_is_named_with_how_it_ended_and_its_last_words() {
        let died = |last_words: Vec<String>| HarnessError::Died {
            process: Process::Baseline("HEAD~1".to_owned()),
            how: How::Exited(101),
            last_words,
        };
        assert_eq!(died(Vec::new()).to_string(), "the baseline build (HEAD~1)'s process exited with code 101");
        assert_eq!(
            died(vec!["a".to_owned(), "b".to_owned()]).to_string(),
            "the baseline build (HEAD~1)'s process exited with code 101; its last words:\n    a\n    b"
        );
    }

    #[test]
    fn a_time_limit_names_the_variable_that_raises_it() {
        let worker = HarnessError::TimedOut { process: Process::Worker, after: Duration::from_secs(3) };
        assert_eq!(
            worker.to_string(),
            "the worker process measuring it did not finish within 3s and was killed; raise RTCOMPARE_TIMEOUT if the \
             comparison really takes that long"
        );
        let pair = HarnessError::TimedOut { process: Process::Pair, after: Duration::from_secs(3) };
        assert!(pair.to_string().starts_with("the lock-step processes measuring it did not finish within 3s and were"));
    }

    #[test]
    fn a_confirmation_that_could_not_run_says_what_the_first_round_said() {
        let inner = HarnessError::TimedOut { process: Process::Worker, after: Duration::from_secs(3) };
        let leaned = HarnessError::Unconfirmed {
            said: Outcome::Parity,
            side: Outcome::Loss,
            process: 2,
            problem: Box::new(inner),
        };
        assert_eq!(
            leaned.to_string(),
            "the first round leaned to a loss, but it could not be confirmed: worker process 2: the worker process \
             measuring it did not finish within 3s and was killed; raise RTCOMPARE_TIMEOUT if the comparison really \
             takes that long"
        );
        let said = HarnessError::Unconfirmed {
            said: Outcome::Win,
            side: Outcome::Win,
            process: 1,
            problem: Box::new(HarnessError::Halted),
        };
        assert!(
            said.to_string().starts_with("the first round said win, but it could not be confirmed: worker process 1: ")
        );
    }

    #[test]
    fn a_series_says_which_process_failed() {
        let inner = HarnessError::Died { process: Process::Worker, how: How::Signalled(6), last_words: Vec::new() };
        let error = HarnessError::InSeries { what: "worker process", process: 2, count: 3, problem: Box::new(inner) };
        assert_eq!(error.to_string(), "worker process 2 of 3: the worker process measuring it was killed by signal 6");
    }

    #[test]
    fn another_protocol_is_named_by_its_version_or_else_by_what_was_said() {
        let other = |theirs, line: &str| HarnessError::OtherProtocol {
            process: Process::Baseline("HEAD~1".to_owned()),
            theirs,
            line: line.to_owned(),
            ours: 3,
        };
        assert_eq!(
            other(Some(2), r#"{"protocol":2}"#).to_string(),
            "the baseline build (HEAD~1)'s process speaks another version of rtcompare's child protocol (version 2; \
             this build speaks version 3); both revisions must use the same rtcompare"
        );
        assert_eq!(
            other(None, "1 ready").to_string(),
            "the baseline build (HEAD~1)'s process speaks another version of rtcompare's child protocol (it announced \
             \"1 ready\"; this build speaks version 3); both revisions must use the same rtcompare"
        );
    }
}
