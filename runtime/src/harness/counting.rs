//! Instruction counts beside time: one counting process for the run, this test binary started
//! once more under callgrind as a child (`client.rs`, `server.rs`), asked after each
//! comparison's time verdict to count that comparison's four loops. What it counts is read from
//! callgrind's dumps (`crate::instructions`) into the comparison's record.
//!
//! Counting never changes a time verdict or a test's result, except under
//! `RTCOMPARE_INSTRUCTIONS=callgrind`, where a comparison that could not be counted fails.
//!
//! A comparison against a git revision runs its arms in two builds, so it is counted in two
//! counting processes, one of each build (each started once for the run): the candidate's loops
//! in this build's and the baseline's in the baseline build's, read together as one count.
//!
//! A pair judged on instruction counts (`metric = "instructions"`) is measured here too, in
//! rounds ([`Counter::measure`]): its first round in the run's counting processes, each fresh
//! process of its confirmation in counting processes of its own.

use super::client::Child;
use super::error::{HarnessError, Process};
use super::plan::TrialPlan;
use super::protocol::Request;
use super::settings::Instructions as Mode;
use crate::child::Watchdog;
use crate::instructions::counts::{Counted, Instructions, counted, counted_across};
use crate::instructions::profile::{Profile, read_dumps};
use crate::instructions::valgrind::{self, LOG_FILE, Valgrind};
use rtcompare_judge::decide::TIME_CAP;
use rtcompare_judge::measure::{Calibration, Measured, Samples, Series};
use rtcompare_judge::verdict::Judgement;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// The two batch sizes each loop is counted in: an empty batch counts what every batch costs
/// whatever its size (the loop around the calls, the requests around the loop), so the other's
/// count less the empty one's is its calls' alone, averaged over as many inputs as it has calls
/// (a function whose work depends on its input counts differently from one call to the next).
const SIZES: [u64; 2] = [0, 4];

/// The calls one count makes: each of the four loops once to warm up, then in both batches.
const CALLS: u64 = 4 * (1 + SIZES[0] + SIZES[1]);

/// How many times slower than natively code is taken to run under callgrind when predicting
/// what a count costs: above the 55–85× measured without cache simulation (docs/instructions.md).
const SLOWDOWN: f64 = 100.0;

/// The functions a record lists, largest change first.
const FUNCTIONS: usize = 10;

/// How long a count may take beyond its prediction before its process is killed: valgrind
/// translates each function the first time it runs, and a busy machine slows it.
const GRACE: Duration = Duration::from_secs(30);

/// How long the counting process may take to start and say hello.
const START_LIMIT: Duration = Duration::from_secs(60);

/// The rounds a process counts a pair judged on instructions in, each with its own inputs: as
/// with the allocation metrics, enough to show whether the count varies with the input at all.
pub(crate) const COUNTED_ROUNDS: u64 = 10;

/// Where a pair judged on instruction counts is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counts {
    /// In the run's counting process: the first round.
    InRun,
    /// In a counting process started for this count and ended after it: a fresh process.
    Fresh,
}

/// What became of counting one comparison.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Counting {
    /// Counted.
    Counted(Instructions),
    /// Not counted, and why.
    NotCounted(String),
}

/// The run's counting: whether it counts, and its counting processes once started.
pub(crate) struct Counter {
    mode: Mode,
    /// Passed on to the counting process, as to every child: an unoptimised build measured on
    /// purpose (`RTCOMPARE_DEBUG=1`).
    debug: bool,
    state: Mutex<State>,
    /// Lines the run prints once each: why counting is not done.
    news: Mutex<Vec<String>>,
}

enum State {
    /// Not counting, and why.
    Off(String),
    /// Valgrind found; the run's counting process of each build, once started (and until it
    /// fails): this build's, and the baseline build's for comparisons against a git revision.
    On { valgrind: Valgrind, servers: Box<Servers> },
}

/// The counting processes of a run, or of one fresh count: one per build.
#[derive(Default)]
struct Servers {
    this: Option<Server>,
    baseline: Option<Server>,
}

impl Servers {
    fn slot(&mut self, build: Build) -> &mut Option<Server> {
        match build {
            Build::This => &mut self.this,
            Build::Baseline => &mut self.baseline,
        }
    }
}

/// What a count is asked: the test, its rounds' seeds, whether only the candidate's loops are
/// counted (against a git revision), and how long it may take.
struct Ask<'a> {
    test: &'a str,
    seed: u64,
    rounds: u64,
    costly_warm_up: bool,
    candidate_only: bool,
    limit: Duration,
}

impl Counter {
    /// The counting of a run whose `RTCOMPARE_INSTRUCTIONS` is `mode`, nothing checked yet.
    pub(crate) fn new(mode: Mode, debug: bool) -> Counter {
        Counter {
            mode,
            debug,
            state: Mutex::new(State::Off("RTCOMPARE_INSTRUCTIONS=off".to_owned())),
            news: Mutex::new(Vec::new()),
        }
    }

    /// Finds valgrind, before anything is measured. Where counting is required and cannot be
    /// done, the line that stops the run; where it is merely unavailable, that line becomes
    /// news ([`Counter::news`]) and every comparison is not counted, for that reason.
    pub(crate) fn prepare(&self) -> Result<(), String> {
        if self.mode == Mode::Off {
            return Ok(());
        }
        let found = valgrind::supported().and_then(|()| valgrind::find(std::env::var_os("PATH").as_deref()));
        let state = match found {
            Ok(valgrind) => State::On { valgrind, servers: Box::default() },
            Err(failure) if self.mode == Mode::Required => {
                return Err(format!("{failure} (RTCOMPARE_INSTRUCTIONS=callgrind requires counting)"));
            }
            Err(failure) => {
                self.say(format!("{failure}; RTCOMPARE_INSTRUCTIONS=off leaves counting out without this line"));
                State::Off(failure.to_string())
            }
        };
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = state;
        Ok(())
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
        let started = Server::start(valgrind, build, self.debug);
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match (started, &mut *state) {
            (Ok(server), State::On { servers, .. }) => *servers.slot(build) = Some(server),
            (Err(why), State::On { .. }) => {
                self.off(&mut state, why);
            }
            (_, State::Off(_)) => {}
        }
    }

    /// Whether a comparison that could not be counted fails its test.
    pub(crate) fn required(&self) -> bool {
        self.mode == Mode::Required
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
    pub(crate) fn count(&self, plan: &TrialPlan<'_>, judgement: &Judgement) -> Option<Counting> {
        if self.mode == Mode::Off {
            return None;
        }
        if plan.metric() != rtcompare_judge::Metric::Time {
            return Some(Counting::NotCounted(format!(
                "instructions are counted beside time, and this pair measures `{}`",
                plan.metric().as_str()
            )));
        }
        if let Err(why) = within_limit(per_call_ns(judgement), plan.budget) {
            return Some(Counting::NotCounted(why));
        }
        let ask = Ask {
            test: plan.name,
            seed: plan.settings.seed,
            rounds: 1,
            costly_warm_up: costly_warm_up(judgement.first.calibration.first_call_ns),
            candidate_only: plan.against_revision(),
            limit: predicted(per_call_ns(judgement)) + GRACE,
        };
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let version = match &*state {
            State::Off(why) => return Some(Counting::NotCounted(why.clone())),
            State::On { valgrind, .. } => valgrind.version.clone(),
        };
        Some(match self.rounds(&mut state, plan, &ask, Counts::InRun) {
            Ok(Some(mut rounds)) => match rounds.pop() {
                Some(counted) => {
                    let v = &judgement.verdict;
                    Counting::Counted(Instructions::new(counted, &version, v.outcome, v.tolerance))
                }
                None => Counting::NotCounted("not counted: no round was counted".to_owned()),
            },
            Ok(None) => Counting::NotCounted("not counted: the baseline build has no such comparison".to_owned()),
            Err(why) => Counting::NotCounted(why),
        })
    }

    /// Measures the pair of `plan`, judged on instruction counts, as one process: its four
    /// loops counted in [`COUNTED_ROUNDS`] rounds, round `r` with the inputs of
    /// `seeds::nth(seed, r)`, `at` the run's counting processes or fresh ones. Each count may take
    /// four budgets and half a minute. `None` when the baseline build of a comparison against a
    /// git revision has no such comparison (it is new); why not, as the test's failure, where it
    /// cannot be counted.
    pub(crate) fn measure(&self, plan: &TrialPlan<'_>, seed: u64, at: Counts) -> Result<Option<Measured>, String> {
        if self.mode == Mode::Off {
            return Err("RTCOMPARE_INSTRUCTIONS=off turns counting off; unset it, or set it to `callgrind`".to_owned());
        }
        let ask = Ask {
            test: plan.name,
            seed,
            rounds: COUNTED_ROUNDS,
            costly_warm_up: true,
            candidate_only: plan.against_revision(),
            limit: plan.budget * TIME_CAP + GRACE,
        };
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(rounds) = self.rounds(&mut state, plan, &ask, at)? else { return Ok(None) };
        let registration = plan.comparison.registration;
        let baseline = match super::revision::prepared().filter(|_| plan.against_revision()) {
            Some(revision) => format!("{} at {}", registration.candidate, revision.revision),
            None => registration.baseline.to_owned(),
        };
        Ok(Some(measured(registration.candidate, &baseline, &rounds)))
    }

    /// Counts `ask`'s rounds of `plan`'s test: in this build's counting process and, against a
    /// git revision, in the baseline build's too, whose candidate is the baseline; `at` the run's
    /// processes (started on the first count, and again after one fails) or processes started
    /// for this count alone. `None` when the baseline build has no such comparison.
    fn rounds(
        &self,
        state: &mut State,
        plan: &TrialPlan<'_>,
        ask: &Ask<'_>,
        at: Counts,
    ) -> Result<Option<Vec<Counted>>, String> {
        let State::On { valgrind, servers } = state else {
            return Err(match state {
                State::Off(why) => why.clone(),
                State::On { .. } => String::new(),
            });
        };
        let mut fresh = Servers::default();
        let servers = match at {
            Counts::InRun => &mut **servers,
            Counts::Fresh => &mut fresh,
        };
        let now = self.dumps(&mut servers.this, valgrind, Build::This, ask);
        let now = match now {
            Err(Failed::ToStart(why)) => return Err(self.off(state, why)),
            other => other.map_err(Failed::into_line)?,
        };
        let ids = |first: u64| first..first + ask.rounds;
        if !plan.against_revision() {
            let counted = ids(now.first).map(|id| counted(&now.profiles, id, (SIZES[0], SIZES[1]), FUNCTIONS));
            return counted.collect::<Result<_, _>>().map(Some).map_err(|why| format!("not counted: {why}"));
        }
        let then = match self.dumps(&mut servers.baseline, valgrind, Build::Baseline, ask) {
            Err(Failed::New) => return Ok(None),
            Err(Failed::ToStart(why)) => return Err(self.off(state, why)),
            other => other.map_err(Failed::into_line)?,
        };
        ids(now.first)
            .zip(ids(then.first))
            .map(|(id_now, id_then)| {
                counted_across((&now.profiles, id_now), (&then.profiles, id_then), (SIZES[0], SIZES[1]), FUNCTIONS)
                    .map_err(|why| format!("not counted: {why}"))
            })
            .collect::<Result<_, _>>()
            .map(Some)
    }

    /// The dumps of `ask`'s rounds, counted by the counting process of `build` in `slot`,
    /// started there first where there is none. A process that fails is dropped from its slot and
    /// said once, so that the next count starts another.
    fn dumps(
        &self,
        slot: &mut Option<Server>,
        valgrind: &Valgrind,
        build: Build,
        ask: &Ask<'_>,
    ) -> Result<Dumps, Failed> {
        if slot.is_none() {
            *slot = Some(Server::start(valgrind.clone(), build, self.debug).map_err(Failed::ToStart)?);
        }
        let Some(server) = slot.as_mut() else { return Err(Failed::Other(String::new())) };
        if !server.tests.iter().any(|test| test == ask.test) {
            return Err(match build {
                Build::Baseline => Failed::New,
                Build::This => Failed::Other(format!("not counted: this build has no comparison `{}`", ask.test)),
            });
        }
        match server.count(ask) {
            Ok(dumps) => Ok(dumps),
            Err(Fault::OfComparison(why)) => Err(Failed::Other(why)),
            Err(Fault::OfProcess(why)) => {
                *slot = None;
                self.say(why.clone());
                Err(Failed::Other(why))
            }
        }
    }

    /// After a counting process could not be started, valgrind cannot run the build at all:
    /// nothing more is counted this run, for that reason, said once.
    fn off(&self, state: &mut State, why: String) -> String {
        self.say(why.clone());
        *state = State::Off(why.clone());
        why
    }
}

/// Which build a counting process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Build {
    /// This test binary.
    This,
    /// The baseline build of a comparison against a git revision.
    Baseline,
}

/// Why a counting process gave no dumps.
enum Failed {
    /// It could not be started.
    ToStart(String),
    /// It is the baseline build's, and that build has no such comparison.
    New,
    /// The count failed, and why.
    Other(String),
}

impl Failed {
    fn into_line(self) -> String {
        match self {
            Failed::ToStart(why) | Failed::Other(why) => why,
            Failed::New => "not counted: the baseline build has no such comparison".to_owned(),
        }
    }
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

/// The longer of the arms' times per call in the first round's calibration, in nanoseconds.
fn per_call_ns(judgement: &Judgement) -> f64 {
    let c = &judgement.first.calibration;
    let each = |batch_ns: f64, iters: u64| batch_ns / iters.max(1) as f64;
    each(c.candidate_batch_ns, c.candidate_iters).max(each(c.baseline_batch_ns, c.baseline_iters))
}

/// What switching callgrind's instrumentation off and on again costs a count: it discards every
/// translation made so far (measured on this project's machine: about 40 ms a count).
const SWITCH: Duration = Duration::from_millis(40);

/// Whether a comparison whose first call took `first_call_ns` natively is warmed up with
/// instrumentation off: where that call, instrumented, would cost more than switching
/// instrumentation off and on again ([`SWITCH`]). Its first call pays what is built once (a
/// large input in a `OnceLock`), which the warm-up is for.
fn costly_warm_up(first_call_ns: f64) -> bool {
    Duration::from_secs_f64((first_call_ns * SLOWDOWN / 1e9).max(0.0)) > SWITCH
}

/// What counting a comparison whose calls take `per_call_ns` is predicted to cost.
fn predicted(per_call_ns: f64) -> Duration {
    Duration::from_secs_f64((CALLS as f64 * per_call_ns * SLOWDOWN / 1e9).max(0.0))
}

/// Whether counting calls of `per_call_ns` fits within `limit` (the comparison's time budget),
/// and if not, why it is not counted.
fn within_limit(per_call_ns: f64, limit: Duration) -> Result<(), String> {
    let cost = predicted(per_call_ns);
    if cost <= limit {
        return Ok(());
    }
    Err(format!(
        "not counted: a call takes {}, so counting its {CALLS} calls would take about {:.1} s under callgrind, over \
         this comparison's limit of {:.1} s (its time budget; `time = \"...\"` or RTCOMPARE_TIME raise it)",
        rtcompare_report::format_value(per_call_ns, rtcompare_judge::Metric::Time),
        cost.as_secs_f64(),
        limit.as_secs_f64()
    ))
}

/// Why a count failed: the comparison's own doing (the process goes on), or the process's end.
enum Fault {
    OfComparison(String),
    OfProcess(String),
}

/// A counting process: this test binary, or the baseline build, serving the child protocol
/// under callgrind, its dumps in a folder of its own.
struct Server {
    child: Child,
    /// The tests it has, as its hello announced them.
    tests: Vec<String>,
    dumps: DumpFolder,
    next_id: u64,
}

/// What one count dumped: every dump it wrote, round `r`'s under the comparison number
/// `first + r`.
struct Dumps {
    profiles: Vec<Profile>,
    first: u64,
}

impl Server {
    /// Starts `build` under callgrind and hears its hello; the line saying why not.
    fn start(valgrind: Valgrind, build: Build, debug: bool) -> Result<Server, String> {
        let program = match build {
            Build::This => std::env::current_exe()
                .map_err(|e| format!("instructions not counted: {}", HarnessError::OwnBinary(e)))?,
            Build::Baseline => super::revision::prepared()
                .map(|baseline| baseline.binary.clone())
                .ok_or_else(|| "instructions not counted: no baseline build was prepared".to_owned())?,
        };
        let dumps =
            DumpFolder::new().map_err(|e| format!("instructions not counted: no folder for callgrind's dumps: {e}"))?;
        let started = Child::start(valgrind.command(&dumps.0, &program), Process::Counter, None, debug);
        let mut child = started.map_err(|e| format!("instructions not counted: {e}"))?;
        let watchdog = Watchdog::start(START_LIMIT, &[child.watched()]);
        let hello = child.hello();
        let timed_out = watchdog.stop();
        match hello {
            Ok(tests) => Ok(Server { child, tests, dumps, next_id: 0 }),
            Err(error) => Err(ended(&dumps.0, error, timed_out.then_some(START_LIMIT))),
        }
    }

    /// Counts `ask`'s test in its rounds with the inputs of its seed onwards, warmed up
    /// uninstrumented where it says, killing the process after its limit: the dumps written.
    fn count(&mut self, ask: &Ask<'_>) -> Result<Dumps, Fault> {
        let first = self.next_id;
        self.next_id += ask.rounds;
        let watchdog = Watchdog::start(ask.limit, &[self.child.watched()]);
        let answer = self.child.count(&Request::Count {
            test: ask.test.to_owned(),
            id: first,
            sizes: SIZES,
            seed: ask.seed,
            rounds: ask.rounds,
            costly_warm_up: ask.costly_warm_up,
            candidate_only: ask.candidate_only,
        });
        let timed_out = watchdog.stop();
        match answer {
            Ok(Ok(())) => {}
            Ok(Err(refused)) => return Err(Fault::OfComparison(format!("not counted: {refused}"))),
            Err(error) => return Err(Fault::OfProcess(ended(&self.dumps.0, error, timed_out.then_some(ask.limit)))),
        }
        let profiles = read_dumps(&self.dumps.0)
            .map_err(|e| Fault::OfComparison(format!("not counted: callgrind's dump cannot be read: {e}")));
        self.dumps.clear();
        Ok(Dumps { profiles: profiles?, first })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.child.finish();
    }
}

/// The line saying why the counting process stopped answering: valgrind's own account in its
/// log where it gave one, else how the process ended.
fn ended(dumps: &Path, error: HarnessError, timed_out: Option<Duration>) -> String {
    if let Some(limit) = timed_out {
        return format!(
            "instructions not counted: counting took longer than {:.0} s under callgrind, and was stopped",
            limit.as_secs_f64()
        );
    }
    let log = std::fs::read_to_string(dumps.join(LOG_FILE)).unwrap_or_default();
    match error {
        HarnessError::Died { how, last_words, .. } => match valgrind::classify(how, &log, &last_words.join("\n")) {
            Err(failure) => failure.to_string(),
            Ok(()) => format!(
                "instructions not counted: {}",
                HarnessError::Died { process: Process::Counter, how, last_words }
            ),
        },
        other => format!("instructions not counted: {other}"),
    }
}

/// A folder for one counting process's dumps and log, removed with it.
struct DumpFolder(PathBuf);

/// How many dump folders this process has made: each counting process gets its own, since the
/// run's counting process lives on while the fresh ones of a confirmation come and go.
static FOLDERS: AtomicU64 = AtomicU64::new(0);

impl DumpFolder {
    fn new() -> std::io::Result<DumpFolder> {
        let n = FOLDERS.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("rtcompare-callgrind-{}-{n}", std::process::id()));
        // A folder an earlier process of this id left behind holds nothing of ours.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)?;
        Ok(DumpFolder(path))
    }

    /// Removes the dumps read so far (valgrind's log stays).
    fn clear(&self) {
        let Ok(entries) = std::fs::read_dir(&self.0) else { return };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with("callgrind.out.") {
                // One left behind is read again, and found under no label that is asked for.
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

impl Drop for DumpFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_too_slow_to_count_within_the_budget_is_not_counted_with_the_figures() {
        assert_eq!(within_limit(10_000.0, Duration::from_secs(1)), Ok(()), "10 µs calls cost 0.02 s");
        let why = within_limit(64e6, Duration::from_secs(1)).expect_err("64 ms calls cost 128 s");
        assert!(why.starts_with("not counted: a call takes 64"), "{why}");
        assert!(why.contains("about 128.0 s under callgrind, over this comparison's limit of 1.0 s"), "{why}");
        // At the edge: 20 calls at 100x cost the budget.
        assert_eq!(within_limit(500_000.0, Duration::from_secs(1)), Ok(()));
        assert!(within_limit(500_001.0, Duration::from_secs(1)).is_err());
    }

    /// Rounds counted with other inputs, as a measurement: each series in the order counted, at
    /// the positions of a round of four batches, one instruction the resolution of a batch.
    #[test]
    fn counted_rounds_are_a_measurement_of_their_counts_per_call() {
        use crate::instructions::counts::Routines;
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
    fn only_a_first_call_costlier_than_switching_instrumentation_is_warmed_up_without_it() {
        assert!(!costly_warm_up(10_000.0), "10 µs: 1 ms instrumented");
        assert!(!costly_warm_up(400_000.0), "0.4 ms: 40 ms instrumented, what a switch costs");
        assert!(costly_warm_up(400_100.0));
        assert!(costly_warm_up(50e6), "a 64 MiB ring built on the first call");
    }

    #[test]
    fn counting_off_counts_nothing_and_says_nothing() {
        let counter = Counter::new(Mode::Off, false);
        assert_eq!(counter.prepare(), Ok(()));
        assert!(counter.news().is_empty());
        assert!(!counter.required());
    }
}
