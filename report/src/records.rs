//! Each comparison's record, and the folder of a run's records that the run's files are made
//! from.
//!
//! A comparison's [`Test`] is saved as a file of its own, atomically, in its run's folder beside
//! the pictures, `<pictures>/.runs/<run id>/`, the way criterion saves each benchmark's
//! estimates. Under nextest, which runs each comparison in a process of its own, the
//! run is every process with one `NEXTEST_RUN_ID`; under `cargo test` it is the one process. A
//! record names no run: its folder does, so the records of an earlier run are never read, and
//! saving one removes the folders of other runs, so records stay until the next run.

use super::atomic::write_atomically;
use super::run::Test;
use super::svg::file_stem;
use serde::de::value::{MapAccessDeserializer, MapDeserializer, SeqDeserializer};
use serde::de::{Deserializer, IntoDeserializer, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// What a process saves for one comparison: the comparison, and what the run's files need of the
/// process that measured it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// When its process started, RFC 3339 in UTC: a run started when its first process did.
    pub started_at: String,
    /// The load average when its process started.
    pub load_average_start: Option<[f64; 3]>,
    /// The length `$GITHUB_STEP_SUMMARY` had when its process started, if it is set: the run's
    /// summary replaces what came after the smallest of these.
    pub step_summary_start: Option<u64>,
    /// The comparison.
    pub test: Test,
}

/// The records folder of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RunFolder {
    /// The folder of every run's folder, among the pictures.
    root: PathBuf,
    /// This run's folder name: its id, made safe for a file name.
    id: String,
}

impl RunFolder {
    /// The records of run `id` among the pictures in `pictures`.
    pub(crate) fn new(pictures: &Path, id: &str) -> RunFolder {
        let root = pictures.join(".runs");
        // nextest's ids are UUIDs; anything else is kept to characters every file system takes.
        let id: String = id
            .chars()
            .take(64)
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
            .collect();
        RunFolder { root, id: if id.is_empty() { "run".to_owned() } else { id } }
    }

    /// This run's folder.
    pub(crate) fn folder(&self) -> PathBuf {
        self.root.join(&self.id)
    }

    /// Saves `record` as the file of its comparison in this run's folder, after removing the
    /// folders of other runs. A comparison saved twice in one run (nextest retries a failed
    /// test) keeps its newest record.
    pub(crate) fn save(&self, record: &Record) -> io::Result<()> {
        self.remove_other_runs();
        std::fs::create_dir_all(self.folder())?;
        let text = serde_json::to_vec(record).map_err(io::Error::other)?;
        write_atomically(&self.folder().join(record_name(&record.test.name)), |file| file.write_all(&text))
    }

    /// Holds this run's folder for this process alone until the returned file is dropped, so
    /// that one process at a time reads the records and writes the run's files. Where the
    /// platform has no file locks, the folder is not held.
    pub(crate) fn hold(&self) -> io::Result<File> {
        std::fs::create_dir_all(self.folder())?;
        let file = OpenOptions::new().create(true).truncate(false).write(true).open(self.folder().join(".lock"))?;
        match file.lock() {
            Err(error) if error.kind() != io::ErrorKind::Unsupported => Err(error),
            _ => Ok(file),
        }
    }

    /// Reads every record of this run's folder, in the order of their file names (temporary
    /// files left out); each one that cannot be read is an error naming it.
    pub(crate) fn read_all(&self) -> (Vec<Record>, Vec<io::Error>) {
        let mut names: Vec<String> = match std::fs::read_dir(self.folder()) {
            Ok(entries) => entries
                .flatten()
                .filter_map(|entry| entry.file_name().into_string().ok())
                .filter(|name| !name.starts_with('.') && name.ends_with(".json"))
                .collect(),
            Err(error) => return (Vec::new(), vec![error]),
        };
        names.sort();
        let (mut records, mut errors) = (Vec::new(), Vec::new());
        for name in names {
            let path = self.folder().join(name);
            let read = std::fs::read_to_string(&path).and_then(|text| parse(&text).map_err(io::Error::other));
            match read {
                Ok(record) => records.push(record),
                Err(error) => errors.push(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "the record {} cannot be read ({error}); remove the folder {} and run again",
                        path.display(),
                        self.root.display()
                    ),
                )),
            }
        }
        (records, errors)
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

/// A record's file name: the test name as its picture's, then a hash of the whole name, since
/// two names can share a file stem (`a::b/1` and `a::b_1`).
fn record_name(test: &str) -> String {
    // FNV-1a: the same in every build, unlike std's hasher.
    let hash = test
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3));
    format!("{}-{hash:016x}.json", file_stem(test))
}

/// A record read back from its text. serde_json writes a figure that is not finite (NaN, ±∞) as
/// `null`; such a `null` where a number belongs is read back as NaN.
pub(crate) fn parse(text: &str) -> Result<Record, serde_json::Error> {
    Record::deserialize(Lenient(serde_json::from_str(text)?))
}

/// A JSON value that reads `null` as NaN where a number is asked for, and is otherwise read as
/// serde_json reads it.
struct Lenient(Value);

impl<'de> IntoDeserializer<'de, serde_json::Error> for Lenient {
    type Deserializer = Lenient;

    fn into_deserializer(self) -> Lenient {
        self
    }
}

impl<'de> Deserializer<'de> for Lenient {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(SeqDeserializer::new(items.into_iter().map(Lenient))),
            Value::Object(map) => {
                visitor.visit_map(MapDeserializer::new(map.into_iter().map(|(k, v)| (k, Lenient(v)))))
            }
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_f64(f64::NAN),
            other => other.deserialize_f64(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            other => visitor.visit_some(Lenient(other)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            // A variant with data: `{"variant": data}`.
            Value::Object(map) => {
                let entries = MapDeserializer::new(map.into_iter().map(|(k, v)| (k, Lenient(v))));
                visitor.visit_enum(MapAccessDeserializer::new(entries))
            }
            other => other.deserialize_enum(name, variants, visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 char str string bytes byte_buf unit unit_struct
        newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    fn record(test: Test) -> Record {
        Record {
            started_at: "2026-12-02T15:00:00Z".to_owned(),
            load_average_start: None,
            step_summary_start: None,
            test,
        }
    }

    /// A record read back is the value that was saved, figure for figure, a confirmation and
    /// its caveats included; a figure that was not finite comes back as NaN.
    #[test]
    fn a_record_reads_back_as_it_was_saved() {
        let judgement = fixtures::confirmed(fixtures::report(50.0, 100.0), fixtures::report(52.0, 100.0));
        let saved = record(fixtures::judged("perf::fast_vs_slow", judgement));
        assert_eq!(parse(&serde_json::to_string(&saved).unwrap()).unwrap(), saved);
        let panicked = record(fixtures::panicked("perf::boom_vs_slow"));
        assert_eq!(parse(&serde_json::to_string(&panicked).unwrap()).unwrap(), panicked);

        let mut report = fixtures::report(50.0, 100.0);
        report.verdict.best_ratio = f64::INFINITY;
        report.estimate.low = f64::NAN;
        let read = parse(&serde_json::to_string(&record(fixtures::measured("perf::x_vs_slow", report))).unwrap());
        let first = read.unwrap().test.judgement.unwrap().first;
        assert!(first.verdict.best_ratio.is_nan() && first.estimate.low.is_nan());
    }

    #[test]
    fn each_comparison_has_a_file_of_its_own_and_other_runs_are_removed() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let earlier = RunFolder::new(dir, "run-1");
        earlier.save(&record(fixtures::record("perf::old_vs_slow", 50.0, 100.0))).unwrap();
        let run = RunFolder::new(dir, "run-2");
        for name in ["perf::a_vs_b/1", "perf::a_vs_b_1", "perf::a_vs_b/1"] {
            run.save(&record(fixtures::record(name, 50.0, 100.0))).unwrap();
        }
        assert!(!earlier.folder().exists(), "the earlier run's records are gone");
        let (records, errors) = run.read_all();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(records.len(), 2, "two names with one stem, one of them saved twice");
        let mut names: Vec<&str> = records.iter().map(|r| r.test.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["perf::a_vs_b/1", "perf::a_vs_b_1"]);
    }

    #[test]
    fn a_held_run_is_held_by_one_file_alone() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let run = RunFolder::new(dir, "run-1");
        let held = run.hold().expect("the run's folder can be held");
        let other = File::open(run.folder().join(".lock")).expect("the lock file is there");
        assert!(matches!(other.try_lock(), Err(std::fs::TryLockError::WouldBlock)), "held already");
        drop(held);
        assert!(other.try_lock().is_ok(), "free once the holder lets go");
    }

    #[test]
    fn run_ids_become_safe_folder_names() {
        let folder = |id: &str| RunFolder::new(Path::new("t/perf"), id).folder();
        assert_eq!(folder("0b5a-77_Z"), Path::new("t/perf/.runs/0b5a-77_Z"));
        assert_eq!(folder("../x y"), Path::new("t/perf/.runs/___x_y"));
        assert_eq!(folder(""), Path::new("t/perf/.runs/run"));
    }
}
