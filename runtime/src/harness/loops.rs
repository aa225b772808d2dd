//! The four batch loops of a test as a child runs them, and how a child reaches them.
//!
//! A test `#[compare]` registers carries its loops as functions, which a child can call from
//! anywhere. A benchmark of a front-end (rtcompare-criterion) has its loop only inside the user's
//! function that declares it, on that function's stack: a child *enters* the benchmark —
//! runs the user's code up to where the loop is — and serves from inside (`process/server.rs`).

use super::registry::Comparison;
use crate::measure::Meter;

/// One of a test's four batch loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loop {
    /// The candidate's loop.
    Candidate,
    /// The candidate's A/A twin: the same work, another copy of its code.
    CandidateTwin,
    /// The baseline's loop.
    Baseline,
    /// The baseline's A/A twin.
    BaselineTwin,
}

impl Loop {
    /// All four, in the order of `rtcompare_judge::counts::Routines::named`.
    pub(crate) const ALL: [Loop; 4] = [Loop::Candidate, Loop::CandidateTwin, Loop::Baseline, Loop::BaselineTwin];
}

/// A test's batch loops, each in its placement copies.
///
/// ```
/// use rtcompare::__private::{Loop, Loops, Meter};
/// struct Spin;
/// impl Loops for Spin {
///     fn batch(&mut self, _loop: Loop, _copy: usize, iters: u64, _seed: u64, meter: Meter) -> u64 {
///         let start = meter.start();
///         (0..iters).for_each(|i| { std::hint::black_box(i); });
///         meter.stop(start)
///     }
/// }
/// let mut loops = Spin;
/// let _total = loops.batch(Loop::Candidate, 0, 10, 1, Meter::new(rtcompare::Metric::Time));
/// ```
pub trait Loops {
    /// Runs `iters` operations of placement copy `copy` (below `PLACEMENTS`, 4) of `which`, with
    /// the inputs of `seed`, metered by `meter`, and returns the metered total.
    fn batch(&mut self, which: Loop, copy: usize, iters: u64, seed: u64, meter: Meter) -> u64;
}

/// A registered comparison's generated loops, bound to its size.
pub(crate) struct Registered(pub Comparison);

impl Loops for Registered {
    fn batch(&mut self, which: Loop, copy: usize, iters: u64, seed: u64, meter: Meter) -> u64 {
        let batches = self.0.registration.batches;
        let copies = match which {
            Loop::Candidate => batches.candidate,
            Loop::CandidateTwin => batches.candidate_twin,
            Loop::Baseline => batches.baseline,
            Loop::BaselineTwin => batches.baseline_twin,
        };
        copies[copy](iters, seed, self.0.size.unwrap_or(0), meter)
    }
}
