//! Instruction counts beside time: one counting process for the run, this test binary started
//! once more under callgrind as a child (`client.rs`, `server.rs`), asked after each
//! comparison's time verdict to count that comparison's four loops. What it counts is read from
//! callgrind's dumps (`crate::instructions`) into the comparison's record.
//!
//! Counting never changes a time verdict or a test's result, except under
//! `RTCOMPARE_INSTRUCTIONS=callgrind`, where a comparison that could not be counted fails.

use super::client::Child;
use super::error::{HarnessError, Process};
use super::plan::TrialPlan;
use super::settings::Instructions as Mode;
use crate::child::Watchdog;
use crate::instructions::counts::{Instructions, counted};
use crate::instructions::profile::read_dumps;
use crate::instructions::valgrind::{self, LOG_FILE, Valgrind};
use crate::verdict::Judgement;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// The two batch sizes each loop is counted in: an empty batch counts what every batch costs
/// whatever its size (the loop around the calls, the requests around the loop), so the other's
/// count less the empty one's is its calls' alone, averaged over as many inputs as it has calls
/// (a function whose work depends on its input counts differently from one call to the next).
pub(crate) const SIZES: [u64; 2] = [0, 4];

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

/// What became of counting one comparison.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Counting {
    /// Counted.
    Counted(Instructions),
    /// Not counted, and why.
    NotCounted(String),
}

/// The run's counting: whether it counts, and its counting process once started.
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
    /// Valgrind found; no counting process is running (none yet, or the last one ended).
    Ready(Valgrind),
    /// A counting process serving.
    Serving(Server),
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
            Ok(valgrind) => State::Ready(valgrind),
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

    /// Counts the comparison of `plan`, whose time verdict is `judgement`; `None` when counting
    /// is off.
    pub(crate) fn count(&self, plan: &TrialPlan<'_>, judgement: &Judgement) -> Option<Counting> {
        if self.mode == Mode::Off {
            return None;
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let State::Off(why) = &*state {
            return Some(Counting::NotCounted(why.clone()));
        }
        if plan.metric() != crate::Metric::Time {
            return Some(Counting::NotCounted(format!(
                "instructions are counted beside time, and this pair measures `{}`",
                plan.metric().as_str()
            )));
        }
        if plan.against_revision() {
            return Some(Counting::NotCounted(
                "a comparison against a git revision is not counted: its arms run in two builds".to_owned(),
            ));
        }
        if let Err(why) = within_limit(per_call_ns(judgement), plan.budget) {
            return Some(Counting::NotCounted(why));
        }
        if let State::Ready(valgrind) = &*state {
            match Server::start(valgrind.clone(), self.debug) {
                Ok(server) => *state = State::Serving(server),
                Err(why) => {
                    // Valgrind cannot run this binary at all: no comparison will be counted.
                    self.say(why.clone());
                    *state = State::Off(why.clone());
                    return Some(Counting::NotCounted(why));
                }
            }
        }
        let State::Serving(server) = &mut *state else { return None };
        let limit = predicted(per_call_ns(judgement)) + GRACE;
        match server.count(plan.name, plan.settings.seed, limit) {
            Ok(counted) => {
                let v = &judgement.verdict;
                Some(Counting::Counted(Instructions::new(counted, &server.valgrind.version, v.outcome, v.tolerance)))
            }
            Err(Fault::OfComparison(why)) => Some(Counting::NotCounted(why)),
            Err(Fault::OfProcess(why)) => {
                // The next comparison starts a new counting process; this failure is said once.
                let valgrind = server.valgrind.clone();
                *state = State::Ready(valgrind);
                self.say(why.clone());
                Some(Counting::NotCounted(why))
            }
        }
    }
}

/// The longer of the arms' times per call in the first round's calibration, in nanoseconds.
fn per_call_ns(judgement: &Judgement) -> f64 {
    let c = &judgement.first.calibration;
    let each = |batch_ns: f64, iters: u64| batch_ns / iters.max(1) as f64;
    each(c.candidate_batch_ns, c.candidate_iters).max(each(c.baseline_batch_ns, c.baseline_iters))
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
        crate::units::format_value(per_call_ns, crate::Metric::Time),
        cost.as_secs_f64(),
        limit.as_secs_f64()
    ))
}

/// Why a count failed: the comparison's own doing (the process goes on), or the process's end.
enum Fault {
    OfComparison(String),
    OfProcess(String),
}

/// The counting process: this test binary serving the child protocol under callgrind, its
/// dumps in a folder of its own.
struct Server {
    valgrind: Valgrind,
    child: Child,
    dumps: DumpFolder,
    next_id: u64,
}

impl Server {
    /// Starts this test binary under callgrind and hears its hello; the line saying why not.
    fn start(valgrind: Valgrind, debug: bool) -> Result<Server, String> {
        let exe =
            std::env::current_exe().map_err(|e| format!("instructions not counted: {}", HarnessError::OwnBinary(e)))?;
        let dumps =
            DumpFolder::new().map_err(|e| format!("instructions not counted: no folder for callgrind's dumps: {e}"))?;
        let started = Child::start(valgrind.command(&dumps.0, &exe), Process::Counter, None, debug);
        let mut child = started.map_err(|e| format!("instructions not counted: {e}"))?;
        let watchdog = Watchdog::start(START_LIMIT, &[child.watched()]);
        let hello = child.hello();
        let timed_out = watchdog.stop();
        match hello {
            Ok(_) => Ok(Server { valgrind, child, dumps, next_id: 0 }),
            Err(error) => Err(ended(&dumps.0, error, timed_out.then_some(START_LIMIT))),
        }
    }

    /// Counts the test `name` with `seed`, killing the process after `limit`.
    fn count(&mut self, name: &str, seed: u64, limit: Duration) -> Result<crate::instructions::counts::Counted, Fault> {
        let id = self.next_id;
        self.next_id += 1;
        let watchdog = Watchdog::start(limit, &[self.child.watched()]);
        let answer = self.child.count(name, id, SIZES, seed);
        let timed_out = watchdog.stop();
        match answer {
            Ok(Ok(())) => {}
            Ok(Err(refused)) => return Err(Fault::OfComparison(format!("not counted: {refused}"))),
            Err(error) => return Err(Fault::OfProcess(ended(&self.dumps.0, error, timed_out.then_some(limit)))),
        }
        let profiles = read_dumps(&self.dumps.0)
            .map_err(|e| Fault::OfComparison(format!("not counted: callgrind's dump cannot be read: {e}")));
        self.dumps.clear();
        counted(&profiles?, id, (SIZES[0], SIZES[1]), FUNCTIONS)
            .map_err(|why| Fault::OfComparison(format!("not counted: {why}")))
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

impl DumpFolder {
    fn new() -> std::io::Result<DumpFolder> {
        let path = std::env::temp_dir().join(format!("rtcompare-callgrind-{}", std::process::id()));
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

    #[test]
    fn counting_off_counts_nothing_and_says_nothing() {
        let counter = Counter::new(Mode::Off, false);
        assert_eq!(counter.prepare(), Ok(()));
        assert!(counter.news().is_empty());
        assert!(!counter.required());
    }
}
