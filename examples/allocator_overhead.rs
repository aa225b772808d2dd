//! The counting allocator's cost when counting is off — the state every time comparison runs
//! in. Compares allocating and freeing 64 bytes through `CountingAllocator` against the system
//! allocator directly, with rtcompare's own `compare`.
//!
//! ```sh
//! cargo run --release --example allocator_overhead
//! ```

use rtcompare::{Arm, CountingAllocator, Options, compare, report::Detail, report::render_text};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;

static COUNTING: CountingAllocator = CountingAllocator::system();

fn alloc_free(allocator: &impl GlobalAlloc) {
    let layout = Layout::new::<[u8; 64]>();
    // SAFETY: the layout has a non-zero size, and the pointer is freed with the same allocator
    // and layout it was allocated with, once.
    unsafe {
        let ptr = allocator.alloc(layout);
        if !ptr.is_null() {
            black_box(ptr);
            allocator.dealloc(ptr, layout);
        }
    }
}

fn main() {
    let counting = Arm::from_fn("counting allocator (off)", || alloc_free(black_box(&COUNTING)));
    let system = Arm::from_fn("system allocator", || alloc_free(black_box(&System)));
    let report = compare(counting, system, &Options::default());
    println!("{}", render_text(&report, Detail::Verbose));
    let overhead = report.candidate_summary.median - report.baseline_summary.median;
    println!("overhead per allocate+free: {overhead:.2} ns (medians)");
}
