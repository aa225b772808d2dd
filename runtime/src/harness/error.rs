//! Why the harness could not measure a comparison or prepare what it is measured against, and
//! why it did not count a comparison's instructions: one type each, whose message names what
//! failed and, where there is one, the way on.
//!
//! Of [`CountingError`]'s messages, those beginning `not counted:` are about one comparison (the
//! counting process goes on); those beginning `instructions not counted:` are about the counting
//! process or the run.

use crate::child::How;
use crate::instructions::per_call::NotCounted;
use crate::instructions::profile::FormatError;
use crate::instructions::valgrind::Failure;
use rtcompare_judge::stats::Outcome;
use rtcompare_report::first_round_said;
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;
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
    /// The process of a lock-step pair of this binary that enters the test it names.
    Entering(String),
    /// Both processes of a lock-step pair.
    Pair,
    /// A process counting instructions under callgrind (`counting/process.rs`).
    Counting,
}

impl fmt::Display for Process {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Process::Worker => write!(f, "the worker process measuring it"),
            Process::ThisBuild => write!(f, "this build's process"),
            Process::Baseline(revision) => write!(f, "the baseline build ({revision})'s process"),
            Process::Entering(test) => write!(f, "the process measuring `{test}`"),
            Process::Pair => write!(f, "the lock-step processes measuring it"),
            Process::Counting => write!(f, "the process counting instructions under callgrind"),
        }
    }
}

/// Why the harness could not measure a comparison, or prepare its baseline build.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HarnessError {
    /// A measured function panicked in this process; its message.
    #[error("a measured function panicked: {0}")]
    Panicked(String),
    /// The path of this test binary is unknown.
    #[error("cannot find this test binary: {0}")]
    OwnBinary(#[source] io::Error),
    /// This test binary is not where Cargo puts test binaries.
    #[error(
        "this test binary ({0}) is not where Cargo puts test binaries (<target>/<profile>/deps/<name>-<hash>); run it \
         through `cargo test` or `cargo nextest run`"
    )]
    OutsideTarget(PathBuf),
    /// A process could not be started.
    #[error("could not start {process} ({program}): {error}")]
    Start {
        process: Process,
        program: PathBuf,
        #[source]
        error: io::Error,
    },
    /// Processes outlived their time limit and were killed.
    #[error(
        "{process} did not finish within {after:.0?} and {} killed; raise RTCOMPARE_TIMEOUT if the comparison really \
         takes that long",
        if *.process == Process::Pair { "were" } else { "was" }
    )]
    TimedOut { process: Process, after: Duration },
    /// A process ended before doing its part.
    #[error(fmt = died)]
    Died { process: Process, how: How, last_words: Vec<String> },
    /// A child speaks another version of the child protocol: the version it announced, where
    /// its first message says one, and that message.
    #[error(fmt = other_protocol)]
    OtherProtocol { process: Process, theirs: Option<u32>, line: String, ours: u32 },
    /// A child answered what the protocol does not allow.
    #[error("{process} answered {answer:?} to {request}")]
    Protocol { process: Process, answer: String, request: String },
    /// A lock-step batch halted the measurement without a reason: a defect of rtcompare's.
    #[error("a lock-step batch could not run, and no process said why; please report this as a bug of rtcompare")]
    Halted,
    /// This build's own lock-step process does not have the comparison.
    #[error("this build's own process does not know the comparison `{0}`")]
    MissingHere(String),
    /// The baseline build no longer has the comparison.
    #[error("the baseline build no longer has the comparison `{0}`")]
    MissingInBaseline(String),
    /// A comparison against a git revision, and no revision was given.
    #[error("this comparison is against a git revision, and none was given: {0}")]
    NoRevision(String),
    /// git could not be run.
    #[error("could not run git: {0}; install git or put it on PATH")]
    NoGit(#[source] io::Error),
    /// git ran and failed.
    #[error("git {args} said: {said}")]
    Git { args: String, said: String },
    /// Cargo could not be started.
    #[error("cargo could not be run ({}: {error}); put cargo on PATH or set CARGO", .program.display())]
    NoCargo {
        program: PathBuf,
        #[source]
        error: io::Error,
    },
    /// `cargo metadata` failed, or said what is not a package here.
    #[error("{0}")]
    Metadata(String),
    /// The test target or package is not where `cargo metadata` and git say.
    #[error("{0}")]
    Misplaced(String),
    /// A file or folder could not be read, written or removed.
    #[error("cannot {action} {path}: {error}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        error: io::Error,
    },
    /// The package is not in a git repository.
    #[error(
        "comparing against a git revision needs a git repository, and {dir} is not in one ({problem}); run from a git \
         checkout or unset {}",
        super::variables::BASELINE_VARIABLE
    )]
    NotInRepository {
        dir: PathBuf,
        #[source]
        problem: Box<HarnessError>,
    },
    /// git cannot resolve the revision to a commit.
    #[error(
        "git cannot resolve `{revision}` to a commit in {repository}. Name a branch, tag or commit that exists there; \
         in CI, fetch the history first (actions/checkout with `fetch-depth: 0`)"
    )]
    UnknownRevision { revision: String, repository: PathBuf },
    /// The baseline does not build: why the current perf target did not, first, and why the
    /// revision's own did not, where that was tried.
    #[error(fmt = baseline_build)]
    BaselineBuild { commit: String, failure: Box<BuildFailure>, fallback: Option<Box<BuildFailure>> },
    /// This test target does not build with the flags both sides of a comparison against a
    /// revision are built with.
    #[error(
        "this test target, built again with its code aligned as the baseline's is (docs/placement.md's recipe added \
         to its own rustflags), does not build: {}{}",
        .0.message,
        if .0.cause == BuildCause::DiskFull { DISK_FULL } else { "" }
    )]
    AlignedBuild(Box<BuildFailure>),
    /// The baseline revision could not be prepared.
    #[error("{}={revision}: {problem}", super::variables::BASELINE_VARIABLE)]
    Baseline {
        revision: String,
        #[source]
        problem: Box<HarnessError>,
    },
    /// One process of a series failed.
    #[error("{what} {process} of {count}: {problem}")]
    InSeries {
        what: &'static str,
        process: usize,
        count: usize,
        #[source]
        problem: Box<HarnessError>,
    },
    /// A comparison judged on instruction counts (`metric = "instructions"`) could not be
    /// counted, and why.
    #[error("`metric = \"instructions\"` is judged on instruction counts: {0}")]
    Uncounted(#[source] CountingError),
    /// A confirmation process failed after the first round saw a difference: what the first round
    /// said, the side fresh processes were asked to confirm, and which of them failed.
    #[error(
        "the first round {}, but it could not be confirmed: worker process {process}: {problem}",
        first_round_said(*.said, *.side)
    )]
    Unconfirmed {
        said: Outcome,
        side: Outcome,
        process: usize,
        #[source]
        problem: Box<HarnessError>,
    },
}

/// Why a build failed: the whole message, and the compiler's first error alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BuildFailure {
    /// The command, where it ran, and Cargo's error.
    pub message: String,
    /// The first line of Cargo's error, or the whole message when there is none.
    pub first_error: String,
    /// What failed.
    pub cause: BuildCause,
}

/// What of a baseline build failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BuildCause {
    /// Cargo could not start building: it could not be run, or the manifest is wrong.
    Cargo,
    /// The package's library (or a dependency) does not build.
    Library,
    /// The library built and the perf target did not: it uses what the library lacks. Whether
    /// the revision has a perf target of its own, which can be measured instead.
    Target { revision_has_own: bool },
    /// The disk filled up while building.
    DiskFull,
}

/// What to do about a build that failed because the disk is full.
const DISK_FULL: &str = "\nThe disk is full: free some space (old target folders, or another CARGO_TARGET_DIR) and run \
                         again; a comparison against a revision builds this target twice more, in \
                         <target>/rtcompare-baseline";

impl BuildFailure {
    /// Whether the revision's own perf target can be measured instead.
    pub(crate) fn falls_back(&self) -> bool {
        self.cause == BuildCause::Target { revision_has_own: true }
    }
}

/// [`HarnessError::BaselineBuild`]'s message: Cargo's first error comes first, then what to do.
fn baseline_build(
    commit: &str,
    failure: &BuildFailure,
    fallback: &Option<Box<BuildFailure>>,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    write!(f, "the baseline (commit {commit}) does not build: {}", failure.message)?;
    if let Some(own) = fallback {
        write!(f, "\nnor does that commit's own perf target: {}", own.message)?;
    }
    match failure.cause {
        BuildCause::Cargo => Ok(()),
        BuildCause::DiskFull => f.write_str(DISK_FULL),
        BuildCause::Library => write!(
            f,
            "\nThat commit's library does not build here (with this toolchain and these features): compare against \
             a revision whose library builds"
        ),
        BuildCause::Target { revision_has_own } => write!(
            f,
            "\nThe current perf target uses what that commit's library lacks{}: compare against a later revision",
            if revision_has_own { "" } else { ", and the commit has no perf target of its own to measure instead" }
        ),
    }
}

/// [`HarnessError::Died`]'s message: the process, how it ended, and its last words if it had any.
fn died(process: &Process, how: &How, last_words: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if last_words.is_empty() {
        write!(f, "{process} {how}")
    } else {
        write!(f, "{process} {how}; its last words:\n    {}", last_words.join("\n    "))
    }
}

/// [`HarnessError::OtherProtocol`]'s message: the version the child announced, or else what it
/// said.
fn other_protocol(
    process: &Process,
    theirs: &Option<u32>,
    line: &str,
    ours: &u32,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    write!(f, "{process} speaks another version of rtcompare's child protocol (")?;
    match theirs {
        Some(theirs) => write!(f, "version {theirs}")?,
        None => write!(f, "it announced {line:?}")?,
    }
    write!(f, "; this build speaks version {ours}); both revisions must use the same rtcompare")
}

impl HarnessError {
    /// A failed file operation: `action` is a verb ("read", "write", "remove", "create").
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> HarnessError {
        let path = path.into();
        move |error| HarnessError::Io { action, path, error }
    }
}

/// Why instructions were not counted.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CountingError {
    /// `RTCOMPARE_INSTRUCTIONS=off`, and a pair is judged on instruction counts.
    #[error("RTCOMPARE_INSTRUCTIONS=off turns counting off; unset it, or set it to `callgrind`")]
    Off,
    /// No comparison selected for this run is counted, so counting was not prepared: never a
    /// comparison's reason, since a comparison that is counted makes the run prepare it.
    #[error("instructions not counted: no comparison selected for this run counts them, so counting was not prepared")]
    Unprepared,
    /// `RTCOMPARE_INSTRUCTIONS=callgrind`, and valgrind cannot count here: the run stops.
    #[error("{0} (RTCOMPARE_INSTRUCTIONS=callgrind requires counting)")]
    Required(#[source] Failure),
    /// Valgrind cannot count here, or a counting process ended under it, as valgrind said.
    #[error(transparent)]
    Valgrind(#[from] Failure),
    /// Counting stopped earlier in this run, for this reason, said once then: nothing more is
    /// counted.
    #[error(transparent)]
    Stopped(Arc<CountingError>),
    /// Counted beside time, and the pair measures another metric.
    #[error("instructions are counted beside time, and this pair measures `{metric}`")]
    OtherMetric { metric: &'static str },
    /// A call is too slow to count within the comparison's time budget.
    #[error(
        "not counted: a call takes {per_call}, so counting its {calls} calls would take about {:.1} s under \
         callgrind, over this comparison's limit of {:.1} s (its time budget; `time = \"...\"` or RTCOMPARE_TIME \
         raise it)",
        .cost.as_secs_f64(),
        .limit.as_secs_f64()
    )]
    TooSlow { per_call: String, calls: u64, cost: Duration, limit: Duration },
    /// The count gave no round.
    #[error("not counted: no round was counted")]
    NoRound,
    /// The baseline build of a comparison against a git revision has no such comparison.
    #[error("not counted: the baseline build has no such comparison")]
    NewInBaseline,
    /// The baseline build had the comparison a moment ago, and its counting process now has none.
    #[error("the baseline build no longer has the comparison")]
    GoneFromBaseline,
    /// This build's counting process has no such comparison.
    #[error("not counted: this build has no comparison `{0}`")]
    MissingHere(String),
    /// The counting process refused the count, and why (a [`Reply::Refused`]).
    ///
    /// [`Reply::Refused`]: super::protocol::Reply::Refused
    #[error("not counted: {0}")]
    Refused(String),
    /// Callgrind's dumps cannot be read.
    #[error("not counted: callgrind's dump cannot be read: {0}")]
    UnreadableDump(#[source] FormatError),
    /// The dumps were read and give no count.
    #[error("not counted: {0}")]
    NotCounted(#[source] NotCounted),
    /// A counting process of the baseline build, and none was prepared.
    #[error("instructions not counted: no baseline build was prepared")]
    NoBaselineBuild,
    /// No folder for a counting process's dumps.
    #[error("instructions not counted: no folder for callgrind's dumps: {0}")]
    NoDumpFolder(#[source] io::Error),
    /// A counting process could not be started, or stopped answering, as the harness says.
    #[error("instructions not counted: {0}")]
    Process(#[source] Box<HarnessError>),
    /// A count outlived its limit, and its process was killed.
    #[error(
        "instructions not counted: counting took longer than {:.0} s under callgrind, and was stopped",
        .0.as_secs_f64()
    )]
    TimedOut(Duration),
    /// One counting process of a pair judged on instruction counts failed: `which` of them
    /// (`counting process`, `fresh counting process`), numbered from 1.
    #[error("{which} {process}: {problem}")]
    InProcess {
        which: &'static str,
        process: usize,
        #[source]
        problem: Box<CountingError>,
    },
}

impl CountingError {
    /// `problem`, of `which` counting process (`counting process`, `fresh counting process`),
    /// numbered from 1.
    pub(crate) fn in_process(which: &'static str, process: usize, problem: CountingError) -> CountingError {
        CountingError::InProcess { which, process, problem: Box::new(problem) }
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
