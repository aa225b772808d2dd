//! A counting process: this test binary, or the baseline build, serving the child protocol under
//! callgrind, its dumps in a folder of its own; started, asked to count, and read.

use super::cost::SIZES;
use crate::child::Watchdog;
use crate::harness::error::{CountingError, HarnessError, Process};
use crate::harness::process::client::Child;
use crate::harness::protocol::Request;
use crate::instructions::profile::{Profile, read_dumps};
use crate::instructions::valgrind::{self, LOG_FILE, Valgrind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How long the counting process may take to start and say hello.
const START_LIMIT: Duration = Duration::from_secs(60);

/// Which build a counting process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Build {
    /// This test binary.
    This,
    /// The baseline build of a comparison against a git revision.
    Baseline,
}

/// What a count is asked: the test, its rounds' seeds, whether only the candidate's loops are
/// counted (against a git revision), and how long it may take.
pub(super) struct Ask<'a> {
    pub(super) test: &'a str,
    pub(super) seed: u64,
    pub(super) rounds: u64,
    pub(super) costly_warm_up: bool,
    pub(super) candidate_only: bool,
    pub(super) limit: Duration,
}

/// Why a count failed: the comparison's own doing (the process goes on), or the process's end.
pub(super) enum Fault {
    OfComparison(CountingError),
    OfProcess(CountingError),
}

/// A counting process: this test binary, or the baseline build, serving the child protocol
/// under callgrind, its dumps in a folder of its own.
pub(super) struct CountingProcess {
    child: Child,
    /// The tests it has, as its hello announced them.
    pub(super) tests: Vec<String>,
    dumps: DumpFolder,
    next_id: u64,
}

/// What one count dumped: every dump it wrote, round `r`'s under the comparison number
/// `first + r`.
pub(super) struct Dumps {
    pub(super) profiles: Vec<Profile>,
    pub(super) first: u64,
}

impl CountingProcess {
    /// Starts `build` under callgrind and hears its hello; why not, where it cannot.
    pub(super) fn start(valgrind: Valgrind, build: Build, debug: bool) -> Result<CountingProcess, CountingError> {
        let program = match build {
            Build::This => std::env::current_exe().map_err(|e| process_error(HarnessError::OwnBinary(e)))?,
            Build::Baseline => crate::harness::rebuild::revision::prepared()
                .map(|baseline| baseline.binary.clone())
                .ok_or(CountingError::NoBaselineBuild)?,
        };
        let dumps = DumpFolder::new().map_err(CountingError::NoDumpFolder)?;
        let started = Child::start(valgrind.command(&dumps.0, &program), Process::Counting, None, debug);
        let mut child = started.map_err(process_error)?;
        let watchdog = Watchdog::start(START_LIMIT, &[child.watched()]);
        let hello = child.hello();
        let timed_out = watchdog.stop();
        match hello {
            Ok(tests) => Ok(CountingProcess { child, tests, dumps, next_id: 0 }),
            Err(error) => Err(ended(&dumps.0, error, timed_out.then_some(START_LIMIT))),
        }
    }

    /// Counts `ask`'s test in its rounds with the inputs of its seed onwards, warmed up
    /// uninstrumented where it says, killing the process after its limit: the dumps written.
    pub(super) fn count(&mut self, ask: &Ask<'_>) -> Result<Dumps, Fault> {
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
            Ok(Err(refused)) => return Err(Fault::OfComparison(refused)),
            Err(error) => return Err(Fault::OfProcess(ended(&self.dumps.0, error, timed_out.then_some(ask.limit)))),
        }
        let profiles = read_dumps(&self.dumps.0).map_err(|e| Fault::OfComparison(CountingError::UnreadableDump(e)));
        self.dumps.clear();
        Ok(Dumps { profiles: profiles?, first })
    }
}

impl Drop for CountingProcess {
    fn drop(&mut self) {
        self.child.finish();
    }
}

fn process_error(error: HarnessError) -> CountingError {
    CountingError::Process(Box::new(error))
}

/// Why the counting process stopped answering: valgrind's own account in its log where it gave
/// one, else how the process ended.
fn ended(dumps: &Path, error: HarnessError, timed_out: Option<Duration>) -> CountingError {
    if let Some(limit) = timed_out {
        return CountingError::TimedOut(limit);
    }
    let log = std::fs::read_to_string(dumps.join(LOG_FILE)).unwrap_or_default();
    match error {
        HarnessError::Died { how, last_words, .. } => match valgrind::classify(how, &log, &last_words.join("\n")) {
            Err(failure) => CountingError::Valgrind(failure),
            Ok(()) => process_error(HarnessError::Died { process: Process::Counting, how, last_words }),
        },
        other => process_error(other),
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
