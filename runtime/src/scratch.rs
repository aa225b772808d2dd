//! A temporary directory that removes itself, for tests: a test that panics half-way still
//! leaves nothing behind. The runtime's unit tests and the workspace's end-to-end tests
//! (`tests/support`, which includes this file by path) share it.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A fresh, empty directory under the system's temporary directory, removed with everything in
/// it when dropped.
#[derive(Debug)]
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// `rtcompare-<name>-<process id>`, emptied if an earlier run left it behind.
    ///
    /// # Panics
    /// When the directory cannot be created: the test cannot run without it.
    pub fn new(name: &str) -> ScratchDir {
        let dir = std::env::temp_dir().join(format!("rtcompare-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        ScratchDir(dir)
    }
}

impl Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        // Already gone (a test may remove it itself) is as good as removed.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
