//! The confirmation: the screen's signal tested on fresh processes alone, by Wilcoxon's exact
//! signed-rank test of their log ratios.
//!
//! Each fresh process gives its own log ratio `y_j`, the median of its rounds' `ln(cᵢ / bᵢ)`.
//! The screen's process is left out entirely: it was chosen because it signalled, and counting
//! it would make the test's level depend on that choice. Every fresh process measures a short
//! share of the budget ([`FRESH_SHARE`]): the test's sureness is bounded by `2^−k` for `k`
//! processes, and the spread between processes is averaged only by more of them, so many short
//! processes beat a few long ones. The first, the pilot, never stops early, so what it costs —
//! start-up, the user's set-up, calibration, its share — shows what a whole process costs; from
//! that cost alone it is planned how many processes fit in the time left (`K`, the pilot among
//! them). Nothing it measured enters the plan, and its cost is the same whichever arm it found
//! faster, so the signs the test reads stay fair coins for identical code.
//!
//! The test is taken at up to three planned looks ([`ConfirmationLooks`]): after the fewest
//! processes that can confirm and one more, after twice that, and on all `K`, each an exact test
//! at its own share of the one-sided level `α` ([`confirmation_alpha`]). A look **confirms** when it
//! puts the centre of the `y_j` beyond `ln(1 + tolerance)` on the signal's side. From the fourth
//! process on, a futility check may end it early — the reverse test at 10 % puts the centre
//! inside the parity — which never confirms anything and so cannot raise the error rate. A
//! process that would end past the time cap is never started, and then no further look is taken:
//! the confirmation is inconclusive, never decided on the processes the cap happened to leave.
//!
//! The logic is pure and stepped ([`Confirming`]): the harness starts each process it asks for
//! and reads the clock, so it is tested on synthetic processes whose truth is known.

use super::looks::signal;
use crate::caveats::{established_lean, no_room, unconfirmed};
use crate::judging::{FreshTest, judge_fresh, process_log_ratio};
use crate::measure::{Measured, Metric};
use crate::stats::{Outcome, SignedRankAnalysis, fewest_for_level, normal_quantile};
use crate::verdict::{Confirmation, Ending, JudgeOptions, Judgement, Report, Settle, Verdict};
use std::time::Duration;

/// The most wall time one comparison takes, as a multiple of its budget: the screen and its
/// confirmation together.
pub const TIME_CAP: u32 = 4;

/// The share of the comparison's budget a fresh process measures for: a thirty-second. Shorter
/// processes buy the test more processes in the same time, which it needs twice over: its
/// sureness is bounded by `2^−k` for `k` processes, and the spread between processes is only
/// averaged out by more of them. Below a thirty-second a process's start, calibration and
/// warm-up (tens of milliseconds) would cost more than its rounds. (An eighth, and shares sized
/// from the screen's interval, measured slower: `bench/detection/evidence.md`.)
pub const FRESH_SHARE: f64 = 1.0 / 32.0;

/// The chance that a run of identical code fails any test of one binary, at most: each pair's
/// confirmation gets an equal share of it ([`confirmation_alpha`]).
pub const RUN_ALPHA: f64 = 0.05;

/// The most one pair's confirmation may err, whatever the binary's size.
const PAIR_ALPHA: f64 = 0.01;

/// The fewest fresh processes a futility check looks at: the reverse test at 10 % can say
/// something with four (all four inside the parity has probability `1/16` by luck).
pub const FIRST_FUTILITY_CHECK: usize = 4;

/// The level of the futility check: the reverse one-sided test, "the centre lies beyond the
/// parity", rejected at 10 %. Stopping for it never confirms, so it costs no error rate; what it
/// costs is power, and only for a difference whose processes' values straddle the parity.
const FUTILITY_ALPHA: f64 = 0.10;

/// The one-sided error rate of a pair's confirmation in a binary of `registered` comparisons:
/// `min(1 %, 5 % / registered)`. The pairs' shares add up to at most [`RUN_ALPHA`], so a run of
/// identical code (a build-level difference above the parity is a difference of the build, and
/// counts) fails a test of the binary with probability at most 5 % however many
/// comparisons it has; the price of a larger binary is a stricter test, and with it more fresh
/// processes ([`fewest_for_level`]: 7 for up to 5 comparisons, 10 for 50, 12 for 200, 15 for 1,000).
/// The registry is the same in every process of a binary, so the level — and with it every
/// verdict — does not depend on how the binary was invoked: a name filter, `--format json`, or
/// one test per process under nextest.
pub fn confirmation_alpha(registered: usize) -> f64 {
    PAIR_ALPHA.min(RUN_ALPHA / registered.max(1) as f64)
}

/// How a confirmation is to be taken: its error rate, and how many fresh processes it may look
/// at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// One-sided error rate of the whole confirmation.
    pub alpha: f64,
    /// The most fresh processes the test is taken on (`RTCOMPARE_MAX_PROCESSES`); the pilot
    /// plans how many of them fit.
    pub processes: usize,
    /// The comparison's budget, of which each fresh process measures [`FRESH_SHARE`]; it also
    /// scales the settling figure of an undecided confirmation.
    pub budget: Duration,
}

/// The least a fresh process costs beyond its share of the budget: starting it, its calibration
/// and warm-up, and the parent reading its samples. Before the pilot it decides whether a
/// confirmation could fit at all; the pilot's own cost plans the rest.
pub const PROCESS_OVERHEAD: Duration = Duration::from_millis(30);

/// How many processes a confirmation of counts (instructions, allocations) tests beyond the
/// fewest that can confirm at all: one, so that one process on the wrong side of the margin does
/// not by itself leave a real difference unconfirmed.
const SPARE_COUNTED: usize = 1;

impl Plan {
    /// The confirmation of a time difference in a binary of `registered` comparisons
    /// ([`confirmation_alpha`]): at most `most` fresh processes (`RTCOMPARE_MAX_PROCESSES`), of
    /// which the pilot's real cost plans how many fit ([`Confirming`]), each measuring
    /// [`FRESH_SHARE`] of the budget. When `left`, the time the cap still leaves, could not hold
    /// the fewest processes the test needs even if each cost only its share and
    /// [`PROCESS_OVERHEAD`], the plan holds the room there is and is not
    /// [decidable](Plan::decidable): no process is started.
    ///
    /// ```
    /// use rtcompare_judge::decide::Plan;
    /// use std::time::Duration;
    ///
    /// let budget = Duration::from_secs(1);
    /// let roomy = Plan::of_time(1, 64, budget, 3 * budget);
    /// assert_eq!((roomy.processes, roomy.decidable()), (64, true));
    /// let cramped = Plan::of_time(1, 64, budget, budget / 4);
    /// assert!(!cramped.decidable());
    /// ```
    pub fn of_time(registered: usize, most: usize, budget: Duration, left: Duration) -> Plan {
        let one = budget.mul_f64(FRESH_SHARE) + PROCESS_OVERHEAD;
        let room = fitting(left, one);
        let plan = Plan { alpha: confirmation_alpha(registered), processes: most, budget };
        // The pilot plans how many of the most allowed fit; this bound only says whether any could.
        if room < plan.fewest() { Plan { processes: room, ..plan } } else { plan }
    }

    /// The confirmation of a count (instructions, allocations) in a binary of `registered`
    /// comparisons: its level as for time, and the fewest processes that can confirm at that
    /// level and one more (at most `most`). A count does not get more precise with more
    /// processes the way a time does: processes of deterministic code count the same, so more
    /// would only bring the time cap nearer.
    ///
    /// ```
    /// use rtcompare_judge::decide::Plan;
    /// use std::time::Duration;
    ///
    /// let plan = Plan::of_counts(1, 64, Duration::from_secs(1));
    /// assert_eq!(plan.processes, plan.fewest() + 1);
    /// ```
    pub fn of_counts(registered: usize, most: usize, budget: Duration) -> Plan {
        let alpha = confirmation_alpha(registered);
        let processes = (fewest_for_level(alpha) + SPARE_COUNTED).min(most);
        Plan { alpha, processes, budget }
    }

    /// The fewest fresh processes with which the test can confirm at all at `alpha`.
    pub fn fewest(&self) -> usize {
        fewest_for_level(self.alpha)
    }

    /// The looks of the test on `planned` processes ([`ConfirmationLooks`]).
    pub fn looks(&self, planned: usize) -> ConfirmationLooks {
        ConfirmationLooks::of(self.alpha, planned)
    }

    /// Whether this many processes can confirm anything.
    pub fn decidable(&self) -> bool {
        self.processes >= self.fewest()
    }
}

/// How many processes costing `each` fit in `left`.
pub fn fitting(left: Duration, each: Duration) -> usize {
    (left.as_secs_f64() / each.as_secs_f64().max(1e-9)).floor() as usize
}

/// How much longer than the longest so far the next fresh process is allowed to take, when
/// planning how many fit and before starting each: processes that run their whole share vary
/// by less than a tenth around the pilot's cost (start-up, a page-cache miss, a busy core;
/// `bench/detection/evidence.md`, "More fresh processes in the same cap"), and a cap is only
/// honoured if the process that crosses it is never started.
const SLOWER_PROCESS: f64 = 1.1;

/// A confirmation under way, stepped by its caller: the judging crate says what to measure next
/// ([`Confirming::next`]) and records what each fresh process measured
/// ([`Confirming::record`]); the caller — the harness — starts the processes and reads the clock.
/// Nothing here calls back, so one loop in the harness drives a confirmation as one loop drives
/// a collection, and the rule is tested on synthetic processes whose truth is known.
///
/// The first process is a **pilot**: it never stops early, so what it costs — start-up, the
/// user's set-up, calibration, its share of the budget — plans how many processes the test is
/// taken on (`K`, at most `plan.processes`, the pilot among them). Its cost does not depend on
/// which arm it found faster, so planning from it leaves the signs the test reads as they were.
/// With room for fewer than the test needs ([`Plan::fewest`]) no more are started. Before each
/// process, the time left is asked again; when one more no longer fits, the confirmation ends
/// without a further look.
///
/// ```
/// use rtcompare_judge::decide::{Confirming, Plan, Step};
/// use rtcompare_judge::measure::Metric;
/// use rtcompare_judge::{JudgeOptions, Report};
/// use std::time::Duration;
///
/// fn drive(first: &Report, plan: &Plan, measure: impl Fn(usize) -> rtcompare_judge::measure::Measured) -> bool {
///     let mut confirming = Confirming::start(first, plan, &JudgeOptions::default(), Metric::Time);
///     loop {
///         match confirming.next(Duration::MAX) {
///             Step::Measure(process) => confirming.record(measure(process), Duration::from_millis(40)),
///             Step::Done(found) => return found.confirmed,
///         }
///     }
/// }
/// ```
#[derive(Debug)]
pub struct Confirming {
    side: Outcome,
    plan: Plan,
    options: JudgeOptions,
    metric: Metric,
    /// The processes to test and the looks at them, planned once the pilot has run.
    looks: Option<ConfirmationLooks>,
    tested: Vec<Measured>,
    logs: Vec<f64>,
    longest: Duration,
    spent: Duration,
    /// Why the confirmation ended, once it has, with the report of the interim look that
    /// confirmed.
    ended: Option<(Ending, Option<Report>)>,
}

/// What a confirmation needs next ([`Confirming::next`]).
#[derive(Debug)]
pub enum Step {
    /// Measure fresh process `n` (the pilot is 0) and [record](Confirming::record) it.
    Measure(usize),
    /// The confirmation has ended, with what it found (boxed: a step is mostly `Measure`).
    Done(Box<Confirmation>),
}

impl Confirming {
    /// A confirmation of the screen `first`'s signal ([`signal`]) as `plan` plans it, its
    /// processes judged with the pair's `options` on `metric`. A screen with nothing to confirm
    /// is taken as a parity to repeat.
    pub fn start(first: &Report, plan: &Plan, options: &JudgeOptions, metric: Metric) -> Confirming {
        Confirming {
            side: signal(first).unwrap_or(Outcome::Parity),
            plan: *plan,
            options: options.clone(),
            metric,
            looks: None,
            tested: Vec::new(),
            logs: Vec::new(),
            longest: Duration::ZERO,
            spent: Duration::ZERO,
            ended: None,
        }
    }

    /// What to do next, with `left` the time the comparison's cap still leaves ([`TIME_CAP`];
    /// `Duration::MAX` for a confirmation the cap does not bound): measure another process, or
    /// nothing more, with what the confirmation found.
    pub fn next(&mut self, left: Duration) -> Step {
        if self.tested.is_empty() {
            return Step::Measure(0);
        }
        let fits = fitting(left, self.longest.mul_f64(SLOWER_PROCESS));
        let (plan, pilot) = (self.plan, self.tested.len());
        let looks = self.looks.get_or_insert_with(|| plan.looks(plan.processes.min(pilot.saturating_add(fits))));
        let planned = looks.planned;
        if planned < self.plan.fewest() {
            return Step::Done(Box::new(self.no_room(planned)));
        }
        if self.ended.is_none() {
            if self.tested.len() >= planned {
                self.ended = Some((Ending::LastLook, None));
            } else if fits == 0 {
                self.ended = Some((Ending::TimeCap, None));
            }
        }
        match self.ended.take() {
            None => Step::Measure(self.tested.len()),
            Some((ending, confirmed)) => Step::Done(Box::new(self.found(ending, confirmed))),
        }
    }

    /// Records what fresh process `n` — the one [`Confirming::next`] asked for — measured, and
    /// the wall time it cost; takes an interim look when one falls due, and the futility check.
    pub fn record(&mut self, measured: Measured, cost: Duration) {
        self.longest = self.longest.max(cost);
        self.spent += cost;
        self.logs.push(process_log_ratio(&measured.samples));
        self.tested.push(measured);
        let due = self.looks.as_ref().and_then(|looks| looks.interim_at(self.tested.len()));
        if let Some(alpha) = due {
            let test = FreshTest { side: self.side, alpha, look: true };
            let report = judge_fresh(self.tested.clone(), self.metric, &self.options, test);
            if report.verdict.outcome == self.side {
                self.ended = Some((Ending::Confirmed, Some(report)));
                return;
            }
        }
        if futile(self.side, &self.logs, self.options.parity) {
            self.ended = Some((Ending::RuledOut, None));
        }
    }

    /// The confirmation that found room for only `planned` processes, the pilot among them, fewer
    /// than the test needs: the pilot's figures, and what would make room.
    fn no_room(&mut self, planned: usize) -> Confirmation {
        let pilot = std::mem::take(&mut self.tested);
        let test = FreshTest { side: self.side, alpha: self.plan.alpha, look: false };
        let report = judge_fresh(pilot, self.metric, &self.options, test);
        let (needed, longest) = (self.plan.fewest(), self.longest.as_secs_f64());
        let budget = holding(&self.plan, needed, longest);
        let settle = Settle { processes: needed, seconds: needed as f64 * longest, budget };
        let report = Report { duration: self.spent, ..report };
        Confirmation { report, confirmed: false, planned, ending: Ending::NoRoom, settle: Some(settle) }
    }

    /// The confirmation that ended so, at the interim look that `confirmed` it, or with the test
    /// at the last look when it was reached (figures only otherwise).
    fn found(&mut self, ending: Ending, confirmed: Option<Report>) -> Confirmation {
        let Some(looks) = self.looks.clone() else {
            unreachable!("a confirmation ends only once its looks are planned")
        };
        let look = ending == Ending::LastLook;
        let report = confirmed.unwrap_or_else(|| {
            let test = FreshTest { side: self.side, alpha: looks.last, look };
            judge_fresh(std::mem::take(&mut self.tested), self.metric, &self.options, test)
        });
        let confirmed = ending == Ending::Confirmed || (look && report.verdict.outcome == self.side);
        let ending = if confirmed { Ending::Confirmed } else { ending };
        let plan = Plan { processes: looks.planned, ..self.plan };
        let settle = (!confirmed && ending != Ending::RuledOut)
            .then(|| settling(self.side, &self.logs, &report, &plan, self.spent))
            .flatten();
        let report = Report { duration: self.spent, ..report };
        Confirmation { report, confirmed, planned: looks.planned, ending, settle }
    }
}

/// The looks of a confirmation of `planned` processes and how they share its `α`: each an exact
/// signed-rank test at its own share, so that together they err at most `α` (Bonferroni over the
/// looks; Jennison & Turnbull 2000, *Group Sequential Methods*, ch. 7). A look is placed only
/// where the test can reject, so each costs little power; at most three:
///
/// - the **first** after `n` processes, one more than the test alone needs ([`Plan::fewest`]), at
///   `2^−n` — the least any exact test of `n` sign-symmetric values can spend, so it confirms
///   exactly when all `n` lie beyond the margin: a consistent difference is confirmed on `n`
///   processes instead of every one the time cap holds;
/// - the **second** after `2n`, at half of what the first left, where `2n` is under three quarters
///   of `planned`: a difference the processes see with some spread is confirmed once enough of
///   them agree;
/// - the **last** on all `planned`, at the rest.
///
/// Where `n` itself is not under three quarters of `planned`, the one look on all of them takes
/// the whole `α`.
///
/// ```
/// use rtcompare_judge::decide::ConfirmationLooks;
/// // One comparison in the binary: α = 1 %; the test needs 7 processes, the first look takes 8.
/// let rest = 0.01 - 1.0 / 256.0;
/// let three = ConfirmationLooks::of(0.01, 64);
/// assert_eq!((three.interim, three.last), (vec![(8, 1.0 / 256.0), (16, rest / 2.0)], rest / 2.0));
/// let two = ConfirmationLooks::of(0.01, 20);
/// assert_eq!((two.interim, two.last), (vec![(8, 1.0 / 256.0)], rest));
/// let one = ConfirmationLooks::of(0.01, 10);
/// assert_eq!((one.interim, one.last), (vec![], 0.01));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConfirmationLooks {
    /// Processes tested at the last look.
    pub planned: usize,
    /// The looks before the last: after how many processes, and at what one-sided level.
    pub interim: Vec<(usize, f64)>,
    /// The one-sided level of the last look.
    pub last: f64,
}

impl ConfirmationLooks {
    /// The looks of a confirmation at `alpha` on `planned` processes.
    pub fn of(alpha: f64, planned: usize) -> ConfirmationLooks {
        let first = fewest_for_level(alpha) + 1;
        let before_the_last = |n: usize| 4 * n < 3 * planned;
        if !before_the_last(first) {
            return ConfirmationLooks { planned, interim: Vec::new(), last: alpha };
        }
        let least = 0.5f64.powi(first as i32);
        let rest = alpha - least;
        if !before_the_last(2 * first) {
            return ConfirmationLooks { planned, interim: vec![(first, least)], last: rest };
        }
        ConfirmationLooks { planned, interim: vec![(first, least), (2 * first, rest / 2.0)], last: rest / 2.0 }
    }

    /// The level of the interim look due after `tested` processes, if one is.
    pub fn interim_at(&self, tested: usize) -> Option<f64> {
        self.interim.iter().find(|&&(at, _)| at == tested).map(|&(_, alpha)| alpha)
    }
}

/// Whether the fresh processes so far rule `side` out: the reverse test at [`FUTILITY_ALPHA`]
/// puts the centre of their log ratios inside the parity, on the near side of the margin the
/// test needs to cross.
fn futile(side: Outcome, logs: &[f64], parity: f64) -> bool {
    if logs.len() < FIRST_FUTILITY_CHECK {
        return false;
    }
    let analysis = SignedRankAnalysis::of(logs);
    let margin = parity.ln_1p();
    match side {
        Outcome::Loss => analysis.below(margin, FUTILITY_ALPHA),
        Outcome::Win => analysis.above(-margin, FUTILITY_ALPHA),
        Outcome::Parity => true,
    }
}

/// What would settle an undecided confirmation, from what its processes measured: the number
/// of processes with which the test would confirm the difference they estimate nine times in
/// ten (the normal approximation of the signed-rank test, whose efficiency against the t test
/// is `3/π`), the seconds they would take at the pace seen, and a budget whose time cap would
/// hold them, on the reading that a longer budget makes each process proportionally more
/// precise. `None` when their estimate lies inside the tolerance.
fn settling(side: Outcome, logs: &[f64], report: &Report, plan: &Plan, took: Duration) -> Option<Settle> {
    // How far the processes' centre lies beyond the margin, on the log scale the test reads.
    let centre = report.verdict.ratio.ln();
    let beyond = match side {
        Outcome::Loss => centre,
        Outcome::Win => -centre,
        Outcome::Parity => return None,
    };
    let gap = beyond - report.verdict.tolerance.ln_1p();
    let spread = log_spread(logs);
    if logs.len() < 2 || gap.is_nan() || gap <= 0.0 || !spread.is_finite() {
        return None;
    }
    let z = normal_quantile(1.0 - plan.alpha) + normal_quantile(0.9);
    let needed = ((z * spread / gap).powi(2) * std::f64::consts::PI / 3.0).ceil() as usize;
    let processes = needed.max(plan.fewest());
    let pace = took.as_secs_f64() / logs.len() as f64;
    let precision = plan.budget.mul_f64((processes as f64 / plan.processes.max(1) as f64).max(1.0));
    let budget = precision.max(holding(plan, processes, pace));
    Some(Settle { processes, seconds: processes as f64 * pace, budget })
}

/// A budget whose time cap holds a screen of its own length and `processes` fresh processes,
/// each costing what one cost at the plan's budget (`pace` seconds) plus the growth of its share
/// `s` ([`FRESH_SHARE`]): `TIME_CAP · b ≥ b + processes · (pace + s · (b − budget))`, solved for
/// `b`. Past [`MOST_HELD`] processes the shares alone come near filling the cap; the figure is
/// then that of those.
fn holding(plan: &Plan, processes: usize, pace: f64) -> Duration {
    let n = processes.min(MOST_HELD) as f64;
    let fixed = (pace - FRESH_SHARE * plan.budget.as_secs_f64()).max(0.0);
    let room = f64::from(TIME_CAP) - 1.0 - n * FRESH_SHARE;
    Duration::from_secs_f64(SLOWER_PROCESS * n * fixed / room).max(plan.budget)
}

/// The most processes [`holding`] plans a budget for: their shares fill all but half a budget of
/// the cap after the screen.
const MOST_HELD: usize = 80;

/// The standard deviation of the processes' log ratios.
fn log_spread(logs: &[f64]) -> f64 {
    let k = logs.len() as f64;
    let mean = logs.iter().sum::<f64>() / k;
    (logs.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / (k - 1.0)).sqrt()
}

/// The judgement of a screen and its confirmation: the verdict, and the caveat when the fresh
/// processes did not repeat the screen's signal. The one place a confirmation is joined to a
/// verdict; the screen's report is kept as it was judged.
///
/// A screen that was a parity leaning to a win or a loss ([`signal`]) becomes that win or loss
/// when the fresh processes establish it: the verdict is theirs, the figures beside it stay the
/// screen's (whose own verdict, `first.verdict`, stays a parity), and the caveats that explained
/// the parity give way to one saying what happened.
pub fn conclude(first: Report, found: Confirmation) -> Judgement {
    let side = signal(&first).unwrap_or(Outcome::Parity);
    let leaned = first.verdict.outcome == Outcome::Parity;
    let established = leaned && found.confirmed;
    let caveat = match (found.confirmed, leaned) {
        (false, _) => Some(unconfirmed(&first, side, &found.report, found.ending, found.settle)),
        (true, true) => Some(established_lean(&first, side, &found.report)),
        (true, false) => None,
    };
    let kept = first.warnings.iter().filter(|c| !(established && c.kind().explains_parity())).cloned();
    let caveats = kept.chain(caveat).collect();
    let verdict = if established {
        Verdict { outcome: found.report.verdict.outcome, resolved: true, ..first.verdict.clone() }
    } else {
        first.verdict.clone()
    };
    Judgement { verdict, caveats, first, confirmation: Some(found) }
}

/// The judgement of a screen whose plan has no room for a confirmation that could decide
/// ([`Plan::decidable`]): its signal unconfirmed, with a caveat saying how many fresh processes
/// fit, how many the test needs, and a budget that would hold them (on the reading that the room
/// grows with the budget). No fresh process ran, so it has no confirmation, and
/// [`Judgement::confirmed`] reads the caveat as a confirmation that failed.
pub fn without_room(first: Report, plan: &Plan) -> Judgement {
    let side = signal(&first).unwrap_or(Outcome::Parity);
    let budget = plan.budget.mul_f64(plan.fewest() as f64 / plan.processes.max(1) as f64);
    let caveat = no_room(&first, side, plan.fewest(), plan.processes, budget);
    let caveats = first.warnings.iter().cloned().chain(Some(caveat)).collect();
    Judgement { verdict: first.verdict.clone(), caveats, first, confirmation: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::{Calibration, Samples, Series};

    #[test]
    fn the_level_shares_five_percent_over_the_binary() {
        assert_eq!(confirmation_alpha(1), 0.01);
        assert_eq!(confirmation_alpha(5), 0.01);
        assert!((confirmation_alpha(50) - 0.001).abs() < 1e-15);
        assert!((confirmation_alpha(200) - 0.00025).abs() < 1e-15);
        let fewest = |m| Plan { alpha: confirmation_alpha(m), processes: 0, budget: Duration::ZERO }.fewest();
        assert_eq!((fewest(1), fewest(50), fewest(200), fewest(1000)), (7, 10, 12, 15));
    }

    /// One process's rounds of a candidate three times the baseline's cost, with a little
    /// round-to-round wobble and `process` percent more cost in the candidate: fixed figures, so
    /// these checks do not depend on how busy the machine is.
    fn three_times(process: usize) -> Measured {
        times(3.0, process)
    }

    /// One process's rounds of a candidate `factor` times the baseline's cost, as [`three_times`].
    fn times(factor: f64, process: usize) -> Measured {
        let series = |ns: f64, slot: u32| Series {
            per_op: (0..40).map(|i| ns * (1.0 + 0.002 * ((i * 7 + slot as usize) % 5) as f64)).collect(),
            position: (0..40).map(|round| round * 4 + slot).collect(),
            placements: Vec::new(),
        };
        let slow = 100.0 * factor * (1.0 + 0.01 * process as f64);
        let samples = Samples {
            candidate_iters: 1000,
            baseline_iters: 1000,
            candidate: series(slow, 0),
            candidate_twin: series(slow, 1),
            baseline: series(100.0, 2),
            baseline_twin: series(100.0, 3),
        };
        let calibration = Calibration {
            resolution: 20.0,
            clock_step_ns: 20.0,
            candidate_iters: 1000,
            baseline_iters: 1000,
            target_batch_ns: 100_000.0,
            candidate_batch_ns: 300_000.0,
            baseline_batch_ns: 100_000.0,
            first_call_ns: 0.0,
        };
        Measured { candidate: "slow".into(), baseline: "fast".into(), calibration, samples }
    }

    /// The first round of [`three_times`].
    fn first_round() -> Report {
        let m = three_times(0);
        crate::judge(&m.candidate, &m.baseline, Metric::Time, m.calibration, m.samples, &JudgeOptions::default())
    }

    /// Drives a confirmation of `first` as the harness does, with `fresh(n)` for process `n`
    /// (each costing nothing) and `left(n)` the time left before asking for process `n`.
    fn drive(
        first: &Report,
        plan: &Plan,
        fresh: impl Fn(usize) -> Measured,
        left: impl Fn(usize) -> Duration,
    ) -> Confirmation {
        let mut confirming = Confirming::start(first, plan, &JudgeOptions::default(), Metric::Time);
        let mut asked = 0;
        loop {
            match confirming.next(left(asked)) {
                Step::Measure(process) => confirming.record(fresh(process), Duration::from_millis(1)),
                Step::Done(found) => return *found,
            }
            asked += 1;
        }
    }

    /// Room for everything.
    fn roomy(_: usize) -> Duration {
        Duration::MAX
    }

    fn plan(processes: usize) -> Plan {
        Plan { alpha: confirmation_alpha(50), processes, budget: Duration::from_secs(1) }
    }

    #[test]
    fn fresh_processes_confirm_a_far_loss_on_all_the_planned_processes() {
        let first = first_round();
        assert_eq!(first.verdict.outcome, Outcome::Loss);
        let found = drive(&first, &plan(12), |process| three_times(process + 1), roomy);
        assert!(found.confirmed && found.ending == Ending::Confirmed, "{found:?}");
        assert_eq!((found.report.resampling.processes, found.settle), (12, None));
    }

    /// A far loss that every process sees is confirmed at the first look, on one process more
    /// than the level needs (11 at 0.1 %), whatever the plan holds beyond it, at that look's own
    /// level; a plan with no room for a later look takes one look, on all, at the whole level.
    #[test]
    fn a_far_loss_is_confirmed_at_the_first_look() {
        let first = first_round();
        let looks = plan(24).looks(24);
        assert_eq!(looks.interim, vec![(plan(24).fewest() + 1, 0.5f64.powi(11))]);
        for planned in [24, 16] {
            let found = drive(&first, &plan(planned), |process| three_times(process + 1), roomy);
            assert!(found.confirmed && found.ending == Ending::Confirmed, "{found:?}");
            assert_eq!((found.report.resampling.processes, found.settle), (11, None), "planned {planned}");
            assert_eq!(found.report.estimate.level, 1.0 - 2.0 * looks.interim[0].1, "the first look's level");
        }
        let found = drive(&first, &plan(12), |process| three_times(process + 1), roomy);
        assert!(found.confirmed && found.report.resampling.processes == 12, "{found:?}");
        assert_eq!(found.report.estimate.level, 1.0 - 2.0 * plan(12).alpha);
    }

    /// The first look spends exactly its share: of its eleven processes (at 50 comparisons), one
    /// measures no difference — inside the margin, and nearer to it than any other — so at
    /// `2^−11` it does not confirm, though at twice that it would (`W+ = 65` of 66 has
    /// probability `2^−10`); the confirmation goes on to its last look, which confirms on all 24.
    #[test]
    fn the_first_look_confirms_only_when_every_process_lies_beyond_the_margin() {
        let first = first_round();
        let one_inside = |process: usize| if process == 3 { times(1.0, 0) } else { three_times(process + 1) };
        let found = drive(&first, &plan(24), one_inside, roomy);
        assert!(found.confirmed, "{found:?}");
        assert_eq!(found.report.resampling.processes, 24, "not at the first look");
        assert_eq!(found.report.estimate.level, 1.0 - 2.0 * plan(24).looks(24).last, "the last look's level");
    }

    /// A difference that a few processes miss is confirmed at the second look, on twice the
    /// processes, at half of what the first left: with 64 planned, two of the first eleven inside
    /// the margin keep the first look from confirming, and the look after 22 confirms.
    #[test]
    fn a_difference_some_processes_miss_is_confirmed_at_a_later_look() {
        let first = first_round();
        let looks = plan(64).looks(64);
        assert_eq!(looks.interim.iter().map(|&(n, _)| n).collect::<Vec<_>>(), vec![11, 22]);
        let two_inside =
            |process: usize| if process == 3 || process == 7 { times(1.0, 0) } else { three_times(process + 1) };
        let found = drive(&first, &plan(64), two_inside, roomy);
        assert!(found.confirmed && found.ending == Ending::Confirmed, "{found:?}");
        assert_eq!(found.report.resampling.processes, 22);
        assert_eq!(found.report.estimate.level, 1.0 - 2.0 * looks.interim[1].1, "the second look's level");
    }

    /// The screen's own process never counts toward its confirmation: it was chosen because it
    /// signalled, so counting it would make the level depend on that choice. Twelve fresh
    /// processes on one look at 0.1 % (50 comparisons), two of them measuring no difference —
    /// the two nearest the margin, inside it — are exactly one count short of confirming
    /// (`W+ = 75`, the critical count 76); the screen's process, three times the baseline and
    /// far beyond the margin, would make it 88 of 91, beyond the critical count 87 for thirteen
    /// values. The confirmation must not confirm, and must have tested the twelve alone. (Being
    /// one count short, the twelve would also confirm on a critical count one too low.)
    #[test]
    fn the_screens_own_process_never_counts_toward_its_confirmation() {
        let first = first_round();
        let one_look = plan(12);
        assert!(one_look.looks(12).interim.is_empty(), "one look, on all twelve, at the whole level");
        let two_inside =
            |process: usize| if process == 2 || process == 5 { times(1.0, 0) } else { three_times(process + 1) };
        let found = drive(&first, &one_look, two_inside, roomy);
        assert_eq!((found.confirmed, found.ending), (false, Ending::LastLook), "{:?}", found.report.verdict);
        assert_eq!(found.report.resampling.processes, 12, "the fresh processes alone");

        // What the check rests on: the fresh processes alone fall one count short, and the
        // screen's process among them would carry the test past its critical count.
        let margin = found.report.verdict.tolerance.ln_1p();
        let fresh: Vec<f64> = (0..12).map(|process| process_log_ratio(&two_inside(process).samples)).collect();
        let critical = |n: usize| crate::stats::SignedRank::new(n).critical(one_look.alpha).expect("reachable");
        assert_eq!(SignedRankAnalysis::of(&fresh).count_above(margin) + 1, critical(12), "one count short");
        let pooled: Vec<f64> = fresh.iter().copied().chain([process_log_ratio(&first.samples)]).collect();
        assert!(SignedRankAnalysis::of(&pooled).above(margin, one_look.alpha), "the screen's process would confirm");
    }

    #[test]
    fn a_plan_too_small_for_the_level_starts_only_the_pilot_and_says_what_would_make_room() {
        let first = first_round();
        // Nine processes cannot reach 0.1 % (2⁻⁹ = 0.2 %): the pilot shows there is no room.
        let small = plan(9);
        assert!(!small.decidable());
        let found = drive(&first, &small, |process| three_times(process + 1), roomy);
        assert!(!found.confirmed && found.ending == Ending::NoRoom, "{found:?}");
        assert_eq!(found.report.resampling.processes, 1, "only the pilot ran");
        let settle = found.settle.expect("no room says what would make room");
        assert_eq!(settle.processes, small.fewest());
    }

    #[test]
    fn a_confirmation_the_time_cap_cuts_takes_no_look() {
        let first = first_round();
        // Room for every process until the twelfth (the pilot is the first) is asked for: it never
        // starts.
        let cut = |asked: usize| if asked <= 10 { Duration::MAX } else { Duration::ZERO };
        let found = drive(&first, &plan(12), |process| three_times(process + 1), cut);
        assert_eq!((found.confirmed, found.ending, found.report.resampling.processes), (false, Ending::TimeCap, 11));
        assert_eq!(found.report.verdict.outcome, Outcome::Parity, "no look, so no verdict beyond parity");
        assert!(found.settle.is_some());
    }

    /// `Report::over_processes`: the mean over every process once a confirmation ran.
    #[test]
    fn a_confirmed_verdict_averages_every_process() {
        let first = first_round();
        assert!(Judgement::of(first.clone()).over_processes().is_none());
        let found = drive(&first, &plan(10), |process| three_times(process + 1), roomy);
        let mean = conclude(first, found).over_processes().expect("confirmed");
        assert_eq!(mean.processes, 11);
        assert!(mean.difference < -1.0, "the candidate takes about 3x the time: {mean:?}");
    }
}
