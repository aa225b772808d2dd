//! The current test target laid over a baseline checkout: a comparison against a git revision
//! measures the test target as it is now, built against the library as it was, so a comparison
//! added with a change is measured against the old code (`revision.rs`).
//!
//! The test target's sources are the folder its root file sits in, under the package (`tests/`
//! for `tests/perf.rs`): its modules (`tests/common/mod.rs`) come with it. Only the files git
//! would commit there are copied (tracked, or new and not ignored), so a fixture's build output
//! stays behind, and a file is written only when its bytes differ, so Cargo rebuilds only what
//! changed since the last run against the same commit.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

/// The folder, relative to the package's, that holds the test target `target`'s sources: the
/// first folder on the way from the package to the target's root file, as `cargo metadata`
/// reports it.
pub(crate) fn sources_folder(package_dir: &Path, package: &str, target: &str) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1", "--manifest-path"])
        .arg(package_dir.join("Cargo.toml"))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    let root_file = root_file(&String::from_utf8_lossy(&output.stdout), package, target)
        .ok_or_else(|| format!("cargo metadata lists no test target `{target}` in the package `{package}`"))?;
    let root_file = root_file.canonicalize().unwrap_or(root_file);
    let package_dir = package_dir.canonicalize().unwrap_or_else(|_| package_dir.to_path_buf());
    first_folder(&root_file, &package_dir)
        .ok_or_else(|| format!("the test target `{target}` ({}) is not inside its package", root_file.display()))
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
pub(crate) fn mirror(from: &Path, to: &Path, folder: &Path) -> Result<(), String> {
    let wanted = committable_files(from, folder)?;
    for stale in committable_files(to, folder)?.difference(&wanted) {
        let path = to.join(stale);
        std::fs::remove_file(&path).map_err(|e| format!("cannot remove {}: {e}", path.display()))?;
    }
    for file in &wanted {
        let (source, copy) = (from.join(file), to.join(file));
        let bytes = std::fs::read(&source).map_err(|e| format!("cannot read {}: {e}", source.display()))?;
        if std::fs::read(&copy).is_ok_and(|old| old == bytes) {
            continue;
        }
        if let Some(parent) = copy.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&copy, &bytes).map_err(|e| format!("cannot write {}: {e}", copy.display()))?;
    }
    Ok(())
}

/// The files under `folder` of the working tree at `dir` that git tracks or would add (new and
/// not ignored), relative to `dir`; deleted ones are left out.
fn committable_files(dir: &Path, folder: &Path) -> Result<BTreeSet<PathBuf>, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--"])
        .arg(folder)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("could not run git: {e}; install git or put it on PATH"))?;
    if !output.status.success() {
        return Err(format!(
            "git ls-files in {} said: {}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let listed = String::from_utf8_lossy(&output.stdout);
    Ok(listed
        .split('\0')
        .filter(|name| !name.is_empty())
        .map(PathBuf::from)
        .filter(|f| dir.join(f).is_file())
        .collect())
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
}
