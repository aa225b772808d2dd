//! The decision: when to stop measuring a comparison, and what to call what was measured.
//!
//! **The procedure.** A comparison is decided in two stages. *The screen* is the first round,
//! measured in one process: its rounds are judged at an eighth, a quarter and a half of the
//! budget and at its end ([`looks`]), each look with a bootstrap interval whose level comes from
//! spending a two-sided 5 % over the looks (Hwang–Shih–DeCani, `γ = −2`; [`spending`]). The
//! screen stops at the first look that *establishes parity* in its process — the whole interval
//! within the parity: two one-sided tests (Schuirmann, 1987) — or that *signals* a win or a loss
//! ([`signal`]); a screen that reaches its end without either is an inconclusive parity. A
//! signal is not a verdict that can fail a test: *the confirmation* then measures fresh
//! processes ([`Confirming`]), each a short share of the budget ([`FRESH_SHARE`]), as many as the
//! time cap has room for (planned from the first's cost), and tests the signal's side on them
//! alone with Wilcoxon's exact signed-rank test of their log ratios against
//! `ln(1 + tolerance)`, at the one-sided level [`confirmation_alpha`] shared over a few looks: on
//! the fewest that can confirm and one more, on twice that, …, and on all of them
//! ([`ConfirmationLooks`]); a futility check may end it early. Only a confirmed loss fails a
//! test. A comparison's measuring never takes more than [`TIME_CAP`] times its budget: a fresh
//! process that would end past it is not started, and the confirmation then takes no further
//! look (counts of instructions are exempt: they plan their processes whatever the time).
//!
//! **What it guarantees.** Per pair: a pair whose true difference lies inside the parity is
//! confirmed as a win or a loss with probability at most `α`, whatever the screen did, provided
//! each fresh process's log ratio is symmetric about a common centre — always so for identical
//! code, whose two arms are exchangeable, whatever per-process effects (hash seeds, layout,
//! discrete speed classes) it has. Run-wide: the pairs' `α` add up to at most [`RUN_ALPHA`],
//! 5 %, for the whole binary (`docs/statistics.md`, "The decision"). A difference every process
//! of one *build* shares — two identical `#[inline(never)]` functions at different addresses,
//! say — is a property of that compiled code, not noise: the guarantee is about the build that
//! was measured, and the A/A floor guards against the part of it the twins can see.

pub mod confirm;
pub mod looks;
pub mod spending;

pub use crate::verdict::Confirmation;
pub use confirm::{
    ConfirmationLooks, Confirming, FIRST_FUTILITY_CHECK, FRESH_SHARE, PROCESS_OVERHEAD, Plan, RUN_ALPHA, Step,
    TIME_CAP, conclude, confirmation_alpha, fitting, without_room,
};
pub use looks::{LOOKS, Looks, PROCESS_LEVEL, Role, signal};
