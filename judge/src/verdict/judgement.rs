//! What fresh processes found ([`Confirmation`]) and everything known about one comparison
//! ([`Judgement`]).

use super::caveat::Caveat;
use super::ending::{Ending, Settle};
use super::figures::Verdict;
use super::report::{Report, clears};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// What a confirmation found: the fresh processes' pooled judgement at the look that decided,
/// and how it ended. `decide::Confirming` makes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Confirmation {
    /// The pooled judgement of the fresh processes at the look that decided; its `duration` is
    /// the whole confirmation's.
    pub report: Report,
    /// Whether it repeated the signal.
    pub confirmed: bool,
    /// Fresh processes planned, the pilot among them: the last look is taken on all of them.
    pub planned: usize,
    /// Why it stopped.
    pub ending: Ending,
    /// What would settle a confirmation that ended without a decision: `None` once decided,
    /// or when the processes' own estimate lies inside the tolerance.
    pub settle: Option<Settle>,
}

/// Everything known about one comparison: its first round, the confirmation fresh processes gave
/// it, and the verdict and caveats the two make together. Built once, by `decide::conclude` when
/// a confirmation ran and by [`Judgement::of`] when none did; nothing changes it afterwards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// The verdict: the first round's, unless fresh processes established the win or the loss
    /// its parity leaned to (then theirs, `resolved`, with the first round's figures).
    pub verdict: Verdict,
    /// The caveats on the verdict, in the order the outputs show them: the first round's (less
    /// those that explained a parity fresh processes then established), then the one a
    /// confirmation calls for.
    pub caveats: Vec<Caveat>,
    /// The first round, as it was judged.
    pub first: Report,
    /// The confirmation, when the first round signalled a win or a loss and it ran.
    pub confirmation: Option<Confirmation>,
}

/// The difference averaged over every process a confirmed or refuted verdict measured
/// ([`Judgement::over_processes`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProcessMean {
    /// The mean of the processes' own differences `d_j`, each process weighted alike.
    pub difference: f64,
    /// How many processes: the first round's and the confirmation's fresh ones.
    pub processes: usize,
}

impl Judgement {
    /// The judgement of a first round that nothing confirmed: its own verdict and caveats.
    pub fn of(first: Report) -> Judgement {
        Judgement { verdict: first.verdict.clone(), caveats: first.warnings.clone(), first, confirmation: None }
    }

    /// Whether fresh processes confirmed the first round's signal; `None` when none was asked
    /// for, `Some(false)` also when the time cap left no room for one ([`Caveat::NoRoom`]).
    pub fn confirmed(&self) -> Option<bool> {
        let no_room = self.caveats.iter().any(|c| matches!(c, Caveat::NoRoom { .. }));
        self.confirmation.as_ref().map(|found| found.confirmed).or(no_room.then_some(false))
    }

    /// Whether the time cap, not what was measured, left a signal undecided: no room for the
    /// fewest fresh processes the test needs ([`Caveat::NoRoom`]), or a cut before the last look
    /// ([`Ending::TimeCap`]).
    pub fn out_of_time(&self) -> bool {
        let no_room = self.caveats.iter().any(|c| matches!(c, Caveat::NoRoom { .. }));
        let cut =
            self.confirmation.as_ref().is_some_and(|found| matches!(found.ending, Ending::TimeCap | Ending::NoRoom));
        no_room || cut
    }

    /// Wall-clock time of the comparison: its first round and its confirmation.
    pub fn duration(&self) -> Duration {
        self.first.duration + self.confirmation.as_ref().map_or(Duration::ZERO, |found| found.report.duration)
    }

    /// Whether the verdict is a win or a loss whose first round's interval lies wholly beyond
    /// `factor` times the tolerance (see [`CLEAR_BEYOND_TOLERANCE`](super::CLEAR_BEYOND_TOLERANCE)).
    pub fn clears(&self, factor: f64) -> bool {
        clears(&self.verdict, &self.first.estimate, factor)
    }

    /// The best estimate of the difference a verdict has, once a confirmation ran: the mean of
    /// every process's own difference — the first round's process (or processes) and each fresh
    /// one — with equal weights; `None` without a confirmation.
    ///
    /// Why not the first round's estimate: a process keeps its hash seeds and its layout, so
    /// code whose cost depends on them (a `HashMap`, a walk through memory, the allocator) runs
    /// 0.5–1.5 % apart from one process to the next, and one process's estimate carries that
    /// whole error however long it measured. Averaging processes is what averages it out
    /// (Kalibera & Jones). Why not the confirmation's alone: it leaves out the first round's
    /// full budget. The first round was chosen because it signalled, which leans it its way when
    /// the difference is close to the tolerance; at one process in four (or more) that lean
    /// is diluted, and a difference far beyond the tolerance is not chosen at all.
    pub fn over_processes(&self) -> Option<ProcessMean> {
        let second = &self.confirmation.as_ref()?.report;
        let each = |report: &Report| {
            if report.process_differences.is_empty() {
                vec![report.estimate.difference]
            } else {
                report.process_differences.clone()
            }
        };
        let all: Vec<f64> = each(&self.first).into_iter().chain(each(second)).collect();
        let difference = all.iter().sum::<f64>() / all.len() as f64;
        Some(ProcessMean { difference, processes: all.len() })
    }
}
