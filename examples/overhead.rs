//! What the harness itself costs per call: each pair compares a function with a copy of itself,
//! so the per-op medians printed are the cost of the generated loop around an (almost) empty
//! call, for each way of passing inputs and outputs. docs/design.md records the figures.
//!
//! ```sh
//! cargo run --release --example overhead
//! ```

use rtcompare::compare;

fn empty() {}

#[compare(baseline = empty, name = "overhead/no_input")]
fn empty_again() {}

fn zero() -> u64 {
    0
}

fn read_shared(x: &u64) -> u64 {
    *x
}

#[compare(baseline = read_shared, setup = zero, name = "overhead/shared_input")]
fn read_shared_again(x: &u64) -> u64 {
    *x
}

fn bump(x: &mut u64) {
    *x += 1;
}

#[compare(baseline = bump, setup = zero, name = "overhead/fresh_mut_input")]
fn bump_again(x: &mut u64) {
    *x += 1;
}

fn text() -> String {
    String::from("rtcompare")
}

fn clone_text(s: &str) -> String {
    s.to_owned()
}

// Outputs that need dropping are kept until the clock stops...
#[compare(baseline = clone_text, setup = text, name = "overhead/kept_output")]
fn clone_text_again(s: &str) -> String {
    s.to_owned()
}

// ... unless `time_drop` asks for the drop to be timed with the call.
#[compare(baseline = clone_text, setup = text, time_drop, name = "overhead/dropped_output")]
fn clone_text_dropped(s: &str) -> String {
    s.to_owned()
}

rtcompare::main!();
