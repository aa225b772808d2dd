//! Generation: what `#[compare(...)]` expands to — the function as written, four batch loops
//! (each arm and its A/A twin, the baseline's checked to take the candidate's input), each in
//! every placement copy, and the registration; with `types`, all of it once per type. Each call's
//! output is settled before it is kept (a future is driven to completion), and with `threads`
//! each loop runs on that many threads behind a wrapper that starts them.
//!
//! Hygiene. The user's names must resolve at the call site and nothing the expansion adds may
//! capture them: the loops' parameters and locals have mixed-site spans (as `macro_rules!`
//! locals do), so a function called `start` or `input` is still the function inside the loop;
//! the items the expansion adds are named `__rtcompare_*`; std and core are reached through
//! `::core::...` and `::std::...` (primitives through `::core::primitive`), and rtcompare
//! through `crate = path` or `::rtcompare`, none of which a user's item can shadow.

use crate::attr::{self, Attrs, Expect, Metric};
use crate::valid::{self, Input, Valid};
use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{ItemFn, Type};

/// How many placement copies the runtime expects of each batch loop (`PLACEMENTS` in
/// `runtime/src/measure/placement.rs`; the registration's array type, `__private::Placed`,
/// checks the count).
const PLACEMENTS: usize = 4;

/// The expansion of an accepted attribute, or the error that rejects it.
pub(crate) fn compare(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let function = valid::function(item)?;
    let attrs = attr::parse(args)?;
    let valid = valid::validate(&attrs, &function)?;
    let rt = match &attrs.krate {
        Some(krate) => quote!(#krate::__private),
        None => quote!(::rtcompare::__private),
    };
    // One pair per type of `types`, each its own test; a concrete candidate is one pair.
    let pairs: Vec<TokenStream> = match &attrs.types {
        Some(types) => types.types.iter().map(|ty| pair(&rt, &function, &valid, &attrs, Some(ty))).collect(),
        None => vec![pair(&rt, &function, &valid, &attrs, None)],
    };
    Ok(quote! {
        #function

        #(#pairs)*
    })
}

/// The pair's four batch loops and its registration in a block of their own, with candidate,
/// baseline and setup instantiated with `ty` when the attribute has `types`.
fn pair(rt: &TokenStream, function: &ItemFn, valid: &Valid<'_>, attrs: &Attrs, ty: Option<&Type>) -> TokenStream {
    let ident = &function.sig.ident;
    let candidate = instantiated(quote!(#ident), ty);
    // Without `baseline`, the baseline is the function itself at another revision, measured in
    // that revision's build; this build's baseline loops call the candidate.
    let (baseline, baseline_at) = match valid.baseline {
        Some(path) => (baseline_callee(rt, &candidate, &instantiated(quote!(#path), ty), valid.input), path.span()),
        None => (candidate.clone(), ident.span()),
    };
    let loops = [
        ("__rtcompare_candidate", &candidate, ident.span()),
        ("__rtcompare_candidate_twin", &candidate, ident.span()),
        ("__rtcompare_baseline", &baseline, baseline_at),
        ("__rtcompare_baseline_twin", &baseline, baseline_at),
    ];
    let batches = loops.iter().enumerate().map(|(marker, (name, callee, at))| {
        batch_loop(rt, &format_ident!("{name}"), (callee, *at), marker as u8, valid.input, attrs, ty)
    });
    let registration = registration(rt, function, valid, attrs, ty);
    quote! {
        const _: () = {
            #(#batches)*
            #registration
        };
    }
}

/// `path::<ty>`, or the path itself without a type.
fn instantiated(path: TokenStream, ty: Option<&Type>) -> TokenStream {
    match ty {
        Some(ty) => quote!(#path::<#ty>),
        None => path,
    }
}

/// The baseline as its loops call it: passed through a check that it takes the candidate's
/// input (`__private::baseline`), so a baseline taking another input is an error in our words
/// at the baseline path, and the loop's call of it raises nothing more (the check's result is
/// then of no type). Their return types may differ: each loop keeps its own outputs. The check
/// is an `#[inline(always)]` identity on the function item, so the loop still calls the
/// baseline directly, as it does the candidate.
fn baseline_callee(rt: &TokenStream, candidate: &TokenStream, baseline: &TokenStream, input: Input) -> TokenStream {
    let check = if input == Input::None { quote!(baseline_without_input) } else { quote!(baseline) };
    // The whole call at the baseline path: the compiler reports a failed check twice (the bound,
    // and the type it would have given), and both then point at the baseline.
    respan(quote!(#rt::#check(#baseline, #candidate, #baseline)), baseline.span())
}

/// The same tokens, located at `span` (hygiene unchanged).
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(group.span().located_at(span));
                token = TokenTree::Group(inner);
            } else {
                token.set_span(token.span().located_at(span));
            }
            token
        })
        .collect()
}

/// An identifier the user's code cannot see or capture.
fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// One batch loop, generic over its placement copy: copy `K` starts with
/// `place::<K>()`, which puts the code after it at offset `16 K` from a 64-byte boundary, so the
/// four copies run the loop at every offset the linker could have given it. The four loops are
/// identical but for the callee and a distinct marker outside the loop, which keeps the compiler
/// and linker from merging a twin into its primary: A/A must compare two copies at different
/// addresses, as candidate and baseline are. Inputs are built and outputs dropped outside the
/// metered region.
fn batch_loop(
    rt: &TokenStream,
    name: &Ident,
    (function, at): (&TokenStream, Span),
    marker: u8,
    input: Input,
    attrs: &Attrs,
    ty: Option<&Type>,
) -> TokenStream {
    let [iters, seed, arg, meter, rng, outputs, start, total, executor, gate] =
        ["iters", "seed", "arg", "meter", "rng", "outputs", "start", "total", "executor", "gate"].map(local);
    // The callee is bound, and reported, at the function it is.
    let callee = Ident::new("callee", Span::mixed_site().located_at(at));
    let bind = quote_spanned!(at=> let #callee = #function;);
    // Spanned at the setup path, so a setup function of the wrong shape is reported there.
    let setup = attrs.setup.as_ref().map(|path| (instantiated(quote!(#path), ty), path.span()));
    let build = match (&setup, &attrs.args) {
        (Some((setup, at)), None) => quote_spanned!(*at=> #rt::Setup::build(&#setup, &mut #rng)),
        (Some((setup, at)), Some(_)) => {
            quote_spanned!(*at=> #rt::SizedSetup::build(&#setup, &mut #rng, #arg as ::core::primitive::usize))
        }
        (None, _) => quote!(()),
    };
    let keep = |call: TokenStream| {
        let value = settled(call, at, attrs);
        match attrs.time_drop {
            Some(_) => quote!(#rt::black_box(#value);),
            None => quote!(#outputs.keep(#value);),
        }
    };
    let (prepare, call_loop, cleanup) = match (attrs.keep_input, input) {
        // One input for the process, per size, built from a seed fixed for both arms, and kept.
        (Some(key), Input::Shared) => {
            let input_ = local("input");
            let kept = quote_spanned!(key=> {
                static __RTCOMPARE_KEPT: #rt::Kept = #rt::Kept::new();
                __RTCOMPARE_KEPT.get(#arg, || {
                    let mut #rng = #rt::Dprng::new(#rt::KEPT_SEED);
                    #build
                })
            });
            let keep = keep(quote!(#callee(::core::hint::black_box(#input_))));
            (quote!(let #input_ = #kept;), quote!(for _ in 0..#iters { #keep }), quote!())
        }
        _ => calls(input, &callee, &build, &keep),
    };
    let executor = match attrs.block_on {
        Some(_) => quote!(),
        None => quote!(let #executor = #rt::Executor::current();),
    };
    let rng = if attrs.setup.is_some() { quote!(let mut #rng = #rt::Dprng::new(#seed);) } else { quote!() };
    let (outputs, drop_outputs) = match attrs.time_drop {
        Some(_) => (quote!(), quote!()),
        None => (quote!(let mut #outputs = #rt::Outputs::with_capacity(#iters);), quote!(::core::mem::drop(#outputs);)),
    };
    // With `threads`, this loop runs on each thread and waits at the gate before its clock
    // starts; the registered function (`threaded`) starts the threads.
    let (placed, gate_param, gate_wait) = match &attrs.threads {
        Some(_) => (format_ident!("{name}_on_thread"), quote!(, #gate: &#rt::Gate), quote!(#gate.wait();)),
        None => (name.clone(), quote!(), quote!()),
    };
    let u64 = quote!(::core::primitive::u64);
    let threaded = attrs.threads.as_ref().map(|threads| threaded(rt, name, &placed, threads.count));
    quote! {
        #[inline(never)]
        #[allow(unused_variables, unused_mut, clippy::unit_arg, clippy::let_unit_value, clippy::drop_non_drop)]
        fn #placed<const __RTCOMPARE_PLACEMENT: ::core::primitive::usize>(
            #iters: #u64,
            #seed: #u64,
            #arg: #u64,
            #meter: #rt::Meter
            #gate_param
        ) -> #u64 {
            use #rt::{IsFuture as _, IsValue as _};
            #rt::place::<__RTCOMPARE_PLACEMENT>();
            #rt::black_box(#marker);
            #bind
            #rng
            #prepare
            #outputs
            #executor
            #gate_wait
            let #start = #meter.start();
            #call_loop
            let #total = #meter.stop(#start);
            #drop_outputs
            #cleanup
            #total
        }
        #threaded
    }
}

/// The inputs built before the clock starts, the timed loop of calls, and the inputs dropped
/// after it stops, for each way the candidate takes its input. `keep` wraps one call.
fn calls(
    input: Input,
    callee: &Ident,
    build: &TokenStream,
    keep: &dyn Fn(TokenStream) -> TokenStream,
) -> (TokenStream, TokenStream, TokenStream) {
    let [iters, input_, inputs] = ["iters", "input", "inputs"].map(local);
    let black_box = quote!(::core::hint::black_box);
    let prepared = quote!(let mut #inputs: ::std::vec::Vec<_> = ::core::iter::Iterator::collect(
        ::core::iter::Iterator::map(0..#iters, |_| #build)
    ););
    match input {
        Input::None => {
            let keep = keep(quote!(#callee()));
            (quote!(), quote!(for _ in 0..#iters { #keep }), quote!())
        }
        Input::Shared => {
            let keep = keep(quote!(#callee(#black_box(&#input_))));
            (quote!(let #input_ = #build;), quote!(for _ in 0..#iters { #keep }), quote!(::core::mem::drop(#input_);))
        }
        Input::Exclusive => {
            let keep = keep(quote!(#callee(#black_box(#input_))));
            (prepared, quote!(for #input_ in &mut #inputs { #keep }), quote!(::core::mem::drop(#inputs);))
        }
        Input::Owned => {
            let keep = keep(quote!(#callee(#black_box(#input_))));
            let drain = quote!(::std::vec::Vec::drain(&mut #inputs, ..));
            (prepared, quote!(for #input_ in #drain { #keep }), quote!(::core::mem::drop(#inputs);))
        }
    }
}

/// One call's output, settled: a call that returns a future is driven to completion inside the
/// timed region, by `block_on` or by rtcompare's executor, which the type of the output picks (a
/// blocking output passes through untouched), so either arm may be the async one.
fn settled(call: TokenStream, at: Span, attrs: &Attrs) -> TokenStream {
    let [executor, output] = ["executor", "output"].map(local);
    let (method, argument) = match &attrs.block_on {
        Some(block_on) => (quote!(settle_on), quote!(#block_on)),
        None => (quote!(settle), quote!(&#executor)),
    };
    // The callee's location for the call (so `block_on` beside a blocking function is reported
    // at that function), the path's own for `block_on` (a runner of the wrong shape is reported
    // at it).
    let settle = respan(quote!((&#output).__rtcompare_kind().#method), at);
    let output_at = Ident::new("output", Span::mixed_site().located_at(at));
    let mut arguments = Group::new(Delimiter::Parenthesis, quote!(#output_at, #argument));
    arguments.set_span(Span::call_site().located_at(at));
    quote!({
        let #output = #call;
        #settle #arguments
    })
}

/// The registered batch function of a pair with `threads = N`: runs the placed loop on N threads
/// released together, and returns the slowest thread's total.
fn threaded(rt: &TokenStream, name: &Ident, placed: &Ident, count: u32) -> TokenStream {
    let [iters, seed, arg, meter, gate] = ["iters", "seed", "arg", "meter", "gate"].map(local);
    let (u64, count) = (quote!(::core::primitive::u64), count as usize);
    quote! {
        #[inline(never)]
        fn #name<const __RTCOMPARE_PLACEMENT: ::core::primitive::usize>(
            #iters: #u64,
            #seed: #u64,
            #arg: #u64,
            #meter: #rt::Meter,
        ) -> #u64 {
            #rt::on_threads(#count, |#gate| #placed::<__RTCOMPARE_PLACEMENT>(#iters, #seed, #arg, #meter, #gate))
        }
    }
}

fn registration(
    rt: &TokenStream,
    function: &ItemFn,
    valid: &Valid<'_>,
    attrs: &Attrs,
    ty: Option<&Type>,
) -> TokenStream {
    let candidate_name = function.sig.ident.unraw().to_string();
    let type_arg = ty.map(type_text);
    // Against a revision, the baseline is the candidate itself there.
    let (baseline_path, baseline_name) = match valid.baseline {
        Some(baseline) => {
            // The test is named after the path's last segment, without generic arguments.
            let last = baseline.segments.last().map_or_else(String::new, |s| s.ident.unraw().to_string());
            let path = quote!(#baseline).to_string().replace(' ', "");
            (type_arg.as_ref().map_or_else(|| path.clone(), |ty| format!("{path}::<{ty}>")), last)
        }
        None => (candidate_name.clone(), candidate_name.clone()),
    };
    let revision = valid.baseline.is_none();
    let type_arg = option(type_arg.map(|ty| quote!(#ty)));
    let throughput = option(attrs.throughput.as_ref().map(|t| throughput(rt, t)));
    let threads = option(attrs.threads.as_ref().map(|t| {
        let count = t.count;
        quote!(#count)
    }));
    let name = option(attrs.name.as_ref().map(|name| quote!(#name)));
    let parity = option(attrs.parity.map(|p| quote!(#p)));
    let time = option(attrs.time.map(|n| quote!(::core::time::Duration::from_nanos(#n))));
    let thresholds = attrs.thresholds.iter().flatten().map(|&t| {
        // A float literal token cannot be negative; the sign is a separate token.
        let magnitude = t.abs();
        if t < 0.0 { quote!(-#magnitude) } else { quote!(#magnitude) }
    });
    let expect = match attrs.expect {
        Some(Expect::Win) => quote!(Win),
        Some(Expect::NoLoss) | None => quote!(NoLoss),
    };
    let metric = match attrs.metric {
        Some(Metric::Time) | None => quote!(Time),
        Some(Metric::AllocBytes) => quote!(AllocBytes),
        Some(Metric::Allocs) => quote!(Allocs),
        Some(Metric::Instructions) => quote!(Instructions),
    };
    let sizes = attrs.args.iter().flat_map(|args| &args.sizes);
    let ignore = attrs.ignore.is_some();
    let copies: Vec<usize> = (0..PLACEMENTS).collect();
    quote! {
        #rt::inventory::submit! {
            #rt::Registration {
                module_path: ::core::module_path!(),
                candidate: #candidate_name,
                baseline: #baseline_path,
                baseline_name: #baseline_name,
                batches: #rt::Batches {
                    candidate: [#(__rtcompare_candidate::<#copies>),*],
                    candidate_twin: [#(__rtcompare_candidate_twin::<#copies>),*],
                    baseline: [#(__rtcompare_baseline::<#copies>),*],
                    baseline_twin: [#(__rtcompare_baseline_twin::<#copies>),*],
                },
                settings: #rt::AttributeSettings {
                    name: #name,
                    parity: #parity,
                    time: #time,
                    thresholds: &[#(#thresholds),*],
                    expect: #rt::Expectation::#expect,
                    ignore: #ignore,
                    metric: #rt::Metric::#metric,
                    args: &[#(#sizes),*],
                    revision: #revision,
                    type_arg: #type_arg,
                    throughput: #throughput,
                    threads: #threads,
                    front_end: false,
                },
                file: ::core::file!(),
                line: ::core::line!(),
            }
        }
    }
}

/// `throughput = bytes(N)` as the runtime's `Throughput`.
fn throughput(rt: &TokenStream, throughput: &attr::Throughput) -> TokenStream {
    let unit = match throughput.unit {
        attr::ThroughputUnit::Bytes => quote!(Bytes),
        attr::ThroughputUnit::Elements => quote!(Elements),
    };
    let amount = match throughput.amount {
        attr::Amount::Fixed(n) => quote!(Fixed(#n)),
        attr::Amount::Size(_) => quote!(Size),
    };
    quote!(#rt::Throughput { unit: #rt::ThroughputUnit::#unit, amount: #rt::Amount::#amount })
}

/// A type as it reads in a test name: `u32`, `Vec<u8>`, `&'static str`.
fn type_text(ty: &Type) -> String {
    let text = quote!(#ty).to_string();
    [(" :: ", "::"), (" <", "<"), ("< ", "<"), (" >", ">"), (" ,", ","), (" ;", ";"), ("& ", "&")]
        .iter()
        .fold(text, |text, (spaced, tight)| text.replace(spaced, tight))
}

fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(value) => quote!(::core::option::Option::Some(#value)),
        None => quote!(::core::option::Option::None),
    }
}

#[cfg(test)]
mod tests {
    use super::type_text;

    #[test]
    fn types_read_in_test_names_as_written() {
        for written in ["u32", "Vec<u8>", "&'static str", "std::collections::HashMap<u64, String>", "[u8; 4]"] {
            let ty: syn::Type = syn::parse_str(written).unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(type_text(&ty), written);
        }
    }
}
