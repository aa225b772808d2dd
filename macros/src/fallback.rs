//! What a rejected macro expands to: its error, and otherwise what the user wrote.
//!
//! A rejected `#[compare]` still emits the function as written, so the code calling it
//! compiles and the user sees one error, the attribute's, rather than a second wave of
//! "cannot find function" errors. A rejected `main!()` emits an empty `main`, for the same
//! reason ("`main` function not found").

use proc_macro2::TokenStream;
use quote::quote;

/// The error beside the annotated item, unchanged.
pub(crate) fn compare(item: TokenStream, error: syn::Error) -> TokenStream {
    let error = error.into_compile_error();
    quote!(#error #item)
}

/// The error beside a stand-in `main`.
pub(crate) fn main(error: syn::Error) -> TokenStream {
    let error = error.into_compile_error();
    quote!(#error fn main() {})
}
