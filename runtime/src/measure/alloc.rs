//! Allocation counting: a global allocator wrapper whose counters run only while a batch of an
//! allocation-metric comparison is being metered.
//!
//! `rtcompare::main!()` installs it in every perf binary. While counting is off (all time
//! comparisons, and everything outside a metered batch) an allocation costs one relaxed atomic
//! load and a predictable branch more than the wrapped allocator; docs/design.md records the
//! measured overhead.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

/// A global allocator that counts allocations and allocated bytes while counting is on, and
/// otherwise forwards to the allocator it wraps (the system allocator by default).
///
/// Counts are process-wide: allocations made by other threads during a metered batch count too.
/// A `realloc` counts as one allocation of its new size.
///
/// ```
/// use rtcompare::CountingAllocator;
/// #[global_allocator]
/// static ALLOCATOR: CountingAllocator = CountingAllocator::system();
/// # fn main() {}
/// ```
#[derive(Debug, Default)]
pub struct CountingAllocator<A = System> {
    inner: A,
}

impl CountingAllocator<System> {
    /// Counting over the system allocator.
    ///
    /// ```
    /// use rtcompare::CountingAllocator;
    /// static ALLOCATOR: CountingAllocator = CountingAllocator::system();
    /// ```
    pub const fn system() -> Self {
        CountingAllocator { inner: System }
    }
}

impl<A> CountingAllocator<A> {
    /// Counting over `inner` (for example `mimalloc::MiMalloc`).
    ///
    /// ```
    /// use rtcompare::CountingAllocator;
    /// use std::alloc::System;
    /// #[global_allocator]
    /// static ALLOCATOR: CountingAllocator<System> = CountingAllocator::new(System);
    /// # fn main() {}
    /// ```
    pub const fn new(inner: A) -> Self {
        CountingAllocator { inner }
    }
}

#[inline(always)]
fn count(size: usize) {
    if COUNTING.load(Relaxed) {
        ALLOCATIONS.fetch_add(1, Relaxed);
        BYTES.fetch_add(size as u64, Relaxed);
    }
}

// SAFETY: every method forwards to the wrapped allocator with the caller's arguments unchanged,
// so it upholds exactly the contract the wrapped allocator upholds; counting only touches
// atomics and never allocates.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAllocator<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded with the caller's layout, under the caller's guarantees.
        unsafe { self.inner.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: as above.
        unsafe { self.inner.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator, that is by `inner`, with `layout`.
        unsafe { self.inner.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: `ptr` and `layout` come from `inner` via this allocator; forwarded unchanged.
        unsafe { self.inner.realloc(ptr, layout, new_size) }
    }
}

/// Allocation counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct AllocCounts {
    pub allocations: u64,
    pub bytes: u64,
}

/// Turns counting on and returns the counters as they are.
#[inline(always)]
pub(crate) fn start_counting() -> AllocCounts {
    let counts = AllocCounts { allocations: ALLOCATIONS.load(Relaxed), bytes: BYTES.load(Relaxed) };
    COUNTING.store(true, Relaxed);
    counts
}

/// Turns counting off and returns the counters as they are.
#[inline(always)]
pub(crate) fn stop_counting() -> AllocCounts {
    COUNTING.store(false, Relaxed);
    AllocCounts { allocations: ALLOCATIONS.load(Relaxed), bytes: BYTES.load(Relaxed) }
}

/// Whether a [`CountingAllocator`] is this process's global allocator: allocates one box with
/// counting on and checks that it was seen.
pub(crate) fn counting_allocator_installed() -> bool {
    let before = start_counting();
    let probe = std::hint::black_box(Box::new(std::hint::black_box(7u64)));
    let after = stop_counting();
    drop(probe);
    after.allocations > before.allocations
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_counting_allocator_is_installed_in_unit_tests() {
        // Unit tests use the system allocator, so nothing counts here.
        assert!(!counting_allocator_installed());
    }
}
