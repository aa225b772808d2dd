//! Parsing `#[compare(...)]`'s keys, each checked with an error on the offending token.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Expr, ExprArray, ExprLit, ExprUnary, Lit, LitFloat, LitStr, Path, UnOp};

/// The keys this version understands, for the "unknown key" message.
const KEYS: &str = "baseline, setup, args, metric, name, parity, time, thresholds, expect, time_drop, ignore";

/// A parsed `#[compare(...)]`.
pub(crate) struct CompareArgs {
    pub baseline: Path,
    pub setup: Option<Path>,
    pub args: Vec<u64>,
    /// Span of the `args` key, for errors about it.
    pub args_span: Option<Span>,
    pub metric: Metric,
    pub time_drop: bool,
    pub name: Option<LitStr>,
    pub parity: Option<f64>,
    pub time_nanos: Option<u64>,
    pub thresholds: Vec<f64>,
    pub expect_win: bool,
    pub ignore: bool,
}

/// `metric = "..."`.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum Metric {
    #[default]
    Time,
    AllocBytes,
    Allocs,
}

#[derive(Default)]
struct Builder {
    baseline: Option<Path>,
    setup: Option<Path>,
    args: Option<(Vec<u64>, Span)>,
    metric: Option<Metric>,
    time_drop: bool,
    name: Option<LitStr>,
    parity: Option<f64>,
    time_nanos: Option<u64>,
    thresholds: Option<Vec<f64>>,
    expect_win: Option<bool>,
    ignore: bool,
    seen: Vec<String>,
}

impl Builder {
    fn key(&mut self, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
        if self.seen.contains(&key) {
            return Err(meta.error(format!("`{key}` is given twice; keep one")));
        }
        match key.as_str() {
            "baseline" => self.baseline = Some(value(&meta, "a function path, e.g. `baseline = old_sort`")?),
            "setup" => self.setup = Some(value(&meta, "a function path, e.g. `setup = random_input`")?),
            "args" => self.args = Some((args(&meta)?, meta.path.span())),
            "metric" => self.metric = Some(metric(&meta)?),
            "name" => self.name = Some(value(&meta, "a string, e.g. `name = \"sort/new\"`")?),
            "parity" => self.parity = Some(parity(&meta)?),
            "time" => self.time_nanos = Some(time(&meta)?),
            "thresholds" => self.thresholds = Some(thresholds(&meta)?),
            "expect" => self.expect_win = Some(expect(&meta)?),
            "ignore" => self.ignore = flag(&meta)?,
            "time_drop" => self.time_drop = flag(&meta)?,
            _ => {
                return Err(
                    meta.error(format!("unknown key `{}` in #[compare]; the keys are: {KEYS}", path_text(&meta.path)))
                );
            }
        }
        self.seen.push(key);
        Ok(())
    }
}

/// Parses the attribute's arguments.
pub(crate) fn parse(args: proc_macro2::TokenStream) -> syn::Result<CompareArgs> {
    let mut builder = Builder::default();
    let parser = syn::meta::parser(|meta| builder.key(meta));
    syn::parse::Parser::parse2(parser, args)?;
    let baseline = builder.baseline.ok_or_else(|| {
        syn::Error::new(
            Span::call_site(),
            "#[compare] needs a baseline to compare against: write `#[compare(baseline = old_fn)]`",
        )
    })?;
    let (args, args_span) = match builder.args {
        Some((args, span)) => (args, Some(span)),
        None => (Vec::new(), None),
    };
    Ok(CompareArgs {
        baseline,
        setup: builder.setup,
        args,
        args_span,
        metric: builder.metric.unwrap_or_default(),
        time_drop: builder.time_drop,
        name: builder.name,
        parity: builder.parity,
        time_nanos: builder.time_nanos,
        thresholds: builder.thresholds.unwrap_or_default(),
        expect_win: builder.expect_win.unwrap_or(false),
        ignore: builder.ignore,
    })
}

fn value<T: syn::parse::Parse>(meta: &ParseNestedMeta<'_>, what: &str) -> syn::Result<T> {
    let key = path_text(&meta.path);
    let input = meta.value().map_err(|_| meta.error(format!("`{key}` needs a value: {what}")))?;
    let fork = input.fork();
    match input.parse::<T>() {
        Ok(value) => Ok(value),
        Err(_) => {
            let span = fork.parse::<Expr>().map(|e| e.span()).unwrap_or_else(|_| fork.span());
            Err(syn::Error::new(span, format!("`{key}` expects {what}")))
        }
    }
}

/// A key without a value, such as `ignore`.
fn flag(meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
    if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
        let key = path_text(&meta.path);
        return Err(meta.error(format!("`{key}` takes no value; write just `{key}`")));
    }
    Ok(true)
}

fn metric(meta: &ParseNestedMeta<'_>) -> syn::Result<Metric> {
    let literal: LitStr = value(meta, "\"time\", \"alloc_bytes\" or \"allocs\"")?;
    match literal.value().as_str() {
        "time" => Ok(Metric::Time),
        "alloc_bytes" => Ok(Metric::AllocBytes),
        "allocs" => Ok(Metric::Allocs),
        other => Err(syn::Error::new(
            literal.span(),
            format!("`metric` is \"time\", \"alloc_bytes\" or \"allocs\", not {other:?}"),
        )),
    }
}

fn args(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<u64>> {
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
            return Err(syn::Error::new(element.span(), format!("the size {size} is listed twice")));
        }
        sizes.push(size);
    }
    Ok(sizes)
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
    crate::duration::nanos(&literal.value()).map_err(|why| syn::Error::new(literal.span(), format!("`time`: {why}")))
}

fn expect(meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
    let literal: LitStr = value(meta, "\"no_loss\" or \"win\"")?;
    match literal.value().as_str() {
        "win" => Ok(true),
        "no_loss" => Ok(false),
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
