//! The decision: when to stop measuring a comparison, and what to call what was measured.
//!
//! **The procedure.** A comparison is decided in two stages. *The screen* is the first round,
//! measured in one process: its rounds are judged at an eighth, a quarter and a half of the
//! budget and at its end ([`looks`]), each look with a bootstrap interval whose level comes from
//! spending a two-sided 5 % over the looks (Hwang–Shih–DeCani, `γ = −2`; [`spending`]). The
//! screen stops at the first look that *establishes parity* — the whole interval within
//! `±parity`: two one-sided tests (Schuirmann, 1987) — or that *signals* a win or a loss
//! ([`signal`]); a screen that reaches its end without either is an inconclusive parity. A
//! signal is not a verdict that can fail a test: *the confirmation* then measures fresh
//! processes ([`confirm`]) and tests the signal's side on them alone — Student's t over the
//! processes' own differences, a one-sided test against the tolerance at `α = (1 − level) / 2`
//! spent over looks at 4, 8 and 12 processes with the same spending function — and stops for
//! futility when a one-sided 90 % bound of the fresh processes lies inside the tolerance. Only
//! the fresh processes' verdict, by the same parity rule, can fail a test. A comparison never
//! takes more than [`TIME_CAP`] times its budget: a confirmation that reaches it takes its last
//! look with the processes it has.
//!
//! **What it guarantees.** Per pair and side: fresh processes are independent draws of the
//! per-process effects (hash seeds, layout, allocator state), so whatever the screen did, a pair
//! whose true difference (what the compiled code costs, averaged over processes) lies inside
//! the tolerance is confirmed as a win or a loss with probability at most `α` — exactly, for
//! normal per-process differences, by Student's t and Bonferroni's inequality over the looks;
//! the futility stop is non-binding and can only lower it. Run-wide, for the `m` comparisons of
//! a binary, at most `m · α`; and since a pair without per-process effects reaches the
//! confirmation only after its screen signalled, at most 2.5 % a side
//! (`docs/statistics.md`, "The decision"). A difference every process of one *build* shares —
//! two identical `#[inline(never)]` functions at different addresses, say — is a property of
//! that compiled code, not noise: the guarantee is about the build that was measured, and such
//! a difference is confirmed when it exceeds the tolerance.

pub mod confirm;
pub mod looks;
pub mod spending;

pub use crate::verdict::{CLEAR_BEYOND_TOLERANCE, Ending};
pub use confirm::{Confirmation, MIN_FRESH_PROCESSES, Plan, conclude, confirm, confirmation_level};
pub use looks::{LOOKS, Looks, PROCESS_ALPHA, Role, parity_established};

use crate::stats::Outcome;
use crate::verdict::Report;

/// The most wall time one comparison takes, as a multiple of its budget: the screen and its
/// confirmation together.
pub const TIME_CAP: u32 = 4;

/// What fresh processes are asked to confirm: the screen's win or loss, or the side its parity
/// leans to when the estimate lies beyond the tolerance and the whole interval lies on that side
/// of zero. `None` when there is nothing to confirm.
///
/// A lean covers what one process sees but cannot establish alone: an interval reaching back
/// inside the tolerance, a fast end a little inside it, a process whose own hash seeds or layout
/// hide part of the difference. The screen needs no error bookkeeping of its own for it: what
/// can fail a test is the confirmation, which holds its level by itself.
///
/// ```
/// use rtcompare_runtime::{Arm, Options, Outcome, compare, decide::signal};
/// use std::time::Duration;
/// fn slow() -> u64 { (0..3_000u64).map(std::hint::black_box).sum() }
/// fn fast() -> u64 { (0..1_000u64).map(std::hint::black_box).sum() }
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let first = compare(Arm::from_fn("slow", slow), Arm::from_fn("fast", fast), &options);
/// assert_eq!(signal(&first), Some(Outcome::Loss));
/// ```
pub fn signal(report: &Report) -> Option<Outcome> {
    let (v, e) = (&report.verdict, &report.estimate);
    match v.outcome {
        Outcome::Parity if e.difference < -v.tolerance && e.high < 0.0 => Some(Outcome::Loss),
        Outcome::Parity if e.difference > v.tolerance && e.low > 0.0 => Some(Outcome::Win),
        Outcome::Parity => None,
        said => Some(said),
    }
}
