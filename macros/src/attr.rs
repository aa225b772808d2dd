//! Parsing: the keys of `#[compare(...)]` and `main!(...)`, each value checked where it is
//! written. Whether the keys fit together and fit the function is `valid.rs`'s business.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, ExprArray, ExprLit, ExprUnary, Lit, LitFloat, LitInt, LitStr, Path, Type, UnOp};

/// The keys of `#[compare]`, for the "unknown key" message.
const KEYS: &str = "baseline, setup, keep_input, args, types, block_on, throughput, threads, metric, name, parity, time, \
     thresholds, expect, time_drop, ignore, crate";

/// A parsed `#[compare(...)]`: every key as written, `None` when absent. A key given twice is
/// an error, detected by its field being already `Some`.
#[derive(Default)]
pub(crate) struct Attrs {
    /// `crate = path`: where the generated code finds rtcompare (default `::rtcompare`).
    pub krate: Option<Path>,
    /// `baseline = path`; without it, the function is compared against itself at the revision
    /// `RTCOMPARE_BASELINE` names.
    pub baseline: Option<Path>,
    /// `setup = path`.
    pub setup: Option<Path>,
    /// `keep_input`, at the span of the key: one input kept for the process instead of one per
    /// batch.
    pub keep_input: Option<Span>,
    /// `args = [...]`.
    pub args: Option<Args>,
    /// `types = [u32, String]`: one pair per type, the candidate being generic.
    pub types: Option<Types>,
    /// `block_on = path`: the function that runs each future of an async pair.
    pub block_on: Option<Path>,
    /// `throughput = bytes(N)` or `elements(N)`.
    pub throughput: Option<Throughput>,
    /// `threads = 4`.
    pub threads: Option<Threads>,
    /// `metric = "..."`.
    pub metric: Option<Metric>,
    /// `time_drop`, at the span of the key.
    pub time_drop: Option<Span>,
    /// `name = "..."`.
    pub name: Option<LitStr>,
    /// `parity = 0.04`.
    pub parity: Option<f64>,
    /// `time = "2s"`, in nanoseconds.
    pub time: Option<u64>,
    /// `thresholds = [...]`.
    pub thresholds: Option<Vec<f64>>,
    /// `expect = "..."`.
    pub expect: Option<Expect>,
    /// `ignore`, at the span of the key.
    pub ignore: Option<Span>,
}

/// `args = [10, 1_000]`: the sizes, and the key's span for errors about it.
pub(crate) struct Args {
    pub key: Span,
    pub sizes: Vec<u64>,
}

/// `types = [u32, String]`: the types, and the key's span for errors about it.
pub(crate) struct Types {
    pub key: Span,
    pub types: Vec<Type>,
}

/// `threads = 4`: how many, and the key's span for errors about it.
pub(crate) struct Threads {
    pub key: Span,
    pub count: u32,
}

/// `throughput = bytes(N)`: what is counted, and how much per call.
pub(crate) struct Throughput {
    /// The key's span, for errors about it.
    pub key: Span,
    /// `bytes` or `elements`.
    pub unit: ThroughputUnit,
    /// `N`, or the size from `args` for `arg`.
    pub amount: Amount,
}

/// The unit of `throughput`.
#[derive(Clone, Copy)]
pub(crate) enum ThroughputUnit {
    Bytes,
    Elements,
}

/// How much one call processes.
pub(crate) enum Amount {
    Fixed(u64),
    /// `arg`, at its span for the error when there is no `args`.
    Size(Span),
}

/// `metric = "..."`.
#[derive(Clone, Copy)]
pub(crate) enum Metric {
    Time,
    AllocBytes,
    Allocs,
    Instructions,
}

/// `expect = "..."`.
#[derive(Clone, Copy)]
pub(crate) enum Expect {
    NoLoss,
    Win,
}

/// Parses the arguments of `#[compare(...)]`.
pub(crate) fn parse(args: TokenStream) -> syn::Result<Attrs> {
    let mut attrs = Attrs::default();
    syn::parse::Parser::parse2(syn::meta::parser(|meta| attrs.key(&meta)), args)?;
    Ok(attrs)
}

impl Attrs {
    fn key(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        match path_text(&meta.path).as_str() {
            "crate" => set(&mut self.krate, meta, |m| {
                value(m, "the path of rtcompare, e.g. `crate = my_reexports::rtcompare`")
            }),
            "baseline" => set(&mut self.baseline, meta, |m| value(m, "a function path, e.g. `baseline = old_sort`")),
            "setup" => set(&mut self.setup, meta, |m| value(m, "a function path, e.g. `setup = random_input`")),
            "args" => set(&mut self.args, meta, args),
            "types" => set(&mut self.types, meta, types),
            "block_on" => set(&mut self.block_on, meta, |m| {
                value(
                    m,
                    "a function path, e.g. `block_on = on_tokio` where `fn on_tokio<F: Future>(f: F) -> F::Output`",
                )
            }),
            "throughput" => set(&mut self.throughput, meta, throughput),
            "threads" => set(&mut self.threads, meta, threads),
            "metric" => set(&mut self.metric, meta, metric),
            "name" => set(&mut self.name, meta, |m| value(m, "a string, e.g. `name = \"sort/new\"`")),
            "parity" => set(&mut self.parity, meta, parity),
            "time" => set(&mut self.time, meta, time),
            "thresholds" => set(&mut self.thresholds, meta, thresholds),
            "expect" => set(&mut self.expect, meta, expect),
            "ignore" => set(&mut self.ignore, meta, flag),
            "time_drop" => set(&mut self.time_drop, meta, flag),
            "keep_input" => set(&mut self.keep_input, meta, flag),
            other => Err(meta.error(format!("unknown key `{other}` in #[compare]; the keys are: {KEYS}"))),
        }
    }
}

/// A parsed `main!(...)`.
#[derive(Default)]
pub(crate) struct MainAttrs {
    /// `crate = path`: where the generated code finds rtcompare (default `::rtcompare`).
    pub krate: Option<Path>,
    /// `allocator = path`: the allocator the counting one wraps (default the system's).
    pub allocator: Option<Path>,
    /// `run = path`: a front-end's `fn(BuildInfo) -> ExitCode` that runs in place of the harness's
    /// own `main` (rtcompare-criterion's `criterion_main!` names one).
    pub run: Option<Path>,
}

/// Parses the arguments of `main!(...)`.
pub(crate) fn parse_main(args: TokenStream) -> syn::Result<MainAttrs> {
    let mut attrs = MainAttrs::default();
    let parser = syn::meta::parser(|meta| match path_text(&meta.path).as_str() {
        "crate" => {
            set(&mut attrs.krate, &meta, |m| value(m, "the path of rtcompare, e.g. `crate = my_reexports::rtcompare`"))
        }
        "allocator" => {
            set(&mut attrs.allocator, &meta, |m| value(m, "a unit struct, e.g. `allocator = mimalloc::MiMalloc`"))
        }
        "run" => {
            set(&mut attrs.run, &meta, |m| value(m, "a function `fn(BuildInfo) -> ExitCode`, e.g. `run = my_main`"))
        }
        other => Err(meta.error(format!(
            "unknown key `{other}` in rtcompare::main!(); it takes `allocator = YourAllocator` (a unit struct such as \
             `mimalloc::MiMalloc`) and `crate = path::to::rtcompare`"
        ))),
    });
    syn::parse::Parser::parse2(parser, args)?;
    Ok(attrs)
}

/// Stores a key's value, or rejects the key if it was given before.
fn set<T>(
    slot: &mut Option<T>,
    meta: &ParseNestedMeta<'_>,
    parse: impl FnOnce(&ParseNestedMeta<'_>) -> syn::Result<T>,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!("`{}` is given twice; keep one", path_text(&meta.path))));
    }
    *slot = Some(parse(meta)?);
    Ok(())
}

/// `key = value`, with `what` describing the value in both errors: a missing value and one of
/// the wrong kind (spanned at the value).
fn value<T: syn::parse::Parse>(meta: &ParseNestedMeta<'_>, what: &str) -> syn::Result<T> {
    let key = path_text(&meta.path);
    let input = meta.value().map_err(|_| meta.error(format!("`{key}` needs a value: {what}")))?;
    let fork = input.fork();
    input.parse::<T>().map_err(|_| {
        let span = fork.parse::<Expr>().map_or_else(|_| fork.span(), |e| e.span());
        syn::Error::new(span, format!("`{key}` expects {what}"))
    })
}

/// A key without a value, such as `ignore`.
fn flag(meta: &ParseNestedMeta<'_>) -> syn::Result<Span> {
    if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
        let key = path_text(&meta.path);
        return Err(meta.error(format!("`{key}` takes no value; write just `{key}`")));
    }
    Ok(meta.path.span())
}

fn metric(meta: &ParseNestedMeta<'_>) -> syn::Result<Metric> {
    let literal: LitStr = value(meta, "\"time\", \"alloc_bytes\", \"allocs\" or \"instructions\"")?;
    match literal.value().as_str() {
        "time" => Ok(Metric::Time),
        "alloc_bytes" => Ok(Metric::AllocBytes),
        "allocs" => Ok(Metric::Allocs),
        "instructions" => Ok(Metric::Instructions),
        other => Err(syn::Error::new(
            literal.span(),
            format!("`metric` is \"time\", \"alloc_bytes\", \"allocs\" or \"instructions\", not {other:?}"),
        )),
    }
}

fn args(meta: &ParseNestedMeta<'_>) -> syn::Result<Args> {
    let key = meta.path.span();
    let array: ExprArray = value(meta, "a list of sizes, e.g. `args = [10, 1_000, 100_000]`")?;
    if array.elems.is_empty() {
        return Err(syn::Error::new(array.span(), "`args` needs at least one size, e.g. `args = [10, 1_000]`"));
    }
    let mut sizes: Vec<u64> = Vec::new();
    for element in &array.elems {
        let size = match element {
            Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) => int.base10_parse::<u64>().ok(),
            _ => None,
        };
        let size =
            size.ok_or_else(|| syn::Error::new(element.span(), "a size is a non-negative whole number, e.g. `1_000`"))?;
        if sizes.contains(&size) {
            return Err(syn::Error::new(element.span(), format!("the size {size} is listed twice; keep one")));
        }
        sizes.push(size);
    }
    Ok(Args { key, sizes })
}

fn types(meta: &ParseNestedMeta<'_>) -> syn::Result<Types> {
    let key = meta.path.span();
    let example = "a list of types, e.g. `types = [u32, u64, String]`";
    let input = meta.value().map_err(|_| meta.error(format!("`types` needs a value: {example}")))?;
    if !input.peek(syn::token::Bracket) {
        let span = input.fork().parse::<Expr>().map_or_else(|_| input.span(), |e| e.span());
        return Err(syn::Error::new(span, format!("`types` expects {example}")));
    }
    let content;
    let brackets = syn::bracketed!(content in input);
    let list = Punctuated::<Type, syn::Token![,]>::parse_terminated(&content)
        .map_err(|error| syn::Error::new(error.span(), format!("`types` expects {example}")))?;
    if list.is_empty() {
        return Err(syn::Error::new(brackets.span.join(), "`types` needs at least one type, e.g. `types = [u32]`"));
    }
    let mut types: Vec<Type> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for ty in list {
        let text = quote::quote!(#ty).to_string();
        if seen.contains(&text) {
            return Err(syn::Error::new(ty.span(), "this type is listed twice in `types`; keep one"));
        }
        seen.push(text);
        types.push(ty);
    }
    Ok(Types { key, types })
}

fn throughput(meta: &ParseNestedMeta<'_>) -> syn::Result<Throughput> {
    let what = "`bytes(N)` or `elements(N)`, e.g. `throughput = bytes(4096)`";
    let expr: Expr = value(meta, what)?;
    let (func, args, parens) = match &expr {
        Expr::Call(call) => (call.func.as_ref(), Some(&call.args), Some(call.paren_token.span.join())),
        other => (other, None, None),
    };
    let unit = match func {
        Expr::Path(path) if path.path.is_ident("bytes") => ThroughputUnit::Bytes,
        Expr::Path(path) if path.path.is_ident("elements") => ThroughputUnit::Elements,
        other => return Err(syn::Error::new(other.span(), format!("`throughput` is {what}"))),
    };
    let name = match unit {
        ThroughputUnit::Bytes => "bytes",
        ThroughputUnit::Elements => "elements",
    };
    let missing = format!(
        "`{name}` needs how many {name} one call processes: `{name}(4096)`, or `{name}(arg)` for the size from `args`"
    );
    let (Some(args), Some(parens)) = (args, parens) else { return Err(syn::Error::new(func.span(), missing)) };
    let mut args = args.iter();
    let (Some(arg), None) = (args.next(), args.next()) else { return Err(syn::Error::new(parens, missing)) };
    let amount = match arg {
        Expr::Lit(ExprLit { lit: Lit::Int(int), .. }) => match int.base10_parse::<u64>() {
            Ok(amount) if amount > 0 => Amount::Fixed(amount),
            _ => return Err(syn::Error::new(int.span(), format!("`{name}(N)` needs a whole number above 0"))),
        },
        Expr::Path(path) if path.path.is_ident("arg") => Amount::Size(path.span()),
        other => return Err(syn::Error::new(other.span(), missing)),
    };
    Ok(Throughput { key: meta.path.span(), unit, amount })
}

fn threads(meta: &ParseNestedMeta<'_>) -> syn::Result<Threads> {
    let literal: LitInt = value(meta, "a number of threads, e.g. `threads = 4`")?;
    match literal.base10_parse::<u32>() {
        Ok(count) if (1..=1024).contains(&count) => Ok(Threads { key: meta.path.span(), count }),
        _ => Err(syn::Error::new(
            literal.span(),
            "`threads` is how many threads run each batch at once, from 1 to 1024, e.g. `threads = 4`",
        )),
    }
}

fn parity(meta: &ParseNestedMeta<'_>) -> syn::Result<f64> {
    let literal: LitFloat = value(meta, "a number between 0 and 1, e.g. `parity = 0.04`")?;
    let parity: f64 = literal.base10_parse()?;
    if !(0.0..1.0).contains(&parity) {
        return Err(syn::Error::new(literal.span(), "`parity` must be at least 0 and below 1, e.g. `parity = 0.04`"));
    }
    Ok(parity)
}

fn time(meta: &ParseNestedMeta<'_>) -> syn::Result<u64> {
    let literal: LitStr = value(meta, "a duration string, e.g. `time = \"2s\"`")?;
    rtcompare_duration::nanos(&literal.value()).map_err(|why| syn::Error::new(literal.span(), format!("`time`: {why}")))
}

fn expect(meta: &ParseNestedMeta<'_>) -> syn::Result<Expect> {
    let literal: LitStr = value(meta, "\"no_loss\" or \"win\"")?;
    match literal.value().as_str() {
        "win" => Ok(Expect::Win),
        "no_loss" => Ok(Expect::NoLoss),
        other => Err(syn::Error::new(literal.span(), format!("`expect` is \"no_loss\" or \"win\", not {other:?}"))),
    }
}

fn thresholds(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<f64>> {
    let array: ExprArray = value(meta, "a list of numbers, e.g. `thresholds = [0.05, 0.10]`")?;
    array.elems.iter().map(threshold).collect()
}

fn threshold(expr: &Expr) -> syn::Result<f64> {
    let error = || {
        syn::Error::new(
            expr.span(),
            "a threshold is a number between -1 and 1, e.g. 0.05 (5 % faster) or -0.02 (2 % slower tolerated)",
        )
    };
    let (negative, literal) = match expr {
        Expr::Unary(ExprUnary { op: UnOp::Neg(_), expr, .. }) => (true, expr.as_ref()),
        other => (false, other),
    };
    let magnitude = match literal {
        Expr::Lit(ExprLit { lit: Lit::Float(f), .. }) => f.base10_parse::<f64>()?,
        Expr::Lit(ExprLit { lit: Lit::Int(i), .. }) => i.base10_parse::<f64>()?,
        _ => return Err(error()),
    };
    let value = if negative { -magnitude } else { magnitude };
    if value > -1.0 && value < 1.0 { Ok(value) } else { Err(error()) }
}

fn path_text(path: &Path) -> String {
    path.segments.iter().map(|s| s.ident.to_string()).collect::<Vec<_>>().join("::")
}
