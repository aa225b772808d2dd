//! Building the fixture, running it, and the neighbours of the loaded conditions (the CPU hog
//! and the memory-bandwidth neighbour).

use crate::outcome::{Reading, Trial, read_results};
use crate::plan::Condition;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Prints `message` and exits: a benchmark that cannot run has nothing to report.
pub fn die(message: &str) -> ! {
    eprintln!("rtcompare-detection: {message}");
    std::process::exit(1)
}

/// The workspace root (two levels above this crate's manifest).
pub fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().nth(2).map(Path::to_path_buf).unwrap_or(manifest)
}

/// A `cargo` command in `dir`.
pub fn cargo(dir: &Path) -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    command.current_dir(dir);
    command
}

/// Runs a `cargo ... --message-format=json` build and returns the path of the executable it
/// reports (the last one, for a single target).
pub fn build_executable(mut command: Command, what: &str) -> PathBuf {
    command.arg("--message-format=json").stderr(Stdio::inherit());
    let output = command.output().unwrap_or_else(|e| die(&format!("could not run cargo to build {what}: {e}")));
    if !output.status.success() {
        die(&format!("building {what} failed ({})", output.status));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .unwrap_or_else(|| die(&format!("cargo built {what} but reported no executable")))
}

/// Builds the fixture's `detection` test binary in release and returns its path.
pub fn build_fixture() -> PathBuf {
    let mut command = cargo(&root());
    command.args(["test", "--release", "-p", "rtcompare-detection-fixture", "--test", "detection", "--no-run"]);
    build_executable(command, "the fixture")
}

/// How many comparisons the fixture registers (its `--list`): the `m` its confirmation level is
/// computed from. 0 when the list cannot be read.
pub fn registered(binary: &Path) -> usize {
    Command::new(binary)
        .arg("--list")
        .stderr(Stdio::null())
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.ends_with(": test")).count())
        .unwrap_or(0)
}

/// `RTCOMPARE_LAYOUT` for every run of the fixture, from `--layout` (unset: the harness's default).
static LAYOUT: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Sets `RTCOMPARE_LAYOUT` for every later run of the fixture (the first call wins).
pub fn set_layout(layout: String) {
    let _ = LAYOUT.set(layout);
}

/// How to run one comparison of the fixture.
#[derive(Debug, Clone)]
pub struct Run<'a> {
    /// The pair's test name.
    pub name: &'a str,
    /// The injected difference in percent.
    pub k: i64,
    /// `RTCOMPARE_SEED`.
    pub seed: u64,
    /// `RTCOMPARE_TIME`.
    pub budget: &'a str,
    /// Whether a loss is confirmed in a fresh process (`RTCOMPARE_CONFIRM=0` when not).
    pub confirm: bool,
    /// `RTCOMPARE_INSTRUCTIONS`: unset, or `off`.
    pub instructions: Instructions,
}

/// How a run sets `RTCOMPARE_INSTRUCTIONS`, the switch of instruction counting (issue 37).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instructions {
    /// Unset: the harness's default.
    Default,
    /// `RTCOMPARE_INSTRUCTIONS=off`.
    Off,
}

/// The variable `--counting` sets to `off` for one of each trial's two runs.
pub const INSTRUCTIONS_VARIABLE: &str = "RTCOMPARE_INSTRUCTIONS";

/// Asks the fixture whether it takes `RTCOMPARE_INSTRUCTIONS=off`, before anything is measured:
/// it runs with the variable set and a filter that selects no comparison, which reads the
/// settings and measures nothing.
///
/// # Errors
/// [`instructions_refused`]'s message when the fixture rejects the variable or fails.
pub fn check_instructions_variable(binary: &Path) -> Result<(), String> {
    let output = Command::new(binary)
        .args(["rtcompare-detection/selects-nothing", "--exact"])
        .current_dir(std::env::temp_dir())
        .env(INSTRUCTIONS_VARIABLE, "off")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run the fixture {}: {e}", binary.display()))?;
    match instructions_refused(output.status.success(), &String::from_utf8_lossy(&output.stderr)) {
        Some(message) => Err(message),
        None => Ok(()),
    }
}

/// What stops `--counting`, from how the fixture ended with `RTCOMPARE_INSTRUCTIONS=off` set:
/// `None` when it succeeded, else a message that says what the fixture said and what to do.
pub fn instructions_refused(succeeded: bool, stderr: &str) -> Option<String> {
    if succeeded {
        return None;
    }
    let said = stderr.lines().find(|l| l.starts_with("error")).unwrap_or_else(|| stderr.trim());
    let why = if said.contains(INSTRUCTIONS_VARIABLE) && said.contains("unknown setting") {
        "this rtcompare has no instruction counting yet (issue 37 adds the variable), so there is nothing to \
         compare; run without --counting"
    } else {
        "it could not run with it set; fix that, or run without --counting"
    };
    Some(format!(
        "--counting runs every trial with {INSTRUCTIONS_VARIABLE}=off and unset, and the fixture rejects \
         {INSTRUCTIONS_VARIABLE}=off: {why}. The fixture said: {said}"
    ))
}

/// Runs one comparison with `--exact`, in `scratch` (a results file there, no git repository
/// around it to inspect), and reads its results file.
pub fn run_pair(binary: &Path, scratch: &Path, run: &Run) -> (Reading, Duration) {
    let results = scratch.join("results.json");
    let _ = std::fs::remove_file(&results);
    let mut command = Command::new(binary);
    command.args([run.name, "--exact"]).current_dir(scratch);
    // The outer environment's settings must not change what is measured.
    for (name, _) in std::env::vars() {
        if name.starts_with("RTCOMPARE_") {
            command.env_remove(name);
        }
    }
    command
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("NO_COLOR", "1")
        .env("DETECTION_K", run.k.to_string())
        .env("RTCOMPARE_RESULTS", &results)
        .env("RTCOMPARE_SEED", run.seed.to_string())
        .env("RTCOMPARE_TIME", run.budget)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if !run.confirm {
        command.env("RTCOMPARE_CONFIRM", "0");
    }
    if run.instructions == Instructions::Off {
        command.env(INSTRUCTIONS_VARIABLE, "off");
    }
    if let Some(layout) = LAYOUT.get() {
        command.env("RTCOMPARE_LAYOUT", layout);
    }
    let started = Instant::now();
    let status = command.status();
    let wall = started.elapsed();
    if let Err(e) = status {
        die(&format!("could not run the fixture {}: {e}", binary.display()));
    }
    let reading = std::fs::read_to_string(&results)
        .map_err(|e| format!("no results file: {e}"))
        .and_then(|text| read_results(&text, run.name))
        .unwrap_or_else(|message| {
            eprintln!("  {} k={} seed={}: {message}", run.name, run.k, run.seed);
            Reading::failed()
        });
    (reading, wall)
}

/// Runs one trial and keeps what the figures need.
pub fn trial(binary: &Path, scratch: &Path, run: &Run) -> Trial {
    let (reading, wall) = run_pair(binary, scratch, run);
    Trial::of(reading, wall.as_secs_f64())
}

/// A process started beside the trials for one condition's block (the CPU hog or the
/// memory-bandwidth neighbour), stopped by its PID when dropped. Like the trials it is not
/// pinned: on two cores the scheduler gives it the core the trial does not use. It also ends
/// itself after its time limit, or as soon as this program is gone ([`parent_is`]), so a
/// benchmark that dies without stopping it leaves nothing behind.
pub struct Neighbour(Child);

impl Neighbour {
    /// Starts this program again as the neighbour `condition` asks for, for at most `limit`;
    /// `None` for the idle condition.
    pub fn start(condition: Condition, limit: Duration) -> Option<Neighbour> {
        let exe = std::env::current_exe()
            .unwrap_or_else(|e| die(&format!("cannot find this program to start the {}: {e}", condition.label())));
        let args = neighbour_args(condition, limit)?;
        let mut command = Command::new(exe);
        command.args(args);
        let neighbour = Neighbour::spawn(command, condition.label());
        println!("{} started (pid {})", condition.description(), neighbour.id());
        Some(neighbour)
    }

    /// Starts `command` as a neighbour named `what` in messages.
    pub fn spawn(mut command: Command, what: &str) -> Neighbour {
        let child = command.spawn().unwrap_or_else(|e| die(&format!("could not start the {what}: {e}")));
        Neighbour(child)
    }

    /// The neighbour's process id.
    pub fn id(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Neighbour {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The arguments that make this program the neighbour of `condition` for at most `limit`
/// (rounded up to a whole second); `None` for the idle condition, which has none.
pub fn neighbour_args(condition: Condition, limit: Duration) -> Option<Vec<String>> {
    let seconds = limit.as_secs() + u64::from(limit.subsec_nanos() > 0);
    let flag = match condition {
        Condition::Idle => return None,
        Condition::Hog => HOG_FLAG,
        Condition::Bandwidth => BANDWIDTH_FLAG,
    };
    Some(vec![flag.to_owned(), seconds.to_string(), "--parent".to_owned(), std::process::id().to_string()])
}

/// The command-line flag that makes this program the CPU hog.
pub const HOG_FLAG: &str = "--hog";

/// The command-line flag that makes this program the memory-bandwidth neighbour.
pub const BANDWIDTH_FLAG: &str = "--bandwidth";

/// The bytes the bandwidth neighbour streams: a buffer of 256 MiB copied into another of the
/// same size and back, eight times the 32 MiB L3 of the machine the figures come from, so every
/// copy goes to memory and back.
pub const BANDWIDTH_BYTES: usize = 256 << 20;

/// Whether the process `parent` is still this process's parent: a neighbour whose parent died
/// is adopted by another process and stops. Without a parent to watch (`None`), always true.
pub fn parent_is(parent: Option<u32>) -> bool {
    parent.is_none_or(|parent| std::os::unix::process::parent_id() == parent)
}

/// The hog's body: spins until `limit` has passed or `parent` is gone.
pub fn spin_for(limit: Duration, parent: Option<u32>) {
    let started = Instant::now();
    let mut x = 0u64;
    while started.elapsed() < limit && parent_is(parent) {
        for _ in 0..1_000_000 {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
    }
}

/// The bandwidth neighbour's body: copies a buffer of `bytes` into another and back (each copy a
/// `memcpy`), until `limit` has passed or `parent` is gone, then returns how many copies it made;
/// at least one, after which it says on standard output that it streams. Both buffers are
/// written before the first copy, so every page is backed by memory rather than the shared zero
/// page.
pub fn stream_for(limit: Duration, bytes: usize, parent: Option<u32>) -> u64 {
    let started = Instant::now();
    let mut from = vec![0x5au8; bytes];
    let mut to = vec![0xa5u8; bytes];
    let mut copies = 0u64;
    loop {
        to.copy_from_slice(std::hint::black_box(&from));
        // The copy escapes, so it is made even though nothing reads it.
        std::hint::black_box(&mut to);
        std::mem::swap(&mut from, &mut to);
        copies += 1;
        if copies == 1 {
            println!("bandwidth neighbour: streaming {} MiB (pid {})", bytes >> 20, std::process::id());
        }
        if started.elapsed() >= limit || !parent_is(parent) {
            return copies;
        }
    }
}

/// A fresh scratch directory for this process's runs.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rtcompare-detection-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| die(&format!("cannot create {}: {e}", dir.display())));
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether process `pid` exists (and is not yet reaped).
    fn alive(pid: u32) -> bool {
        Path::new(&format!("/proc/{pid}")).exists()
    }

    #[test]
    fn a_neighbour_runs_until_it_is_dropped() {
        let mut command = Command::new("sleep");
        command.arg("600");
        let neighbour = Neighbour::spawn(command, "test neighbour");
        let pid = neighbour.id();
        assert!(alive(pid), "started");
        drop(neighbour);
        assert!(!alive(pid), "stopped and reaped when dropped");
    }

    #[test]
    fn neighbours_are_this_program_in_a_mode_that_names_its_parent() {
        let args = neighbour_args(Condition::Bandwidth, Duration::from_millis(1_500)).expect("a neighbour");
        assert_eq!(args, [BANDWIDTH_FLAG, "2", "--parent", &std::process::id().to_string()]);
        assert_eq!(neighbour_args(Condition::Hog, Duration::from_secs(3)).expect("a neighbour")[..2], [HOG_FLAG, "3"]);
        assert_eq!(neighbour_args(Condition::Idle, Duration::from_secs(3)), None);
    }

    #[test]
    fn the_bandwidth_body_copies_at_least_once_and_stops_without_its_parent() {
        assert!(parent_is(None) && parent_is(Some(std::os::unix::process::parent_id())));
        // PID 0 is nobody's parent: the body stops after its first copy, as it does when the
        // benchmark that started it is gone, however long its limit.
        assert_eq!(stream_for(Duration::from_secs(600), 1 << 20, Some(0)), 1);
        assert_eq!(stream_for(Duration::ZERO, 1 << 20, None), 1, "the limit is checked after each copy");
        spin_for(Duration::from_secs(600), Some(0));
    }

    #[test]
    fn counting_stops_with_the_reason_when_the_fixture_rejects_its_variable() {
        assert_eq!(instructions_refused(true, ""), None);
        // What the harness says today, before issue 37 adds the variable.
        let today = "error: unknown setting RTCOMPARE_INSTRUCTIONS=\"off\": rtcompare reads only RTCOMPARE_TIME, \
                     RTCOMPARE_SEED; unset it or fix its spelling\n";
        let message = instructions_refused(false, today).expect("refused");
        assert!(message.contains("no instruction counting yet"), "{message}");
        assert!(message.contains("run without --counting"), "{message}");
        assert!(
            message.ends_with(
                "The fixture said: error: unknown setting RTCOMPARE_INSTRUCTIONS=\"off\": rtcompare \
                                   reads only RTCOMPARE_TIME, RTCOMPARE_SEED; unset it or fix its spelling"
            ),
            "{message}"
        );
        let other = instructions_refused(false, "warning: busy\nerror: cannot write results.json\n").expect("refused");
        assert!(other.contains("could not run with it set") && other.ends_with("error: cannot write results.json"));
    }
}
