//! Expansion of `#[compare(...)]`: the function itself, a signature check against the baseline,
//! four batch loops (each arm and its A/A twin), each in every placement copy, and the
//! registration.

use crate::attribute::{CompareArgs, Metric, parse};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, Ident, Item, ItemFn, Path, Type};

/// How the measured functions take their input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    /// No argument, no setup.
    None,
    /// `&I`: one input per batch, shared by every call.
    Shared,
    /// `&mut I`: one input per call, built before the clock starts.
    Exclusive,
    /// `I`: one input per call, moved into the call.
    Owned,
}

pub(crate) fn compare(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let function = function(item)?;
    let args = parse(args)?;
    check_function(&function)?;
    let input = input_mode(&function, &args)?;
    let candidate = &function.sig.ident;
    let check = signature_check(&function, &args.baseline, input);
    let candidate_path: Path = candidate.clone().into();
    let loops = [
        ("__rtcompare_candidate", &candidate_path),
        ("__rtcompare_candidate_twin", &candidate_path),
        ("__rtcompare_baseline", &args.baseline),
        ("__rtcompare_baseline_twin", &args.baseline),
    ];
    let batches = loops
        .iter()
        .enumerate()
        .map(|(marker, (name, callee))| batch_loop(&format_ident!("{name}"), callee, marker as u8, input, &args));
    let registration = registration(candidate, &args);
    Ok(quote! {
        #function

        const _: () = {
            #check
            #(#batches)*
            #registration
        };
    })
}

/// The annotated item, which must be a free function.
fn function(item: TokenStream) -> syn::Result<ItemFn> {
    match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(function)) => Ok(function),
        Ok(other) => Err(syn::Error::new(
            item_span(&other),
            "#[compare] goes on a free function (the candidate), e.g. `#[compare(baseline = old)] fn new() { ... }`",
        )),
        Err(_) => Err(syn::Error::new(
            item.clone().into_iter().next().map_or_else(Span::call_site, |t| t.span()),
            "#[compare] goes on a free function (the candidate); methods and other items are not supported",
        )),
    }
}

fn item_span(item: &Item) -> Span {
    // Point at the item's name rather than its whole body.
    match item {
        Item::Struct(s) => s.ident.span(),
        Item::Enum(e) => e.ident.span(),
        Item::Const(c) => c.ident.span(),
        Item::Static(s) => s.ident.span(),
        Item::Mod(m) => m.ident.span(),
        Item::Impl(i) => i.impl_token.span,
        Item::Trait(t) => t.ident.span(),
        other => other.span(),
    }
}

/// What can be measured: a non-async, non-generic function.
fn check_function(function: &ItemFn) -> syn::Result<()> {
    let sig = &function.sig;
    if let Some(asyncness) = &sig.asyncness {
        return Err(syn::Error::new(
            asyncness.span(),
            "#[compare] cannot measure an async fn; compare a blocking function",
        ));
    }
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new(
            sig.generics.span(),
            "#[compare] needs a concrete function; wrap the generic one in a non-generic function that fixes its types",
        ));
    }
    Ok(())
}

/// Matches the candidate's parameters with `setup` and `args`.
fn input_mode(function: &ItemFn, args: &CompareArgs) -> syn::Result<Input> {
    let inputs = &function.sig.inputs;
    if let (Some(span), None) = (args.args_span, &args.setup) {
        return Err(syn::Error::new(
            span,
            "`args` are passed to a setup function: add `setup = make_input` where `fn make_input(size: usize) -> I`",
        ));
    }
    match (inputs.len(), &args.setup) {
        (0, None) => Ok(Input::None),
        (0, Some(setup)) => Err(syn::Error::new(
            setup.span(),
            "with `setup`, the candidate takes the input it builds: `fn candidate(input: &I)` (or `&mut I`, or `I`)",
        )),
        (1, Some(_)) => Ok(argument_mode(&inputs[0])),
        (_, None) => Err(syn::Error::new(
            inputs.span(),
            "#[compare] calls the candidate with no arguments unless `setup = make_input` builds its input; add a \
             setup function, or build the input inside the candidate",
        )),
        (_, Some(_)) => Err(syn::Error::new(
            inputs.span(),
            "with `setup`, the candidate takes exactly one argument (a tuple or struct can carry several values)",
        )),
    }
}

fn argument_mode(argument: &FnArg) -> Input {
    match argument {
        FnArg::Typed(typed) => match ungrouped(&typed.ty) {
            Type::Reference(reference) if reference.mutability.is_some() => Input::Exclusive,
            Type::Reference(_) => Input::Shared,
            _ => Input::Owned,
        },
        FnArg::Receiver(_) => Input::Owned,
    }
}

/// The type inside invisible groups and parentheses: a type passed through a `macro_rules!`
/// `$t:ty` fragment arrives wrapped in a group, and `&[u64]` must still read as a reference.
fn ungrouped(ty: &Type) -> &Type {
    match ty {
        Type::Group(group) => ungrouped(&group.elem),
        Type::Paren(paren) => ungrouped(&paren.elem),
        other => other,
    }
}

/// Forces candidate and baseline to coerce to one function-pointer type, so a baseline with
/// another signature is a type error pointing at the baseline path.
fn signature_check(function: &ItemFn, baseline: &Path, input: Input) -> TokenStream {
    let candidate = &function.sig.ident;
    let baseline_tokens = quote_spanned!(baseline.span()=> #baseline);
    let (generics, pointer) =
        if input == Input::None { (quote!(<R>), quote!(fn() -> R)) } else { (quote!(<A, R>), quote!(fn(A) -> R)) };
    quote! {
        #[allow(dead_code)]
        fn __rtcompare_same_signature() {
            fn same #generics (_candidate: #pointer, _baseline: #pointer) {}
            same(#candidate, #baseline_tokens);
        }
    }
}

/// How many placement copies the runtime expects of each batch loop
/// (`rtcompare_runtime::measure::PLACEMENTS`; the registration's array type checks the count).
const PLACEMENTS: usize = 4;

/// One batch loop, generic over its placement copy: copy `K` starts with
/// `place::<K>()`, which puts the code after it at offset `16 K` from a 64-byte boundary, so the
/// four copies run the loop at every offset the linker could have given it. The four loops are
/// identical but for the callee and a distinct marker outside the loop, which keeps the compiler
/// and linker from merging a twin into its primary: A/A must compare two copies at different
/// addresses, as candidate and baseline are. Inputs are built and outputs dropped outside the
/// metered region.
fn batch_loop(name: &Ident, callee: &Path, marker: u8, input: Input, args: &CompareArgs) -> TokenStream {
    let p = quote!(::rtcompare::__private);
    // Spanned at the setup path, so a setup function of the wrong shape is reported there.
    let build = match (&args.setup, args.args.is_empty()) {
        (Some(setup), true) => quote_spanned!(setup.span()=> #p::Setup::build(&#setup, &mut rng)),
        (Some(setup), false) => quote_spanned!(setup.span()=> #p::SizedSetup::build(&#setup, &mut rng, arg as usize)),
        (None, _) => quote!(()),
    };
    let keep = if args.time_drop { quote!(#p::black_box) } else { quote!(outputs.keep) };
    let (prepare, call_loop, cleanup) = match input {
        Input::None => (quote!(), quote!(for _ in 0..iters { #keep(#callee()); }), quote!()),
        Input::Shared => (
            quote!(let input = #build;),
            quote!(for _ in 0..iters { #keep(#callee(#p::black_box(&input))); }),
            quote!(drop(input);),
        ),
        Input::Exclusive => (
            quote!(let mut inputs: ::std::vec::Vec<_> = (0..iters).map(|_| #build).collect();),
            quote!(for input in inputs.iter_mut() { #keep(#callee(#p::black_box(input))); }),
            quote!(drop(inputs);),
        ),
        Input::Owned => (
            quote!(let mut inputs: ::std::vec::Vec<_> = (0..iters).map(|_| #build).collect();),
            quote!(for input in inputs.drain(..) { #keep(#callee(#p::black_box(input))); }),
            quote!(drop(inputs);),
        ),
    };
    let rng = if args.setup.is_some() { quote!(let mut rng = #p::Dprng::new(seed);) } else { quote!() };
    let outputs = if args.time_drop { quote!() } else { quote!(let mut outputs = #p::Outputs::with_capacity(iters);) };
    let drop_outputs = if args.time_drop { quote!() } else { quote!(drop(outputs);) };
    quote! {
        #[inline(never)]
        #[allow(unused_variables, unused_mut, clippy::unit_arg, clippy::let_unit_value, clippy::drop_non_drop)]
        fn #name<const __RTCOMPARE_PLACEMENT: usize>(iters: u64, seed: u64, arg: u64, meter: #p::Meter) -> u64 {
            #p::place::<__RTCOMPARE_PLACEMENT>();
            #p::black_box(#marker);
            #rng
            #prepare
            #outputs
            let start = meter.start();
            #call_loop
            let total = meter.stop(start);
            #drop_outputs
            #cleanup
            total
        }
    }
}

fn registration(candidate: &Ident, args: &CompareArgs) -> TokenStream {
    let p = quote!(::rtcompare::__private);
    let candidate_name = candidate.to_string();
    let baseline = &args.baseline;
    let baseline_name = quote!(#baseline).to_string().replace(' ', "");
    let name = option(args.name.as_ref().map(|name| quote!(#name)));
    let parity = option(args.parity.map(|p| quote!(#p)));
    let time = option(args.time_nanos.map(|n| quote!(::core::time::Duration::from_nanos(#n))));
    let thresholds = args.thresholds.iter().map(|&t| {
        // A float literal token cannot be negative; the sign is a separate token.
        let magnitude = t.abs();
        if t < 0.0 { quote!(-#magnitude) } else { quote!(#magnitude) }
    });
    let expect = if args.expect_win { quote!(Win) } else { quote!(NoLoss) };
    let metric = match args.metric {
        Metric::Time => quote!(Time),
        Metric::AllocBytes => quote!(AllocBytes),
        Metric::Allocs => quote!(Allocs),
    };
    let sizes = &args.args;
    let ignore = args.ignore;
    let copies: Vec<usize> = (0..PLACEMENTS).collect();
    quote! {
        #p::inventory::submit! {
            #p::Registration {
                module_path: ::core::module_path!(),
                candidate: #candidate_name,
                baseline: #baseline_name,
                batches: #p::Batches {
                    candidate: [#(__rtcompare_candidate::<#copies>),*],
                    candidate_twin: [#(__rtcompare_candidate_twin::<#copies>),*],
                    baseline: [#(__rtcompare_baseline::<#copies>),*],
                    baseline_twin: [#(__rtcompare_baseline_twin::<#copies>),*],
                },
                settings: #p::AttributeSettings {
                    name: #name,
                    parity: #parity,
                    time: #time,
                    thresholds: &[#(#thresholds),*],
                    expect: #p::Expectation::#expect,
                    ignore: #ignore,
                    metric: #p::Metric::#metric,
                    args: &[#(#sizes),*],
                },
                file: ::core::file!(),
                line: ::core::line!(),
            }
        }
    }
}

fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}
