//! What of the current build goes into the baseline build of a comparison against a git
//! revision (`revision.rs`): the test target as it is now, and this rtcompare. The baseline build
//! is then the current test target against the library as it was, so a comparison added with a
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

use super::error::HarnessError;
use super::git::git_output;
use crate::child;
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// The folder, relative to the package's, that holds the test target `target`'s sources: the
/// first folder on the way from the package to the target's root file, as `cargo metadata`
/// reports it.
pub(crate) fn sources_folder(package_dir: &Path, package: &str, target: &str) -> Result<PathBuf, HarnessError> {
    let metadata = cargo_metadata(package_dir, true)?;
    let root_file = root_file(&metadata, package, target).ok_or_else(|| {
        HarnessError::Metadata(format!(
            "cargo metadata lists no test target `{target}` in the package `{package}`; a comparison against a \
             revision runs from a `[[test]]` target (`cargo test --release --test {target}`), not a `[[bench]]` one"
        ))
    })?;
    let root_file = root_file.canonicalize().unwrap_or(root_file);
    let package_dir = package_dir.canonicalize().unwrap_or_else(|_| package_dir.to_path_buf());
    first_folder(&root_file, &package_dir).ok_or_else(|| {
        HarnessError::Misplaced(format!(
            "the test target `{target}` ({}) is not inside its package",
            root_file.display()
        ))
    })
}

/// The root file of the test target `target` of `package` in `cargo metadata`'s JSON.
fn root_file(metadata: &str, package: &str, target: &str) -> Option<PathBuf> {
    let metadata: serde_json::Value = serde_json::from_str(metadata).ok()?;
    let package = metadata["packages"].as_array()?.iter().find(|p| p["name"] == package)?;
    let is_test = |t: &&serde_json::Value| {
        t["name"] == target && t["kind"].as_array().is_some_and(|kinds| kinds.iter().any(|k| k == "test"))
    };
    let target = package["targets"].as_array()?.iter().find(is_test)?;
    target["src_path"].as_str().map(PathBuf::from)
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

/// The `--config` values that make the build at `package_dir` use this rtcompare instead of the
/// one its manifest resolves to; none when that one comes from a path, or when this rtcompare's
/// folder is not known.
pub(crate) fn patch_rtcompare(package_dir: &Path) -> Vec<OsString> {
    let Some(facade) = this_rtcompare() else { return Vec::new() };
    let Ok(metadata) = cargo_metadata(package_dir, false) else { return Vec::new() };
    let Some(key) = rtcompare_source(&metadata).and_then(|source| patch_key(&source)) else { return Vec::new() };
    let path = facade.to_string_lossy().replace('\\', "\\\\").replace('"', "\\\"");
    vec![format!("patch.\"{key}\".rtcompare.path=\"{path}\"").into()]
}

/// `cargo metadata` of the package at `package_dir`, as JSON text; with `no_deps`, without
/// resolving its dependencies.
fn cargo_metadata(package_dir: &Path, no_deps: bool) -> Result<String, HarnessError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command.args(["metadata", "--format-version", "1", "--manifest-path"]).arg(package_dir.join("Cargo.toml"));
    if no_deps {
        command.arg("--no-deps");
    }
    let output = child::output(&mut command).map_err(|e| {
        HarnessError::Metadata(format!("could not run cargo metadata: {e}; put cargo on PATH or set CARGO"))
    })?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(HarnessError::Metadata(format!("cargo metadata failed: {}", said.trim())));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The folder of the `rtcompare` package this runtime was built with: the one above the
/// runtime's, in rtcompare's own repository layout.
fn this_rtcompare() -> Option<PathBuf> {
    let facade = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let manifest = std::fs::read_to_string(facade.join("Cargo.toml")).ok()?;
    manifest.lines().any(|line| line.replace(' ', "") == "name=\"rtcompare\"").then(|| facade.to_path_buf())
}

/// The `source` of the `rtcompare` package in `cargo metadata`'s JSON, if it has one (a path
/// dependency has none).
fn rtcompare_source(metadata: &str) -> Option<String> {
    let metadata: serde_json::Value = serde_json::from_str(metadata).ok()?;
    let package = metadata["packages"].as_array()?.iter().find(|p| p["name"] == "rtcompare")?;
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
    fn the_root_file_is_found_by_package_target_and_kind() {
        let metadata = r#"{"packages":[
            {"name":"other","targets":[{"name":"perf","kind":["test"],"src_path":"/w/other/tests/perf.rs"}]},
            {"name":"mine","targets":[
                {"name":"perf","kind":["bench"],"src_path":"/w/mine/benches/perf.rs"},
                {"name":"perf","kind":["test"],"src_path":"/w/mine/tests/perf/main.rs"}]}]}"#;
        assert_eq!(root_file(metadata, "mine", "perf"), Some(PathBuf::from("/w/mine/tests/perf/main.rs")));
        assert_eq!(root_file(metadata, "mine", "speed"), None);
        assert_eq!(root_file("not json", "mine", "perf"), None);
    }

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
        assert_eq!(
            rtcompare_source(metadata).as_deref(),
            Some("git+https://github.com/o/rtcompare?branch=main#0123abc")
        );
        assert_eq!(rtcompare_source(r#"{"packages":[{"name":"rtcompare","source":null}]}"#), None);
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
