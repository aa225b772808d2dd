//! Procedural macros of rtcompare: `#[compare(baseline = ...)]` and `main!()`.
//!
//! Use them through the `rtcompare` crate, which re-exports them; the generated code names
//! `::rtcompare`, or the path given with `crate = ...`.
//!
//! Each macro is parsed (`attr.rs`), validated (`valid.rs`) and generated (`expand.rs` for the
//! attribute, `runner.rs` for `main!()`); when it is rejected, `fallback.rs` emits the error
//! beside the code as written.

#![warn(missing_docs)]

use proc_macro::TokenStream;

mod attr;
mod expand;
mod fallback;
mod manifest;
mod runner;
mod valid;

/// Registers a performance comparison of the annotated function (the candidate) against a
/// baseline that takes the same input. See the `rtcompare` crate for the keys and an example.
#[proc_macro_attribute]
pub fn compare(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    expand::compare(args.into(), item.clone()).unwrap_or_else(|error| fallback::compare(item, error)).into()
}

/// Expands to the `main` function of a `harness = false` test target that runs every
/// registered comparison, and links the package's library so comparisons registered there are
/// found. See the `rtcompare` crate for an example.
#[proc_macro]
pub fn main(input: TokenStream) -> TokenStream {
    runner::main(input.into()).unwrap_or_else(fallback::main).into()
}
