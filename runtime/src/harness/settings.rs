//! Run-wide settings from `RTCOMPARE_*` environment variables, validated before anything is
//! measured.

use super::variables::{CHILD_VARIABLE, OPTIMISED_VARIABLE};
use crate::measure::Layout;
use rtcompare_judge::decide::FIRST_FUTILITY_CHECK;
use rtcompare_report::Requested;
use std::path::PathBuf;
use std::time::Duration;

/// Run-wide settings.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Settings {
    /// `RTCOMPARE_TIME`: measurement budget per comparison (default 1 s).
    pub time: Duration,
    /// `RTCOMPARE_SEED`: seed of round orders and resampling (default fixed, so runs repeat).
    pub seed: u64,
    /// `RTCOMPARE_RESULTS`, `RTCOMPARE_MARKDOWN`, `RTCOMPARE_BMF`, `RTCOMPARE_GHA_BENCHMARK`:
    /// where the run's files go.
    pub outputs: Requested,
    /// `RTCOMPARE_DEBUG`: measure an unoptimised (debug) build on purpose (default off: such a
    /// build builds and runs its optimised self instead). Its verdicts are printed but never fail
    /// a test. The harness keeps it only in a binary built with debug assertions; in an optimised
    /// build it changes nothing.
    pub debug: bool,
    /// `RTCOMPARE_VERBOSE`: print every figure of each verdict and each warning's full text
    /// (default off: a block of the verdict, both arms and one line per warning that changes
    /// its reading). The results file always has everything.
    pub verbose: bool,
    /// `RTCOMPARE_CONFIRM`: re-measure a win or a loss in fresh processes before it counts
    /// (default on; `0` turns it off).
    pub confirm: bool,
    /// `RTCOMPARE_OUT_OF_TIME`: `fail` fails a loss that the time cap left no room to confirm
    /// or rule out (default `pass`: it passes with a warning, as any unconfirmed loss does).
    pub fail_out_of_time: bool,
    /// `RTCOMPARE_PROCESSES`: worker processes each comparison is measured in (default 1: the
    /// test process itself).
    pub processes: usize,
    /// `RTCOMPARE_MAX_PROCESSES`: most fresh processes a confirmation may measure (default 64;
    /// at least [`FIRST_FUTILITY_CHECK`](rtcompare_judge::decide::FIRST_FUTILITY_CHECK), 4). The
    /// confirmation plans as many as the time cap has room for, up to this. See
    /// `docs/design.md`, "Confirmation".
    pub max_processes: usize,
    /// `RTCOMPARE_TIMEOUT`: how long one worker process may take before it is killed (default
    /// 60 s or 30 times the budget, whichever is longer).
    pub timeout: Option<Duration>,
    /// `RTCOMPARE_LAYOUT`: `random` re-draws the stack depth and the heap's free lists for every
    /// round, `fixed` leaves one layout for the whole process (see
    /// [`Layout`](crate::measure::Layout) for the default and why).
    pub layout: Layout,
    /// `RTCOMPARE_BASELINE`: the git revision that comparisons without `baseline = path` are
    /// measured against (none by default: such comparisons are ignored).
    pub baseline: Option<String>,
    /// `RTCOMPARE_INSTRUCTIONS`: whether each comparison's instructions per call are counted
    /// under callgrind beside its time (default: where valgrind is found).
    pub instructions: CountingMode,
    /// `RTCOMPARE_ANNOTATIONS`: on GitHub Actions, annotate each failed test and each
    /// unconfirmed difference at its `#[compare]` line (default on; `0` turns it off).
    pub annotations: bool,
}

/// `RTCOMPARE_INSTRUCTIONS`: whether instructions are counted beside time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum CountingMode {
    /// `auto` (the default): counted where valgrind is found and the platform has callgrind's
    /// requests; elsewhere one line per run says why, and nothing else changes.
    #[default]
    Auto,
    /// `off`: not counted, and nothing said.
    Off,
    /// `callgrind`: counting is required: the run stops before measuring where it cannot be
    /// done, and a comparison that could not be counted fails its test.
    Required,
}

/// What a child process started by rtcompare was told beside its role (`RTCOMPARE_LOCKSTEP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChildRole {
    /// The CPU to pin itself to (`cpu=N`): a lock-step pair's, the one its parent ran on.
    pub cpu: Option<usize>,
}

impl ChildRole {
    /// Reads `1`, or `cpu=N`.
    fn parse(value: &str) -> Result<ChildRole, Problem> {
        let cpu = match value.trim() {
            "1" => None,
            other => Some(other.strip_prefix("cpu=").and_then(|cpu| cpu.parse().ok()).ok_or(Problem::from(
                "expected 1 or cpu=N; rtcompare sets this for the child processes it starts, so unset it",
            ))?),
        };
        Ok(ChildRole { cpu })
    }
}

/// The most fresh processes a confirmation measures when `RTCOMPARE_MAX_PROCESSES` is not set.
/// The time cap decides how many fit ([`rtcompare_judge::decide::FRESH_SHARE`] of the budget and
/// a start each); this bounds them where processes are cheapest, at short budgets.
pub(crate) const DEFAULT_MAX_PROCESSES: usize = 64;

/// The seed used when `RTCOMPARE_SEED` is not set.
pub(crate) const DEFAULT_SEED: u64 = 0x005E_ED0F_C0A7;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            time: crate::measure::Options::default().budget,
            seed: DEFAULT_SEED,
            outputs: Requested::default(),
            debug: false,
            verbose: false,
            annotations: true,
            confirm: true,
            fail_out_of_time: false,
            processes: 1,
            max_processes: DEFAULT_MAX_PROCESSES,
            timeout: None,
            layout: Layout::default(),
            baseline: None,
            instructions: CountingMode::Auto,
        }
    }
}

impl Settings {
    /// The time limit of one worker process: `RTCOMPARE_TIMEOUT`, else 60 s or 30 times the
    /// budget, whichever is longer.
    pub(crate) fn worker_timeout(&self, budget: Duration) -> Duration {
        self.timeout.unwrap_or_else(|| (budget * 30).max(Duration::from_secs(60)))
    }
}

/// Every variable this version reads, with a valid example of each.
const KNOWN: &[(&str, &str)] = &[
    ("RTCOMPARE_TIME", "RTCOMPARE_TIME=2s"),
    ("RTCOMPARE_SEED", "RTCOMPARE_SEED=42"),
    ("RTCOMPARE_RESULTS", "RTCOMPARE_RESULTS=target/perf.json"),
    ("RTCOMPARE_MARKDOWN", "RTCOMPARE_MARKDOWN=target/perf.md"),
    ("RTCOMPARE_BMF", "RTCOMPARE_BMF=target/perf-bmf.json"),
    ("RTCOMPARE_GHA_BENCHMARK", "RTCOMPARE_GHA_BENCHMARK=target/perf-gha.json"),
    ("RTCOMPARE_DEBUG", "RTCOMPARE_DEBUG=1"),
    ("RTCOMPARE_CONFIRM", "RTCOMPARE_CONFIRM=0"),
    ("RTCOMPARE_VERBOSE", "RTCOMPARE_VERBOSE=1"),
    ("RTCOMPARE_OUT_OF_TIME", "RTCOMPARE_OUT_OF_TIME=fail"),
    ("RTCOMPARE_PROCESSES", "RTCOMPARE_PROCESSES=4"),
    ("RTCOMPARE_MAX_PROCESSES", "RTCOMPARE_MAX_PROCESSES=10"),
    ("RTCOMPARE_TIMEOUT", "RTCOMPARE_TIMEOUT=5m"),
    ("RTCOMPARE_LAYOUT", "RTCOMPARE_LAYOUT=random"),
    ("RTCOMPARE_BASELINE", "RTCOMPARE_BASELINE=origin/main"),
    ("RTCOMPARE_INSTRUCTIONS", "RTCOMPARE_INSTRUCTIONS=off"),
    ("RTCOMPARE_ANNOTATIONS", "RTCOMPARE_ANNOTATIONS=0"),
    (CHILD_VARIABLE, "(set by rtcompare for the child processes it starts; do not set it)"),
    (OPTIMISED_VARIABLE, "(set by rtcompare for the optimised build it runs; do not set it)"),
];

/// A malformed setting: names the variable, the value and a valid example.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct SettingsError(pub String);

impl Settings {
    /// How much of each verdict the text block shows (`RTCOMPARE_VERBOSE`).
    pub(crate) fn detail(&self) -> rtcompare_report::Detail {
        if self.verbose { rtcompare_report::Detail::Verbose } else { rtcompare_report::Detail::Short }
    }

    /// Reads the settings from `(name, value)` pairs, as [`Variables::from_vars`] does.
    #[cfg(test)]
    pub(crate) fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> Result<Settings, SettingsError> {
        Variables::from_vars(vars).map(|variables| variables.settings)
    }

    /// Sets the setting the variable `name` holds to `value`.
    fn set(&mut self, name: &str, value: &str) -> Result<(), Problem> {
        match name {
            "RTCOMPARE_TIME" => self.time = duration(value)?,
            "RTCOMPARE_SEED" => {
                self.seed =
                    value.trim().parse().map_err(|_| Problem::from("expected a whole number from 0 to 2^64-1"))?
            }
            "RTCOMPARE_RESULTS" => self.outputs.results = Some(file_path(value)?),
            "RTCOMPARE_MARKDOWN" => self.outputs.markdown = Some(file_path(value)?),
            "RTCOMPARE_BMF" => self.outputs.bmf = Some(file_path(value)?),
            "RTCOMPARE_GHA_BENCHMARK" => self.outputs.gha_benchmark = Some(file_path(value)?),
            // Only 1 and 0: measuring debug code is a choice to spell out.
            "RTCOMPARE_DEBUG" => {
                self.debug = switch(value, &["1"], &["0"]).ok_or(Problem::from(
                    "expected 1 (measure an unoptimised build on purpose) or 0 (measure its optimised build)",
                ))?
            }
            "RTCOMPARE_VERBOSE" => {
                self.verbose =
                    on_or_off(value).ok_or(Problem::from("expected 1 (every figure) or 0 (the short block)"))?
            }
            "RTCOMPARE_CONFIRM" => {
                self.confirm = on_or_off(value).ok_or(Problem::from("expected 1 (on) or 0 (off)"))?
            }
            "RTCOMPARE_ANNOTATIONS" => {
                self.annotations = on_or_off(value)
                    .ok_or(Problem::from("expected 1 (annotate on GitHub Actions) or 0 (never annotate)"))?
            }
            "RTCOMPARE_OUT_OF_TIME" => {
                self.fail_out_of_time = switch(value, &["fail"], &["pass"]).ok_or(Problem::from(
                    "expected fail (a loss the time cap left unconfirmed fails its test) or pass (it passes with a \
                     warning)",
                ))?
            }
            "RTCOMPARE_PROCESSES" => self.processes = processes(value, 1)?,
            "RTCOMPARE_MAX_PROCESSES" => self.max_processes = processes(value, FIRST_FUTILITY_CHECK)?,
            "RTCOMPARE_TIMEOUT" => self.timeout = Some(duration(value)?),
            "RTCOMPARE_LAYOUT" => {
                self.layout = Layout::parse(value).ok_or(Problem::from(
                    "expected random (a new stack depth and heap pattern every round) or fixed (one layout)",
                ))?
            }
            "RTCOMPARE_BASELINE" => self.baseline = Some(revision(value)?),
            "RTCOMPARE_INSTRUCTIONS" => self.instructions = CountingMode::parse(value)?,
            _ => return Err(Problem::Unknown),
        }
        Ok(())
    }
}

/// What the `RTCOMPARE_*` variables of a process say: the run's settings, and the role
/// rtcompare gave a process it started. The role is no setting: it decides what the process
/// does (its mode, `invocation.rs`), not how a run measures.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Variables {
    /// The run's settings.
    pub settings: Settings,
    /// `RTCOMPARE_LOCKSTEP`: set by rtcompare itself when it starts a child process to measure
    /// (a worker, one side of a lock-step pair): the process serves the requests of its parent.
    pub child: Option<ChildRole>,
    /// `RTCOMPARE_OPTIMISED`: set by rtcompare itself in the optimised build that an unoptimised
    /// perf binary built and runs in its place: the unoptimised build's target folder.
    pub optimised: Option<PathBuf>,
}

impl Variables {
    /// Reads the variables of the process environment.
    pub(crate) fn from_env() -> Result<Variables, SettingsError> {
        Variables::from_vars(
            std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))),
        )
    }

    /// Reads the variables from `(name, value)` pairs; variables not starting with `RTCOMPARE_`
    /// are ignored, unknown `RTCOMPARE_` ones are an error (a typo would otherwise be silently
    /// ignored).
    pub(crate) fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> Result<Variables, SettingsError> {
        let mut variables = Variables::default();
        for (name, value) in vars.into_iter().filter(|(name, _)| name.starts_with("RTCOMPARE_")) {
            variables.set(&name, &value).map_err(|problem| problem.naming(&name, &value))?;
        }
        Ok(variables)
    }

    /// Sets what the variable `name` says to `value`.
    fn set(&mut self, name: &str, value: &str) -> Result<(), Problem> {
        match name {
            CHILD_VARIABLE => self.child = Some(ChildRole::parse(value)?),
            OPTIMISED_VARIABLE => self.optimised = Some(PathBuf::from(value)),
            _ => self.settings.set(name, value)?,
        }
        Ok(())
    }
}

impl CountingMode {
    /// Reads `auto`, `off` (or `0`) or `callgrind`.
    fn parse(value: &str) -> Result<CountingMode, Problem> {
        match value.trim() {
            "auto" => Ok(CountingMode::Auto),
            "off" | "0" => Ok(CountingMode::Off),
            "callgrind" => Ok(CountingMode::Required),
            _ => Err(Problem::from(
                "expected auto (count under callgrind where valgrind is found), off (never count) or callgrind \
                 (count, and stop where it cannot)",
            )),
        }
    }
}

/// A git revision, trimmed: not empty, and not an option of git's.
fn revision(value: &str) -> Result<String, Problem> {
    let revision = value.trim();
    if revision.is_empty() {
        // Most often the command that was to name it failed (`$(git merge-base main HEAD)` in a
        // shallow clone): measuring without a revision would pass the gate unseen.
        return Err(Problem::from(
            "it is empty, as when the command meant to name the revision failed (git merge-base in a shallow clone: \
             fetch with `fetch-depth: 0`); name a branch, tag or commit, or unset it to run without one",
        ));
    }
    if revision.starts_with('-') {
        return Err(Problem::from("expected a git revision: a branch, tag, commit or `HEAD~1`"));
    }
    Ok(revision.to_owned())
}

/// What is wrong with one variable.
enum Problem {
    /// rtcompare reads no such variable.
    Unknown,
    /// Its value is not one the variable takes.
    Invalid(String),
}

impl Problem {
    /// The error of the variable `name` set to `value`: the variable, the value and a valid
    /// example, or every variable rtcompare reads.
    fn naming(self, name: &str, value: &str) -> SettingsError {
        match self {
            Problem::Unknown => {
                let known: Vec<&str> = KNOWN.iter().map(|(n, _)| *n).collect();
                SettingsError(format!(
                    "unknown setting {name}={value:?}: rtcompare reads only {}; unset it or fix its spelling",
                    known.join(", ")
                ))
            }
            Problem::Invalid(why) => {
                let example = KNOWN.iter().find(|(n, _)| *n == name).map_or("", |(_, e)| e);
                SettingsError(format!("invalid {name}={value:?}: {why}; for example {example}"))
            }
        }
    }
}

impl From<&str> for Problem {
    fn from(why: &str) -> Problem {
        Problem::Invalid(why.to_owned())
    }
}

/// `true` for one of `on`, `false` for one of `off`.
fn switch(value: &str, on: &[&str], off: &[&str]) -> Option<bool> {
    let value = value.trim();
    if on.contains(&value) {
        Some(true)
    } else if off.contains(&value) {
        Some(false)
    } else {
        None
    }
}

/// A switch spelled `1`, `true` or `on`, or `0`, `false` or `off`.
fn on_or_off(value: &str) -> Option<bool> {
    switch(value, &["1", "true", "on"], &["0", "false", "off"])
}

/// A number of processes from `least` to 64.
fn processes(value: &str, least: usize) -> Result<usize, Problem> {
    match value.trim().parse::<usize>() {
        Ok(n) if (least..=64).contains(&n) => Ok(n),
        _ => Err(Problem::Invalid(format!("expected a whole number of processes from {least} to 64"))),
    }
}

/// A duration in rtcompare's syntax.
fn duration(value: &str) -> Result<Duration, Problem> {
    parse_duration(value).map_err(|why| Problem::Invalid(why.to_string()))
}

/// A setting that names a file: not empty, and not a directory.
fn file_path(value: &str) -> Result<PathBuf, Problem> {
    if value.trim().is_empty() {
        return Err(Problem::from("expected a file path"));
    }
    let path = PathBuf::from(value);
    if path.is_dir() {
        return Err(Problem::from("that is a directory; name a file inside it"));
    }
    Ok(path)
}

/// Parses a duration like `500ms`, `2s`, `1.5s`, `250us`, `800ns` or `1m` (a positive number
/// with a unit).
pub(crate) fn parse_duration(text: &str) -> Result<Duration, rtcompare_duration::DurationError> {
    rtcompare_duration::nanos(text).map(Duration::from_nanos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn every_known_variable_is_read() {
        let s = Settings::from_vars(vars(&[
            ("RTCOMPARE_TIME", "2s"),
            ("RTCOMPARE_SEED", "42"),
            ("RTCOMPARE_RESULTS", "out/r.json"),
            ("RTCOMPARE_MARKDOWN", "out/r.md"),
            ("RTCOMPARE_BMF", "out/bmf.json"),
            ("RTCOMPARE_GHA_BENCHMARK", "out/gha.json"),
            ("RTCOMPARE_DEBUG", "1"),
            ("RTCOMPARE_VERBOSE", "1"),
            ("RTCOMPARE_MAX_PROCESSES", "10"),
            ("RTCOMPARE_OUT_OF_TIME", "fail"),
            ("RTCOMPARE_LAYOUT", "random"),
            ("RTCOMPARE_BASELINE", " origin/main "),
            ("RTCOMPARE_INSTRUCTIONS", "callgrind"),
            ("PATH", "/bin"),
        ]))
        .unwrap();
        assert_eq!(s.baseline.as_deref(), Some("origin/main"));
        assert_eq!(s.time, Duration::from_secs(2));
        assert_eq!(s.seed, 42);
        assert_eq!(s.outputs.results, Some(PathBuf::from("out/r.json")));
        assert_eq!(s.outputs.markdown, Some(PathBuf::from("out/r.md")));
        assert_eq!(s.outputs.bmf, Some(PathBuf::from("out/bmf.json")));
        assert_eq!(s.outputs.gha_benchmark, Some(PathBuf::from("out/gha.json")));
        assert!(s.debug);
        assert!(s.verbose && !Settings::default().verbose);
        assert_eq!(s.max_processes, 10);
        assert_eq!(Settings::default().max_processes, DEFAULT_MAX_PROCESSES);
        assert!(s.fail_out_of_time && !Settings::default().fail_out_of_time);
        assert_eq!(s.layout, Layout::Random);
        assert_eq!(Settings::from_vars(vars(&[("RTCOMPARE_LAYOUT", " fixed ")])).unwrap().layout, Layout::Fixed);
        assert!(!Settings::from_vars(vars(&[("RTCOMPARE_DEBUG", "0")])).unwrap().debug);
        assert!(!Settings::default().debug);
        assert_eq!(s.instructions, CountingMode::Required);
        assert_eq!(Settings::default().instructions, CountingMode::Auto);
        for (value, mode) in [("auto", CountingMode::Auto), (" off ", CountingMode::Off), ("0", CountingMode::Off)] {
            let read = Settings::from_vars(vars(&[("RTCOMPARE_INSTRUCTIONS", value)])).map(|s| s.instructions);
            assert_eq!(read, Ok(mode), "{value:?}");
        }
    }

    #[test]
    fn bad_values_name_the_variable_the_value_and_an_example() {
        for (name, value) in [
            ("RTCOMPARE_TIME", "soon"),
            ("RTCOMPARE_TIME", "-1s"),
            ("RTCOMPARE_SEED", "x"),
            ("RTCOMPARE_RESULTS", ""),
            ("RTCOMPARE_MARKDOWN", " "),
            ("RTCOMPARE_CONFIRM", "maybe"),
            ("RTCOMPARE_VERBOSE", "loud"),
            ("RTCOMPARE_PROCESSES", "0"),
            ("RTCOMPARE_MAX_PROCESSES", "2"),
            ("RTCOMPARE_OUT_OF_TIME", "1"),
            ("RTCOMPARE_MAX_PROCESSES", "many"),
            ("RTCOMPARE_TIMEOUT", "long"),
            ("RTCOMPARE_BMF", ""),
            ("RTCOMPARE_GHA_BENCHMARK", " "),
            ("RTCOMPARE_DEBUG", "yes"),
            ("RTCOMPARE_DEBUG", "true"),
            ("RTCOMPARE_LAYOUT", "0"),
            ("RTCOMPARE_LAYOUT", "Random"),
            ("RTCOMPARE_BASELINE", " "),
            ("RTCOMPARE_BASELINE", "--all"),
            ("RTCOMPARE_LOCKSTEP", "yes"),
            ("RTCOMPARE_LOCKSTEP", "cpu=first"),
            ("RTCOMPARE_INSTRUCTIONS", "on"),
            ("RTCOMPARE_INSTRUCTIONS", "perf"),
        ] {
            let message = Settings::from_vars(vars(&[(name, value)])).unwrap_err().to_string();
            assert!(message.contains(name), "{message}");
            assert!(message.contains(&format!("{value:?}")), "{message}");
            assert!(message.contains("for example"), "{message}");
        }
    }

    #[test]
    fn an_empty_baseline_is_an_error_that_says_why_it_may_be_empty() {
        for empty in ["", " "] {
            let message = Settings::from_vars(vars(&[("RTCOMPARE_BASELINE", empty)])).unwrap_err().to_string();
            assert!(message.contains("it is empty") && message.contains("unset it"), "{message}");
        }
    }

    #[test]
    fn a_child_is_told_its_role_and_where_to_pin_itself() {
        let child = |value: &str| Variables::from_vars(vars(&[("RTCOMPARE_LOCKSTEP", value)])).map(|v| v.child);
        assert_eq!(child("1"), Ok(Some(ChildRole { cpu: None })));
        assert_eq!(child("cpu=3"), Ok(Some(ChildRole { cpu: Some(3) })));
        assert_eq!(Variables::default().child, None);
        // The variables of the worker protocol that the child protocol replaced are unknown now.
        for gone in ["RTCOMPARE_WORKER", "RTCOMPARE_WORKER_TIME"] {
            let message = Settings::from_vars(vars(&[(gone, "1")])).unwrap_err().to_string();
            assert!(message.starts_with(&format!("unknown setting {gone}=")), "{message}");
        }
    }

    #[test]
    fn a_misspelt_variable_is_an_error() {
        let message = Settings::from_vars(vars(&[("RTCOMPARE_TIMES", "2s")])).unwrap_err().to_string();
        assert!(message.contains("RTCOMPARE_TIMES") && message.contains("RTCOMPARE_TIME,"), "{message}");
    }

    #[test]
    fn durations_in_every_unit() {
        assert_eq!(parse_duration("800ns"), Ok(Duration::from_nanos(800)));
        assert_eq!(parse_duration("250us"), Ok(Duration::from_micros(250)));
        assert_eq!(parse_duration("250µs"), Ok(Duration::from_micros(250)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("1.2.3s").is_err());
    }

    #[test]
    fn a_worker_times_out_after_thirty_budgets() {
        use std::time::Duration;
        let s = Settings { time: Duration::from_secs(5), ..Settings::default() };
        assert_eq!(s.worker_timeout(s.time), Duration::from_secs(150));
    }

    #[test]
    fn settings_are_read_from_variables() {
        use std::time::Duration;
        let s = Settings::from_vars([("RTCOMPARE_TIME".to_string(), "250ms".to_string())]).unwrap();
        assert_eq!(s.time, Duration::from_millis(250));
        let e = Settings::from_vars([("RTCOMPARE_TIME".to_string(), "fast".to_string())]).unwrap_err();
        assert!(e.to_string().contains("RTCOMPARE_TIME"));
    }

    #[test]
    fn durations_take_a_unit() {
        use std::time::Duration;
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("10").is_err());
    }
}
