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
//! processes ([`confirm()`]) and tests the signal's side on them alone — Student's t over the
//! processes' own differences, a one-sided test against the tolerance at `α = (1 − level) / 2`
//! spent over looks at 4, 8 and 12 processes with the same spending function — and stops for
//! futility when the fresh processes' mean difference lies inside the tolerance. Only
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

pub use crate::verdict::Confirmation;
pub use confirm::{MIN_FRESH_PROCESSES, Plan, TIME_CAP, conclude, confirm, confirmation_level};
pub use looks::{LOOKS, Looks, PROCESS_LEVEL, Role, signal};
