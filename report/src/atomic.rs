//! Writing a file whole or not at all: through a temporary file beside it and a rename, so that
//! a reader sees the old file or the new one, never half of one, and a process killed while
//! writing leaves the old file as it was.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A hidden file in the same directory as `path`, so that renaming it over `path` is atomic; its
/// name is this process's and this call's, so that no two writers share one.
pub(crate) fn sibling(path: &Path, purpose: &str) -> PathBuf {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().map_or_else(|| "rtcompare".into(), |n| n.to_string_lossy());
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{purpose}-{}-{call}", std::process::id()))
}

/// Writes `path` through a temporary file in the same directory and a rename, so readers see the
/// old file or the new one, never half of one. On failure the temporary file is removed and any
/// older file is left as it was.
pub fn write_atomically(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let temporary = sibling(path, "tmp");
    let result = File::create(&temporary)
        .and_then(|mut file| fill(&mut file).and_then(|()| file.sync_all()))
        .and_then(|()| std::fs::rename(&temporary, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::entries;
    use std::io::Write;

    #[test]
    fn atomic_writes_replace_the_file_and_leave_no_temporary_behind() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let path = dir.join("r.json");
        write_atomically(&path, |f| f.write_all(b"old")).unwrap();
        write_atomically(&path, |f| f.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(entries(dir), ["r.json"]);
    }

    #[test]
    fn a_failed_write_leaves_the_older_file_intact() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let path = dir.join("r.json");
        write_atomically(&path, |f| f.write_all(b"old")).unwrap();
        let failed = write_atomically(&path, |f| {
            f.write_all(b"half of the ne")?;
            Err(io::Error::other("disk full"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "disk full");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(entries(dir), ["r.json"]);
    }
}
