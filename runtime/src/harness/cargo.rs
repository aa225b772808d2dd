//! Building this test target again with Cargo: where the running binary sits in Cargo's target
//! folder, and the `cargo test --no-run` that builds the same package, test target, features and
//! `--target` triple in a target folder of its own. A comparison against a git revision builds
//! the baseline's checkout with it (`revision.rs`), and an unoptimised perf binary its own
//! optimised build (`optimised.rs`).

use super::build::BuildInfo;
use super::error::HarnessError;
use crate::child;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where a test binary sits in Cargo's target folder: `<root>[/<triple>]/<profile>/deps/<name>-<hash>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BinaryLocation {
    /// The target folder.
    pub target_root: PathBuf,
    /// The profile's folder name (`debug` for the dev and test profiles).
    pub profile: String,
    /// The `--target` triple the binary was built for, if one was given.
    pub triple: Option<String>,
    /// The test target's name: the binary's without Cargo's `-<hash>`.
    pub target: String,
}

impl BinaryLocation {
    /// The layout of the test binary `exe`, or why it is not in one.
    pub(crate) fn of(exe: &Path) -> Result<BinaryLocation, HarnessError> {
        let unexpected = || HarnessError::OutsideTarget(exe.to_path_buf());
        let stem = exe.file_stem().and_then(|s| s.to_str()).ok_or_else(unexpected)?;
        let target = stem.rsplit_once('-').map_or(stem, |(name, _hash)| name).to_owned();
        let deps = exe.parent().filter(|d| d.file_name().is_some_and(|n| n == "deps")).ok_or_else(unexpected)?;
        let profile_dir = deps.parent().ok_or_else(unexpected)?;
        let profile = profile_dir.file_name().and_then(|n| n.to_str()).ok_or_else(unexpected)?.to_owned();
        let above = profile_dir.parent().ok_or_else(unexpected)?;
        // A `--target` build puts the triple's folder between the target folder and the
        // profile's: a folder named after a target rustc knows.
        let name = above.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let (target_root, triple) = match above.parent() {
            Some(root) if name.contains('-') && known_target(name) => (root.to_path_buf(), Some(name.to_owned())),
            _ => (above.to_path_buf(), None),
        };
        Ok(BinaryLocation { target_root, profile, triple, target })
    }
}

/// Whether `name` is one of the targets rustc knows (`rustc --print target-list`).
fn known_target(name: &str) -> bool {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    child::output(Command::new(rustc).args(["--print", "target-list"]))
        .is_ok_and(|output| String::from_utf8_lossy(&output.stdout).lines().any(|line| line.trim() == name))
}

/// One `cargo test --no-run` of the running binary's test target.
#[derive(Clone, Debug)]
pub(crate) struct TestBuild<'a> {
    /// The cargo to run.
    pub cargo: OsString,
    /// The package's folder, holding the `Cargo.toml` that is built.
    pub package_dir: &'a Path,
    /// The profile's folder name: `debug` builds the test profile, `release` passes `--release`,
    /// any other `--profile <name>`.
    pub profile: &'a str,
    /// The target folder the build goes in, apart from every other build's.
    pub target_dir: &'a Path,
}

impl TestBuild<'_> {
    /// The command: the package and test target of `layout`, its `--target` triple, and exactly
    /// the features `build` was compiled with. Cargo's JSON messages go to standard output (read
    /// them with [`executable`]), its progress and diagnostics to standard error.
    pub(crate) fn command(&self, build: &BuildInfo, layout: &BinaryLocation) -> Command {
        let mut command = Command::new(&self.cargo);
        command
            .current_dir(self.package_dir)
            .args(["test", "--no-run", "--message-format=json-render-diagnostics", "--manifest-path"])
            .arg(self.package_dir.join("Cargo.toml"))
            .args(["--package", build.package, "--test", &layout.target]);
        match self.profile {
            "debug" => {}
            "release" => {
                command.arg("--release");
            }
            other => {
                command.args(["--profile", other]);
            }
        }
        if let Some(triple) = &layout.triple {
            command.args(["--target", triple]);
        }
        let features: Vec<&str> = build.features.iter().filter(|(_, on)| *on).map(|(name, _)| *name).collect();
        command.arg("--no-default-features");
        if !features.is_empty() {
            command.args(["--features", &features.join(",")]);
        }
        // Both folders: a `build.build-dir` of the user's must not make this build share another's
        // files and lock.
        command.env("CARGO_TARGET_DIR", self.target_dir).env("CARGO_BUILD_BUILD_DIR", self.target_dir);
        // What Cargo told this test process about its own package must not reach the other build.
        for (name, _) in std::env::vars_os() {
            let name = name.to_string_lossy();
            if name.starts_with("CARGO_PKG_")
                || name.starts_with("CARGO_BIN_")
                || ["CARGO_MANIFEST_DIR", "CARGO_MANIFEST_PATH", "CARGO_CRATE_NAME", "CARGO_PRIMARY_PACKAGE"]
                    .contains(&name.as_ref())
                || name == "CARGO_TARGET_TMPDIR"
            {
                command.env_remove(name.as_ref());
            }
        }
        command.stdin(Stdio::null());
        command
    }
}

/// The executable of the test target `target` in Cargo's JSON messages.
pub(crate) fn executable(messages: &str, target: &str) -> Option<PathBuf> {
    messages.lines().filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok()).find_map(|message| {
        let is_target = message["reason"] == "compiler-artifact"
            && message["target"]["name"] == target
            && message["profile"]["test"] == true;
        is_target.then(|| message["executable"].as_str().map(PathBuf::from)).flatten()
    })
}

/// A cargo command as it would be typed: `cargo` and its arguments.
pub(crate) fn describe(command: &Command) -> String {
    let args: Vec<String> = command.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
    format!("cargo {}", args.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_of_a_test_binary() {
        let layout = BinaryLocation::of(Path::new("/x/target/release/deps/perf-0123abcd")).map_err(|e| e.to_string());
        let layout = layout.as_ref().map(|l| (l.target_root.clone(), l.profile.as_str(), l.target.as_str()));
        assert_eq!(layout, Ok((PathBuf::from("/x/target"), "release", "perf")));
        assert!(BinaryLocation::of(Path::new("/x/perf")).is_err());
        let of = |path: &str| {
            BinaryLocation::of(Path::new(path)).map(|l| (l.target_root, l.triple)).map_err(|e| e.to_string())
        };
        assert_eq!(of("/x/target/nested/release/deps/perf-1"), Ok((PathBuf::from("/x/target/nested"), None)));
        assert_eq!(
            of("/x/target/x86_64-unknown-linux-gnu/release/deps/perf-1"),
            Ok((PathBuf::from("/x/target"), Some("x86_64-unknown-linux-gnu".to_owned())))
        );
    }

    #[test]
    fn the_executable_is_read_from_cargos_messages() {
        let messages = concat!(
            r#"{"reason":"compiler-artifact","target":{"name":"perf","kind":["lib"]},"profile":{"test":false},"executable":null}"#,
            "\n",
            r#"{"reason":"compiler-artifact","target":{"name":"perf","kind":["test"]},"profile":{"test":true},"executable":"/t/perf-1"}"#,
            "\n",
            r#"{"reason":"build-finished","success":true}"#,
        );
        assert_eq!(executable(messages, "perf"), Some(PathBuf::from("/t/perf-1")));
        assert_eq!(executable(messages, "other"), None);
    }

    fn args(command: &Command) -> Vec<String> {
        command.get_args().map(|a| a.to_string_lossy().into_owned()).collect()
    }

    const BUILD: BuildInfo = BuildInfo {
        debug_assertions: true,
        package: "my-crate",
        manifest_dir: "/built/my-crate",
        features: &[("fast", true), ("slow", false), ("extra", true)],
        cargo: None,
    };

    #[test]
    fn the_command_builds_the_same_package_target_features_and_triple() {
        let layout = BinaryLocation {
            target_root: PathBuf::from("/w/target"),
            profile: "debug".to_owned(),
            triple: Some("x86_64-unknown-linux-gnu".to_owned()),
            target: "perf".to_owned(),
        };
        let folder = Path::new("/w/target/rtcompare-optimised");
        let build = TestBuild {
            cargo: "/bin/cargo".into(),
            package_dir: Path::new("/w"),
            profile: "release",
            target_dir: folder,
        };
        let command = build.command(&BUILD, &layout);
        assert_eq!(command.get_program(), "/bin/cargo");
        assert_eq!(command.get_current_dir(), Some(Path::new("/w")));
        assert_eq!(
            args(&command).join(" "),
            "test --no-run --message-format=json-render-diagnostics --manifest-path /w/Cargo.toml --package my-crate \
             --test perf --release --target x86_64-unknown-linux-gnu --no-default-features --features fast,extra"
        );
        let env = |name: &str| command.get_envs().find(|(n, _)| *n == name).map(|(_, value)| value);
        assert_eq!(env("CARGO_TARGET_DIR"), Some(Some(folder.as_os_str())));
        assert_eq!(env("CARGO_BUILD_BUILD_DIR"), Some(Some(folder.as_os_str())));
        assert!(describe(&command).starts_with("cargo test --no-run --message-format"), "{}", describe(&command));

        // The test profile passes no profile; another profile is named; no features, none named.
        let plain = BuildInfo { features: &[("fast", false)], ..BUILD };
        let layout = BinaryLocation { triple: None, ..layout };
        let of = |profile| args(&TestBuild { profile, ..build.clone() }.command(&plain, &layout)).join(" ");
        assert!(of("debug").ends_with("--test perf --no-default-features"), "{}", of("debug"));
        assert!(of("bench-fast").ends_with("--test perf --profile bench-fast --no-default-features"));
    }
}
