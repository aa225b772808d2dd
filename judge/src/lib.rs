//! How rtcompare judges a comparison: the statistics, the verdict and its caveats, and the
//! decision — when to stop measuring, and what fresh processes must confirm.
//!
//! An internal crate: depend on `rtcompare`, which re-exports the public API. Its version moves
//! together with rtcompare's, and it is not stable on its own.
//!
//! Everything here is a pure function of what was measured and a seed: no module reads a clock,
//! a file or the environment, or starts a process (Cargo keeps it so: the crate depends on
//! nothing that measures). Measuring lives in `rtcompare-runtime`, which calls in here.
//!
//! | module | what it holds |
//! | --- | --- |
//! | [`measure`] | what one process measured, as data: [`Metric`], [`Calibration`], [`Samples`], [`Measured`], the work of a call |
//! | [`rng`] | the seeded generators: [`Dprng`], [`Cprng`], the bootstrap's stream |
//! | [`seeds`] | every seed derived from another, by what it is for |
//! | [`stats`] | the statistics: quantiles, the paired bootstrap, drift, the parity rule, the signed-rank test |
//! | [`validate`] | the A/A validation of each arm against its twin |
//! | [`verdict`] | a round's report, its caveats, a confirmation and the judgement they make, as data |
//! | [`caveats`] | which caveats a verdict carries |
//! | [`counts`] | a comparison's instruction counts, and how they read beside its time verdict |
//! | [`judging`] | what makes a report: [`judge`], [`judge_processes`] |
//! | [`decide`] | when to stop measuring and what to call the result |
//!
//! ```
//! use rtcompare::{JudgeOptions, Metric, Outcome, judge};
//! use rtcompare::report::{Calibration, Samples, Series};
//! let series = |ns: f64| Series {
//!     per_op: (0..40).map(|i| ns * (1.0 + 0.001 * (i % 3) as f64)).collect(),
//!     position: (0..40).collect(),
//!     placements: Vec::new(),
//! };
//! let samples = Samples {
//!     candidate_iters: 100,
//!     baseline_iters: 100,
//!     candidate: series(100.0),
//!     candidate_twin: series(100.0),
//!     baseline: series(300.0),
//!     baseline_twin: series(300.0),
//! };
//! let calibration = Calibration {
//!     resolution: 20.0,
//!     clock_step_ns: 20.0,
//!     candidate_iters: 100,
//!     baseline_iters: 100,
//!     target_batch_ns: 10_000.0,
//!     candidate_batch_ns: 10_000.0,
//!     baseline_batch_ns: 30_000.0,
//!     first_call_ns: 0.0,
//! };
//! let report = judge("fast", "slow", Metric::Time, calibration, samples, &JudgeOptions::default());
//! assert_eq!(report.verdict.outcome, Outcome::Win);
//! ```

#![warn(missing_docs)]
#![warn(unnameable_types)]
#![warn(unreachable_pub)]

pub mod alone;
pub mod caveats;
pub mod counts;
pub mod decide;
pub mod judging;
pub mod measure;
pub mod rng;
pub mod seeds;
pub mod stats;
pub mod validate;
pub mod verdict;

pub use decide::Role;
pub use judging::{judge, judge_processes};
pub use measure::{Calibration, Measured, Metric, Samples, Series};
pub use rng::{Cprng, Dprng};
pub use stats::Outcome;
pub use verdict::{Caveat, JudgeOptions, Report, Verdict, WarningKind};
