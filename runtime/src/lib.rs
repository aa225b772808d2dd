//! The engine behind rtcompare: measurement, statistics, verdicts and the test harness.
//!
//! Most users only touch this crate through the `rtcompare` facade and its
//! `#[compare(baseline = ...)]` attribute; everything here is public so a comparison can also be
//! run by hand, step by step:
//!
//! | step | function |
//! | --- | --- |
//! | the whole protocol | [`compare`] |
//! | batch sizing | [`measure::calibrate`] |
//! | interleaved collection | [`measure::collect`] |
//! | A/A validation | [`validate::validate_harness`] |
//! | drift | [`stats::detect_drift`] |
//! | the difference and its interval | [`stats::bootstrap_difference`] |
//! | confidence per threshold | [`stats::Bootstrap::confidence`] |
//! | the parity rule | [`stats::parity_verdict`] |
//! | everything after collection | [`judge`] |

#![warn(missing_docs)]

mod compare;
pub mod decide;
mod environment;
pub mod harness;
mod judge;
pub mod measure;
pub mod report;
pub mod rng;
#[cfg(test)]
mod scratch;
pub mod stats;
#[cfg(test)]
mod synthetic;
mod units;
pub mod validate;
mod verdict;
mod warnings;

pub use compare::{COUNT_ROUNDS, Options, compare, measure, measure_and_judge};
pub use judge::{judge, judge_processes};
pub use measure::{Arm, Measured, Metric};
pub use rng::{Cprng, Dprng};
pub use stats::Outcome;
pub use verdict::{
    CLEAR_BEYOND_TOLERANCE, DriftTests, Ending, JudgeOptions, ProcessMean, Report, ResamplingInfo, ThresholdConfidence,
    Validations, Verdict, Warning, WarningKind,
};

/// Re-exported for the code `#[compare]` generates; not part of the public API.
#[doc(hidden)]
pub use inventory;
