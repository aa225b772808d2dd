//! criterion's API over rtcompare.
//!
//! STUB: being written.

mod engine;

/// Names the macros expand to; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::engine::run;
    pub use rtcompare;
}

/// STUB placeholder so the engine's interface compiles; the API replaces it.
#[derive(Clone, Copy, Debug)]
pub enum Throughput {
    /// Bytes per iteration.
    Bytes(u64),
}
