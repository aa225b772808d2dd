//! Building this test target again with Cargo: where the running binary sits in Cargo's target
//! folder, what `cargo metadata` says of its package, and the `cargo test --no-run` that builds
//! the same package, target, features and `--target` triple in a target folder of its own. A
//! comparison against a git revision builds the baseline's checkout with it (`revision.rs`), and
//! an unoptimised perf binary its own optimised build (`optimised.rs`).
//!
//! The package is named by its package ID spec (`path+file:///…#name@1.0.0`), never by its bare
//! name: a package that rtcompare itself depends on (itoa, memchr, serde) shares its name with a
//! package in the graph, and Cargo calls a bare name ambiguous.

use crate::child;
use crate::harness::build::BuildInfo;
use crate::harness::error::HarnessError;
use serde_json::Value;
use std::collections::BTreeSet;
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

/// The kind of target a perf binary is, as Cargo's manifest (`[[test]]`) and flags (`--test`)
/// name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TargetKind {
    /// A `[[test]]` target, run by `cargo test`.
    Test,
    /// A `[[bench]]` target, run by `cargo bench`.
    Bench,
}

impl TargetKind {
    /// The manifest's word for it: `test` for `[[test]]`, `bench` for `[[bench]]`.
    pub(crate) fn word(self) -> &'static str {
        match self {
            TargetKind::Test => "test",
            TargetKind::Bench => "bench",
        }
    }
}

/// A package as `cargo metadata --no-deps` describes it: what building one of its targets
/// elsewhere needs.
#[derive(Clone, Debug)]
pub(crate) struct Package {
    /// Its package ID spec, which no other package in the graph shares.
    pub id: String,
    /// The features it declares, those of its optional dependencies among them.
    pub features: BTreeSet<String>,
    /// Its `[[test]]` and `[[bench]]` targets: name, kind and root file.
    pub targets: Vec<(String, TargetKind, PathBuf)>,
    /// Its dependencies as `cargo metadata` gives them, one JSON object each.
    pub dependencies: Vec<Value>,
    /// The folder of its workspace's root manifest, where the lock file is.
    pub workspace_root: PathBuf,
}

impl Package {
    /// The package whose manifest is `package_dir/Cargo.toml`, read with `cargo`.
    pub(crate) fn read(cargo: &OsString, package_dir: &Path) -> Result<Package, HarnessError> {
        let metadata = metadata(cargo, package_dir, false)?;
        Package::of(&metadata, package_dir).ok_or_else(|| {
            HarnessError::Metadata(format!(
                "cargo metadata lists no package whose manifest is {}",
                package_dir.join("Cargo.toml").display()
            ))
        })
    }

    /// The package of `cargo metadata`'s JSON whose manifest is in `package_dir`.
    fn of(metadata: &Value, package_dir: &Path) -> Option<Package> {
        let wanted = canonical(&package_dir.join("Cargo.toml"));
        let package = metadata["packages"]
            .as_array()?
            .iter()
            .find(|p| p["manifest_path"].as_str().is_some_and(|path| canonical(Path::new(path)) == wanted))?;
        let kind = |target: &Value| {
            let kinds = target["kind"].as_array()?;
            if kinds.iter().any(|k| k == "test") {
                Some(TargetKind::Test)
            } else if kinds.iter().any(|k| k == "bench") {
                Some(TargetKind::Bench)
            } else {
                None
            }
        };
        let targets = package["targets"].as_array()?.iter().filter_map(|target| {
            Some((target["name"].as_str()?.to_owned(), kind(target)?, PathBuf::from(target["src_path"].as_str()?)))
        });
        Some(Package {
            id: package["id"].as_str()?.to_owned(),
            features: package["features"].as_object().map(|f| f.keys().cloned().collect()).unwrap_or_default(),
            targets: targets.collect(),
            dependencies: package["dependencies"].as_array().cloned().unwrap_or_default(),
            workspace_root: PathBuf::from(metadata["workspace_root"].as_str()?),
        })
    }

    /// The kind and root file of its test or bench target `name`.
    pub(crate) fn target(&self, name: &str) -> Option<(TargetKind, &Path)> {
        self.targets.iter().find(|(n, ..)| n == name).map(|(_, kind, root)| (*kind, root.as_path()))
    }
}

/// `path` with its links resolved, or as it is where it cannot be.
pub(crate) fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// `cargo metadata` of the package at `package_dir` as JSON; with `resolve`, with its whole
/// dependency graph resolved, else (`--no-deps`) its workspace's packages only.
pub(crate) fn metadata(cargo: &OsString, package_dir: &Path, resolve: bool) -> Result<Value, HarnessError> {
    let mut command = Command::new(cargo);
    command.args(["metadata", "--format-version", "1", "--manifest-path"]).arg(package_dir.join("Cargo.toml"));
    if !resolve {
        command.arg("--no-deps");
    }
    let output =
        child::output(&mut command).map_err(|error| HarnessError::NoCargo { program: PathBuf::from(cargo), error })?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(HarnessError::Metadata(format!("`{}` failed: {}", describe(&command), said.trim())));
    }
    serde_json::from_slice(&output.stdout)
        .map_err(|e| HarnessError::Metadata(format!("cargo metadata printed what is not JSON: {e}")))
}

/// One `cargo test --no-run` of the running binary's test target.
#[derive(Clone, Debug)]
pub(crate) struct TestBuild<'a> {
    /// The cargo to run.
    pub cargo: OsString,
    /// The package's folder, holding the `Cargo.toml` that is built.
    pub package_dir: &'a Path,
    /// The package, as `cargo metadata` read it there.
    pub package: &'a Package,
    /// The kind of the target.
    pub kind: TargetKind,
    /// The profile's folder name: `debug` builds the test profile, `release` passes `--release`,
    /// any other `--profile <name>`.
    pub profile: &'a str,
    /// The target folder the build goes in, apart from every other build's.
    pub target_dir: &'a Path,
}

impl TestBuild<'_> {
    /// The command: the package and target of `layout`, its `--target` triple, and the features
    /// `build` was compiled with that the package declares ([`TestBuild::features`]). Cargo's
    /// JSON messages go to standard output (read them with [`executable`]), its progress and
    /// diagnostics to standard error.
    pub(crate) fn command(&self, build: &BuildInfo, layout: &BinaryLocation) -> Command {
        let mut command = Command::new(&self.cargo);
        let flag = format!("--{}", self.kind.word());
        command
            .current_dir(self.package_dir)
            .args(["test", "--no-run", "--message-format=json-render-diagnostics", "--manifest-path"])
            .arg(self.package_dir.join("Cargo.toml"))
            .args(["--package", &self.package.id, &flag, &layout.target]);
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
        let (features, _) = self.features(build);
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

    /// The features on in `build`, split into those the package declares, which the build turns
    /// on, and those it does not (another revision's package may lack a feature added since).
    pub(crate) fn features(&self, build: &BuildInfo) -> (Vec<&'static str>, Vec<&'static str>) {
        build
            .features
            .iter()
            .filter(|(_, on)| *on)
            .map(|(name, _)| *name)
            .partition(|name| self.package.features.contains(*name))
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

/// Whether Cargo's JSON messages say that the library of the package `id` was built (or was
/// fresh): a build that failed after it failed in a target that uses the library.
pub(crate) fn built_library(messages: &str, id: &str) -> bool {
    const LIBRARIES: [&str; 6] = ["lib", "rlib", "dylib", "cdylib", "staticlib", "proc-macro"];
    messages.lines().filter_map(|line| serde_json::from_str::<Value>(line).ok()).any(|message| {
        message["reason"] == "compiler-artifact"
            && message["package_id"] == id
            && message["target"]["kind"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|k| LIBRARIES.iter().any(|l| k == l)))
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
        // A package that has lost the feature `extra`, as another revision of it may have.
        let package = Package {
            id: "path+file:///w#my-crate@0.1.0".to_owned(),
            features: ["fast", "slow"].map(str::to_owned).into(),
            targets: Vec::new(),
            dependencies: Vec::new(),
            workspace_root: PathBuf::from("/w"),
        };
        let build = TestBuild {
            cargo: "/bin/cargo".into(),
            package_dir: Path::new("/w"),
            package: &package,
            kind: TargetKind::Test,
            profile: "release",
            target_dir: folder,
        };
        let command = build.command(&BUILD, &layout);
        assert_eq!(command.get_program(), "/bin/cargo");
        assert_eq!(command.get_current_dir(), Some(Path::new("/w")));
        assert_eq!(
            args(&command).join(" "),
            "test --no-run --message-format=json-render-diagnostics --manifest-path /w/Cargo.toml --package \
             path+file:///w#my-crate@0.1.0 --test perf --release --target x86_64-unknown-linux-gnu \
             --no-default-features --features fast"
        );
        assert_eq!(build.features(&BUILD), (vec!["fast"], vec!["extra"]), "on and declared; on and not declared");
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
        let bench = TestBuild { kind: TargetKind::Bench, ..build.clone() }.command(&plain, &layout);
        assert!(args(&bench).join(" ").contains(" --bench perf --release "), "{:?}", args(&bench));
    }

    /// The shape of `cargo metadata --no-deps` for a workspace of two packages.
    const METADATA: &str = r#"{"workspace_root":"/w","packages":[
        {"name":"other","id":"path+file:///w/other#0.1.0","manifest_path":"/w/other/Cargo.toml","features":{},
         "dependencies":[],"targets":[{"name":"perf","kind":["test"],"src_path":"/w/other/tests/perf.rs"}]},
        {"name":"itoa","id":"path+file:///w#itoa@1.0.15","manifest_path":"/w/Cargo.toml",
         "features":{"no-panic":["dep:no-panic"]},"dependencies":[{"name":"no-panic","kind":null}],
         "targets":[{"name":"itoa","kind":["lib"],"src_path":"/w/src/lib.rs"},
                    {"name":"bench","kind":["bench"],"src_path":"/w/benches/bench.rs"},
                    {"name":"perf","kind":["test"],"src_path":"/w/tests/perf/main.rs"}]}]}"#;

    #[test]
    fn the_package_is_the_one_whose_manifest_is_in_the_folder() {
        let metadata = serde_json::from_str(METADATA).expect("JSON");
        let package = Package::of(&metadata, Path::new("/w")).expect("the package in /w");
        assert_eq!(package.id, "path+file:///w#itoa@1.0.15");
        assert_eq!(package.features, ["no-panic".to_owned()].into());
        assert_eq!(package.target("perf"), Some((TargetKind::Test, Path::new("/w/tests/perf/main.rs"))));
        assert_eq!(package.target("bench"), Some((TargetKind::Bench, Path::new("/w/benches/bench.rs"))));
        assert_eq!(package.target("itoa"), None, "a library is no perf target");
        assert_eq!((package.dependencies.len(), package.workspace_root.as_path()), (1, Path::new("/w")));
        assert_eq!(
            Package::of(&metadata, Path::new("/w/other")).map(|p| p.id),
            Some("path+file:///w/other#0.1.0".to_owned())
        );
        assert!(Package::of(&metadata, Path::new("/elsewhere")).is_none());
    }

    #[test]
    fn a_built_library_is_read_from_cargos_messages() {
        let lib =
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w#itoa@1.0.15","target":{"kind":["lib"]}}"#;
        let other = r#"{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#itoa@1.0.19","target":{"kind":["lib"]}}"#;
        assert!(built_library(&format!("{other}\n{lib}\n"), "path+file:///w#itoa@1.0.15"));
        assert!(!built_library(other, "path+file:///w#itoa@1.0.15"), "another package of the same name");
        let test = lib.replace(r#"["lib"]"#, r#"["test"]"#);
        assert!(!built_library(&test, "path+file:///w#itoa@1.0.15"), "a test target is no library");
    }
}
