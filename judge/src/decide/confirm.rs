//! The confirmation: the screen's signal tested on fresh processes alone, by Wilcoxon's exact
//! signed-rank test of their log ratios.
//!
//! Each fresh process gives its own log ratio `y_j`, the median of its rounds' `ln(cᵢ / bᵢ)`.
//! The screen's process is left out entirely: it was chosen because it signalled, and counting
//! it would make the test's level depend on that choice. A first fresh process, the pilot,
//! measures its whole share (it never stops early) and so shows what a whole process costs;
//! from that alone it is planned how many fit in the time left (`K`), the pilot not among them.
//! The test is taken **once**, on those `K`: it **confirms** when it puts the centre of the `y_j`
//! beyond `ln(1 + tolerance)` on the signal's side at the one-sided level `α`
//! ([`confirmation_alpha`]). From the fourth process on, a futility check
//! may end it early — the reverse test at 10 % puts the centre inside the parity — which never
//! confirms anything and so cannot raise the error rate. A process that would end past the time
//! cap is never started, and then no look is taken at all: the confirmation is inconclusive,
//! never decided on the processes the cap happened to leave.
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

/// The share of the comparison's budget each fresh process measures for: an eighth. Shorter
/// processes buy the test more processes in the same time, which it needs twice over: its
/// sureness is bounded by `2^−k` for `k` processes, and the spread between processes is only
/// averaged out by more of them (`docs/statistics.md`, "Why one look, on processes planned by a
/// pilot").
pub const FRESH_SHARE: f64 = 0.125;

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

/// How a confirmation is to be taken: its error rate and how many fresh processes it looks at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// One-sided error rate of the whole confirmation.
    pub alpha: f64,
    /// The most fresh processes the test is taken on (`RTCOMPARE_MAX_PROCESSES`); the pilot
    /// plans how many of them fit.
    pub processes: usize,
    /// The comparison's budget, for the settling figure of an undecided confirmation.
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
    /// which the pilot's real cost plans how many fit ([`Confirming`]). When `left`, the time the
    /// cap still leaves, could not hold the pilot and the fewest processes the test needs even
    /// if each cost only its share of the budget ([`FRESH_SHARE`]) and [`PROCESS_OVERHEAD`], the
    /// plan holds the room there is and is not [decidable](Plan::decidable): no process is
    /// started.
    ///
    /// ```
    /// use rtcompare_judge::decide::Plan;
    /// use std::time::Duration;
    ///
    /// let budget = Duration::from_secs(1);
    /// let roomy = Plan::of_time(1, 24, budget, 3 * budget);
    /// assert_eq!((roomy.processes, roomy.decidable()), (24, true));
    /// let cramped = Plan::of_time(1, 24, budget, budget / 2);
    /// assert!(!cramped.decidable());
    /// ```
    pub fn of_time(registered: usize, most: usize, budget: Duration, left: Duration) -> Plan {
        let one = budget.mul_f64(FRESH_SHARE) + PROCESS_OVERHEAD;
        let room = fitting(left, one).saturating_sub(1);
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
    /// let plan = Plan::of_counts(1, 24, Duration::from_secs(1));
    /// assert_eq!(plan.processes, plan.fewest() + 1);
    /// ```
    pub fn of_counts(registered: usize, most: usize, budget: Duration) -> Plan {
        let alpha = confirmation_alpha(registered);
        Plan { alpha, processes: (fewest_for_level(alpha) + SPARE_COUNTED).min(most), budget }
    }

    /// The fewest fresh processes with which the test can confirm at all at `alpha`.
    pub fn fewest(&self) -> usize {
        fewest_for_level(self.alpha)
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
/// The first process is a **pilot**: what it costs — start-up, calibration, its share of the
/// budget — plans how many processes the test is taken on (`K`, at most `plan.processes`), and
/// it is not among them, so the number of processes tested depends on nothing they measure.
/// With room for fewer than the test needs ([`Plan::fewest`]) no more are started. Before each
/// of the `K`, the time left is asked again; when one more no longer fits, the confirmation ends
/// without a look.
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
    /// The pilot, once it ran: it is judged only when it is all there is.
    pilot: Option<Measured>,
    /// The processes to test, planned once the pilot has run.
    planned: Option<usize>,
    tested: Vec<Measured>,
    logs: Vec<f64>,
    longest: Duration,
    spent: Duration,
    /// Why the confirmation ended, once it has.
    ended: Option<Ending>,
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
            pilot: None,
            planned: None,
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
        if self.pilot.is_none() {
            return Step::Measure(0);
        }
        let fits = fitting(left, self.longest.mul_f64(SLOWER_PROCESS));
        let planned = *self.planned.get_or_insert(self.plan.processes.min(fits));
        if planned < self.plan.fewest() {
            return Step::Done(Box::new(self.no_room(planned)));
        }
        if self.ended.is_none() {
            if self.tested.len() == planned {
                self.ended = Some(Ending::LastLook);
            } else if fits == 0 {
                self.ended = Some(Ending::TimeCap);
            }
        }
        match self.ended {
            None => Step::Measure(self.tested.len() + 1),
            Some(ending) => Step::Done(Box::new(self.found(planned, ending))),
        }
    }

    /// Records what fresh process `n` — the one [`Confirming::next`] asked for — measured, and
    /// the wall time it cost, and takes the futility check.
    pub fn record(&mut self, measured: Measured, cost: Duration) {
        self.longest = self.longest.max(cost);
        self.spent += cost;
        if self.planned.is_none() {
            self.pilot = Some(measured);
            return;
        }
        self.logs.push(process_log_ratio(&measured.samples));
        self.tested.push(measured);
        if futile(self.side, &self.logs, self.options.parity) {
            self.ended = Some(Ending::RuledOut);
        }
    }

    /// The confirmation that found room for only `planned` processes after the pilot, fewer than
    /// the test needs: the pilot's figures, and what would make room.
    fn no_room(&mut self, planned: usize) -> Confirmation {
        let pilot = self.pilot.take().into_iter().collect();
        let test = FreshTest { side: self.side, alpha: self.plan.alpha, look: false };
        let report = judge_fresh(pilot, self.metric, &self.options, test);
        let (needed, longest) = (self.plan.fewest(), self.longest.as_secs_f64());
        let budget = holding(self.plan.budget, needed, longest);
        let settle = Settle { processes: needed, seconds: needed as f64 * longest, budget };
        let report = Report { duration: self.spent, ..report };
        Confirmation { report, confirmed: false, planned, ending: Ending::NoRoom, settle: Some(settle) }
    }

    /// The confirmation of `planned` processes that ended so: the test on all of them when the
    /// planned look was reached, figures only otherwise.
    fn found(&mut self, planned: usize, ending: Ending) -> Confirmation {
        let look = ending == Ending::LastLook;
        let test = FreshTest { side: self.side, alpha: self.plan.alpha, look };
        let report = judge_fresh(std::mem::take(&mut self.tested), self.metric, &self.options, test);
        let confirmed = look && report.verdict.outcome == self.side;
        let ending = if confirmed { Ending::Confirmed } else { ending };
        let plan = Plan { processes: planned, ..self.plan };
        let settle = (!confirmed && ending != Ending::RuledOut)
            .then(|| settling(self.side, &self.logs, &report, &plan, self.spent))
            .flatten();
        let report = Report { duration: self.spent, ..report };
        Confirmation { report, confirmed, planned, ending, settle }
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
    // The pilot is one of the processes the time was spent on.
    let pace = took.as_secs_f64() / (logs.len() + 1) as f64;
    let precision = plan.budget.mul_f64((processes as f64 / plan.processes.max(1) as f64).max(1.0));
    let budget = precision.max(holding(plan.budget, processes, pace));
    Some(Settle { processes, seconds: processes as f64 * pace, budget })
}

/// A budget whose time cap holds a screen of its own length, a pilot and `processes` fresh
/// processes, each costing what one cost at `budget` (`pace` seconds) plus the growth of its
/// share: `TIME_CAP · b ≥ b + (processes + 1) · (pace + FRESH_SHARE · (b − budget))`, solved for `b`. Past
/// about 20 processes the shares alone fill the cap; the figure is then that of 20.
fn holding(budget: Duration, processes: usize, pace: f64) -> Duration {
    let n = (processes + 1).min(20) as f64;
    let fixed = (pace - FRESH_SHARE * budget.as_secs_f64()).max(0.0);
    let room = f64::from(TIME_CAP) - 1.0 - n * FRESH_SHARE;
    Duration::from_secs_f64(SLOWER_PROCESS * n * fixed / room).max(budget)
}

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
        let series = |ns: f64, slot: u32| Series {
            per_op: (0..40).map(|i| ns * (1.0 + 0.002 * ((i * 7 + slot as usize) % 5) as f64)).collect(),
            position: (0..40).map(|round| round * 4 + slot).collect(),
            placements: Vec::new(),
        };
        let slow = 300.0 * (1.0 + 0.01 * process as f64);
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
        // Room for every process until the twelfth is asked for: it never starts.
        let cut = |asked: usize| if asked <= 11 { Duration::MAX } else { Duration::ZERO };
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
