//! Instruction counts beside time: one counting process for the run, this test binary started
//! once more under callgrind as a child (`client.rs`, `server.rs`), asked after each
//! comparison's time verdict to count that comparison's four loops. What it counts is read from
//! callgrind's dumps (`crate::instructions`) into the comparison's record.
//!
//! Counting never changes a time verdict or a test's result, except under
//! `RTCOMPARE_INSTRUCTIONS=callgrind`, where a comparison that could not be counted fails.
//! Counting is prepared (valgrind looked for, its processes started) only when a comparison the
//! run selects will be counted, or when counting is required.
//!
//! A comparison against a git revision runs its arms in two builds, so it is counted in two
//! counting processes, one of each build (each started once for the run): the candidate's loops
//! in this build's and the baseline's in the baseline build's, read together as one count.
//!
//! A pair judged on instruction counts (`metric = "instructions"`) is measured here too, in
//! rounds ([`Counter::measure`]): its first round in the run's counting processes, each fresh
//! process of its confirmation in counting processes of its own.
//!
//! **Names.** Each concept of counting has one name, here and in `crate::instructions`:
//!
//! | name | what it is |
//! | --- | --- |
//! | [`CountingMode`] | `RTCOMPARE_INSTRUCTIONS`: auto, off, or required |
//! | [`Counter`] | the run's counting: its mode, valgrind, its counting processes, what to say |
//! | `CountingProcess` (`process.rs`) | one process under callgrind that counts on request |
//! | a *count* | one request to a counting process: a comparison's four loops, in rounds |
//! | [`CountIn`] | whether a count runs in the run's counting processes or in fresh ones |
//! | `cost.rs` | what a count is predicted to cost, and whether it fits the budget |
//! | `Counted` (judging crate) | what callgrind counted for one comparison, per call |
//! | `Instructions` (judging crate) | the record of a count beside a time verdict |
//! | [`BesideTime`] | what became of counting a comparison beside its time verdict |
//! | [`CountingError`] (`harness/error.rs`) | why instructions were not counted |
//! | `instructions::per_call` | from callgrind's dumps to counts per call |

mod cost;
mod process;

pub(crate) use self::process::Build;
use crate::harness::settings::CountingMode;

use self::cost::{GRACE, SIZES, costly_warm_up, per_call_ns, predicted, within_limit};
use self::process::{Ask, CountingProcess, Dumps, Fault};
use crate::harness::error::CountingError;
use crate::harness::plan::TrialPlan;
use crate::harness::registry::Against;
use crate::instructions::per_call::{counted, counted_across};
use crate::instructions::valgrind::{self, Valgrind};
use rtcompare_judge::counts::{Counted, Instructions};
use rtcompare_judge::decide::TIME_CAP;
use rtcompare_judge::measure::{Calibration, Measured, Samples, Series};
use rtcompare_judge::verdict::Judgement;
use std::ffi::OsStr;
use std::sync::{Arc, Mutex, PoisonError};

/// The functions a record lists, largest change first.
const FUNCTIONS: usize = 10;

/// The rounds a process counts a pair judged on instructions in, each with its own inputs: as
/// with the allocation metrics, enough to show whether the count varies with the input at all.
pub(crate) const COUNTED_ROUNDS: u64 = 10;

/// Where a count of a pair judged on instruction counts runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CountIn {
    /// In the run's counting processes: the first round.
    Run,
    /// In counting processes started for this count and ended after it: a fresh process.
    Fresh,
}

/// What became of counting one comparison beside its time verdict.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum BesideTime {
    /// Counted.
    Counted(Instructions),
    /// Not counted, and why, as the comparison's record says it.
    NotCounted(String),
}

/// The run's counting: whether it counts, and its counting processes once started.
pub(crate) struct Counter {
    mode: CountingMode,
    /// Passed on to the counting process, as to every child: an unoptimised build measured on
    /// purpose (`RTCOMPARE_DEBUG=1`).
    debug: bool,
    state: Mutex<State>,
    /// Lines the run prints once each: why counting is not done.
    news: Mutex<Vec<String>>,
}

enum State {
    /// Not counting, and why.
    Off(Arc<CountingError>),
    /// Valgrind found; the run's counting process of each build, once started (and until it
    /// fails): this build's, and the baseline build's for comparisons against a git revision.
    On { valgrind: Valgrind, processes: Box<Processes> },
}

/// The counting processes of a run, or of one fresh count: one per build.
#[derive(Default)]
struct Processes {
    this: Option<CountingProcess>,
    baseline: Option<CountingProcess>,
}

impl Processes {
    fn slot(&mut self, build: Build) -> &mut Option<CountingProcess> {
        match build {
            Build::This => &mut self.this,
            Build::Baseline => &mut self.baseline,
        }
    }
}

/// Why a counting process gave no dumps.
enum Failed {
    /// It could not be started.
    ToStart(CountingError),
    /// It is the baseline build's, and that build has no such comparison.
    New,
    /// The count failed, and why.
    Other(CountingError),
}

impl Failed {
    fn into_error(self) -> CountingError {
        match self {
            Failed::ToStart(why) | Failed::Other(why) => why,
            Failed::New => CountingError::NewInBaseline,
        }
    }
}

impl Counter {
    /// The counting of a run whose `RTCOMPARE_INSTRUCTIONS` is `mode`, not prepared yet.
    pub(crate) fn new(mode: CountingMode, debug: bool) -> Counter {
        Counter {
            mode,
            debug,
            state: Mutex::new(State::Off(Arc::new(CountingError::Unprepared))),
            news: Mutex::new(Vec::new()),
        }
    }

    /// Finds valgrind on `path` (the run's `PATH`), before anything is measured, where a
    /// comparison the run selects will be counted (`counts`) or counting is required. Where counting is required and cannot be
    /// done, the error that stops the run; where it is merely unavailable, that line becomes
    /// news ([`Counter::news`]) and every comparison is not counted, for that reason.
    pub(crate) fn prepare(&self, counts: bool, path: Option<&OsStr>) -> Result<(), CountingError> {
        if !self.prepares(counts) {
            return Ok(());
        }
        let found = valgrind::supported().and_then(|()| valgrind::find(path));
        let state = match found {
            Ok(valgrind) => State::On { valgrind, processes: Box::default() },
            Err(failure) if self.mode == CountingMode::Required => return Err(CountingError::Required(failure)),
            Err(failure) => {
                self.say(format!("{failure}; RTCOMPARE_INSTRUCTIONS=off leaves counting out without this line"));
                State::Off(Arc::new(CountingError::Valgrind(failure)))
            }
        };
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = state;
        Ok(())
    }

    /// Whether a run that counts (`counts`) a selected comparison, or none, prepares counting:
    /// only then, or where it is required, since a run that stops for want of valgrind stops
    /// whatever it selects.
    fn prepares(&self, counts: bool) -> bool {
        match self.mode {
            CountingMode::Off => false,
            CountingMode::Auto => counts,
            CountingMode::Required => true,
        }
    }

    /// Starts the run's counting process of `build` now, rather than at the first count: the
    /// harness starts them beside what it does before measuring (each is a valgrind start, about
    /// half a second), and only where a selected comparison will be counted. One that cannot
    /// start is said, and nothing is counted.
    pub(crate) fn start(&self, build: Build) {
        let valgrind = match &*self.state.lock().unwrap_or_else(PoisonError::into_inner) {
            State::On { valgrind, .. } => valgrind.clone(),
            State::Off(_) => return,
        };
        // Without the lock: the other build's process starts at the same time.
        let started = CountingProcess::start(valgrind, build, self.debug);
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match (started, &mut *state) {
            (Ok(process), State::On { processes, .. }) => *processes.slot(build) = Some(process),
            (Err(why), State::On { .. }) => {
                self.off(&mut state, why);
            }
            (_, State::Off(_)) => {}
        }
    }

    /// Whether a comparison that could not be counted fails its test.
    pub(crate) fn required(&self) -> bool {
        self.mode == CountingMode::Required
    }

    /// The lines to print now, each once: why counting is not done, or failed.
    pub(crate) fn news(&self) -> Vec<String> {
        std::mem::take(&mut *self.news.lock().unwrap_or_else(PoisonError::into_inner))
    }

    fn say(&self, line: String) {
        self.news.lock().unwrap_or_else(PoisonError::into_inner).push(line);
    }

    /// Counts the comparison of `plan`, whose time verdict is `judgement`, in the run's counting
    /// processes; `None` when counting is off.
    pub(crate) fn count(&self, plan: &TrialPlan<'_>, judgement: &Judgement) -> Option<BesideTime> {
        if self.mode == CountingMode::Off {
            return None;
        }
        Some(match self.count_beside(plan, judgement) {
            Ok(counted) => BesideTime::Counted(counted),
            Err(why) => BesideTime::NotCounted(why.to_string()),
        })
    }

    /// [`Counter::count`]'s count, or why there is none.
    fn count_beside(&self, plan: &TrialPlan<'_>, judgement: &Judgement) -> Result<Instructions, CountingError> {
        if plan.metric() != rtcompare_judge::measure::Metric::Time {
            return Err(CountingError::OtherMetric { metric: plan.metric().as_str() });
        }
        within_limit(per_call_ns(judgement), plan.budget)?;
        let ask = Ask {
            test: plan.name,
            seed: plan.settings.seed,
            rounds: 1,
            costly_warm_up: costly_warm_up(judgement.first.calibration.first_call_ns),
            candidate_only: plan.in_lockstep(),
            limit: predicted(per_call_ns(judgement)) + GRACE,
        };
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let version = match &*state {
            State::Off(why) => return Err(CountingError::Stopped(Arc::clone(why))),
            State::On { valgrind, .. } => valgrind.version.clone(),
        };
        let rounds = self.rounds(&mut state, plan, &ask, CountIn::Run)?.ok_or(CountingError::NewInBaseline)?;
        let counted = rounds.into_iter().last().ok_or(CountingError::NoRound)?;
        let v = &judgement.verdict;
        Ok(Instructions::new(counted, &version, v.outcome, v.tolerance))
    }

    /// Measures the pair of `plan`, judged on instruction counts, as one process: its four
    /// loops counted in [`COUNTED_ROUNDS`] rounds, round `r` with the inputs of
    /// `seeds::nth(seed, r)`, `at` the run's counting processes or fresh ones. Each count may take
    /// four budgets and half a minute. `None` when the baseline build of a comparison against a
    /// git revision has no such comparison (it is new); why not, as the test's failure, where it
    /// cannot be counted.
    pub(crate) fn measure(
        &self,
        plan: &TrialPlan<'_>,
        seed: u64,
        at: CountIn,
    ) -> Result<Option<Measured>, CountingError> {
        if self.mode == CountingMode::Off {
            return Err(CountingError::Off);
        }
        let ask = Ask {
            test: plan.name,
            seed,
            rounds: COUNTED_ROUNDS,
            costly_warm_up: true,
            candidate_only: plan.in_lockstep(),
            limit: plan.budget * TIME_CAP + GRACE,
        };
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(rounds) = self.rounds(&mut state, plan, &ask, at)? else { return Ok(None) };
        let registration = plan.comparison.registration;
        let revision = crate::harness::rebuild::revision::prepared().filter(|_| plan.against() == Against::Revision);
        let baseline = match revision {
            Some(revision) => format!("{} at {}", registration.candidate, revision.revision),
            None => registration.baseline.to_owned(),
        };
        Ok(Some(measured(registration.candidate, &baseline, &rounds)))
    }

    /// Counts `ask`'s rounds of `plan`'s test: in this build's counting process and, against a
    /// git revision, in the baseline build's too, whose candidate is the baseline (against another
    /// test, that test's candidate in this build's process); `at` the run's processes (started on
    /// the first count, and again after one fails) or processes started for this count alone.
    /// `None` when the baseline build has no such comparison.
    fn rounds(
        &self,
        state: &mut State,
        plan: &TrialPlan<'_>,
        ask: &Ask<'_>,
        at: CountIn,
    ) -> Result<Option<Vec<Counted>>, CountingError> {
        let State::On { valgrind, processes } = state else {
            return Err(match state {
                State::Off(why) => CountingError::Stopped(Arc::clone(why)),
                State::On { .. } => CountingError::Unprepared,
            });
        };
        let mut fresh = Processes::default();
        let processes = match at {
            CountIn::Run => &mut **processes,
            CountIn::Fresh => &mut fresh,
        };
        let now = self.dumps(&mut processes.this, valgrind, Build::This, ask);
        let now = match now {
            Err(Failed::ToStart(why)) => return Err(self.off(state, why)),
            other => other.map_err(Failed::into_error)?,
        };
        let then = match plan.against() {
            Against::Function => {
                return read_rounds(ask.rounds, |round| {
                    counted(&now.profiles, now.first + round, (SIZES[0], SIZES[1]), FUNCTIONS)
                })
                .map(Some);
            }
            Against::Revision => self.dumps(&mut processes.baseline, valgrind, Build::Baseline, ask),
            // The other test's routine is its candidate, counted by the same process.
            Against::Test(baseline) => {
                self.dumps(&mut processes.this, valgrind, Build::This, &Ask { test: baseline, ..*ask })
            }
        };
        let then = match then {
            Err(Failed::New) => return Ok(None),
            Err(Failed::ToStart(why)) => return Err(self.off(state, why)),
            other => other.map_err(Failed::into_error)?,
        };
        read_rounds(ask.rounds, |round| {
            let (now, then) = ((&now.profiles[..], now.first + round), (&then.profiles[..], then.first + round));
            counted_across(now, then, (SIZES[0], SIZES[1]), FUNCTIONS)
        })
        .map(Some)
    }

    /// The dumps of `ask`'s rounds, counted by the counting process of `build` in `slot`,
    /// started there first where there is none. A process that fails is dropped from its slot and
    /// said once, so that the next count starts another.
    fn dumps(
        &self,
        slot: &mut Option<CountingProcess>,
        valgrind: &Valgrind,
        build: Build,
        ask: &Ask<'_>,
    ) -> Result<Dumps, Failed> {
        let process = match slot {
            Some(process) => process,
            None => slot.insert(CountingProcess::start(valgrind.clone(), build, self.debug).map_err(Failed::ToStart)?),
        };
        if !process.tests.iter().any(|test| test == ask.test) {
            return Err(match build {
                Build::Baseline => Failed::New,
                Build::This => Failed::Other(CountingError::MissingHere(ask.test.to_owned())),
            });
        }
        match process.count(ask) {
            Ok(dumps) => Ok(dumps),
            Err(Fault::OfComparison(why)) => Err(Failed::Other(why)),
            Err(Fault::OfProcess(why)) => {
                *slot = None;
                self.say(why.to_string());
                Err(Failed::Other(why))
            }
        }
    }

    /// After a counting process could not be started, valgrind cannot run the build at all:
    /// nothing more is counted this run, for that reason, said once.
    fn off(&self, state: &mut State, why: CountingError) -> CountingError {
        self.say(why.to_string());
        let why = Arc::new(why);
        *state = State::Off(Arc::clone(&why));
        CountingError::Stopped(why)
    }
}

/// Each of `rounds` rounds read by `read`, or why the first that could not be was not counted.
fn read_rounds(
    rounds: u64,
    read: impl Fn(u64) -> Result<Counted, crate::instructions::per_call::NotCounted>,
) -> Result<Vec<Counted>, CountingError> {
    (0..rounds).map(|round| read(round).map_err(CountingError::NotCounted)).collect()
}

/// The rounds one process counted as a measurement: round `r` of each series is the count per
/// call of that loop with round `r`'s inputs, in the order the rounds were counted. A count's
/// resolution is one instruction over a batch of the larger size.
fn measured(candidate: &str, baseline: &str, rounds: &[Counted]) -> Measured {
    let series = |slot: u32, value: fn(&Counted) -> f64| Series {
        per_op: rounds.iter().map(value).collect(),
        position: (0..rounds.len() as u32).map(|round| round * 4 + slot).collect(),
        placements: Vec::new(),
    };
    let calls = SIZES[1];
    Measured {
        candidate: candidate.to_owned(),
        baseline: baseline.to_owned(),
        calibration: Calibration {
            resolution: 1.0,
            clock_step_ns: 0.0,
            candidate_iters: calls,
            baseline_iters: calls,
            target_batch_ns: 0.0,
            candidate_batch_ns: 0.0,
            baseline_batch_ns: 0.0,
            first_call_ns: 0.0,
        },
        samples: Samples {
            candidate_iters: calls,
            baseline_iters: calls,
            candidate: series(0, |c| c.per_call.candidate),
            candidate_twin: series(1, |c| c.per_call.candidate_twin),
            baseline: series(2, |c| c.per_call.baseline),
            baseline_twin: series(3, |c| c.per_call.baseline_twin),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounds counted with other inputs, as a measurement: each series in the order counted, at
    /// the positions of a round of four batches, one instruction the resolution of a batch.
    #[test]
    fn counted_rounds_are_a_measurement_of_their_counts_per_call() {
        use rtcompare_judge::counts::Routines;
        let round = |candidate: f64, baseline: f64| Counted {
            per_call: Routines { candidate, candidate_twin: candidate + 1.0, baseline, baseline_twin: baseline },
            change: candidate / baseline - 1.0,
            stable: false,
            functions: Vec::new(),
        };
        let m = measured("new", "old", &[round(103.0, 100.0), round(206.5, 200.0)]);
        assert_eq!((m.candidate.as_str(), m.baseline.as_str()), ("new", "old"));
        assert_eq!(m.samples.candidate.per_op, [103.0, 206.5]);
        assert_eq!(m.samples.candidate_twin.per_op, [104.0, 207.5]);
        assert_eq!(m.samples.baseline.per_op, [100.0, 200.0]);
        assert_eq!(m.samples.baseline_twin.per_op, [100.0, 200.0]);
        assert_eq!(
            (m.samples.candidate.position.as_slice(), m.samples.baseline_twin.position.as_slice()),
            (&[0, 4][..], &[3, 7][..])
        );
        assert_eq!((m.calibration.resolution, m.calibration.candidate_iters, m.samples.baseline_iters), (1.0, 4, 4));
    }

    #[test]
    fn only_a_run_that_counts_or_requires_counting_prepares_it() {
        let prepares = |mode, counts| Counter::new(mode, false).prepares(counts);
        assert!(prepares(CountingMode::Auto, true));
        assert!(!prepares(CountingMode::Auto, false), "no selected comparison is counted");
        assert!(!prepares(CountingMode::Off, true));
        assert!(prepares(CountingMode::Required, false), "a run that requires counting stops without it");
        let unprepared = Counter::new(CountingMode::Auto, false);
        assert!(unprepared.prepare(false, None).is_ok());
        assert!(unprepared.news().is_empty(), "nothing looked for, so nothing said");
    }

    #[test]
    fn counting_off_counts_nothing_and_says_nothing() {
        let counter = Counter::new(CountingMode::Off, false);
        assert!(counter.prepare(true, None).is_ok());
        assert!(counter.news().is_empty());
        assert!(!counter.required());
    }
}
