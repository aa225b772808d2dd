//! Running cargo on the fixture and example crates from inside a test.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The target directory of the nested builds: `nested` beside the outer build's own folders
/// (`CARGO_TARGET_TMPDIR` is `<target>/tmp`), so it follows a `CARGO_TARGET_DIR` the outer run
/// was given.
pub fn nested_target() -> PathBuf {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().map_or_else(|| root().join("target"), PathBuf::from).join("nested")
}

/// A `cargo` command in the repository root with its own target directory, so it never waits
/// on the lock of the build that is running these tests.
pub fn cargo(args: &[&str]) -> Command {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(cargo);
    command.current_dir(root()).env("CARGO_TARGET_DIR", nested_target()).args(args);
    // Settings of the outer run must not leak into the fixtures, nor their summaries into CI's;
    // nor an outer nextest run's id, which would make the fixtures' files those of that run.
    command.env_remove("GITHUB_STEP_SUMMARY").env_remove("NEXTEST_RUN_ID");
    // Nor the outer run's GitHub Actions, whose annotations are the fixtures' to print only where a
    // test asks for them.
    command.env_remove("GITHUB_ACTIONS").env_remove("GITHUB_WORKSPACE");
    for (name, _) in std::env::vars() {
        if name.starts_with("RTCOMPARE_") {
            command.env_remove(name);
        }
    }
    command
}

/// Runs a command and returns its output, failing the test with the output if it cannot start.
pub fn run(command: &mut Command) -> Output {
    command.output().unwrap_or_else(|e| panic!("could not run {command:?}: {e}"))
}

/// Standard output and error as text, for assertion messages.
pub fn text(output: &Output) -> String {
    format!(
        "status: {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The tests of one file take turns: a cargo invocation beside a measurement would be noise.
/// This holds within one test process, which is all `cargo test` needs (it runs test binaries
/// one after another). Under nextest every test is a process of its own, and the one-at-a-time
/// group in `.config/nextest.toml` keeps them apart instead.
#[allow(dead_code)]
pub fn take_turn() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// How a fixture binary is built.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// `--release`: what a user runs, and the only build that measures.
    Release,
    /// The unoptimised test profile (no `--release`), which builds and runs its optimised self.
    Unoptimised,
}

/// `cargo test [--release] -p rtcompare-fixture-verdicts --test <target> -- <args>`: the one
/// command line these tests start a fixture binary with, settings of the outer run removed.
#[allow(dead_code)]
pub fn fixture_cargo(profile: Profile, target: &str, args: &[&str]) -> Command {
    let mut all = vec!["test"];
    if profile == Profile::Release {
        all.push("--release");
    }
    all.extend_from_slice(&["-p", "rtcompare-fixture-verdicts", "--test", target, "--"]);
    all.extend_from_slice(args);
    cargo(&all)
}

/// The executable of a test target of the fixture crate, built first if need be: for a test
/// that starts it without cargo.
#[allow(dead_code)]
pub fn fixture_binary(profile: Profile, target: &str) -> PathBuf {
    let mut args =
        vec!["test", "--no-run", "--message-format=json", "-p", "rtcompare-fixture-verdicts", "--test", target];
    if profile == Profile::Release {
        args.push("--release");
    }
    let output = run(&mut cargo(&args));
    assert!(output.status.success(), "the fixture did not build:\n{}", text(&output));
    let messages = String::from_utf8_lossy(&output.stdout);
    let executable =
        messages.lines().filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok()).find_map(|message| {
            let wanted = message["target"]["name"] == target && message["profile"]["test"] == true;
            wanted.then(|| message["executable"].as_str().map(PathBuf::from)).flatten()
        });
    executable.unwrap_or_else(|| panic!("cargo built no test target `{target}`:\n{messages}"))
}

/// Runs a perf-style test target of the fixture crate in release with a short budget and no
/// colour, passing `args` to the harness.
#[allow(dead_code)]
pub fn fixture(target: &str, args: &[&str]) -> Output {
    run(&mut fixture_command(target, args))
}

/// Standard output as text.
#[allow(dead_code)]
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The command [`fixture`] runs, for a test that adds variables of its own: a perf-style test
/// target of the fixture crate in release with a short budget and no colour. A later `env` of
/// the same variable overrides these.
#[allow(dead_code)]
pub fn fixture_command(target: &str, args: &[&str]) -> Command {
    let mut command = fixture_cargo(Profile::Release, target, args);
    command.env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1");
    command
}

/// A fresh, empty directory for one test's files under the system's temporary directory
/// (`rtcompare-<name>-` and a random suffix), removed when the returned guard is dropped (also
/// when the test panics).
#[allow(dead_code)]
pub fn scratch_dir(name: &str) -> tempfile::TempDir {
    let prefix = format!("rtcompare-{name}-");
    tempfile::Builder::new().prefix(&prefix).tempdir().unwrap_or_else(|e| panic!("cannot create {prefix}…: {e}"))
}

/// Whether valgrind is on PATH, for a test of instruction counting named `test`. Where it is
/// not, the test is skipped with a line saying so, except under CI (`CI=true`, which `.ci/run`
/// sets and GitHub Actions sets), where a missing valgrind fails the test: CI installs it, and a
/// skipped test there would hide that it did not.
#[allow(dead_code)]
pub fn valgrind_or_skip(test: &str) -> bool {
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| dir.join("valgrind").is_file()) {
        return true;
    }
    let why = format!("{test} needs valgrind on PATH (`apt-get install valgrind`; .ci/run installs it)");
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}, and CI=true requires it");
    // Past libtest's capture, which holds what a passing test prints with `eprintln!`.
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
    false
}

/// Writes `text` to `file` in `dir`.
#[allow(dead_code)]
pub fn write(dir: &Path, file: &str, text: &str) {
    std::fs::write(dir.join(file), text).unwrap_or_else(|e| panic!("cannot write {file} in {}: {e}", dir.display()));
}

/// Runs git in `dir` with a fixed identity and date, so the commits are the same in every run.
#[allow(dead_code)]
pub fn git(dir: &Path, args: &[&str]) {
    let output = run(Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=rtcompare", "-c", "user.email=rtcompare@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .env("GIT_AUTHOR_DATE", "2026-12-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-12-01T00:00:00Z"));
    assert!(output.status.success(), "git {args:?} in {}:\n{}", dir.display(), text(&output));
}

/// The lines of the block under `test <name> ...` in a run's output, up to the next test.
#[allow(dead_code)]
pub fn block<'a>(out: &'a str, name: &str) -> &'a str {
    let start = out.find(&format!("test {name} ... ")).unwrap_or_else(|| panic!("no test {name} in:\n{out}"));
    let rest = &out[start..];
    let end = rest[1..].find("\ntest ").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// Whether a block's verdict is parity, or a first round that fresh processes did not confirm:
/// identical code is never a confirmed win or loss, but two processes can land on unequally
/// loaded cores for one round (`bench/revision/evidence.md`, "Against a git revision").
#[allow(dead_code)]
pub fn parity_or_unconfirmed(block: &str) -> bool {
    block.lines().any(|line| line.starts_with("    parity (") || line.contains(" (not confirmed): "))
}
