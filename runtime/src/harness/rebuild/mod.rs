//! Other builds of this test target: the optimised one an unoptimised binary runs in its place
//! (`optimised.rs`, and the refusal where it cannot, `unoptimised.rs`), and a git revision's
//! baseline (`revision.rs`: the checkout, `overlay.rs` and `manifest.rs` over it, both sides
//! with their code aligned, `aligned.rs`), built with Cargo (`cargo.rs`) and git (`git.rs`).

mod aligned;
mod cargo;
mod git;
mod manifest;
pub(super) mod optimised;
mod overlay;
pub(super) mod revision;
pub(super) mod unoptimised;
