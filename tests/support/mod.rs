//! Running cargo on the fixture and example crates from inside a test.

use std::path::PathBuf;
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
    // Settings of the outer run must not leak into the fixtures, nor their summaries into CI's.
    command.env_remove("GITHUB_STEP_SUMMARY");
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
#[allow(dead_code)]
pub fn take_turn() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs a perf-style test target of the fixture crate in release with a short budget and no
/// colour, passing `args` to the harness.
#[allow(dead_code)]
pub fn fixture(target: &str, args: &[&str]) -> Output {
    let mut all = vec!["test", "--release", "-p", "rtcompare-fixture-verdicts", "--test", target, "--"];
    all.extend_from_slice(args);
    run(cargo(&all).env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1"))
}

/// Standard output as text.
#[allow(dead_code)]
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The command [`fixture`] runs, for a test that adds variables of its own: a perf-style test
/// target of the fixture crate in release with a short budget, no colour, and no GitHub step
/// summary to append to.
#[allow(dead_code)]
pub fn fixture_command(target: &str, args: &[&str]) -> Command {
    let mut all = vec!["test", "--release", "-p", "rtcompare-fixture-verdicts", "--test", target, "--"];
    all.extend_from_slice(args);
    let mut command = cargo(&all);
    command.env("RTCOMPARE_TIME", "300ms").env("NO_COLOR", "1").env_remove("GITHUB_STEP_SUMMARY");
    command
}

/// A fresh, empty directory for one test's files under the system's temporary directory.
#[allow(dead_code)]
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rtcompare-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}
