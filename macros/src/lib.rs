//! Procedural macros of rtcompare: `#[compare(baseline = ...)]` and `main!()`.
//!
//! Use them through the `rtcompare` crate, which re-exports them; the generated code names
//! `::rtcompare`.

#![warn(missing_docs)]

use proc_macro::TokenStream;

mod attribute;
mod duration;
mod expand;
mod manifest;
mod runner;

/// Registers a performance comparison of the annotated function (the candidate) against a
/// baseline with the same signature. See the `rtcompare` crate for the keys and an example.
#[proc_macro_attribute]
pub fn compare(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::compare(args.into(), item.into()).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// Expands to the `main` function of a `harness = false` test target that runs every
/// registered comparison, and links the package's library so comparisons registered there are
/// found. See the `rtcompare` crate for an example.
#[proc_macro]
pub fn main(input: TokenStream) -> TokenStream {
    runner::main(input.into()).unwrap_or_else(syn::Error::into_compile_error).into()
}
