//! What `#[compare]` registers: one [`Registration`] per pair, collected through `inventory`.

use crate::measure::{Placed, Throughput};
use rtcompare_judge::measure::Metric;
use rtcompare_judge::measure::Work;
use std::time::Duration;

/// What the test fails on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Expectation {
    /// Fail only on a loss (the default).
    #[default]
    NoLoss,
    /// Fail unless the candidate wins.
    Win,
}

/// The attribute's optional settings, checked at compile time by the macro.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AttributeSettings {
    /// `name = "..."`: the test name, replacing `module_path::candidate_vs_baseline`.
    pub name: Option<&'static str>,
    /// `parity = 0.04`: the smallest relative difference that counts.
    pub parity: Option<f64>,
    /// `time = "2s"`: the measurement budget of this pair.
    pub time: Option<Duration>,
    /// `thresholds = [0.05, 0.1]`: margins to report the confidence for.
    pub thresholds: &'static [f64],
    /// `expect = "win"`: what the test fails on.
    pub expect: Expectation,
    /// `ignore`: libtest's `#[ignore]`.
    pub ignore: bool,
    /// `metric = "alloc_bytes"`: what is compared.
    pub metric: Metric,
    /// `args = [10, 1000]`: sizes passed to setup, one test each.
    pub args: &'static [u64],
    /// No `baseline = path`: the candidate is compared against itself at the git revision
    /// `RTCOMPARE_BASELINE` names, built and measured in a process of its own.
    pub revision: bool,
    /// `types = [u32, String]`: the type this registration instantiates the generic pair with,
    /// as written (`Vec<u8>`); each type is a registration of its own.
    pub type_arg: Option<&'static str>,
    /// `throughput = bytes(4096)`: what one call processes, shown as each arm's rate.
    pub throughput: Option<Throughput>,
    /// `threads = 4`: each batch runs on this many threads at once, timed by the slowest;
    /// `None` for the measuring thread alone.
    pub threads: Option<u32>,
    /// A front-end's benchmark (rtcompare-criterion's): its loops exist only in the processes
    /// that enter it. Against a git revision, where the run names none, it is measured alone and
    /// passes (a `#[compare]` test is ignored); with another benchmark as its baseline, the two
    /// are measured in two processes of this binary, each entering one.
    pub front_end: bool,
}

/// The generated batch routines of one pair: each arm and its A/A twin, every one in all its
/// placement copies ([`crate::measure::place`]).
#[derive(Clone, Copy, Debug)]
pub struct Batches {
    /// The candidate's routine.
    pub candidate: Placed,
    /// A second copy of the candidate's routine, at other addresses (A/A control).
    pub candidate_twin: Placed,
    /// The baseline's routine.
    pub baseline: Placed,
    /// A second copy of the baseline's routine (A/A control).
    pub baseline_twin: Placed,
}

impl Batches {
    /// The same routine for all four, in every copy: for registrations built by hand in tests
    /// and examples.
    ///
    /// ```
    /// use rtcompare_runtime::__private::{Batches, Meter};
    /// fn batch(_: u64, _: u64, _: u64, _: Meter) -> u64 { 0 }
    /// let batches = Batches::uniform(batch);
    /// assert_eq!(batches.candidate.len(), 4, "one routine per placement copy");
    /// ```
    pub fn uniform(batch: crate::measure::BatchFn) -> Batches {
        let placed = [batch; crate::measure::PLACEMENTS];
        Batches { candidate: placed, candidate_twin: placed, baseline: placed, baseline_twin: placed }
    }
}

/// One registered comparison. The macro builds these; they are public only so that generated
/// code can name them.
#[derive(Debug)]
pub struct Registration {
    /// `module_path!()` where the candidate is defined.
    pub module_path: &'static str,
    /// The candidate function's name.
    pub candidate: &'static str,
    /// The baseline path as written in the attribute (the candidate's name for a comparison
    /// against a git revision).
    pub baseline: &'static str,
    /// The baseline's own name, the path's last segment without generic arguments (`bubble` for
    /// `super::old::bubble`, `sort` for `sort::<u32>`): what the test is named after.
    pub baseline_name: &'static str,
    /// The batch loops.
    pub batches: Batches,
    /// The attribute's settings.
    pub settings: AttributeSettings,
    /// Source file of the attribute.
    pub file: &'static str,
    /// Source line of the attribute.
    pub line: u32,
}

inventory::collect!(Registration);

/// What a test's candidate is measured against, which decides where its arms run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Against {
    /// Its baseline function: both arms in one process, this one or a worker.
    Function,
    /// Itself at the git revision `RTCOMPARE_BASELINE` names: a lock-step pair of this build's
    /// process and the baseline build's.
    Revision,
    /// Another test of this binary, a front-end's benchmark (a criterion group's baseline
    /// function): a lock-step pair of two processes of this binary, each entering one test.
    Test(&'static str),
}

impl Registration {
    /// What its candidate is measured against.
    pub(crate) fn against(&self) -> Against {
        match (self.settings.revision, self.settings.front_end) {
            (true, _) => Against::Revision,
            (false, true) => Against::Test(self.baseline),
            (false, false) => Against::Function,
        }
    }

    /// The libtest name: the `name` setting, or `module_path::candidate_vs_baseline` (the
    /// baseline's last path segment). A comparison against a git revision is
    /// `module_path::candidate_vs_baseline` whatever the revision, so that its results can be
    /// followed from one baseline to the next (the results file names the revision beside it).
    /// A pair instantiated from `types` ends with its type, `::<u32>`.
    ///
    /// ```
    /// use rtcompare_runtime::__private::{AttributeSettings, Batches, Meter, Registration};
    /// fn batch(_: u64, _: u64, _: u64, _: Meter) -> u64 { 0 }
    /// let r = Registration {
    ///     module_path: "mylib::sort", candidate: "quick", baseline: "super::old::bubble", baseline_name: "bubble",
    ///     batches: Batches::uniform(batch), settings: AttributeSettings::default(), file: "src/sort.rs", line: 3,
    /// };
    /// assert_eq!(r.test_name(), "mylib::sort::quick_vs_bubble");
    /// let generic = Registration { baseline: "generic::sort::<u32>", baseline_name: "sort", ..r };
    /// assert_eq!(generic.test_name(), "mylib::sort::quick_vs_sort");
    /// let typed = AttributeSettings { type_arg: Some("u64"), ..AttributeSettings::default() };
    /// let per_type = Registration { baseline: "sort::<u64>", baseline_name: "sort", settings: typed, ..generic };
    /// assert_eq!(per_type.test_name(), "mylib::sort::quick_vs_sort::<u64>");
    /// ```
    pub fn test_name(&self) -> String {
        let name = match self.settings.name {
            Some(name) => name.to_owned(),
            None if self.settings.revision => format!("{}::{}_vs_baseline", self.module_path, self.candidate),
            None => format!("{}::{}_vs_{}", self.module_path, self.candidate, self.baseline_name),
        };
        match self.settings.type_arg {
            Some(ty) => format!("{name}::<{ty}>"),
            None => name,
        }
    }
}

/// One test: a registered pair, at one size when it has `args`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Comparison {
    /// The registration.
    pub registration: &'static Registration,
    /// The size passed to setup (0 when the pair has no `args`).
    pub size: Option<u64>,
}

impl Comparison {
    /// What one call processes, from `throughput` and this test's size; `None` without
    /// `throughput`.
    pub(crate) fn work(&self) -> Option<Work> {
        self.registration.settings.throughput?.per_call(self.size)
    }

    /// The libtest name: [`Registration::test_name`], then `/size` for a pair with `args`.
    pub(crate) fn name(&self) -> String {
        match self.size {
            Some(size) => format!("{}/{size}", self.registration.test_name()),
            None => self.registration.test_name(),
        }
    }
}

/// Every registered comparison linked into this binary and every one of `declared` (a
/// front-end's), one per size, sorted by test name (sizes in the order written).
pub(crate) fn comparisons(declared: &[&'static Registration]) -> Vec<(String, Comparison)> {
    let mut registrations: Vec<&'static Registration> = inventory::iter::<Registration>.into_iter().collect();
    registrations.extend_from_slice(declared);
    registrations.sort_by_key(|r| r.test_name());
    let mut all = Vec::new();
    for registration in registrations {
        if registration.settings.args.is_empty() {
            all.push(Comparison { registration, size: None });
        } else {
            all.extend(registration.settings.args.iter().map(|&size| Comparison { registration, size: Some(size) }));
        }
    }
    all.into_iter().map(|c| (c.name(), c)).collect()
}
