//! Comparing allocations instead of time with `metric = "alloc_bytes"` or `metric = "allocs"`.
//!
//! `rtcompare::main!()` installs a counting allocator (pass `allocator = YourAllocator` to wrap
//! your own); counting runs only inside metered batches. Allocation counts are exact, so equal
//! counts are an established parity and any difference beyond the tolerance is a loss or a win.
//!
//! ```sh
//! cargo run --release --example allocations
//! ```

use rtcompare::compare;
use std::fmt::Write;
use std::hint::black_box;

fn joined_by_format() -> String {
    (0..black_box(100u32)).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
}

#[compare(baseline = joined_by_format, metric = "allocs")]
fn joined_into_one_buffer() -> String {
    let mut out = String::with_capacity(400);
    for i in 0..black_box(100u32) {
        let _ = write!(out, "{i},");
    }
    out
}

#[compare(baseline = joined_by_format, metric = "alloc_bytes")]
fn joined_into_one_buffer_bytes() -> String {
    joined_into_one_buffer()
}

rtcompare::main!();
