//! The records of a run split over processes. nextest runs each test in a process of its own and
//! gives all processes of one run the same `NEXTEST_RUN_ID`; each adds its [`RunRecord`] as a
//! file of its own to a folder of that run beside the results file,
//! `<dir>/.<results file name>.runs/<run id>/`, and the run's files are rebuilt from every record
//! there. A record is written atomically, so a reader never sees half of one and a process killed
//! before writing loses only its own tests. The first process of a new run removes the folders of
//! earlier runs: a run's records stay until the next run, never longer.

use super::atomic::write_atomically;
use super::record::RunRecord;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The records folder of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SharedRun {
    /// The folder of every run's folder, beside the results file.
    root: PathBuf,
    /// This run's folder name: its id, made safe for a file name.
    id: String,
}

impl SharedRun {
    /// The records of run `id` (`NEXTEST_RUN_ID`) for the results file `results`.
    pub(crate) fn new(results: &Path, id: &str) -> SharedRun {
        let name = results.file_name().map_or_else(|| "rtcompare".into(), |n| n.to_string_lossy());
        let root = results.with_file_name(format!(".{name}.runs"));
        // nextest's ids are UUIDs; anything else is kept to characters every file system takes.
        let id: String = id
            .chars()
            .take(64)
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
            .collect();
        SharedRun { root, id: if id.is_empty() { "run".to_owned() } else { id } }
    }

    /// This run's folder.
    pub(crate) fn folder(&self) -> PathBuf {
        self.root.join(&self.id)
    }

    /// Adds `record` as a new file of this run's folder, after removing the folders of other
    /// runs.
    pub(crate) fn add(&self, record: &RunRecord) -> io::Result<()> {
        self.remove_other_runs();
        std::fs::create_dir_all(self.folder())?;
        let text = serde_json::to_string(record).map_err(io::Error::other)?;
        // Named by when it was written, so the names sort oldest first; the process id keeps
        // two processes that write in the same nanosecond apart.
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let path = self.folder().join(format!("{nanos:020}-{}.json", std::process::id()));
        write_atomically(&path, |file| file.write_all(text.as_bytes()))
    }

    /// The names of this run's records, oldest first (temporary files left out).
    pub(crate) fn names(&self) -> io::Result<Vec<String>> {
        let mut names: Vec<String> = std::fs::read_dir(self.folder())?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| !name.starts_with('.') && name.ends_with(".json"))
            .collect();
        names.sort();
        Ok(names)
    }

    /// Reads the records `names` of this run's folder; an unreadable one is an error naming it.
    pub(crate) fn read(&self, names: &[String]) -> io::Result<Vec<RunRecord>> {
        names
            .iter()
            .map(|name| {
                let path = self.folder().join(name);
                let text = std::fs::read_to_string(&path)?;
                serde_json::from_str(&text).map_err(|error| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "the record {} cannot be read ({error}); remove the folder {} and run again",
                            path.display(),
                            self.root.display()
                        ),
                    )
                })
            })
            .collect()
    }

    /// Removes the folders of every other run. Failures are left alone: a folder another
    /// process removes first is gone all the same.
    fn remove_other_runs(&self) {
        let Ok(entries) = std::fs::read_dir(&self.root) else { return };
        for entry in entries.flatten() {
            if entry.file_name().to_str() != Some(self.id.as_str()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}
