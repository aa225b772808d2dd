//! Expansion of `main!()`: the test binary's `main`, plus a reference to the package's library
//! so the linker keeps the comparisons registered in it.
//!
//! Registrations are static data that nothing names; a library the test binary never mentions
//! is not linked at all, and its registrations silently vanish. `extern crate <lib> as _;`
//! mentions it.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use std::path::PathBuf;

pub(crate) fn main(input: TokenStream) -> syn::Result<TokenStream> {
    let attrs = crate::attr::parse_main(input)?;
    let rt = match &attrs.krate {
        Some(krate) => quote!(#krate::__private),
        None => quote!(::rtcompare::__private),
    };
    // The counting allocator, over the system allocator or over the one named by
    // `allocator = path` (a unit struct such as `mimalloc::MiMalloc`).
    let allocator = match &attrs.allocator {
        Some(inner) => quote!(#rt::CountingAllocator<#inner> = #rt::CountingAllocator::new(#inner)),
        None => quote!(#rt::CountingAllocator<#rt::System> = #rt::CountingAllocator::system()),
    };
    let link = library_link()?;
    let run = match &attrs.run {
        Some(run) => quote!(#run),
        None => quote!(#rt::main),
    };
    // The package's declared features and whether each is on in this build, so a comparison
    // against another revision builds it with the same ones.
    let features = std::env::var("CARGO_MANIFEST_DIR")
        .map(|dir| crate::manifest::features(&PathBuf::from(dir)))
        .unwrap_or_default();
    Ok(quote! {
        #link

        // Counts allocations for `metric = "alloc_bytes" | "allocs"`; off (one relaxed load per
        // allocation) at all other times.
        #[global_allocator]
        static __RTCOMPARE_ALLOCATOR: #allocator;

        fn main() -> ::std::process::ExitCode {
            #run(#rt::BuildInfo {
                debug_assertions: ::core::cfg!(debug_assertions),
                package: ::core::env!("CARGO_PKG_NAME"),
                manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
                features: &[#((#features, ::core::cfg!(feature = #features))),*],
                cargo: ::core::option_env!("CARGO"),
            })
        }
    })
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
    link(&lib)
}

/// `extern crate <lib> as _;` for a library crate name read from the manifest.
fn link(lib: &str) -> syn::Result<TokenStream> {
    let ident = syn::parse_str::<syn::Ident>(lib).map_err(|_| {
        syn::Error::new(
            Span::call_site(),
            format!("the library name `{lib}` in Cargo.toml is not a valid crate name; rename it in `[lib] name`"),
        )
    })?;
    Ok(quote! {
        #[allow(unused_extern_crates)]
        extern crate #ident as _;
    })
}

#[cfg(test)]
mod tests {
    use super::link;

    #[test]
    fn links_a_valid_library_name_and_rejects_another() {
        let linked = link("my_lib").map(|tokens| tokens.to_string()).unwrap_or_default();
        assert!(linked.contains("extern crate my_lib as _"), "{linked}");
        let error = link("my-lib").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.contains("the library name `my-lib` in Cargo.toml is not a valid crate name"), "{error}");
    }
}
