//! A run: `main` reads the invocation and runs the selected comparisons one at a time
//! (`run.rs`), each test measured, confirmed and decided (`trial.rs`), and the console's lines
//! (`console.rs`).

mod console;
mod run;
mod trial;

pub use run::{front_end_main, main};
