//! Why instructions were not counted: one type for the run that cannot count, the comparison
//! that was not counted, and the counting process that failed, each message naming what failed
//! and, where there is one, the way on.
//!
//! The messages beginning `not counted:` are about one comparison (the process goes on); those
//! beginning `instructions not counted:` are about the counting process or the run.

use super::super::error::HarnessError;
use crate::instructions::per_call::NotCounted;
use crate::instructions::profile::FormatError;
use crate::instructions::valgrind::Failure;
use std::io;
use std::sync::Arc;
use std::time::Duration;

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
    /// [`Reply::Refused`]: super::super::protocol::Reply::Refused
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
