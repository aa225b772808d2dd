//! Measuring in the optimised build when the running one is not: plain `cargo test --test perf`
//! builds the test profile, whose timings describe debug code, so such a binary builds the same
//! test target with `--release` and runs that with its own arguments. The build goes in a target
//! folder of its own, `<target>/rtcompare-optimised`, so it never waits on the lock of the cargo
//! that started this binary, and a later run finds it built.
//!
//! The optimised binary is started with `RTCOMPARE_OPTIMISED` set to this build's target folder:
//! it writes the results file and keeps baseline builds where this binary would have, and should
//! it have debug assertions on too (a release profile with `debug-assertions = true`) it refuses
//! instead of building itself again.

use super::cargo::{BinaryLocation, Package, TargetKind, TestBuild, describe, executable};
use crate::child;
use crate::harness::build::BuildInfo;
use crate::harness::error::HarnessError;
use crate::harness::invocation::Facts;
use crate::harness::settings::Settings;
use crate::harness::variables::OPTIMISED_VARIABLE;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus, Stdio};

/// The folder under the target folder that the optimised build goes in.
const FOLDER: &str = "rtcompare-optimised";

/// Why the optimised binary cannot be built and run from here: the caller refuses instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unavailable(pub String);

/// Builds the optimised binary of this test target and runs it with this process's arguments,
/// its output streamed. Returns its exit code, or 2 when the build fails (the error printed);
/// [`Unavailable`] when cargo cannot be run from here at all. `results` is where the results
/// file goes when `RTCOMPARE_RESULTS` does not say: where this binary would have written it.
pub(crate) fn run(
    build: &BuildInfo,
    settings: &Settings,
    facts: &Facts,
    results: &Path,
) -> Result<ExitCode, Unavailable> {
    let (package_dir, layout) = whereabouts(facts)?;
    let Some(binary) = build_optimised(build, &package_dir, &layout)? else {
        return Ok(ExitCode::from(2));
    };
    let results = settings.outputs.results.is_none().then_some(results);
    let status = child::run_attached(&mut optimised_command(&binary, &facts.args, &layout.target_root, results));
    Ok(match status {
        Ok(status) => exit_code(status),
        Err(error) => {
            eprintln!("error: could not start the optimised build {}: {error}", binary.display());
            ExitCode::from(2)
        }
    })
}

/// The folder of this binary's package and where the binary is, or why its optimised build
/// cannot be made from here: it is that build already, cargo did not start it, or it is an
/// example.
fn whereabouts(facts: &Facts) -> Result<(PathBuf, BinaryLocation), Unavailable> {
    if facts.optimised_from.is_some() {
        return Err(Unavailable(format!(
            "this is already the optimised build rtcompare made ({OPTIMISED_VARIABLE} is set), and it too has debug \
             assertions on; set `debug-assertions = false` under `[profile.release]` in Cargo.toml"
        )));
    }
    let package_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from).ok_or_else(|| {
        Unavailable(
            "it was not started by cargo (CARGO_MANIFEST_DIR is not set), so which package to build is unknown"
                .to_owned(),
        )
    })?;
    let exe = facts.exe.as_deref().ok_or_else(|| Unavailable("cannot find this test binary".to_owned()))?;
    if exe.parent().and_then(Path::file_name).is_some_and(|dir| dir == "examples") {
        return Err(Unavailable("it is an example, and rtcompare builds only test targets itself".to_owned()));
    }
    let layout = BinaryLocation::of(exe).map_err(|problem| Unavailable(problem.to_string()))?;
    Ok((package_dir, layout))
}

/// Builds the optimised binary of the test target at `layout` in the package at `package_dir`,
/// in its own target folder; its path, or `None` when the build failed (the error printed).
fn build_optimised(
    build: &BuildInfo,
    package_dir: &Path,
    layout: &BinaryLocation,
) -> Result<Option<PathBuf>, Unavailable> {
    let target_dir = layout.target_root.join(FOLDER);
    let cargo = cargo_program(std::env::var_os("CARGO"), build.cargo);
    let package = match Package::read(&cargo, package_dir) {
        Ok(package) => package,
        Err(problem @ HarnessError::NoCargo { .. }) => return Err(Unavailable(problem.to_string())),
        Err(problem) => {
            let what = format!("failed: {problem}");
            eprintln!("error: {}", build_failed("cargo metadata", package_dir, &layout.target, &what));
            return Ok(None);
        }
    };
    let kind = package.target(&layout.target).map_or(TargetKind::Test, |(kind, _)| kind);
    let spec = TestBuild {
        cargo: cargo.clone(),
        package_dir,
        package: &package,
        kind,
        profile: "release",
        target_dir: &target_dir,
    };
    let mut command = spec.command(build, layout);
    eprintln!(
        "rtcompare: this is an unoptimised build; building the optimised one in {} (a later run reuses it)",
        target_dir.display()
    );
    // Cargo's progress and diagnostics go straight to the terminal; its JSON messages are read.
    let output = child::output(command.stderr(Stdio::inherit())).map_err(|e| {
        Unavailable(format!(
            "cargo could not be run ({}: {e}); put cargo on PATH or set CARGO",
            PathBuf::from(&cargo).display()
        ))
    })?;
    let built = output.status.success().then(|| executable(&String::from_utf8_lossy(&output.stdout), &layout.target));
    let Some(binary) = built.flatten() else {
        let what = if output.status.success() {
            format!("built no test target called `{}`", layout.target)
        } else {
            format!("failed ({}); cargo's messages are above", output.status)
        };
        eprintln!("error: {}", build_failed(&typed(&command, &target_dir), package_dir, &layout.target, &what));
        return Ok(None);
    };
    Ok(Some(binary))
}

/// The cargo to build with: the one that started this process (`CARGO`), else the one that built
/// it, else `cargo` on PATH. A cargo that built it but is gone since is skipped.
fn cargo_program(started_by: Option<OsString>, built_by: Option<&str>) -> OsString {
    let built_by = built_by.filter(|path| Path::new(path).is_file()).map(OsString::from);
    started_by.filter(|path| !path.is_empty()).or(built_by).unwrap_or_else(|| "cargo".into())
}

/// The optimised binary with this process's arguments, unchanged, and its environment, plus
/// [`OPTIMISED_VARIABLE`] and, unless the user set `RTCOMPARE_RESULTS`, the results file this
/// binary would have written. Standard input, output and error are this process's.
fn optimised_command(binary: &Path, args: &[OsString], target_root: &Path, results: Option<&Path>) -> Command {
    let mut command = Command::new(binary);
    command.args(args).env(OPTIMISED_VARIABLE, target_root);
    if let Some(results) = results {
        command.env("RTCOMPARE_RESULTS", results);
    }
    command
}

/// The build command as the user could type it to see the failure: its target folder, then cargo.
fn typed(command: &Command, target_dir: &Path) -> String {
    format!("CARGO_TARGET_DIR={} {}", target_dir.display(), describe(command))
}

/// The message of a build of the optimised binary that did not give one: the command as typed,
/// where it ran, `what` went wrong, and the ways on.
fn build_failed(command: &str, package_dir: &Path, target: &str, what: &str) -> String {
    format!(
        "this perf binary is an unoptimised build, and building its optimised one to measure instead did not \
         work: `{command}` in {} {what}. Fix the build, or run `cargo test --release --test {target}` to see it fail \
         there; to measure the unoptimised build on purpose, set RTCOMPARE_DEBUG=1",
        package_dir.display()
    )
}

/// The exit code of the optimised binary as this process's: its own, or 101 (a failed test run)
/// when a signal ended it or the code does not fit in a byte.
fn exit_code(status: ExitStatus) -> ExitCode {
    match status.code() {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(101)),
        None => {
            eprintln!("error: the optimised build of this perf binary ended abnormally ({status})");
            ExitCode::from(101)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(values: impl Iterator<Item = impl AsRef<std::ffi::OsStr>>) -> Vec<String> {
        values.map(|v| v.as_ref().to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn every_argument_passes_through_unchanged_in_order() {
        let args: Vec<OsString> = ["perf::a_vs_b", "--exact", "--format", "json", "--nocapture", "--list", "it's", ""]
            .into_iter()
            .map(OsString::from)
            .collect();
        let command =
            optimised_command(Path::new("/t/rtcompare-optimised/release/deps/perf-1"), &args, Path::new("/t"), None);
        assert_eq!(command.get_program(), "/t/rtcompare-optimised/release/deps/perf-1");
        assert_eq!(strings(command.get_args()), strings(args.iter()));
    }

    #[test]
    fn the_optimised_build_is_marked_and_writes_where_this_one_would() {
        let env = |command: &Command| {
            let mut env: Vec<(String, String)> = command
                .get_envs()
                .map(|(k, v)| {
                    (k.to_string_lossy().into_owned(), v.map_or_else(String::new, |v| v.to_string_lossy().into_owned()))
                })
                .collect();
            env.sort();
            env
        };
        let binary = Path::new("/t/rtcompare-optimised/release/deps/perf-1");
        let results = Path::new("/t/rtcompare/perf.json");
        assert_eq!(
            env(&optimised_command(binary, &[], Path::new("/t"), Some(results))),
            [
                ("RTCOMPARE_OPTIMISED".to_owned(), "/t".to_owned()),
                ("RTCOMPARE_RESULTS".to_owned(), "/t/rtcompare/perf.json".to_owned())
            ]
        );
        // The user's RTCOMPARE_RESULTS, like every other variable, is inherited as it is.
        assert_eq!(
            env(&optimised_command(binary, &[], Path::new("/t"), None)),
            [("RTCOMPARE_OPTIMISED".to_owned(), "/t".to_owned())]
        );
    }

    #[test]
    fn cargo_is_the_one_that_started_this_process_else_the_one_that_built_it_else_on_path() {
        let this = std::env::current_exe().ok().map(|p| p.to_string_lossy().into_owned());
        let existing = this.as_deref();
        assert_eq!(cargo_program(Some("/a/cargo".into()), existing), OsString::from("/a/cargo"));
        assert_eq!(cargo_program(None, existing), OsString::from(existing.unwrap_or("cargo")));
        assert_eq!(cargo_program(Some("".into()), None), OsString::from("cargo"));
        assert_eq!(cargo_program(None, Some("/no/such/cargo")), OsString::from("cargo"));
    }

    #[test]
    fn a_failed_build_names_the_command_and_the_ways_on() {
        let mut command = Command::new("/somewhere/cargo");
        command.args(["test", "--no-run", "--release", "--test", "perf"]);
        let typed = typed(&command, Path::new("/t/rtcompare-optimised"));
        assert_eq!(typed, "CARGO_TARGET_DIR=/t/rtcompare-optimised cargo test --no-run --release --test perf");
        let message = build_failed(&typed, Path::new("/w"), "perf", "failed (exit status: 101)");
        for part in [
            &format!("`{typed}` in /w failed (exit status: 101)"),
            "run `cargo test --release --test perf` to see it fail",
            "set RTCOMPARE_DEBUG=1",
        ] {
            assert!(message.contains(part), "missing {part:?} in {message}");
        }
    }
}
