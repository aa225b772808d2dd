//! The baseline build of a comparison against a git revision (`#[compare]` without `baseline`,
//! `RTCOMPARE_BASELINE=<revision>`): the revision resolved to a commit, checked out as a git
//! worktree under the target folder, and the same test target built there with the same
//! profile and features in a target folder of its own. The worktree is keyed on the commit, so
//! a second run against the same commit reuses it and Cargo's incremental state.
//!
//! Everything here happens once per run, before anything is measured: a revision git cannot
//! resolve, a folder that is not in a git repository or a baseline that does not build stops
//! the run with one error.

use super::build::BuildInfo;
use super::cargo::{BinaryLocation, TestBuild, describe, executable};
use super::error::{BuildFailure, HarnessError};
use super::git::git;
use super::overlay;
use super::variables::BASELINE_VARIABLE;
use crate::child;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
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
}

static PREPARED: OnceLock<Baseline> = OnceLock::new();

/// The baseline prepared for this run, if one was.
pub(crate) fn prepared() -> Option<&'static Baseline> {
    PREPARED.get()
}

/// The revision part of the name of a comparison against a revision: `RTCOMPARE_BASELINE` with
/// every character but ASCII letters, digits and `_` replaced by `_` (`HEAD~1` gives `HEAD_1`,
/// `origin/main` gives `origin_main`), or `baseline` while the variable is unset.
pub(crate) fn sanitise_revision(revision: &str) -> String {
    revision.trim().chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
}

/// [`sanitise_revision`] of this process's `RTCOMPARE_BASELINE`, or `baseline` when it is unset
/// or empty. Every process of a run sees the same variable, so the names agree between the
/// test process and the processes it starts.
pub(crate) fn revision_label() -> String {
    std::env::var(BASELINE_VARIABLE)
        .ok()
        .map(|revision| sanitise_revision(&revision))
        .filter(|label| !label.is_empty())
        .unwrap_or_else(|| "baseline".to_owned())
}

/// The line under an ignored comparison against a revision when `RTCOMPARE_BASELINE` is unset,
/// naming this test target.
pub(crate) fn how_to_run() -> String {
    let exe = std::env::current_exe().ok();
    let stem = exe.as_deref().and_then(Path::file_stem).and_then(|s| s.to_str()).unwrap_or("perf");
    let target = stem.rsplit_once('-').map_or(stem, |(name, _hash)| name);
    format!(
        "compares this function against itself at a git revision: run with RTCOMPARE_BASELINE=<revision>, e.g. \
         `RTCOMPARE_BASELINE=origin/main cargo test --release --test {target}`"
    )
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
    let started = Instant::now();
    let target_dir = base.join("target");
    // This test target as it is now, over the baseline's library: a comparison added with the
    // change is measured against the old code.
    let current = base.join(format!("{commit}-with-current-{}", layout.target));
    worktree(&top, &current, &commit)?;
    let folder = overlay::sources_folder(&manifest_dir, build.package, &layout.target)?;
    overlay::mirror(&manifest_dir, &current.join(&relative), &folder)?;
    eprintln!(
        "rtcompare: baseline `{revision}` is commit {short}: building this `{}` target against its library in {}",
        layout.target,
        current.display()
    );
    let patches = overlay::patch_rtcompare(&current.join(&relative));
    let binary = match cargo_build(&current.join(&relative), &target_dir, build, &layout, &patches) {
        Ok(binary) => binary,
        Err(why) => {
            // The test target uses what the old library does not have: measure the baseline's
            // own test target, whose comparisons are those of that commit.
            let own = base.join(&commit);
            worktree(&top, &own, &commit)?;
            eprintln!(
                "rtcompare: this `{}` target does not build against commit {short} ({}); measuring that commit's own \
                 `{}` target instead, so comparisons added since are new",
                layout.target, why.first_error, layout.target
            );
            let patches = overlay::patch_rtcompare(&own.join(&relative));
            cargo_build(&own.join(&relative), &target_dir, build, &layout, &patches)
                .map_err(|failure| HarnessError::BaselineBuild { commit: short.to_owned(), failure })?
        }
    };
    eprintln!("rtcompare: baseline build ready in {:.1} s: {}", started.elapsed().as_secs_f64(), binary.display());
    Ok(Baseline { revision: revision.to_owned(), commit, binary })
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

/// Builds the test target in the baseline checkout, in the same profile as this binary, with
/// `patches` passed to Cargo as `--config` values, and returns its executable.
fn cargo_build(
    package_dir: &Path,
    target_dir: &Path,
    build: &BuildInfo,
    layout: &BinaryLocation,
    patches: &[OsString],
) -> Result<PathBuf, BuildFailure> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = TestBuild { cargo, package_dir, profile: &layout.profile, target_dir }.command(build, layout);
    for patch in patches {
        command.arg("--config").arg(patch);
    }
    let failure = |message: String, first_error: Option<&str>| BuildFailure {
        first_error: first_error.map_or_else(|| message.clone(), str::to_owned),
        message,
    };
    let output = child::output(&mut command)
        .map_err(|e| failure(format!("could not run cargo: {e}; put cargo on PATH or set CARGO"), None))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        let message = format!(
            "`{}` failed in {}; its last lines:\n    {}",
            describe(&command),
            package_dir.display(),
            child::last_lines(&stderr, 12).replace('\n', "\n    ")
        );
        return Err(failure(message, stderr.lines().map(str::trim).find(|line| line.starts_with("error"))));
    }
    if !patches.is_empty() && stderr.contains("was not used in the crate graph") {
        eprintln!(
            "rtcompare: the baseline build keeps its own rtcompare: its manifest asks for a version this one ({}) is \
             not; both must speak the same lock-step protocol",
            env!("CARGO_PKG_VERSION")
        );
    }
    executable(&text, &layout.target).ok_or_else(|| {
        let message = format!(
            "`{}` built nothing called `{}` (does the test target exist at that revision?)",
            describe(&command),
            layout.target
        );
        failure(message, None)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_letters_digits_and_underscores() {
        assert_eq!(sanitise_revision(" feature/x-y@{1} "), "feature_x_y__1_");
        assert_eq!(sanitise_revision("3fc4325"), "3fc4325");
    }

    #[test]
    fn a_revision_is_sanitised_into_a_name() {
        assert_eq!(sanitise_revision("HEAD~1"), "HEAD_1");
        assert_eq!(sanitise_revision("origin/main"), "origin_main");
        assert_eq!(sanitise_revision("v1.2"), "v1_2");
    }
}
