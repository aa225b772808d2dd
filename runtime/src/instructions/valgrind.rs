//! Finding valgrind, building the command line of a counting process, and saying in one line why
//! counting did not work: each failure is a [`Failure`], never a panic.
//!
//! **Why client requests and not `--toggle-collect`.** The arms' batches are switched on and
//! off by requests from the process itself (`TOGGLE_COLLECT` around a batch, then
//! `DUMP_STATS_AT(label)`), not by valgrind's `--toggle-collect=<function>` and
//! `--dump-after=<function>`. Those match function names, and what is counted is decided at run
//! time, not by a name: the same generated loop runs for warm-up (not counted) and then for two
//! batch sizes (counted), each of its four placement copies is a function of its own, and its
//! mangled name depends on the user's crate. A request also labels its dump, so a dump is found
//! by what it holds (`rtcompare 3 baseline 8`) rather than by its place in the order of files,
//! and every comparison of a run is counted in one valgrind process.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::child::{self, How};

/// The line a user reads when valgrind is missing: what to install.
pub(crate) const INSTALL_HINT: &str =
    "install it with `apt-get install valgrind` (the package is `valgrind` in most distributions)";

/// The name of valgrind's own log in the dump folder: its messages, apart from the program's.
pub(crate) const LOG_FILE: &str = "valgrind.log";

/// A valgrind found on PATH that answered `--version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Valgrind {
    /// Where it is.
    pub(crate) program: PathBuf,
    /// What `--version` said, without the `valgrind-` in front: `3.19.0`.
    pub(crate) version: String,
}

/// Why instructions could not be counted, in the run's one line about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// No client requests on this platform: the sequence is known here for x86-64 Linux only.
    Unsupported { platform: String },
    /// No `valgrind` on PATH.
    Missing,
    /// A `valgrind` that does not start or does not say its version.
    Unusable { program: PathBuf, reason: String },
    /// Valgrind refused to run the program (a bad option, a file it cannot execute).
    Refused { line: String },
    /// The program reached an instruction valgrind cannot simulate.
    UnrecognisedInstruction { function: String },
    /// The program died of a signal under valgrind.
    Crashed { signal: String, function: String },
    /// Valgrind itself failed.
    Internal { line: String },
    /// The program ended badly under valgrind without valgrind saying why.
    Ended { how: How },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let skipped = "instructions not counted";
        match self {
            Failure::Unsupported { platform } => {
                write!(f, "{skipped}: counting under valgrind is supported on x86-64 Linux, and this is {platform}")
            }
            Failure::Missing => write!(f, "{skipped}: valgrind is not on PATH; {INSTALL_HINT}"),
            Failure::Unusable { program, reason } => {
                write!(f, "{skipped}: {} does not work as valgrind ({reason})", program.display())
            }
            Failure::Refused { line } => write!(f, "{skipped}: valgrind refused to start: {line}"),
            Failure::UnrecognisedInstruction { function } => write!(
                f,
                "{skipped}: valgrind does not know an instruction in {function} (a newer valgrind may, \
                 or a build without `-C target-cpu=native`)"
            ),
            Failure::Crashed { signal, function } => {
                write!(f, "{skipped}: the counting process died of {signal} in {function} under valgrind")
            }
            Failure::Internal { line } => write!(f, "{skipped}: valgrind failed: {line}"),
            Failure::Ended { how } => write!(f, "{skipped}: the counting process {how} under valgrind"),
        }
    }
}

impl std::error::Error for Failure {}

/// Whether this platform has client requests, as [`Failure::Unsupported`] if not.
pub(crate) fn supported() -> Result<(), Failure> {
    if cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        Ok(())
    } else {
        Err(Failure::Unsupported { platform: format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS) })
    }
}

/// Finds `valgrind` in `path` (the value of PATH) and asks its version.
pub(crate) fn find(path: Option<&OsStr>) -> Result<Valgrind, Failure> {
    let program = path
        .into_iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("valgrind"))
        .find(|candidate| is_executable(candidate))
        .ok_or(Failure::Missing)?;
    let unusable = |reason: String| Failure::Unusable { program: program.clone(), reason };
    let output = child::output(Command::new(&program).arg("--version"))
        .map_err(|e| unusable(format!("it does not start: {e}")))?;
    let said = String::from_utf8_lossy(&output.stdout);
    let version = said.trim().strip_prefix("valgrind-").filter(|v| output.status.success() && !v.is_empty());
    match version {
        Some(version) => Ok(Valgrind { program: program.clone(), version: version.to_owned() }),
        None => Err(unusable(format!("`--version` said {:?}", said.trim()))),
    }
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

impl Valgrind {
    /// The command that runs `program` under callgrind, its dumps and valgrind's log written to
    /// `dumps` (which must exist). Arguments and environment are the caller's to add.
    ///
    /// Collection is off until the program's first `TOGGLE_COLLECT`; each `DUMP_STATS_AT`
    /// writes `callgrind.out.<pid>.<n>`. The options that change what the dumps hold or how
    /// fast they are made are given even where they are valgrind's defaults, since a user's
    /// `~/.valgrindrc` or `VALGRIND_OPTS` could say otherwise and the command line wins: names
    /// demangled (the parser reads them so), one file per dump (not per thread), no cache or
    /// branch simulation (only instructions are read, and simulation doubles the cost), no
    /// per-instruction or jump data, and no tracing of the processes the program starts.
    pub(crate) fn command(&self, dumps: &Path, program: &Path) -> Command {
        let mut command = Command::new(&self.program);
        command.args(options(dumps)).arg("--").arg(program);
        command
    }
}

/// The valgrind options of [`Valgrind::command`].
fn options(dumps: &Path) -> Vec<OsString> {
    let mut options: Vec<OsString> = [
        "--tool=callgrind",
        "--collect-atstart=no",
        "--instr-atstart=no",
        "--demangle=yes",
        "--separate-threads=no",
        "--cache-sim=no",
        "--branch-sim=no",
        "--dump-instr=no",
        "--collect-jumps=no",
        "--trace-children=no",
    ]
    .map(OsString::from)
    .into();
    options.push(with_path("--callgrind-out-file=", &dumps.join("callgrind.out.%p")));
    options.push(with_path("--log-file=", &dumps.join(LOG_FILE)));
    options
}

fn with_path(option: &str, path: &Path) -> OsString {
    let mut option = OsString::from(option);
    option.push(path.as_os_str());
    option
}

/// How a counting process ended, read: `Ok` when it exited with code 0 and valgrind reported
/// nothing wrong. `log` is valgrind's log ([`LOG_FILE`], empty if it was never written) and
/// `stderr` what the process printed, where valgrind's refusals to start go.
pub(crate) fn classify(how: How, log: &str, stderr: &str) -> Result<(), Failure> {
    let lines: Vec<&str> = log.lines().map(without_pid).collect();
    let after = |at: usize| lines[at + 1..].iter().find_map(|l| frame(l)).unwrap_or("an unknown function").to_owned();
    if let Some(at) = lines.iter().position(|l| l.starts_with("valgrind: Unrecognised instruction")) {
        return Err(Failure::UnrecognisedInstruction { function: after(at) });
    }
    let internal = ["the 'impossible' happened", "VALGRIND INTERNAL ERROR", "Valgrind: FATAL"];
    if let Some(line) = lines.iter().find(|l| internal.iter().any(|m| l.contains(m))) {
        return Err(Failure::Internal { line: line.trim().to_owned() });
    }
    let terminating = "Process terminating with default action of signal ";
    if let Some((at, rest)) = lines.iter().enumerate().find_map(|(i, l)| Some((i, l.strip_prefix(terminating)?))) {
        // `6 (SIGABRT)`: the name if valgrind gives one.
        let signal = rest.split_once('(').and_then(|(_, name)| name.split_once(')')).map_or(rest, |(name, _)| name);
        return Err(Failure::Crashed { signal: signal.trim().to_owned(), function: after(at) });
    }
    if let Some(line) = stderr.lines().find(|l| l.starts_with("valgrind: ")) {
        return Err(Failure::Refused { line: line.trim_start_matches("valgrind: ").trim().to_owned() });
    }
    match how {
        How::Exited(0) => Ok(()),
        how => Err(Failure::Ended { how }),
    }
}

/// `==123==    at 0x11C1C0: cgy::main (in /tmp/cgy)` → `   at 0x11C1C0: cgy::main (in /tmp/cgy)`.
fn without_pid(line: &str) -> &str {
    let Some(rest) = line.strip_prefix("==") else { return line };
    match rest.split_once("== ") {
        Some((pid, text)) if pid.bytes().all(|b| b.is_ascii_digit()) => text,
        _ => line,
    }
}

/// The function of a stack frame line, `at 0x…: name (where)` or `by 0x…: name (where)`.
fn frame(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let rest = line.strip_prefix("at 0x").or_else(|| line.strip_prefix("by 0x"))?;
    let (_, frame) = rest.split_once(": ")?;
    Some(frame.rfind(" (").map_or(frame, |at| &frame[..at]).trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Valgrind 3.19's log when a program on this project's machine ran an AVX-512
    /// instruction (`vpxorq zmm0, zmm0, zmm0`) under callgrind, shortened.
    const UNRECOGNISED: &str = "\
==13481== Callgrind, a call-graph generating cache profiler
==13481== For interactive control, run 'callgrind_control -h'.
vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0xFD 0x48 0xEF 0xC0 0x48 0x8D 0x3D 0x8B
vex amd64->IR:   REX=0 REX.W=0 REX.R=0 REX.X=0 REX.B=0
==13481== valgrind: Unrecognised instruction at address 0x11c1c0.
==13481==    at 0x11C1C0: cgy::main (in /tmp/cgy/target/release/cgy)
==13481==    by 0x11C222: std::sys::backtrace::__rust_begin_short_backtrace (in /tmp/cgy/target/release/cgy)
==13481== Your program just tried to execute an instruction that Valgrind
==13481== did not recognise.  There are two possible reasons for this.
==13481== Process terminating with default action of signal 4 (SIGILL)
==13481==  Illegal opcode at address 0x11C1C0
==13481==    at 0x11C1C0: cgy::main (in /tmp/cgy/target/release/cgy)
==13481== I   refs:      293,524
";

    #[test]
    fn an_unknown_instruction_names_its_function() {
        let failure = classify(How::Signalled(4), UNRECOGNISED, "").unwrap_err();
        assert_eq!(failure, Failure::UnrecognisedInstruction { function: "cgy::main".into() });
        let line = failure.to_string();
        assert!(
            line.starts_with("instructions not counted: valgrind does not know an instruction in cgy::main"),
            "{line}"
        );
        assert!(!line.contains('\n'), "one line: {line}");
    }

    #[test]
    fn a_crash_names_its_signal_and_function() {
        let log = "==7== Process terminating with default action of signal 6 (SIGABRT)\n\
                   ==7==    at 0x48EFEEC: __pthread_kill_implementation (pthread_kill.c:44)\n\
                   ==7==    by 0x48A0FB1: raise (raise.c:26)\n";
        let failure = classify(How::Signalled(6), log, "").unwrap_err();
        assert_eq!(
            failure,
            Failure::Crashed { signal: "SIGABRT".into(), function: "__pthread_kill_implementation".into() }
        );
        assert_eq!(
            failure.to_string(),
            "instructions not counted: the counting process died of SIGABRT in __pthread_kill_implementation under valgrind"
        );
    }

    #[test]
    fn valgrinds_own_failures_and_refusals_are_named() {
        let internal = "==9== valgrind: the 'impossible' happened:\n==9==    Killed by fatal signal\n";
        assert!(
            matches!(classify(How::Signalled(11), internal, ""), Err(Failure::Internal { line }) if line.contains("impossible"))
        );
        // Refusals go to standard error, before any log is opened.
        let refused = classify(
            How::Exited(1),
            "",
            "valgrind: Unknown option: --bogus=1\nvalgrind: Use --help for more information.",
        )
        .unwrap_err();
        assert_eq!(refused, Failure::Refused { line: "Unknown option: --bogus=1".into() });
        let missing_program =
            classify(How::Exited(127), "", "valgrind: ./nonexistent: No such file or directory").unwrap_err();
        assert_eq!(
            missing_program.to_string(),
            "instructions not counted: valgrind refused to start: ./nonexistent: No such file or directory"
        );
    }

    #[test]
    fn a_clean_exit_is_success_and_any_other_ending_is_named() {
        let quiet = "==5== Callgrind, a call-graph generating cache profiler\n==5== I   refs:      467,494\n";
        assert_eq!(classify(How::Exited(0), quiet, "the program's own stderr"), Ok(()));
        let ended = classify(How::Exited(101), quiet, "thread 'main' panicked").unwrap_err();
        assert_eq!(
            ended.to_string(),
            "instructions not counted: the counting process exited with code 101 under valgrind"
        );
        assert_eq!(classify(How::Signalled(9), "", ""), Err(Failure::Ended { how: How::Signalled(9) }));
    }

    #[test]
    fn the_command_counts_only_between_requests_and_writes_into_the_dump_folder() {
        let valgrind = Valgrind { program: PathBuf::from("/opt/vg/bin/valgrind"), version: "3.19.0".into() };
        let command = valgrind.command(Path::new("/tmp/dumps"), Path::new("/work/target/release/perf-1234"));
        assert_eq!(command.get_program(), "/opt/vg/bin/valgrind");
        let args: Vec<_> = command.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        for wanted in [
            "--tool=callgrind",
            "--collect-atstart=no",
            "--instr-atstart=no",
            "--callgrind-out-file=/tmp/dumps/callgrind.out.%p",
            "--log-file=/tmp/dumps/valgrind.log",
            "--demangle=yes",
            "--cache-sim=no",
        ] {
            assert!(args.iter().any(|a| a == wanted), "{wanted} missing from {args:?}");
        }
        assert_eq!(&args[args.len() - 2..], ["--", "/work/target/release/perf-1234"], "the program last, after `--`");
    }

    #[test]
    fn without_valgrind_on_path_counting_is_missing_with_a_hint() {
        let empty = tempfile::tempdir().expect("a temporary folder");
        let empty = empty.path();
        assert_eq!(find(Some(empty.as_os_str())), Err(Failure::Missing));
        assert_eq!(find(None), Err(Failure::Missing));
        let line = Failure::Missing.to_string();
        assert!(line.contains("valgrind is not on PATH") && line.contains("apt-get install valgrind"), "{line}");
    }

    #[cfg(unix)]
    #[test]
    fn a_valgrind_that_does_not_say_its_version_is_unusable() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let fake = dir.join("valgrind");
        std::fs::write(&fake, "#!/bin/sh\necho 'not valgrind'\n").unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
        let failure = find(Some(dir.as_os_str())).unwrap_err();
        assert_eq!(failure, Failure::Unusable { program: fake, reason: "`--version` said \"not valgrind\"".into() });
        // A file that is not executable is not a valgrind at all.
        std::fs::set_permissions(dir.join("valgrind"), std::fs::Permissions::from_mode(0o644))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(find(Some(dir.as_os_str())), Err(Failure::Missing));
    }

    #[test]
    fn this_platform_is_supported_exactly_where_the_requests_are_real() {
        #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
        assert_eq!(supported(), Ok(()));
        #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
        assert!(matches!(supported(), Err(Failure::Unsupported { .. })));
        let elsewhere = Failure::Unsupported { platform: "aarch64-macos".into() }.to_string();
        assert_eq!(
            elsewhere,
            "instructions not counted: counting under valgrind is supported on x86-64 Linux, and this is aarch64-macos"
        );
    }
}
