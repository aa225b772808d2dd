//! Expansion of `main!()`: the test binary's `main`, plus a reference to the package's library
//! so the linker keeps the comparisons registered in it.
//!
//! Registrations are static data that nothing names; a library the test binary never mentions
//! is not linked at all, and its registrations silently vanish. `extern crate <lib> as _;`
//! mentions it.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use std::path::PathBuf;

pub(crate) fn main(input: TokenStream) -> syn::Result<TokenStream> {
    let allocator = match allocator(input) {
        Ok(allocator) => allocator,
        Err(error) => {
            let error = error.into_compile_error();
            // A stand-in `main` keeps the one real error from being followed by "no main function".
            return Ok(quote!(#error fn main() {}));
        }
    };
    let link = library_link()?;
    Ok(quote! {
        #link

        // Counts allocations for `metric = "alloc_bytes" | "allocs"`; off (one relaxed load per
        // allocation) at all other times.
        #[global_allocator]
        static __RTCOMPARE_ALLOCATOR: #allocator;

        fn main() -> ::std::process::ExitCode {
            ::rtcompare::__private::main(::rtcompare::__private::BuildInfo {
                debug_assertions: ::core::cfg!(debug_assertions),
            })
        }
    })
}

/// The counting allocator's type and value: over the system allocator, or over the one named
/// by `allocator = path` (a unit struct such as `mimalloc::MiMalloc`).
fn allocator(input: TokenStream) -> syn::Result<TokenStream> {
    let p = quote!(::rtcompare::__private);
    if input.is_empty() {
        return Ok(quote!(#p::CountingAllocator<#p::System> = #p::CountingAllocator::system()));
    }
    let mut inner: Option<syn::Path> = None;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("allocator") {
            inner = Some(meta.value()?.parse()?);
            Ok(())
        } else {
            Err(meta.error("rtcompare::main!() takes only `allocator = YourAllocator` (a unit struct such as `mimalloc::MiMalloc`)"))
        }
    });
    syn::parse::Parser::parse2(parser, input)?;
    let inner = inner.ok_or_else(|| syn::Error::new(Span::call_site(), "expected `allocator = YourAllocator`"))?;
    Ok(quote!(#p::CountingAllocator<#inner> = #p::CountingAllocator::new(#inner)))
}

/// `extern crate <lib> as _;` for the package being compiled, unless it has no library or
/// this target is the library itself.
fn library_link() -> syn::Result<TokenStream> {
    let (Ok(dir), Ok(package)) = (std::env::var("CARGO_MANIFEST_DIR"), std::env::var("CARGO_PKG_NAME")) else {
        // Not built by Cargo: nothing to link by name.
        return Ok(TokenStream::new());
    };
    let Some(lib) = crate::manifest::library_crate(&PathBuf::from(dir), &package) else {
        return Ok(TokenStream::new());
    };
    if std::env::var("CARGO_CRATE_NAME").is_ok_and(|this| this == lib) {
        return Ok(TokenStream::new());
    }
    let ident = syn::parse_str::<syn::Ident>(&lib).map_err(|_| {
        syn::Error::new(Span::call_site(), format!("the library name `{lib}` in Cargo.toml is not a valid crate name"))
    })?;
    let ident = format_ident!("{}", ident);
    Ok(quote! {
        #[allow(unused_extern_crates)]
        extern crate #ident as _;
    })
}
