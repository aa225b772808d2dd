//! Looks inside one process: when the rounds collected so far are judged, at what level, and
//! whether they end the collection.
//!
//! A process's rounds are judged at an eighth, a quarter and a half of its budget ([`LOOKS`])
//! and at its end. The looks share the shortfall of the judging level ([`PROCESS_LEVEL`] in the
//! harness) by error spending
//! ([`super::spending`]), so the interval of each look is at its own level and all of a
//! process's looks together claim no more than one 95 % interval would. What ends a collection
//! early depends on the process's [`Role`]:
//!
//! - **the screen** (a comparison's first round) stops at the first look whose rounds
//!   establish parity — the whole interval within `±parity` — or signal a win or a loss
//!   ([`signal`]); a signal goes to fresh processes, so stopping for it only saves time;
//! - **a fresh process** of a confirmation stops at the first look that decides: its rounds
//!   establish parity, or say a win or a loss (the whole interval beyond the tolerance), not a
//!   mere lean. Its own answer is then clear, and the confirmation tests many processes anyway.
//!   Every tested process follows the same rule, so their values stay independent draws of one
//!   distribution, which the confirmation's signed-rank test needs; for identical code the rule
//!   treats both arms alike, so the values also stay symmetric, its other need. At the edge of
//!   the guarantee (a true difference at the parity) a look's interval lies beyond the margin
//!   about as rarely as within it, at the look's extreme level (`docs/statistics.md`, section 11);
//! - **the pilot** of a confirmation never stops early: it is tested like the others, but what
//!   it costs plans how many processes fit, so it must cost what a process that runs its whole
//!   share does.
//!
//! Count metrics (allocations) are judged once, at the end: their rounds are few and exact.

use super::spending::{GAMMA, Spender};
use crate::measure::Samples;
use crate::stats::{Estimate, Outcome, resamples_for_level, win_margin};
use crate::verdict::{JudgeOptions, Report, Verdict};
use serde::{Deserialize, Serialize};

/// Shares of a process's budget at which its rounds are judged before its end.
pub const LOOKS: [f64; 3] = [0.125, 0.25, 0.5];

/// The level of a process's intervals over all its looks together (the judging options' `level`
/// in the harness): its two-sided shortfall, 5 %, is spent over the looks, so that a single look
/// at the end would be a 95 % interval.
pub const PROCESS_LEVEL: f64 = 0.95;

/// The most resamples an interim look's bootstrap takes, as a multiple of the options' own: its
/// level is extreme (99.7 % or so), where a full complement of replicates beyond each end would
/// cost more than the look saves.
const INTERIM_RESAMPLES_FACTOR: usize = 2;

/// What a process is for, which decides what ends its collection early
/// (`Options::role` in rtcompare).
///
/// A comparison's first round (the screen) stops at the first look that establishes parity or
/// sees a win or a loss; the harness then confirms a win or a loss on fresh processes, which stop
/// early once a look establishes parity or says a win or a loss, after a pilot that never stops
/// early. Measuring by hand in several processes for
/// [`judge_processes`](crate::judge_processes), mark the fresh ones so.
///
/// ```
/// use rtcompare::{Options, Role};
/// let fresh = Options { role: Role::Fresh, ..Options::default() };
/// assert_eq!((fresh.role, Options::default().role), (Role::Fresh, Role::Screen));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// A comparison's first round: stops once parity is established or a signal is seen.
    Screen,
    /// A fresh process of a confirmation (or of a pooled first round): stops once parity is
    /// established or a win or a loss is said (a lean is not enough).
    Fresh,
    /// A confirmation's pilot: measures its whole budget, since what it costs plans the
    /// processes after it.
    Pilot,
}

/// The looks of one process: each one's level, and whether its judgement ends the collection.
#[derive(Clone, Debug)]
pub struct Looks {
    role: Role,
    options: JudgeOptions,
    spender: Spender,
}

impl Looks {
    /// The looks of a process in `role`, judged with `options` (whose level is replaced by each
    /// look's own).
    pub fn new(role: Role, options: &JudgeOptions) -> Looks {
        Looks { role, options: options.clone(), spender: Spender::new(1.0 - options.level, GAMMA) }
    }

    /// The looks of a process in `role` taken over `samples` already collected, as though they
    /// had come at an even pace: the look at share `t` sees the first `t` of the rounds (when
    /// that is at least `min_rounds`). Returns the rounds up to the look that ended the
    /// collection, and its judgement. The same looks, levels and stopping rule as a real
    /// collection, so simulations of the decision run the procedure itself.
    #[doc(hidden)]
    pub fn replay(
        role: Role,
        options: &JudgeOptions,
        samples: &Samples,
        min_rounds: usize,
        judge: impl Fn(&Samples, &JudgeOptions) -> Report,
    ) -> (Samples, Report) {
        let mut looks = Looks::new(role, options);
        for &t in &LOOKS {
            let rounds = (t * samples.rounds() as f64).round() as usize;
            if rounds < min_rounds {
                continue;
            }
            let seen = samples.first(rounds);
            let report = judge(&seen, &looks.options_at(t));
            if looks.stops(&report) {
                return (seen, report);
            }
        }
        let report = judge(samples, &looks.options_at_end());
        (samples.clone(), report)
    }

    /// The judging options of an interim look at share `t` of the budget: its level is what
    /// the spending allows by `t` less what earlier looks used. (Asking spends it.) The
    /// thresholds stay: a look that ends the collection gives the comparison's report.
    pub fn options_at(&mut self, t: f64) -> JudgeOptions {
        let level = 1.0 - self.spender.look(t);
        let most = INTERIM_RESAMPLES_FACTOR * self.options.resamples;
        let resamples = resamples_for_level(level).max(self.options.resamples).min(most);
        JudgeOptions { level, resamples, ..self.options.clone() }
    }

    /// The judging options of the last look: its level spends whatever the interim looks left.
    pub fn options_at_end(&mut self) -> JudgeOptions {
        let level = 1.0 - self.spender.rest();
        JudgeOptions {
            level,
            resamples: self.options.resamples.max(resamples_for_level(level)),
            ..self.options.clone()
        }
    }

    /// Whether the judgement of a look ends the collection (see [`Role`]).
    pub fn stops(&self, report: &Report) -> bool {
        self.stops_on(&report.verdict, &report.estimate)
    }

    /// [`Looks::stops`] on the two parts of a judgement it reads, as
    /// [`judge_look`](crate::judging::judge_look) gives them.
    pub fn stops_on(&self, verdict: &Verdict, estimate: &Estimate) -> bool {
        match self.role {
            Role::Screen => established(verdict) || signal_of(verdict, estimate).is_some(),
            Role::Fresh => established(verdict) || verdict.outcome != Outcome::Parity,
            Role::Pilot => false,
        }
    }

    /// Whether any look can end the collection: a pilot's never does, so its looks need not be
    /// judged at all.
    pub fn may_stop(&self) -> bool {
        self.role != Role::Pilot
    }
}

/// Whether a report establishes parity: no win or loss, and the whole interval within
/// `±parity` with neither the A/A floor nor the clock's resolution beyond it (two one-sided
/// tests at the interval's level; Schuirmann, 1987).
pub fn parity_established(report: &Report) -> bool {
    established(&report.verdict)
}

/// [`parity_established`] of a verdict.
fn established(verdict: &Verdict) -> bool {
    verdict.outcome == Outcome::Parity && verdict.resolved
}

/// How far beyond zero, in tolerances, a screen's parity must put its estimate to lean
/// ([`signal`]): half the tolerance.
///
/// A screen is one process, and what each process draws once — its layout, its hash seeds —
/// moves its difference by a point or so on such code, which no look inside it can see: a 5 %
/// change at a 4 % tolerance then lands inside the tolerance in one screen in eight, and a lean
/// at the tolerance itself left those as parities established in one process. A lean costs no
/// `α` (the confirmation is measured on other processes and holds its level by itself), only the
/// time of a confirmation, which its futility check ends after four processes when they lie
/// inside the tolerance; and it still needs the whole interval on one side of zero, so identical
/// code without per-process effects leans no more often than the screen's level allows.
///
/// ```
/// use rtcompare_judge::decide::looks::LEAN_BEYOND_TOLERANCE;
/// assert_eq!(LEAN_BEYOND_TOLERANCE, 0.5);
/// ```
pub const LEAN_BEYOND_TOLERANCE: f64 = 0.5;

/// What fresh processes are asked to confirm: the screen's win or loss, or the side its parity
/// leans to when the estimate lies beyond half the tolerance ([`LEAN_BEYOND_TOLERANCE`]) and the
/// whole interval lies on that side of zero — an established parity among them. `None` when
/// there is nothing to confirm.
///
/// A lean covers what one process sees but cannot establish alone: an interval reaching back
/// inside the tolerance, a fast end a little inside it, a process whose own hash seeds or layout
/// hide part of the difference. The screen needs no error bookkeeping of its own for it: what
/// can fail a test is the confirmation, which holds its level by itself. A difference within
/// the builds floor has no lean: fresh processes run the same two builds, so they cannot tell
/// the code from where each build put it.
pub fn signal(report: &Report) -> Option<Outcome> {
    signal_of(&report.verdict, &report.estimate)
}

/// [`signal`] of a verdict and its estimate.
fn signal_of(v: &Verdict, e: &Estimate) -> Option<Outcome> {
    let lean = LEAN_BEYOND_TOLERANCE * v.tolerance;
    match v.outcome {
        Outcome::Parity if e.difference.abs() <= v.builds_floor => None,
        Outcome::Parity if e.difference < -lean && e.high < 0.0 => Some(Outcome::Loss),
        Outcome::Parity if e.difference > win_margin(lean) && e.low > 0.0 => Some(Outcome::Win),
        Outcome::Parity => None,
        said => Some(said),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_looks_of_a_process_spend_its_shortfall_once() {
        let mut looks = Looks::new(Role::Screen, &JudgeOptions::default());
        let interim: Vec<f64> = LOOKS.iter().map(|&t| 1.0 - looks.options_at(t).level).collect();
        let spent = interim.iter().sum::<f64>() + (1.0 - looks.options_at_end().level);
        assert!((spent - (1.0 - PROCESS_LEVEL)).abs() < 1e-12, "{interim:?} and the end spent {spent}");
        assert!(interim.iter().all(|&share| share > 0.0), "every interim look may stop: {interim:?}");
    }

    #[test]
    fn most_of_the_level_is_kept_for_the_last_look() {
        let mut looks = Looks::new(Role::Screen, &JudgeOptions::default());
        let first = looks.options_at(0.125);
        let second = looks.options_at(0.25);
        let last = looks.options_at_end();
        assert!(first.level > 0.997 && second.level > 0.997);
        assert!(last.level > 0.95 && last.level < 0.97, "most of the 5 % is kept for the end");
    }
}
