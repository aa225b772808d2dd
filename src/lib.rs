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
//! [`stats`] module holds the statistics on their own (the paired bootstrap, drift, the parity
//! rule), and [`report`] the parts of a [`Report`] and how to render one
//! ([`report::render_text`]); `examples/by_hand.rs` in the repository goes through the steps on
//! one comparison's samples.
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
//! Everything else in the engine is internal, free to change in any release; the names the
//! generated code uses sit in `rtcompare::__private`, which is not part of the API either.

#![warn(missing_docs)]

// The attribute `compare` (macro namespace) and the function `compare` (value namespace) share
// a name: `#[rtcompare::compare(...)]` and `rtcompare::compare(a, b, &options)` both work.
pub use rtcompare_macros::{compare, main};
pub use rtcompare_runtime::{
    Arm, Caveat, CountingAllocator, Cprng, Dprng, Executor, JudgeOptions, Layout, Measured, Meter, Metric, Options,
    Outcome, Reading, Report, Role, Verdict, WarningKind, compare, judge, judge_processes, measure, report, stats,
};

/// Names used by the code the macros generate; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use core::hint::black_box;
    pub use rtcompare_runtime::__private::*;
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
