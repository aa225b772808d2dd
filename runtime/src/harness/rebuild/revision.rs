//! The baseline build of a comparison against a git revision (`#[compare]` without `baseline`,
//! `RTCOMPARE_BASELINE=<revision>`): the revision resolved to a commit, checked out as a git
//! worktree under the target folder, and the same test target built there with the same
//! profile and features in a target folder of its own. The worktree is keyed on the commit, so
//! a second run against the same commit reuses it and Cargo's incremental state.
//!
//! Everything here happens once per run, before anything is measured: a revision git cannot
//! resolve, a folder that is not in a git repository or a baseline that does not build stops
//! the run with one error.
//!
//! Both sides are built with their code aligned (`aligned.rs`): the baseline, and this test
//! target again in a target folder of its own, unless this binary was built aligned already.

use super::aligned::AlignedFlags;
use super::cargo::{BinaryLocation, Package, TargetKind, TestBuild, built_library, describe, executable};
use super::git::{git, git_output};
use super::manifest::{self, Dependency, Donor, Mended, Place};
use super::overlay;
use crate::child;
use crate::harness::build::BuildInfo;
use crate::harness::error::{BuildCause, BuildFailure, HarnessError};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Instant;

/// The baseline build of this run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Baseline {
    /// The revision as the user wrote it.
    pub revision: String,
    /// The commit it resolved to.
    pub commit: String,
    /// The baseline build of this test target.
    pub binary: PathBuf,
    /// This test target's build measured against it: laid out as the baseline is.
    pub this_build: PathBuf,
}

static PREPARED: OnceLock<Baseline> = OnceLock::new();

/// The baseline prepared for this run, if one was.
pub(crate) fn prepared() -> Option<&'static Baseline> {
    PREPARED.get()
}

/// The line under an ignored comparison against a revision when `RTCOMPARE_BASELINE` is unset,
/// naming this target and the repository's default branch, worked out once per process.
pub(crate) fn how_to_run() -> &'static str {
    static HINT: OnceLock<String> = OnceLock::new();
    HINT.get_or_init(|| format!("compares this function against itself at a git revision: {}", run_with()))
}

/// How to run this target against a git revision: `run with RTCOMPARE_BASELINE=<revision>, e.g.
/// …`, naming this target and the repository's default branch, worked out once per process.
pub(crate) fn run_with() -> &'static str {
    static HINT: OnceLock<String> = OnceLock::new();
    HINT.get_or_init(|| {
        let exe = std::env::current_exe().ok();
        let stem = exe.as_deref().and_then(Path::file_stem).and_then(|s| s.to_str()).unwrap_or("perf");
        let target = stem.rsplit_once('-').map_or(stem, |(name, _hash)| name);
        let dir = std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from("."), PathBuf::from);
        let branch = default_branch(&dir);
        // `cargo bench` passes `--bench` to every target it runs.
        let command = if std::env::args().any(|arg| arg == "--bench") {
            format!("cargo bench --bench {target}")
        } else {
            format!("cargo test --release --test {target}")
        };
        format!(
            "run with RTCOMPARE_BASELINE=<revision>, e.g. `RTCOMPARE_BASELINE={branch} {command}`, or in a pull \
             request against where it left that branch, `RTCOMPARE_BASELINE=$(git merge-base {branch} HEAD)`"
        )
    })
}

/// The branch a change is compared with in the repository at `dir`: the remote's default branch
/// (`origin/HEAD` names it), else the first of `main`, `master` and `trunk` there is, else `main`.
fn default_branch(dir: &Path) -> String {
    if let Ok(remote) = git(dir, &["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]) {
        return remote;
    }
    let exists =
        |branch: &&str| git(dir, &["rev-parse", "--verify", "--quiet", &format!("refs/heads/{branch}")]).is_ok();
    ["main", "master", "trunk"].into_iter().find(exists).unwrap_or("main").to_owned()
}

/// Resolves `revision`, checks it out and builds this test target there, once per process.
/// `target_root` is the target folder to keep them in, when not this binary's own (the
/// optimised build of an unoptimised binary keeps them where the unoptimised one would).
pub(crate) fn prepare(
    revision: &str,
    build: &BuildInfo,
    target_root: Option<&Path>,
) -> Result<&'static Baseline, HarnessError> {
    if let Some(baseline) = PREPARED.get() {
        return Ok(baseline);
    }
    let baseline = build_baseline(revision, build, target_root)
        .map_err(|problem| HarnessError::Baseline { revision: revision.to_owned(), problem: Box::new(problem) })?;
    Ok(PREPARED.get_or_init(|| baseline))
}

fn build_baseline(revision: &str, build: &BuildInfo, target_root: Option<&Path>) -> Result<Baseline, HarnessError> {
    let manifest_dir = package_dir(build);
    let top = git(&manifest_dir, &["rev-parse", "--show-toplevel"])
        .map_err(|problem| HarnessError::NotInRepository { dir: manifest_dir.clone(), problem: Box::new(problem) })?;
    let top = PathBuf::from(top);
    let commit = git(&top, &["rev-parse", "--verify", "--quiet", &format!("{revision}^{{commit}}")])
        .map_err(|_| HarnessError::UnknownRevision { revision: revision.to_owned(), repository: top.clone() })?;
    let exe = std::env::current_exe().map_err(HarnessError::OwnBinary)?;
    let layout = BinaryLocation::of(&exe)?;
    let base = target_root.unwrap_or(&layout.target_root).join("rtcompare-baseline");
    let relative = relative_package_dir(&top, &manifest_dir)?;
    let short = &commit[..commit.len().min(12)];
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let current = Package::read(&cargo, &manifest_dir)?;
    let (kind, root_file) = current.target(&layout.target).ok_or_else(|| {
        HarnessError::Metadata(format!(
            "cargo metadata lists no test or bench target `{}` in the package at {}",
            layout.target,
            manifest_dir.display()
        ))
    })?;
    let started = Instant::now();
    // This perf target as it is now, over the baseline's library: a comparison added with the
    // change is measured against the old code.
    let checkout = base.join(format!("{commit}-with-current-{}", layout.target));
    worktree(&top, &checkout, &commit)?;
    let folder = overlay::sources_folder(&manifest_dir, root_file)?;
    overlay::mirror(&manifest_dir, &checkout.join(&relative), &folder)?;
    eprintln!(
        "rtcompare: baseline `{revision}` is commit {short}: building this `{}` target against its library in {}",
        layout.target,
        checkout.display()
    );
    let donor = donor(&current, &layout.target, kind, &manifest_dir)?;
    let aligned = AlignedFlags::of_this_build();
    let builder = Builder {
        cargo,
        commit: &commit,
        top: &top,
        place: Place { in_repository: relative, in_working_tree: manifest_dir },
        current: &current,
        kind,
        build,
        layout: &layout,
        target_dir: base.join("target"),
        aligned: &aligned,
    };
    let binary = builder.build_or_fall_back(&checkout, &donor, &base)?;
    let this_build = if aligned.already() { exe } else { builder.this_build_aligned(&base.join("this-build"))? };
    eprintln!("rtcompare: baseline build ready in {:.1} s: {}", started.elapsed().as_secs_f64(), binary.display());
    Ok(Baseline { revision: revision.to_owned(), commit, binary, this_build })
}

/// Runs the build `command` of the package in `package_dir`: the executable of its target
/// `target` and Cargo's standard error, or why it failed, `cause` saying what of the build
/// failed from Cargo's messages.
fn run_build(
    command: &mut Command,
    package_dir: &Path,
    target: &str,
    cause: impl FnOnce(&str) -> BuildCause,
) -> Result<(PathBuf, String), BuildFailure> {
    let failure = |message: String| BuildFailure { first_error: message.clone(), message, cause: BuildCause::Cargo };
    let output = child::output(command)
        .map_err(|e| failure(format!("could not run cargo: {e}; put cargo on PATH or set CARGO")))?;
    let messages = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if !output.status.success() {
        return Err(failed(command, package_dir, &stderr, cause(&messages)));
    }
    let built = executable(&messages, target);
    let built = built.ok_or_else(|| failure(format!("`{}` built nothing called `{target}`", describe(command))))?;
    Ok((built, stderr))
}

/// The failure of `command`, run in `package_dir`, which said `stderr`: the command, where it
/// ran and cargo's error, and its first line, which a fallback names; `cause` says what of it
/// failed, except that a build that ran out of disk space says that, whatever else failed with it.
fn failed(command: &Command, package_dir: &Path, stderr: &str, cause: BuildCause) -> BuildFailure {
    let said = cargo_error(stderr);
    // ENOSPC as Cargo and rustc print it (`… (os error 28)`), and as the linker does.
    let disk_full = stderr.contains("os error 28") || stderr.contains("No space left on device");
    let cause = if disk_full { BuildCause::DiskFull } else { cause };
    BuildFailure {
        message: format!(
            "`{}` failed in {}:\n    {}",
            describe(command),
            package_dir.display(),
            said.replace('\n', "\n    ")
        ),
        first_error: said.lines().next().unwrap_or_default().to_owned(),
        cause,
    }
}

/// What the current package lends the baseline's manifest: the perf target's table and its
/// dev-dependencies, rtcompare as the very one this build uses.
fn donor(current: &Package, target: &str, kind: TargetKind, manifest_dir: &Path) -> Result<Donor, HarnessError> {
    let path = manifest_dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(HarnessError::io("read", &path))?;
    let rtcompare = overlay::this_rtcompare();
    Ok(Donor {
        target: target.to_owned(),
        kind,
        target_table: manifest::target_table(&text, kind, target),
        dev_dependencies: current
            .dependencies
            .iter()
            .filter_map(|d| Dependency::dev_from_metadata(d, rtcompare.as_deref()))
            .collect(),
    })
}

/// Builds the perf target in a checkout of the baseline commit.
struct Builder<'a> {
    cargo: OsString,
    commit: &'a str,
    /// The repository's top in the working tree.
    top: &'a Path,
    /// Where the package is in the repository and in the working tree.
    place: Place,
    current: &'a Package,
    kind: TargetKind,
    build: &'a BuildInfo,
    layout: &'a BinaryLocation,
    /// The target folder every baseline build shares.
    target_dir: PathBuf,
    /// The flags both sides are built with.
    aligned: &'a AlignedFlags,
}

impl Builder<'_> {
    /// Builds this perf target over the revision's library in `checkout` (with the `donor`'s
    /// parts); where it uses what the old library does not have, the revision's own perf target
    /// in a plain checkout under `base` instead. The executable, or both failures.
    fn build_or_fall_back(&self, checkout: &Path, donor: &Donor, base: &Path) -> Result<PathBuf, HarnessError> {
        let first = match self.build(checkout, Some(donor)) {
            Ok(binary) => return Ok(binary),
            Err(first) => first,
        };
        let short = self.short();
        if !first.falls_back() {
            return Err(HarnessError::BaselineBuild {
                commit: short.to_owned(),
                failure: Box::new(first),
                fallback: None,
            });
        }
        // The perf target uses what the old library does not have: measure the revision's own
        // perf target, whose comparisons are those of that commit.
        let own = base.join(self.commit);
        worktree(self.top, &own, self.commit)?;
        let target = &self.layout.target;
        eprintln!(
            "rtcompare: this `{target}` target does not build against commit {short} ({}); measuring that commit's \
             own `{target}` target instead, so comparisons added since are new",
            first.first_error
        );
        // Its own target, but rtcompare's stand-ins still in place of what they stand in for
        // (criterion): the baseline must speak this protocol.
        self.build(&own, Some(&donor.stand_ins())).map_err(|second| HarnessError::BaselineBuild {
            commit: short.to_owned(),
            failure: Box::new(first),
            fallback: Some(Box::new(second)),
        })
    }

    /// Mends the checkout's manifests (with the `donor`'s parts where the revision lacks them),
    /// lends it the lock file, and builds the perf target there, in the same profile as this
    /// binary; its executable.
    fn build(&self, checkout: &Path, donor: Option<&Donor>) -> Result<PathBuf, BuildFailure> {
        let package_dir = checkout.join(&self.place.in_repository);
        let failure =
            |message: String| BuildFailure { first_error: message.clone(), message, cause: BuildCause::Cargo };
        let had_target = self.mend(checkout, donor).map_err(|e| failure(e.to_string()))?;
        let package = Package::read(&self.cargo, &package_dir).map_err(|e| failure(e.to_string()))?;
        if overlay::lend_lock_file(&self.current.workspace_root, &package.workspace_root)
            .map_err(|e| failure(e.to_string()))?
        {
            eprintln!(
                "rtcompare: commit {} has no Cargo.lock; the baseline build starts from the current one",
                self.short()
            );
        }
        let spec = TestBuild {
            cargo: self.cargo.clone(),
            package_dir: &package_dir,
            package: &package,
            kind: self.kind,
            profile: &self.layout.profile,
            target_dir: &self.target_dir,
        };
        let (_, missing) = spec.features(self.build);
        self.say_missing(&missing);
        let patches = overlay::patch_rtcompare(&self.cargo, &package_dir);
        let mut command = spec.command(self.build, self.layout);
        self.aligned.apply(&mut command);
        for patch in &patches {
            command.arg("--config").arg(patch);
        }
        let cause = |messages: &str| {
            if built_library(messages, &package.id) {
                BuildCause::Target { revision_has_own: had_target }
            } else {
                BuildCause::Library
            }
        };
        let (executable, stderr) = run_build(&mut command, &package_dir, &self.layout.target, cause)?;
        if !patches.is_empty() && stderr.contains("was not used in the crate graph") {
            eprintln!(
                "rtcompare: the baseline build keeps its own rtcompare: its manifest asks for a version this one ({}) \
                 is not; both must speak the same lock-step protocol",
                env!("CARGO_PKG_VERSION")
            );
        }
        Ok(executable)
    }

    /// This test target built again from the working tree with the baseline's flags, in
    /// `target_dir`: one target folder for both would have the second build overwrite the
    /// first's binary, since Cargo names a workspace's own crates by their place in it, the same in
    /// both checkouts. Its executable.
    fn this_build_aligned(&self, target_dir: &Path) -> Result<PathBuf, HarnessError> {
        let package_dir = &self.place.in_working_tree;
        eprintln!(
            "rtcompare: building this `{}` target again with its code aligned as the baseline's is, in {}",
            self.layout.target,
            target_dir.display()
        );
        let spec = TestBuild {
            cargo: self.cargo.clone(),
            package_dir,
            package: self.current,
            kind: self.kind,
            profile: &self.layout.profile,
            target_dir,
        };
        let mut command = spec.command(self.build, self.layout);
        self.aligned.apply(&mut command);
        let built = run_build(&mut command, package_dir, &self.layout.target, |_| BuildCause::Cargo);
        built.map(|(executable, _)| executable).map_err(|failure| HarnessError::AlignedBuild(Box::new(failure)))
    }

    /// One line naming the features on in this build that the revision's package does not have,
    /// which its build leaves out.
    fn say_missing(&self, missing: &[&str]) {
        if !missing.is_empty() {
            eprintln!(
                "rtcompare: commit {} has no feature {}; the baseline build leaves {} out",
                self.short(),
                missing.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", "),
                if missing.len() == 1 { "it" } else { "them" }
            );
        }
    }

    /// Writes the checkout's package manifest as [`manifest::mend`] makes it from the revision's
    /// (with the `donor`'s parts where it lacks them), and its workspace's root manifest where
    /// that is another, saying in one line what changed; whether the revision's package manifest
    /// had the perf target.
    fn mend(&self, checkout: &Path, donor: Option<&Donor>) -> Result<bool, HarnessError> {
        let mut changes = Vec::new();
        let package = self.mend_one(checkout, &self.place, donor, &mut changes)?;
        let Some(package) = package else {
            return Err(HarnessError::Misplaced(format!(
                "commit {} has no {}: the package did not exist there yet; compare against a later revision",
                self.short(),
                slashed(&self.place.in_repository.join("Cargo.toml"))
            )));
        };
        if !self.place.in_repository.as_os_str().is_empty() {
            let root = Place { in_repository: PathBuf::new(), in_working_tree: self.top.to_path_buf() };
            self.mend_one(checkout, &root, None, &mut changes)?;
        }
        if !changes.is_empty() {
            eprintln!("rtcompare: in commit {}'s Cargo.toml the baseline build {}", self.short(), changes.join("; "));
        }
        Ok(package.had_target)
    }

    /// Mends the manifest of the folder `place` names in the checkout; `None` when the revision
    /// has no manifest there.
    fn mend_one(
        &self,
        checkout: &Path,
        place: &Place,
        donor: Option<&Donor>,
        changes: &mut Vec<String>,
    ) -> Result<Option<Mended>, HarnessError> {
        let name = slashed(&place.in_repository.join("Cargo.toml"));
        // The revision's own manifest, whatever an earlier run wrote in the checkout.
        let Ok(original) = git_output(checkout, &["show", &format!("{}:{name}", self.commit)]) else {
            return Ok(None);
        };
        let mended = manifest::mend(&original, donor, place).map_err(|e| {
            HarnessError::Metadata(format!("commit {}'s {name} is not TOML that Cargo reads: {e}", self.short()))
        })?;
        let path = checkout.join(&place.in_repository).join("Cargo.toml");
        if std::fs::read_to_string(&path).ok().as_deref() != Some(mended.manifest.as_str()) {
            rtcompare_report::write_atomically(&path, |file| {
                std::io::Write::write_all(file, mended.manifest.as_bytes())
            })
            .map_err(HarnessError::io("write", &path))?;
        }
        changes.extend(mended.changes.iter().cloned());
        Ok(Some(mended))
    }

    fn short(&self) -> &str {
        &self.commit[..self.commit.len().min(12)]
    }
}
/// The package's folder: Cargo's `CARGO_MANIFEST_DIR` when it runs the test, else the one the
/// binary was built in.
fn package_dir(build: &BuildInfo) -> PathBuf {
    let dir = std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(build.manifest_dir), PathBuf::from);
    dir.canonicalize().unwrap_or(dir)
}

fn relative_package_dir(top: &Path, manifest_dir: &Path) -> Result<PathBuf, HarnessError> {
    let top = top.canonicalize().unwrap_or_else(|_| top.to_path_buf());
    manifest_dir.strip_prefix(&top).map(Path::to_path_buf).map_err(|_| {
        HarnessError::Misplaced(format!(
            "the package folder {} is not inside its git repository {}",
            manifest_dir.display(),
            top.display()
        ))
    })
}

/// A detached worktree of `commit` at `checkout`, made once and reused.
fn worktree(top: &Path, checkout: &Path, commit: &str) -> Result<(), HarnessError> {
    if checkout.exists() {
        if git(checkout, &["rev-parse", "HEAD"]).is_ok_and(|head| head == commit) {
            return Ok(());
        }
        // Left by an interrupted run, or by a repository that no longer exists: the folder is
        // ours, under the target folder, and is made again.
        std::fs::remove_dir_all(checkout).map_err(HarnessError::io("remove the stale baseline checkout", checkout))?;
    }
    // A worktree whose folder was deleted (`cargo clean`) is still registered; forget it.
    git(top, &["worktree", "prune"])?;
    if let Some(parent) = checkout.parent() {
        std::fs::create_dir_all(parent).map_err(HarnessError::io("create", parent))?;
    }
    let path = checkout.to_string_lossy();
    match git(top, &["worktree", "add", "--detach", "--force", "--quiet", &path, commit]) {
        Ok(_) => Ok(()),
        // Another process of the same run (nextest starts one per test) made it first.
        Err(_) if git(checkout, &["rev-parse", "HEAD"]).is_ok_and(|head| head == commit) => Ok(()),
        Err(problem) => Err(problem),
    }
}

/// Cargo's own error in its standard error: from the first line that starts with `error` to the
/// end of that message (the next blank line), at most 20 lines; the last lines where no line does.
fn cargo_error(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    match lines.iter().position(|line| line.trim_start().starts_with("error")) {
        Some(first) => {
            let message = lines[first..].iter().take_while(|line| !line.trim().is_empty()).take(20);
            message.copied().collect::<Vec<_>>().join("\n")
        }
        None => child::last_lines(stderr, 12),
    }
}

/// A path inside a repository as git names it in `<commit>:<path>`.
fn slashed(path: &Path) -> String {
    path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_that_ran_out_of_disk_space_says_so_instead_of_blaming_the_library() {
        let cargo = Command::new("cargo");
        let stderr = "   Compiling serde v1.0.228\nerror: failed to write /t/release/deps/libserde.rlib: No space left on \
                      device (os error 28)\n";
        let full = failed(&cargo, Path::new("/p"), stderr, BuildCause::Library);
        assert_eq!(full.cause, BuildCause::DiskFull);
        let linker = failed(
            &cargo,
            Path::new("/p"),
            "error: linking failed\n  ld: No space left on device\n",
            BuildCause::Library,
        );
        assert_eq!(linker.cause, BuildCause::DiskFull);
        let said =
            HarnessError::BaselineBuild { commit: "abc1234".into(), failure: Box::new(full.clone()), fallback: None };
        let said = said.to_string();
        assert!(said.contains("No space left on device") && said.contains("\nThe disk is full: "), "{said}");
        assert!(!said.contains("does not build here"), "{said}");
        let aligned = HarnessError::AlignedBuild(Box::new(full)).to_string();
        assert!(aligned.contains("\nThe disk is full: "), "{aligned}");
        let library = failed(&cargo, Path::new("/p"), "error[E0425]: cannot find function `f`\n", BuildCause::Library);
        assert_eq!(library.cause, BuildCause::Library);
    }

    #[test]
    fn cargos_error_is_its_first_message_whole() {
        let stderr = "   Compiling itoa v1.0.15 (/w)\nwarning: unused\n\nerror[E0425]: cannot find function `f`\n --> src/lib.rs:1:1\n  |\n\nerror: could not compile `itoa` (lib)\n";
        assert_eq!(cargo_error(stderr), "error[E0425]: cannot find function `f`\n --> src/lib.rs:1:1\n  |");
        assert_eq!(cargo_error("no error here\nat all\n"), "no error here\nat all");
    }

    #[test]
    fn a_path_in_a_repository_is_named_with_slashes() {
        assert_eq!(slashed(&Path::new("crates").join("member").join("Cargo.toml")), "crates/member/Cargo.toml");
        assert_eq!(slashed(Path::new("Cargo.toml")), "Cargo.toml");
    }
}
