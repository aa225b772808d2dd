//! Keeping a batch's outputs alive until the meter has stopped, so that dropping them (freeing
//! a `String`, a `Vec`) is not part of what is measured.

use std::hint::black_box;
use std::mem::needs_drop;

/// The outputs of one batch. For types without drop glue (`u64`, `()`, `&T`…) nothing is
/// stored: dropping them costs nothing, so the value only passes through [`black_box`].
/// Otherwise each output is pushed into a vector sized for the batch before the clock starts,
/// which costs a store and a length update per call — paid equally by both arms.
///
/// ```
/// use rtcompare_runtime::__private::Outputs;
/// let mut outputs = Outputs::with_capacity(2);
/// outputs.keep(String::from("a"));
/// outputs.keep(String::from("b"));
/// assert_eq!(outputs.len(), 2);
/// ```
#[derive(Debug)]
pub struct Outputs<R> {
    kept: Vec<R>,
}

impl<R> Outputs<R> {
    /// Room for `iters` outputs (none when `R` needs no drop).
    #[inline(always)]
    pub fn with_capacity(iters: u64) -> Self {
        let capacity = if needs_drop::<R>() { usize::try_from(iters).unwrap_or(usize::MAX) } else { 0 };
        Outputs { kept: Vec::with_capacity(capacity) }
    }

    /// Passes `value` through [`black_box`] and keeps it if dropping it would do work.
    #[inline(always)]
    pub fn keep(&mut self, value: R) {
        let value = black_box(value);
        if needs_drop::<R>() {
            self.kept.push(value);
        }
    }

    /// How many outputs are kept.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Whether no output is kept.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }
}
