// The crate's front page is the README, so its quick start is compiled as a doctest; what only
// a Rust caller needs follows it.
#![doc = include_str!("../README.md")]
//!
//! ## Without the macro
//!
//! The whole protocol is a function, [`compare()`](fn@compare), on two [`Arm`]s
//! ([`Arm::from_fn`] for a closure, [`Arm::new`] for a batch routine that builds its inputs
//! outside the timer and reads a [`Meter`]). [`measure()`] and [`judge()`] split it into measuring
//! and judging, and [`judge_processes`] judges the rounds of several processes together. The
//! [`report`] module renders a [`Report`] ([`report::render_text`]), and [`stats`] holds the
//! statistics a report is made of, to redo its steps on its samples; `examples/by_hand.rs` in
//! the repository goes through them on one comparison.
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
//!
//! ## Every public name, and what it is for
//!
//! These 39 names are the API; a name that no story below needs is not in it.
//!
//! | user story | names |
//! | --- | --- |
//! | declare a comparison as a test, and the `main` that runs the tests (the README above) | [`compare`](macro@compare), [`main!`](macro@main) |
//! | give the measured functions seeded inputs | [`Dprng`] |
//! | compare `async` functions on an executor | [`Executor`] |
//! | compare by hand, without the macro | [`compare()`](fn@compare), [`Arm`], [`Options`] and its fields' types [`Metric`], [`Layout`], [`Role`] |
//! | time a batch routine that builds its inputs outside the timer | [`Meter`], [`Reading`] |
//! | count allocations ([`Metric::Allocs`]) | [`CountingAllocator`] |
//! | measure in several processes, judge together | [`measure()`], [`Measured`], [`judge()`], [`judge_processes`], [`JudgeOptions`] |
//! | read the result | [`Report`], [`Verdict`], [`Outcome`], [`Caveat`], [`WarningKind`] |
//! | show the result, in text or as a picture | [`report`]: [`render_text`](report::render_text), [`Detail`](report::Detail), [`render_svg`](report::render_svg), [`sentence`](report::sentence), [`format_ns`](report::format_ns), [`format_value`](report::format_value) |
//! | read the samples and calibration behind a report, or judge samples of one's own | [`report`]: [`Calibration`](report::Calibration), [`Samples`](report::Samples), [`Series`](report::Series) |
//! | redo a report's statistics step by step | [`stats`]: [`paired_ratios`](stats::paired_ratios), [`choose_resampling`](stats::choose_resampling) and its [`Resampling`](stats::Resampling), [`bootstrap_difference`](stats::bootstrap_difference), [`detect_drift`](stats::detect_drift), [`Summary`](stats::Summary) |
//!
//! Everything else in the engine is internal, free to change in any release; the names the
//! generated code uses sit in `rtcompare::__private`, which is not part of the API either.

#![warn(missing_docs)]

// The attribute `compare` (macro namespace) and the function `compare` (value namespace) share
// a name: `#[rtcompare::compare(...)]` and `rtcompare::compare(a, b, &options)` both work.
pub use rtcompare_macros::{compare, main};
pub use rtcompare_runtime::{
    Arm, Caveat, CountingAllocator, Dprng, Executor, JudgeOptions, Layout, Measured, Meter, Metric, Options, Outcome,
    Reading, Report, Role, Verdict, WarningKind, compare, judge, judge_processes, measure,
};

pub mod report {
    //! How to show a [`Report`](crate::Report), and the measurements it was judged from: the text
    //! block printed under a test ([`render_text`]), its picture ([`render_svg`]), the sentence of a
    //! caveat ([`sentence`]), and the units they use ([`format_value`], [`format_ns`]).
    //!
    //! ```
    //! use rtcompare::report::{Detail, render_text};
    //! use rtcompare::{Arm, Options, compare};
    //! use std::time::Duration;
    //! let options = Options { budget: Duration::from_millis(20), ..Options::default() };
    //! let report = compare(Arm::from_fn("add", || 1 + 1), Arm::from_fn("mul", || 2 * 1), &options);
    //! println!("{}", render_text(&report, Detail::Short));
    //! ```

    pub use rtcompare_judge::{Calibration, Samples, Series};
    pub use rtcompare_report::{Detail, format_ns, format_value, render_svg, render_text, sentence};
}

pub mod stats {
    //! The statistics a [`Report`](crate::Report) is made of, to redo its steps on its samples: the
    //! per-round ratios, the resampling they call for, the bootstrap of their difference, and the
    //! drift test.
    //!
    //! ```
    //! use rtcompare::stats::{Summary, bootstrap_difference, choose_resampling, paired_ratios};
    //! let candidate = [90.0, 91.0, 89.0, 90.5, 90.2, 89.8, 90.1, 90.4];
    //! let baseline = [100.0, 101.0, 99.0, 100.5, 100.2, 99.8, 100.1, 100.4];
    //! let ratios = paired_ratios(&candidate, &baseline);
    //! let bootstrap = bootstrap_difference(&ratios, choose_resampling(&ratios), 0.95, 1_000, 7);
    //! assert!(bootstrap.estimate.low > 0.05, "{:?}", bootstrap.estimate);
    //! assert!(Summary::of(&candidate).median < Summary::of(&baseline).median);
    //! ```

    pub use rtcompare_judge::stats::{
        Resampling, Summary, bootstrap_difference, choose_resampling, detect_drift, paired_ratios,
    };
}

/// Names used by the code the macros generate; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use core::hint::black_box;
    pub use rtcompare_runtime::__private::{
        Amount, AttributeSettings, BatchFn, Batches, BlockOnNeedsAFuture, BuildInfo, CountingAllocator, Dprng, Enter,
        Executor, Expectation, FrontEndBenchmark, FutureCall, Gate, IsFuture, IsValue, KEPT_SEED, Kept, Loop, Loops,
        Meter, Metric, Outputs, Placed, Registration, Serving, Setup, SizedSetup, Throughput, ThroughputUnit,
        ValueCall, WithRng, WithoutRng, front_end_main, inventory, main, on_threads, place,
    };
    pub use std::alloc::System;

    /// The baseline, once it is known to take the candidate's input (their return types may
    /// differ). Each baseline loop calls the baseline through this, so a baseline taking
    /// another input is an error at the baseline path, and the loop's call of it raises
    /// nothing more.
    #[inline(always)]
    pub fn baseline<A, B, C, D, F>(baseline: F, _candidate: fn(A) -> C, _signature: fn(B) -> D) -> B::Baseline
    where
        B: SameInput<A, F>,
    {
        B::baseline(baseline)
    }

    /// The baseline of a candidate without input, once it is known to take none either.
    #[inline(always)]
    pub fn baseline_without_input<C, D, F>(baseline: F, _candidate: fn() -> C, _signature: fn() -> D) -> F {
        baseline
    }

    /// `Self`, the baseline's input type, is `Candidate`, the candidate's.
    #[diagnostic::on_unimplemented(
        message = "the baseline takes `{Self}`, but the candidate takes `{Candidate}`",
        label = "this baseline takes another input than the candidate",
        note = "candidate and baseline must take the same input (their return types may differ)"
    )]
    pub trait SameInput<Candidate, F> {
        /// The baseline function's type.
        type Baseline;
        /// The baseline function.
        fn baseline(baseline: F) -> Self::Baseline;
    }

    impl<T, F> SameInput<T, F> for T {
        type Baseline = F;
        #[inline(always)]
        fn baseline(baseline: F) -> F {
            baseline
        }
    }
}
