//! A run's outputs as owned data: everything the results file, the Markdown summary and the
//! continuous-benchmarking files are made from, test by test. Under `cargo test` one process
//! runs every test and its record is the run's; under nextest each test runs in a process of its
//! own, and the run's files are rebuilt from the records of all of them ([`RunRecord::merge`],
//! kept by [`super::shared`]). Both paths render through this one type, so a file has the same
//! schema and layout whichever runner made it.

use super::json::{self, Head};
use super::markdown::{self, Entry};
use super::run::Run;
use super::tracking::{ArmEntry, arm_entries};
use super::{bmf, gha};
use crate::environment::Environment;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// What one process's run contributes to the files.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct RunRecord {
    /// The test binary's name without Cargo's hash.
    pub binary: String,
    /// The measurement budget per comparison, in seconds.
    pub time_s: f64,
    /// The run's seed.
    pub seed: u64,
    /// Whether an unoptimised build was measured on purpose.
    pub unoptimised: bool,
    /// The machine and build.
    pub environment: Environment,
    /// The length `$GITHUB_STEP_SUMMARY` had when this process started, if it is set: where
    /// the run's summary begins in that file (the smallest of a run's processes).
    pub step_summary_start: Option<u64>,
    /// The tests this process ran, in its order.
    pub tests: Vec<TestRecord>,
}

/// One test's part of every file.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct TestRecord {
    /// The test's name: a test that ran in several processes of a run (nextest's retries) is
    /// shown as the last one ran it.
    pub name: String,
    /// Its entry in the results file's `comparisons`, as it stands in the file.
    pub comparison: Box<RawValue>,
    /// Its part of the Markdown summary.
    pub summary: Entry,
    /// Its arms in the continuous-benchmarking files.
    pub arms: Vec<ArmEntry>,
}

impl RunRecord {
    /// The record of `run`, which this process ran.
    pub(crate) fn of(run: &Run<'_>, step_summary_start: Option<u64>) -> Result<RunRecord, serde_json::Error> {
        let tests = run
            .tests
            .iter()
            .map(|test| {
                Ok(TestRecord {
                    name: test.name.to_owned(),
                    comparison: json::comparison_part(test)?,
                    summary: markdown::entry(test),
                    arms: arm_entries(std::slice::from_ref(test)),
                })
            })
            .collect::<Result<_, serde_json::Error>>()?;
        Ok(RunRecord {
            binary: run.binary.to_owned(),
            time_s: run.budget.as_secs_f64(),
            seed: run.seed,
            unoptimised: run.unoptimised,
            environment: run.environment.clone(),
            step_summary_start,
            tests,
        })
    }

    /// One record of the processes of one run, in the order they were written (oldest first):
    /// the run-wide fields of the newest (its environment was read last) but the start — time
    /// and load average — of the process that started first; every test once, as the newest
    /// record that has it, in the order of the tests' names, as `cargo test` runs them; the
    /// earliest start of the step summary. `None` without records.
    pub(crate) fn merge(records: Vec<RunRecord>) -> Option<RunRecord> {
        let step_summary_start = records.iter().filter_map(|r| r.step_summary_start).min();
        // RFC 3339 times in UTC of one format sort as text.
        let first = records.iter().map(|r| &r.environment).min_by(|a, b| a.started_at.cmp(&b.started_at));
        let start = first.map(|e| (e.started_at.clone(), e.load_average_start));
        let mut tests = BTreeMap::new();
        let mut newest = None;
        for mut record in records {
            for test in std::mem::take(&mut record.tests) {
                tests.insert(test.name.clone(), test);
            }
            newest = Some(record);
        }
        let mut newest = newest?;
        if let Some((started_at, load_average_start)) = start {
            (newest.environment.started_at, newest.environment.load_average_start) = (started_at, load_average_start);
        }
        Some(RunRecord { step_summary_start, tests: tests.into_values().collect(), ..newest })
    }

    /// The results file.
    pub(crate) fn results_file(&self) -> String {
        let head = Head { binary: &self.binary, time_s: self.time_s, seed: self.seed, environment: &self.environment };
        let comparisons: Vec<&RawValue> = self.tests.iter().map(|t| t.comparison.as_ref()).collect();
        json::assemble(&head, &comparisons)
    }

    /// The Markdown summary.
    pub(crate) fn markdown(&self) -> String {
        let entries: Vec<Entry> = self.tests.iter().map(|t| t.summary.clone()).collect();
        markdown::render_entries(&self.binary, self.unoptimised, &entries)
    }

    /// The Bencher Metric Format file.
    pub(crate) fn bmf(&self) -> String {
        bmf::render(&self.arms())
    }

    /// The github-action-benchmark file.
    pub(crate) fn gha(&self) -> String {
        gha::render(&self.arms(), self.unoptimised)
    }

    fn arms(&self) -> Vec<ArmEntry> {
        self.tests.iter().flat_map(|t| t.arms.iter().cloned()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;
    use serde_json::Value;

    /// The record of a process that ran `tests`, read back as another process would read it.
    fn written_and_read(tests: &[crate::report::Test<'_>], step_summary_start: Option<u64>) -> RunRecord {
        let environment = fixtures::environment();
        let record = RunRecord::of(&fixtures::run(&environment, tests, false), step_summary_start).unwrap();
        serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap()
    }

    #[test]
    fn one_record_renders_the_files_a_whole_run_renders() {
        let tests = [
            fixtures::record("perf::fast_vs_slow", 25.0, 100.0),
            fixtures::record("perf::faster_vs_slow", 10.0, 100.0),
        ];
        let environment = fixtures::environment();
        let run = fixtures::run(&environment, &tests, false);
        let record = written_and_read(&tests, None);
        assert_eq!(record.results_file(), crate::report::json::render(&run));
        assert_eq!(record.markdown(), markdown::render(&run));
        assert_eq!(record.bmf(), bmf::render(&arm_entries(&tests)));
        assert_eq!(record.gha(), gha::render(&arm_entries(&tests), false));
    }

    #[test]
    fn records_of_two_processes_merge_into_one_run_with_every_test_once() {
        let mut first = written_and_read(&[fixtures::record("perf::b_vs_slow", 25.0, 100.0)], Some(40));
        let mut second = written_and_read(
            &[fixtures::record("perf::a_vs_slow", 50.0, 100.0), fixtures::panicked("perf::c_vs_slow")],
            Some(900),
        );
        (first.environment.started_at, first.environment.load_average_start) =
            ("2026-12-02T15:00:00Z".to_owned(), Some([9.0, 8.0, 7.0]));
        (second.environment.started_at, second.environment.load_average_end) =
            ("2026-12-02T15:00:01Z".to_owned(), Some([1.0, 2.0, 3.0]));
        let merged = RunRecord::merge(vec![first, second]).unwrap();
        let file: Value = serde_json::from_str(&merged.results_file()).unwrap();
        let names: Vec<&str> =
            file["comparisons"].as_array().unwrap().iter().filter_map(|c| c["name"].as_str()).collect();
        assert_eq!(names, ["perf::a_vs_slow", "perf::b_vs_slow", "perf::c_vs_slow"], "sorted by name, as cargo test");
        assert_eq!(file["schema_version"], 1);
        assert_eq!(file["comparisons"][1]["verdict"]["outcome"], "win");
        // The run started when its first process did, and ended when its last one did.
        let environment = &file["environment"];
        assert_eq!(environment["started_at"], "2026-12-02T15:00:00Z");
        assert_eq!(
            (&environment["load_average_start"][0], &environment["load_average_end"][0]),
            (&9.0.into(), &1.0.into())
        );
        let summary = merged.markdown();
        for name in ["`perf::a_vs_slow`", "`perf::b_vs_slow`", "`perf::c_vs_slow`"] {
            assert_eq!(summary.matches(&format!("| {name} |")).count(), 1, "{name} in\n{summary}");
        }
        assert!(summary.contains("2 win(s), 0 parity (0 established, 0 inconclusive), 0 loss(es); 2 of 3 test(s)"));
        assert!(summary.contains("#### 2 candidates against `slow`"), "rankings span processes:\n{summary}");
        let bmf: Value = serde_json::from_str(&merged.bmf()).unwrap();
        assert_eq!(bmf.as_object().map(|o| o.len()), Some(4));
        let gha: Value = serde_json::from_str(&merged.gha()).unwrap();
        assert_eq!(gha.as_array().map(Vec::len), Some(4));
        assert_eq!(
            merged.step_summary_start,
            Some(40),
            "the run's summary starts where its first process found the file"
        );
    }

    #[test]
    fn a_test_recorded_twice_is_shown_as_its_newest_record_has_it() {
        // nextest retries a failed test in a new process of the same run.
        let failed = written_and_read(&[fixtures::panicked("perf::a_vs_slow")], None);
        let retried = written_and_read(&[fixtures::record("perf::a_vs_slow", 50.0, 100.0)], None);
        let merged = RunRecord::merge(vec![failed, retried]).unwrap();
        let file: Value = serde_json::from_str(&merged.results_file()).unwrap();
        assert_eq!(file["comparisons"].as_array().map(Vec::len), Some(1));
        assert_eq!(file["comparisons"][0]["passed"], true);
        assert!(RunRecord::merge(Vec::new()).is_none());
    }
}
