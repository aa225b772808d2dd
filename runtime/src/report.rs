//! A comparison's [`Report`] and what it is made of, and how to show one: the text block
//! printed under a test ([`render_text`]), its picture ([`render_svg`]), the sentence of a caveat
//! ([`sentence`]), and the units they use ([`format_value`], [`format_ns`]).
//!
//! ```
//! use rtcompare_runtime::report::{Detail, render_text};
//! use rtcompare_runtime::{Arm, Options, compare};
//! use std::time::Duration;
//! let options = Options { budget: Duration::from_millis(20), ..Options::default() };
//! let report = compare(Arm::from_fn("add", || 1 + 1), Arm::from_fn("mul", || 2 * 1), &options);
//! println!("{}", render_text(&report, Detail::Short));
//! ```
//!
//! Every sentence and every file of a run is made by the `rtcompare-report` crate; the types
//! come from the judging crate. This module names the public ones together.

pub use crate::measure::{Calibration, Samples, Series};
pub use crate::validate::{PlacementSpread, Validation};
pub use crate::verdict::{
    ArmRole, CLEAR_BEYOND_TOLERANCE, Caveat, DriftSeries, DriftTests, Ending, Report, ResamplingInfo, RoundFigures,
    Settle, ThresholdConfidence, Validations, Verdict, WarningKind,
};
pub use rtcompare_report::{Detail, format_ns, format_value, render_svg, render_text, sentence};
