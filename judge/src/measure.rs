//! What one process measured, as data: the metric, the batch sizing, the rounds of the four
//! routines, and the whole of it as one value a process sends to the one that judges.

/// The quantity a comparison measures.
///
/// ```
/// use rtcompare::Metric;
/// assert_eq!((Metric::default(), Metric::AllocBytes.unit()), (Metric::Time, "bytes"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Wall-clock time per operation, in nanoseconds.
    #[default]
    Time,
    /// Bytes allocated per operation (through the counting allocator).
    AllocBytes,
    /// Allocations per operation (through the counting allocator).
    Allocs,
    /// Instructions executed per operation, counted by valgrind's callgrind in processes of
    /// their own (`metric = "instructions"`): exact and the same on any machine of the same
    /// architecture, blind to memory, cache and layout. Only the test harness measures it;
    /// rtcompare's `compare` and `measure` cannot.
    Instructions,
}

impl Metric {
    /// The name used in attributes, output and the results file: `time`, `alloc_bytes`,
    /// `allocs`, `instructions`.
    ///
    /// ```
    /// assert_eq!(rtcompare::Metric::AllocBytes.as_str(), "alloc_bytes");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Time => "time",
            Metric::AllocBytes => "alloc_bytes",
            Metric::Allocs => "allocs",
            Metric::Instructions => "instructions",
        }
    }

    /// The unit of one per-operation value: `ns`, `bytes`, `allocs` or `instructions`.
    ///
    /// ```
    /// assert_eq!(rtcompare::Metric::Time.unit(), "ns");
    /// ```
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Time => "ns",
            Metric::AllocBytes => "bytes",
            Metric::Allocs => "allocs",
            Metric::Instructions => "instructions",
        }
    }

    /// Whether the metric counts discrete events (exact, repeatable) rather than timing them.
    ///
    /// ```
    /// use rtcompare::Metric;
    /// assert!(Metric::Allocs.is_count() && !Metric::Time.is_count());
    /// ```
    pub fn is_count(self) -> bool {
        self != Metric::Time
    }

    /// Whether measuring the metric needs rtcompare's counting allocator as the global
    /// allocator: the allocation metrics do.
    ///
    /// ```
    /// use rtcompare::Metric;
    /// assert!(Metric::AllocBytes.needs_counting_allocator() && !Metric::Instructions.needs_counting_allocator());
    /// ```
    pub fn needs_counting_allocator(self) -> bool {
        matches!(self, Metric::AllocBytes | Metric::Allocs)
    }
}

/// The result of calibration: how many operations each arm's batches run, and what the clock
/// can resolve over one batch.
///
/// ```
/// use rtcompare::report::Calibration;
/// let calibration = Calibration {
///     resolution: 20.0,
///     clock_step_ns: 20.0,
///     candidate_iters: 1000,
///     baseline_iters: 1000,
///     target_batch_ns: 100_000.0,
///     candidate_batch_ns: 120_000.0,
///     baseline_batch_ns: 100_000.0,
///     first_call_ns: 0.0,
/// };
/// assert_eq!(calibration.per_op_floors(), (0.02, 0.02));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Calibration {
    /// The meter's smallest step over one batch, in the metric's unit: for time, the clock's
    /// smallest observable step in nanoseconds times the clock readings a batch takes (one per
    /// placement copy); 1 for counts, which stay exact when summed.
    pub resolution: f64,
    /// The clock's smallest observable step, in nanoseconds.
    pub clock_step_ns: f64,
    /// Candidate operations per batch.
    pub candidate_iters: u64,
    /// Baseline operations per batch: the same as the candidate's unless their costs differ by
    /// more than a factor of 8, when each arm keeps its own.
    pub baseline_iters: u64,
    /// The batch duration calibration aimed for, in nanoseconds.
    pub target_batch_ns: f64,
    /// One candidate batch as measured during calibration, in nanoseconds.
    pub candidate_batch_ns: f64,
    /// One baseline batch as measured during calibration, in nanoseconds.
    pub baseline_batch_ns: f64,
    /// The first call of either arm in this process, the longer, in nanoseconds: with what a
    /// first call pays once (lazily initialised state, a large input built on demand).
    #[serde(default)]
    pub first_call_ns: f64,
}

impl Calibration {
    /// Per-op floors of the candidate and the baseline: the resolution over each one's batch size.
    pub fn per_op_floors(&self) -> (f64, f64) {
        (self.resolution / self.candidate_iters as f64, self.resolution / self.baseline_iters as f64)
    }

    /// Whether both arms run batches of the same size.
    pub fn shared_batch_size(&self) -> bool {
        self.candidate_iters == self.baseline_iters
    }
}

/// One routine's measurements: a per-op value per round, and where in the overall measurement
/// order each was taken (0 is the first batch measured).
///
/// ```
/// use rtcompare::report::Series;
/// use rtcompare::stats::Summary;
/// // Three rounds of one routine, measured first in each round of four batches.
/// let series = Series { per_op: vec![10.0, 11.0, 10.5], position: vec![0, 4, 8], placements: Vec::new() };
/// assert_eq!(Summary::of(&series.per_op).median, 10.5);
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Series {
    /// Per-op values (batch total divided by the batch size), one per round.
    pub per_op: Vec<f64>,
    /// Position of each value in the overall measurement order.
    pub position: Vec<u32>,
    /// Per placement copy (the same code at another offset, which the arms `#[compare]`
    /// registers have), the per-op values of the rounds in which that copy ran; empty for arms
    /// with a single copy.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placements: Vec<Vec<f64>>,
}

/// Everything collected for one comparison. Round `i` of every series was measured in the same
/// round, with the same input seed.
///
/// ```
/// use rtcompare::report::{Samples, Series};
/// let series = |per_op: Vec<f64>| Series { position: (0..per_op.len() as u32).collect(), per_op, placements: Vec::new() };
/// let samples = Samples { candidate: series(vec![2.0, 2.1]), baseline: series(vec![1.0, 1.1]), ..Samples::default() };
/// assert_eq!(samples.rounds(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Samples {
    /// Candidate operations per batch.
    pub candidate_iters: u64,
    /// Baseline operations per batch.
    pub baseline_iters: u64,
    /// The candidate's primary routine.
    pub candidate: Series,
    /// The candidate's twin routine (A/A control).
    pub candidate_twin: Series,
    /// The baseline's primary routine.
    pub baseline: Series,
    /// The baseline's twin routine (A/A control).
    pub baseline_twin: Series,
}

impl Samples {
    /// Number of complete rounds.
    ///
    /// ```
    /// let mut samples = rtcompare::report::Samples::default();
    /// samples.candidate.per_op = vec![1.0, 2.0];
    /// assert_eq!(samples.rounds(), 2);
    /// ```
    pub fn rounds(&self) -> usize {
        self.candidate.per_op.len()
    }

    /// The first `rounds` rounds (all of them when there are fewer), as a collection that
    /// stopped there would have kept them.
    #[doc(hidden)]
    pub fn first(&self, rounds: usize) -> Samples {
        let cut = |series: &Series| {
            let kept = rounds.min(series.per_op.len());
            Series {
                per_op: series.per_op[..kept].to_vec(),
                position: series.position[..kept.min(series.position.len())].to_vec(),
                // Which rounds a copy ran in is not recorded; each copy keeps its share.
                placements: series
                    .placements
                    .iter()
                    .map(|values| values[..values.len() * kept / series.per_op.len().max(1)].to_vec())
                    .collect(),
            }
        };
        Samples {
            candidate_iters: self.candidate_iters,
            baseline_iters: self.baseline_iters,
            candidate: cut(&self.candidate),
            candidate_twin: cut(&self.candidate_twin),
            baseline: cut(&self.baseline),
            baseline_twin: cut(&self.baseline_twin),
        }
    }

    /// These rounds followed by `later`'s, as one series: positions continue after this
    /// collection's last batch, and each placement copy's values are joined. The batch sizes
    /// are `later`'s.
    pub fn append(&mut self, later: Samples) {
        let offset = 4 * self.rounds() as u32;
        self.candidate_iters = later.candidate_iters;
        self.baseline_iters = later.baseline_iters;
        for (into, from) in [
            (&mut self.candidate, later.candidate),
            (&mut self.candidate_twin, later.candidate_twin),
            (&mut self.baseline, later.baseline),
            (&mut self.baseline_twin, later.baseline_twin),
        ] {
            into.per_op.extend(from.per_op);
            into.position.extend(from.position.iter().map(|p| p + offset));
            into.placements.resize_with(into.placements.len().max(from.placements.len()), Vec::new);
            for (into, from) in into.placements.iter_mut().zip(from.placements) {
                into.extend(from);
            }
        }
    }
}

/// What rtcompare's `measure` collected in one process: everything [`judge`](crate::judge()) needs.
/// Serialisable, so that processes can send it to the one that judges
/// ([`judge_processes`](crate::judge_processes)).
///
/// ```
/// use rtcompare::Measured;
/// use rtcompare::report::{Calibration, Samples};
/// let calibration = Calibration { resolution: 1.0, clock_step_ns: 1.0, candidate_iters: 1, baseline_iters: 1,
///     target_batch_ns: 0.0, candidate_batch_ns: 0.0, baseline_batch_ns: 0.0, first_call_ns: 0.0 };
/// let one = Measured { candidate: "a".into(), baseline: "b".into(), calibration, samples: Samples::default() };
/// assert_eq!(one.samples.rounds(), 0);
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    /// The candidate's name.
    pub candidate: String,
    /// The baseline's name.
    pub baseline: String,
    /// Batch sizing.
    pub calibration: Calibration,
    /// The interleaved rounds.
    pub samples: Samples,
}
/// What a rate counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ThroughputUnit {
    /// Bytes, shown with binary prefixes (`MiB/s`).
    Bytes,
    /// Elements, shown with decimal prefixes (`Melem/s`).
    Elements,
}

impl ThroughputUnit {
    /// The name used in the results file: `bytes` or `elements`.
    ///
    /// ```
    /// assert_eq!(rtcompare_judge::measure::ThroughputUnit::Bytes.as_str(), "bytes");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ThroughputUnit::Bytes => "bytes",
            ThroughputUnit::Elements => "elements",
        }
    }
}

/// The work of one call of a test, resolved from its declared throughput (`throughput = bytes(N)`
/// or `elements(N)`) and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Work {
    /// What is counted.
    pub unit: ThroughputUnit,
    /// How many per call.
    pub per_call: u64,
}

impl Work {
    /// The rate, in units per second, of calls taking `ns_per_call` nanoseconds each; infinite
    /// for a call measured at zero.
    pub fn per_second(self, ns_per_call: f64) -> f64 {
        self.per_call as f64 * 1e9 / ns_per_call
    }
}
