//! # rtcompare
//!
//! Performance comparisons as ordinary tests. Mark a function with
//! `#[compare(baseline = old_fn)]`, run `cargo test --release --test perf`, and get for each
//! pair a verdict — **win**, **parity** or **loss** — that holds up on a noisy laptop or CI
//! runner. A loss fails the test, and so the build.
//!
//! ```no_run
//! // tests/perf.rs, with `[[test]] name = "perf"  harness = false` in Cargo.toml
//! use rtcompare::compare;
//!
//! fn sum_loop() -> u64 {
//!     let mut total = 0;
//!     for i in 0..1_000u64 {
//!         total += std::hint::black_box(i);
//!     }
//!     total
//! }
//!
//! #[compare(baseline = sum_loop)]
//! fn sum_formula() -> u64 {
//!     let n = std::hint::black_box(1_000u64);
//!     n * (n - 1) / 2
//! }
//!
//! rtcompare::main!();
//! ```
//!
//! ## Attribute keys
//!
//! | key | meaning | default |
//! | --- | --- | --- |
//! | `baseline = path` | function to compare against: the candidate's input, any return type | the function itself at the git revision `RTCOMPARE_BASELINE` names |
//! | `setup = path` | builds the input outside the timer: `fn() -> I`, `fn(&mut Dprng) -> I` (with `args`, also a `usize`) | none |
//! | `args = [10, 1_000]` | one test per size, passed to setup | none |
//! | `types = [u32, u64]` | one test per type of a generic candidate, named `…::<u32>` | none |
//! | `block_on = path` | runs each future of an async pair (`fn(F) -> F::Output`) | rtcompare's executor |
//! | `throughput = bytes(4096)` | each arm's rate too: `bytes(N)` or `elements(N)`, `N` or `arg` | none |
//! | `threads = 4` | each batch on this many threads released together, timed by the slowest | 1 |
//! | `metric = "allocs"` | `"time"`, `"alloc_bytes"` or `"allocs"` | `"time"` |
//! | `time_drop` | drop each output inside the timed region | off |
//! | `name = "..."` | test name | `module_path::candidate_vs_baseline` |
//! | `parity = 0.04` | smallest relative difference that counts as a win or loss | 0.04 |
//! | `time = "2s"` | measurement budget of this pair | `RTCOMPARE_TIME`, else 1 s |
//! | `thresholds = [0.05, -0.02]` | report the confidence the candidate is ahead by each | none |
//! | `expect = "win"` | fail unless the candidate wins (default `"no_loss"`: fail on a loss) | `"no_loss"` |
//! | `ignore` | libtest's `#[ignore]` | off |
//! | `crate = path` | where rtcompare is, if renamed or re-exported (also `main!(crate = path)`) | `::rtcompare` |
//!
//! Candidate and baseline take the same input; their return types may differ (`Vec<u8>`
//! against `Box<[u8]>`, `String` against `Cow<str>`). A malformed attribute is one compile
//! error on the offending token.
//!
//! ## Without the macro
//!
//! The whole protocol is a function, [`compare()`](fn@compare), on two [`Arm`]s; [`measure()`]
//! and [`judge()`] split it into measuring and judging, and [`judge_processes`] judges the rounds
//! of several processes together. The [`stats`] module holds the statistics on their own (the
//! paired bootstrap, drift, the parity rule), and [`report`] the parts of a [`Report`] and how to
//! render one.
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
