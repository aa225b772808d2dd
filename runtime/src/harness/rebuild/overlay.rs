//! What of the current build goes into the baseline build of a comparison against a git
//! revision (`revision.rs`): the perf target as it is now, this rtcompare, and the lock file
//! where the revision has none (what the manifest needs is `manifest.rs`). The baseline build
//! is then the current perf target against the library as it was, so a comparison added with a
//! change is measured against the old code, and a change of rtcompare's version between the
//! revisions does not matter.
//!
//! The test target's sources are the folder its root file sits in, under the package (`tests/`
//! for `tests/perf.rs`): its modules (`tests/common/mod.rs`) come with it. Only the files git
//! would commit there are copied (tracked, or new and not ignored), so a fixture's build output
//! stays behind, and a file is written only when its bytes differ, so Cargo rebuilds only what
//! changed since the last run against the same commit.
//!
//! rtcompare is pointed at this one with a `[patch]` of the source the revision's manifest
//! resolves it to (crates.io, another registry, or a git repository; `cargo metadata` says
//! which), passed to Cargo as `--config`. A path dependency cannot be patched: one outside the
//! repository is this rtcompare already, one inside it is the revision's own copy.

use super::cargo::{canonical, metadata};
use super::git::git_output;
use crate::harness::error::HarnessError;
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// The folder, relative to the package's, that holds the perf target's sources: the first folder
/// on the way from the package to the target's root file.
pub(crate) fn sources_folder(package_dir: &Path, root_file: &Path) -> Result<PathBuf, HarnessError> {
    first_folder(&canonical(root_file), &canonical(package_dir)).ok_or_else(|| {
        HarnessError::Misplaced(format!(
            "the perf target's root file {} is not inside its package",
            root_file.display()
        ))
    })
}

/// `tests` for `<package>/tests/perf.rs`, `perf.rs` for a root file in the package's own folder.
fn first_folder(root_file: &Path, package_dir: &Path) -> Option<PathBuf> {
    let relative = root_file.strip_prefix(package_dir).ok()?;
    match relative.components().next()? {
        Component::Normal(first) => Some(PathBuf::from(first)),
        _ => None,
    }
}

/// Makes `folder` under `to` hold exactly the files git would commit in `folder` under `from`,
/// with the same bytes.
pub(crate) fn mirror(from: &Path, to: &Path, folder: &Path) -> Result<(), HarnessError> {
    let wanted = committable_files(from, folder)?;
    for stale in committable_files(to, folder)?.difference(&wanted) {
        let path = to.join(stale);
        std::fs::remove_file(&path).map_err(HarnessError::io("remove", &path))?;
    }
    for file in &wanted {
        let (source, copy) = (from.join(file), to.join(file));
        let bytes = std::fs::read(&source).map_err(HarnessError::io("read", &source))?;
        if std::fs::read(&copy).is_ok_and(|old| old == bytes) {
            continue;
        }
        if let Some(parent) = copy.parent() {
            std::fs::create_dir_all(parent).map_err(HarnessError::io("create", parent))?;
        }
        // Atomically: under nextest several processes of one run mirror the same files while
        // another's Cargo may be reading them.
        rtcompare_report::write_atomically(&copy, |file| std::io::Write::write_all(file, &bytes))
            .map_err(HarnessError::io("write", &copy))?;
    }
    Ok(())
}

/// The files under `folder` of the working tree at `dir` that git tracks or would add (new and
/// not ignored), relative to `dir`; deleted ones are left out.
fn committable_files(dir: &Path, folder: &Path) -> Result<BTreeSet<PathBuf>, HarnessError> {
    let folder = folder.to_string_lossy();
    let listed = git_output(dir, &["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", &folder])?;
    Ok(listed
        .split('\0')
        .filter(|name| !name.is_empty())
        .map(PathBuf::from)
        .filter(|f| dir.join(f).is_file())
        .collect())
}

/// Gives the baseline's workspace, at `baseline_root`, the lock file of the current one, at
/// `current_root`, where the revision has none: both builds then resolve their dependencies to
/// the same versions where both manifests allow it, rather than the baseline to whatever is
/// newest today (a library commits no lock file). Whether it was given.
pub(crate) fn lend_lock_file(current_root: &Path, baseline_root: &Path) -> Result<bool, HarnessError> {
    let (ours, theirs) = (current_root.join("Cargo.lock"), baseline_root.join("Cargo.lock"));
    if theirs.exists() || !ours.is_file() {
        return Ok(false);
    }
    std::fs::copy(&ours, &theirs).map_err(HarnessError::io("copy the lock file to", &theirs))?;
    Ok(true)
}

/// The `--config` values that make the build at `package_dir` use this rtcompare instead of the
/// one its manifest resolves to, and this rtcompare-criterion where it takes one; none for a
/// package that comes from a path, or when this rtcompare's folder is not known.
pub(crate) fn patch_rtcompare(cargo: &OsString, package_dir: &Path) -> Vec<OsString> {
    let Some(facade) = this_rtcompare() else { return Vec::new() };
    let Ok(metadata) = metadata(cargo, package_dir, true) else { return Vec::new() };
    let ours = [("rtcompare", facade.clone()), ("rtcompare-criterion", facade.join("criterion"))];
    ours.into_iter()
        .filter_map(|(package, folder)| {
            let key = source_of(&metadata, package).and_then(|source| patch_key(&source))?;
            let path = folder.to_string_lossy().replace('\\', "\\\\").replace('"', "\\\"");
            Some(format!("patch.\"{key}\".{package}.path=\"{path}\"").into())
        })
        .collect()
}

/// The folder of the `rtcompare` package this runtime was built with: the one above the
/// runtime's, in rtcompare's own repository layout.
pub(crate) fn this_rtcompare() -> Option<PathBuf> {
    let facade = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let manifest = std::fs::read_to_string(facade.join("Cargo.toml")).ok()?;
    manifest.lines().any(|line| line.replace(' ', "") == "name=\"rtcompare\"").then(|| facade.to_path_buf())
}

/// The `source` of the package `name` in `cargo metadata`'s JSON, if it has one (a path
/// dependency has none).
fn source_of(metadata: &serde_json::Value, name: &str) -> Option<String> {
    let package = metadata["packages"].as_array()?.iter().find(|p| p["name"] == name)?;
    package["source"].as_str().map(str::to_owned)
}

/// The `[patch]` key of a package's source: `crates-io`, or the registry's or git repository's
/// URL without its query and commit.
fn patch_key(source: &str) -> Option<String> {
    let (kind, url) = source.split_once('+')?;
    match kind {
        "registry" | "sparse" if url.contains("crates.io") => Some("crates-io".to_owned()),
        "registry" => Some(url.to_owned()),
        "sparse" => Some(source.to_owned()),
        "git" => Some(url.split(['?', '#']).next().unwrap_or(url).to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sources_are_the_first_folder_under_the_package() {
        let package = Path::new("/w/mine");
        assert_eq!(first_folder(Path::new("/w/mine/tests/perf/main.rs"), package), Some(PathBuf::from("tests")));
        assert_eq!(first_folder(Path::new("/w/mine/perf.rs"), package), Some(PathBuf::from("perf.rs")));
        assert_eq!(first_folder(Path::new("/elsewhere/perf.rs"), package), None);
    }

    #[test]
    fn rtcompare_is_patched_where_its_source_is() {
        let metadata = r#"{"packages":[
            {"name":"rtcompare-runtime","source":"git+https://x/other"},
            {"name":"rtcompare","source":"git+https://github.com/o/rtcompare?branch=main#0123abc"}]}"#;
        let metadata = serde_json::from_str(metadata).expect("JSON");
        assert_eq!(
            source_of(&metadata, "rtcompare").as_deref(),
            Some("git+https://github.com/o/rtcompare?branch=main#0123abc")
        );
        let from_path = serde_json::json!({"packages":[{"name":"rtcompare","source":null}]});
        assert_eq!(source_of(&from_path, "rtcompare"), None);
        let key = patch_key;
        assert_eq!(
            key("git+https://github.com/o/rtcompare?branch=main#0123abc").as_deref(),
            Some("https://github.com/o/rtcompare")
        );
        assert_eq!(key("git+file:///srv/rtcompare#0123abc").as_deref(), Some("file:///srv/rtcompare"));
        assert_eq!(key("registry+https://github.com/rust-lang/crates.io-index").as_deref(), Some("crates-io"));
        assert_eq!(key("sparse+https://index.crates.io/").as_deref(), Some("crates-io"));
        assert_eq!(key("registry+https://my.registry/index").as_deref(), Some("https://my.registry/index"));
        assert_eq!(key("path+file:///x"), None);
    }

    #[test]
    fn this_rtcompare_is_the_package_above_the_runtime() {
        let facade = this_rtcompare().expect("the runtime is built inside rtcompare's repository");
        assert!(facade.join("runtime").join("Cargo.toml").is_file(), "{}", facade.display());
    }
}
