//! The test harness behind `rtcompare::main!()`: one libtest trial per registered comparison
//! (and size), run one at a time, with a verdict block under each `test ... ok|FAILED` line.
//!
//! libtest-mimic owns the command line (filters, `--exact`, `--skip`, `--ignored`,
//! `--include-ignored`, `--list`, `--format`). Listing and the JSON format go through
//! libtest-mimic's own runner; the human formats are printed here, because libtest-mimic offers
//! no way to print a block under a test's result line.
//!
//! Its files answer three questions, a folder each, over the model they share here (what is
//! registered, the invocation and its settings, a test's plan, the child protocol, the errors):
//! - `runner/`: a run, from `main` to the exit code, and each test in it;
//! - `process/`: the processes a test is measured in, and the children's side of them;
//! - `rebuild/`: other builds of this test target: the optimised one, a git revision's.

pub(crate) mod build;
mod error;
pub(crate) mod frontend;
mod invocation;
pub(crate) mod loops;
mod plan;
pub(crate) mod process;
mod protocol;
mod rebuild;
pub(crate) mod registry;
pub(crate) mod runner;
mod settings;
mod variables;
