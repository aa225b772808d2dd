//! Validation: the annotated item is a function rtcompare can measure, and the keys fit it and
//! each other. Everything here is a compile error on the offending token; what only the type
//! checker can tell (the baseline's input, the setup function's shape) is left to the
//! generated code, whose errors are spanned at the baseline and setup paths.

use crate::attr::{Amount, Attrs, Metric};
use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::{FnArg, GenericParam, Item, ItemFn, Path, Type};

/// How the measured functions take their input.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Input {
    /// No argument, no setup.
    None,
    /// `&I`: one input per batch, shared by every call.
    Shared,
    /// `&mut I`: one input per call, built before the clock starts.
    Exclusive,
    /// `I`: one input per call, moved into the call.
    Owned,
}

/// What validation establishes for the expansion.
pub(crate) struct Valid<'a> {
    /// `baseline = path`, or `None` for a comparison against the function itself at the
    /// revision `RTCOMPARE_BASELINE` names.
    pub baseline: Option<&'a Path>,
    /// How the candidate takes its input.
    pub input: Input,
}

/// The annotated item, which must be a free function.
pub(crate) fn function(item: TokenStream) -> syn::Result<ItemFn> {
    let span = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(function)) => return Ok(function),
        Ok(other) => item_span(&other),
        // Nothing rustc passes to an attribute fails to parse as an item today; point at the
        // item's first token if that ever changes.
        Err(_) => item.into_iter().next().map_or_else(Span::call_site, |t| t.span()),
    };
    Err(syn::Error::new(
        span,
        "#[compare] goes on a free function (the candidate), e.g. `#[compare(baseline = old)] fn new() { ... }`",
    ))
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

/// Checks the attribute against the function.
pub(crate) fn validate<'a>(attrs: &'a Attrs, function: &ItemFn) -> syn::Result<Valid<'a>> {
    let baseline = attrs.baseline.as_ref();
    measurable(function, attrs)?;
    bare_paths(attrs)?;
    throughput(attrs)?;
    threads(attrs)?;
    executor(function, attrs)?;
    let input = input(function, attrs)?;
    kept(input, attrs)?;
    Ok(Valid { baseline, input })
}

/// What can be measured: a free function, blocking or async, concrete or (with `types`) generic
/// over one type.
fn measurable(function: &ItemFn, attrs: &Attrs) -> syn::Result<()> {
    let sig = &function.sig;
    if let Some(FnArg::Receiver(receiver)) = sig.inputs.first() {
        return Err(syn::Error::new(
            receiver.self_token.span,
            "#[compare] goes on a free function, not a method; call the method from a free function and annotate that",
        ));
    }
    generics(function, attrs)
}

/// Without `types` the candidate is concrete; with it, generic over exactly one type and nothing
/// else, which each listed type instantiates.
fn generics(function: &ItemFn, attrs: &Attrs) -> syn::Result<()> {
    let sig = &function.sig;
    let mut params = sig.generics.params.iter().filter(|p| !matches!(p, GenericParam::Lifetime(_)));
    match (&attrs.types, params.next(), params.next()) {
        (None, Some(param), _) => Err(syn::Error::new(
            param.span(),
            "#[compare] needs a concrete function; add `types = [u32, u64]` to compare it once per type, or wrap it \
             in a non-generic function that fixes its types",
        )),
        (Some(types), None, _) => Err(syn::Error::new(
            types.key,
            format!(
                "`types` instantiates a generic candidate, but `{}` has no type parameter; remove `types`, or make it \
                 generic: `fn {}<T>(...)`",
                sig.ident, sig.ident
            ),
        )),
        (Some(_), Some(param), _) if !matches!(param, GenericParam::Type(_)) => Err(syn::Error::new(
            param.span(),
            "with `types`, the candidate's one generic parameter is a type, `<T>`, which each listed type fills",
        )),
        (Some(_), Some(_), Some(second)) => Err(syn::Error::new(
            second.span(),
            "with `types`, the candidate has exactly one type parameter, which each listed type fills; fix the others \
             in a wrapper function",
        )),
        _ => Ok(()),
    }
}

/// With `types`, the baseline and setup are instantiated with each type: written without
/// generic arguments.
fn bare_paths(attrs: &Attrs) -> syn::Result<()> {
    if attrs.types.is_none() {
        return Ok(());
    }
    for (key, path) in [("baseline", &attrs.baseline), ("setup", &attrs.setup)] {
        let generic = path.iter().flat_map(|p| &p.segments).find(|s| !s.arguments.is_none());
        if let Some(segment) = generic {
            return Err(syn::Error::new(
                segment.arguments.span(),
                format!("with `types`, `{key}` is instantiated with each type: write it without generic arguments"),
            ));
        }
    }
    Ok(())
}

/// `bytes(arg)` takes the size from `args`; a rate is of time, not of allocations.
fn throughput(attrs: &Attrs) -> syn::Result<()> {
    let Some(throughput) = &attrs.throughput else { return Ok(()) };
    if let (Amount::Size(at), None) = (&throughput.amount, &attrs.args) {
        return Err(syn::Error::new(
            *at,
            "`arg` is the size from `args`, and this pair has none: add `args = [1_024, 65_536]`, or give a number",
        ));
    }
    match attrs.metric {
        Some(Metric::AllocBytes | Metric::Allocs | Metric::Instructions) => Err(syn::Error::new(
            throughput.key,
            "`throughput` is a rate over time; remove it, or compare time (`metric = \"time\"`)",
        )),
        _ => Ok(()),
    }
}

/// Threads share one process's allocation counters, and callgrind runs threads one at a time:
/// `threads` measures time only.
fn threads(attrs: &Attrs) -> syn::Result<()> {
    match (&attrs.threads, attrs.metric) {
        (Some(threads), Some(Metric::AllocBytes | Metric::Allocs)) => Err(syn::Error::new(
            threads.key,
            "`threads` measures time: the allocation counters cannot tell the threads apart; remove `threads`, or \
             compare time",
        )),
        (Some(threads), Some(Metric::Instructions)) => Err(syn::Error::new(
            threads.key,
            "`threads` measures time: callgrind runs threads one at a time, so their counts say nothing about how \
             they scale; remove `threads`, or compare time",
        )),
        _ => Ok(()),
    }
}

/// `block_on` runs the futures of an async pair: the candidate must be an `async fn` (the
/// baseline's future is checked by the type checker, at the baseline path).
fn executor(function: &ItemFn, attrs: &Attrs) -> syn::Result<()> {
    match (&attrs.block_on, &function.sig.asyncness) {
        (Some(block_on), None) => Err(syn::Error::new(
            block_on.span(),
            format!(
                "`block_on` runs the futures of an async pair, but `{}` is not an async fn; remove `block_on` (an \
                 async baseline beside a blocking candidate runs on rtcompare's own executor), or make both async",
                function.sig.ident
            ),
        )),
        _ => Ok(()),
    }
}

/// Matches the candidate's parameters with `setup` and `args`.
fn input(function: &ItemFn, attrs: &Attrs) -> syn::Result<Input> {
    let inputs = &function.sig.inputs;
    if let (Some(args), None) = (&attrs.args, &attrs.setup) {
        return Err(syn::Error::new(
            args.key,
            "`args` are passed to a setup function: add `setup = make_input` where `fn make_input(size: usize) -> I`",
        ));
    }
    match (inputs.first(), inputs.len(), &attrs.setup) {
        (_, 0, None) => Ok(Input::None),
        (_, 0, Some(setup)) => Err(syn::Error::new(
            setup.span(),
            "with `setup`, the candidate takes the input it builds: `fn candidate(input: &I)` (or `&mut I`, or `I`)",
        )),
        (Some(FnArg::Typed(typed)), 1, Some(_)) => Ok(match ungrouped(&typed.ty) {
            Type::Reference(reference) if reference.mutability.is_some() => Input::Exclusive,
            Type::Reference(_) => Input::Shared,
            _ => Input::Owned,
        }),
        (_, _, None) => Err(syn::Error::new(
            inputs.span(),
            "#[compare] calls the candidate with no arguments unless `setup = make_input` builds its input; add a \
             setup function, or build the input inside the candidate",
        )),
        (_, _, Some(_)) => Err(syn::Error::new(
            inputs.span(),
            "with `setup`, the candidate takes exactly one argument (a tuple or struct can carry several values)",
        )),
    }
}

/// `keep_input` keeps one input, shared by every call of the process: the candidate reads it
/// through `&I`.
fn kept(input: Input, attrs: &Attrs) -> syn::Result<()> {
    match (attrs.keep_input, input) {
        (Some(_), Input::Shared) | (None, _) => Ok(()),
        (Some(key), Input::None) => Err(syn::Error::new(
            key,
            "`keep_input` keeps the input `setup` builds for the whole process; add `setup = make_input`, or remove \
             `keep_input`",
        )),
        (Some(key), _) => Err(syn::Error::new(
            key,
            "`keep_input` keeps one input for the whole process, shared by every call, so the candidate takes it as \
             `&I`; a `&mut I` or an `I` is fresh for every call",
        )),
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
