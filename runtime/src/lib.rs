//! The engine behind rtcompare: measurement, statistics, verdicts and the test harness.
//!
//! An internal crate: depend on `rtcompare`, which re-exports the public API below. Its version
//! moves together with rtcompare's (each rtcompare release depends on exactly its own release of
//! this crate), and it is not stable on its own.
//!
//! Most users only touch this crate through the `rtcompare` facade and its
//! `#[compare(baseline = ...)]` attribute. Without the macro, a comparison is run by hand:
//!
//! | step | item |
//! | --- | --- |
//! | two implementations to compare | [`Arm`] ([`Arm::from_fn`], or a batch routine timed by a [`Meter`]) |
//! | the whole protocol: calibration, interleaved rounds, judging | [`compare`], with [`Options`] |
//! | measuring only, say in several processes | [`measure()`], which gives a [`Measured`] |
//! | judging what was measured | [`judge`], [`judge_processes`], with [`JudgeOptions`] |
//! | reading the result | [`Report`], [`Verdict`], [`Outcome`], [`Caveat`] |
//!
//! Rendering a report is the `rtcompare-report` crate's, and the statistics on their own the
//! `rtcompare-judge` crate's; the facade names the public ones in `rtcompare::report` and
//! `rtcompare::stats`.
//!
//! ```
//! use rtcompare::{Arm, Options, Outcome, compare};
//! use std::time::Duration;
//! fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
//! fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
//! let options = Options { budget: Duration::from_millis(200), ..Options::default() };
//! let report = compare(Arm::from_fn("fast", fast), Arm::from_fn("slow", slow), &options);
//! assert_eq!(report.verdict.outcome, Outcome::Win);
//! ```

#![warn(missing_docs)]
#![warn(unnameable_types)]
#![warn(unreachable_pub)]

mod child;
mod compare;
mod environment;
mod harness;
mod instructions;
mod measure;

pub use compare::{compare, measure};
pub use measure::{Arm, CountingAllocator, Executor, Layout, Meter, Options, Reading};
// The judging crate's items a comparison by hand names, re-exported where they are defined.
pub use rtcompare_judge::{
    Caveat, Cprng, Dprng, JudgeOptions, Measured, Metric, Outcome, Report, Role, Verdict, WarningKind, judge,
    judge_processes,
};

/// The names the code `#[compare]` and `main!()` generate refers to, re-exported by the
/// facade's own `__private`; not part of the public API, and free to change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::harness::build::BuildInfo;
    pub use crate::harness::frontend::FrontEndBenchmark;
    pub use crate::harness::loops::{Loop, Loops};
    pub use crate::harness::process::server::{Enter, Serving};
    pub use crate::harness::registry::{AttributeSettings, Batches, Expectation, Registration};
    pub use crate::harness::runner::{front_end_main, main};
    pub use crate::measure::{
        Amount, BatchFn, BlockOnNeedsAFuture, CountingAllocator, Executor, FutureCall, Gate, IsFuture, IsValue,
        KEPT_SEED, Kept, Meter, Outputs, Placed, Setup, SizedSetup, Throughput, ValueCall, WithRng, WithoutRng,
        on_threads, place,
    };
    pub use inventory;
    pub use rtcompare_judge::measure::ThroughputUnit;
    pub use rtcompare_judge::{Dprng, Metric};
}
