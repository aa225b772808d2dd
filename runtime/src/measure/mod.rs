//! Taking measurements: the meter read around each timed batch (time or allocations), the
//! clock's precision, batch calibration, inputs built outside the timer, the executor that drives
//! an async fn's futures, the work a call declares (throughput), batches on several threads, placement copies of each batch routine, the stack and heap layout
//! re-drawn per round, and the interleaved collection of rounds.

mod alloc;
mod arm;
mod calibrate;
mod clock;
mod collect;
mod executor;
mod input;
mod layout;
mod meter;
mod options;
mod output;
mod placement;
mod threads;
mod throughput;

pub use alloc::CountingAllocator;
pub(crate) use alloc::counting_allocator_installed;
pub use arm::{Arm, BatchFn, Placed};
pub(crate) use arm::{Batch, Halt};
pub(crate) use calibrate::calibrate;
pub(crate) use clock::clock_precision;
pub(crate) use collect::Collection;
pub use executor::{BlockOnNeedsAFuture, Executor, FutureCall, IsFuture, IsValue, ValueCall};
pub use input::{KEPT_SEED, Kept, Setup, SizedSetup, WithRng, WithoutRng};
pub use layout::Layout;
pub use meter::{Meter, Reading};
pub use options::Options;
pub use output::Outputs;
pub(crate) use placement::PLACEMENTS;
pub use placement::place;
pub use threads::{Gate, on_threads};
pub use throughput::{Amount, Throughput};
