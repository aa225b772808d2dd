//! The test harness behind `rtcompare::main!()`: one libtest trial per registered comparison
//! (and size), run one at a time, with a verdict block under each `test ... ok|FAILED` line.
//!
//! libtest-mimic owns the command line (filters, `--exact`, `--skip`, `--ignored`,
//! `--include-ignored`, `--list`, `--format`). Listing and the JSON format go through
//! libtest-mimic's own runner; the human formats are printed here, because libtest-mimic offers
//! no way to print a block under a test's result line.

mod build;
mod cargo;
mod client;
mod console;
mod counting;
mod error;
mod fresh;
mod git;
mod invocation;
mod lockstep;
mod manifest;
mod optimised;
mod overlay;
mod plan;
mod protocol;
mod registry;
mod revision;
mod run;
mod server;
mod settings;
mod trial;
mod unoptimised;
mod variables;

pub use build::BuildInfo;
pub use registry::{AttributeSettings, Batches, Expectation, Registration};
pub(crate) use registry::{Comparison, comparisons};
pub use run::main;
pub(crate) use settings::Settings;
pub(crate) use trial::run_trial;
