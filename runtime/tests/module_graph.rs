//! Keeps the module graphs of `runtime/src` and `report/src` acyclic, so each crate reads top
//! to bottom, and keeps their boundaries in plain sight: no module reaches another crate's item
//! through a name its crate binds elsewhere (`crate::verdict::Report` for the judging crate's
//! `Report`), so every path into another crate names that crate.
//!
//! The test parses the sources with `syn` rather than asking the compiler: every `use` (its
//! tree expanded) and every `crate::…`, `super::…` or `self::…` path — in code, in types, and in
//! the tokens of macro calls such as `format!` — is an edge from the module it appears in (a
//! file, or an inline module such as `tests`) to the module that defines the item. A name that a
//! module merely re-exports (`pub use text::render_text;` in the report crate's `lib.rs`, `pub
//! use measure::Arm;` in the runtime's) is followed to where it is defined, so re-exporting
//! parents do not count as cycles. A name bound from another crate (`pub use
//! rtcompare_judge::Report;` at the runtime's root, for the facade) is no edge, since Cargo keeps
//! that boundary; but a path of this crate that resolves through such a name, from any module
//! but the one that binds it, is an alias and fails the test. Declaring a module (`mod json;`)
//! is structure, not an edge. A name that is both a module and a re-exported item
//! (`crate::measure`, the module and the function) counts as the module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// A module's path below the crate root: `["report", "json"]`; the root is `[]`.
type Module = Vec<String>;

/// The crates whose module graphs must be acyclic, by their source folders.
fn sources() -> [PathBuf; 2] {
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR"));
    [runtime.join("src"), runtime.join("../report/src")]
}

#[test]
fn the_module_graph_has_no_cycle() {
    for src in sources() {
        let graph = Graph::read(&src);
        assert!(graph.modules.len() > 10, "{} was not read: {:?}", src.display(), graph.modules);
        let files = cycles(&graph.edges);
        assert!(files.is_empty(), "import cycles between modules of {}:\n{}", src.display(), files.join("\n"));
    }
    // The runtime's folders are layers, and they too must not import in a circle: a file of
    // `measure` using one of `harness` while another file of `harness` uses `measure` is no
    // cycle between files, but it is one between the two layers. (The report crate is flat: its
    // files are its layers.)
    let [runtime, _] = sources();
    let layers = cycles(&top_level(&Graph::read(&runtime).edges));
    assert!(layers.is_empty(), "import cycles between the top-level modules of runtime/src:\n{}", layers.join("\n"));
}

/// The judging crate's files are acyclic too: its modules are public, so a circle between two of
/// them (`validate.rs` taking `JudgeOptions` through the crate root while `verdict/` holds its
/// `Validation`) would show in its API as well.
#[test]
fn the_judging_crate_has_no_cycle() {
    let judge = Path::new(env!("CARGO_MANIFEST_DIR")).join("../judge/src");
    let graph = Graph::read(&judge);
    assert!(graph.modules.len() > 10, "{} was not read: {:?}", judge.display(), graph.modules);
    let files = cycles(&graph.edges);
    assert!(files.is_empty(), "import cycles between modules of {}:\n{}", judge.display(), files.join("\n"));
}

/// The graph reads what it should in these crates: a re-export is followed, a test module is
/// its own node, a file compiled only for tests is read like any other file.
#[test]
fn the_reader_follows_re_exports_and_sees_inline_modules() {
    let [runtime, report] = sources().map(|src| Graph::read(&src));
    let has = |graph: &Graph, from: &str, to: &str| graph.edges.contains(&(module(from), module(to)));
    // `use crate::measure::{Arm, …}` in compare.rs, re-exported from measure/arm.rs.
    assert!(has(&runtime, "compare", "measure::arm"));
    // The inline `__private` module of lib.rs re-exports what generated code names.
    assert!(has(&runtime, "__private", "harness::registry") && has(&runtime, "__private", "measure::input"));
    // A file compiled only for tests (`#[cfg(all(test, …))] mod proof;`) is read like any other.
    assert!(has(&runtime, "instructions::proof", "child"));
    // The report crate's re-exports at its root are followed too.
    assert!(has(&report, "json::tests", "fixtures") && has(&report, "markdown", "text"));
    assert!(!report.edges.iter().any(|(_, to)| to.is_empty()), "re-exports are not edges upward");
    // The judging crate's items the runtime's root re-exports for the facade are another
    // crate's: no edge.
    assert!(runtime.reexports[&module("")].get("Report").is_some_and(Option::is_none));
}

/// Every path into another crate names it: none goes through a name this crate binds for
/// another crate's item or module, such as the `pub(crate) use rtcompare_judge::verdict;` that
/// once made `crate::verdict::Report` the judging crate's type.
#[test]
fn no_path_reaches_another_crate_through_an_alias() {
    for src in sources() {
        let aliases = Graph::read(&src).aliases();
        assert!(
            aliases.is_empty(),
            "paths through aliases of another crate in {}:\n{}",
            src.display(),
            aliases.join("\n")
        );
    }
}

/// An alias is found wherever it is bound and however it is reached; a module's own use of a
/// name it imports is none.
#[test]
fn the_reader_finds_aliases_of_other_crates() {
    let sources = [
        ("lib.rs", "mod a;\nmod b;\nuse other::verdict;\npub use other::Item;\nfn f(_: Item) {}"),
        ("a.rs", "use crate::verdict::Report;\nuse other::stats;\nfn g() { stats::median(); }"),
        ("b.rs", "fn h(_: crate::Item) {}\nfn i(_: other::verdict::Report) {}"),
    ];
    let files = sources.iter().map(|(path, text)| (file_module(Path::new(""), Path::new(path)), text.to_string()));
    let aliases = Graph::from_sources(files.collect()).aliases();
    assert_eq!(
        aliases,
        ["a → crate::verdict::Report (bound in crate)", "b → crate::Item (bound in crate)"],
        "{aliases:?}"
    );
}

/// Every kind of path is read, and nothing that only looks like one: a `use` tree with braces,
/// a renaming and a glob, a path in a type, one in an expression, one inside a macro call, and
/// `super::`; a path in a comment or a string is not.
#[test]
fn the_reader_sees_every_kind_of_path() {
    let sources = [
        ("lib.rs", "mod a;\nmod b;\nmod c;\nmod d;\npub use c::Thing;\nmod inner { pub fn f() {} }"),
        (
            "a.rs",
            "use crate::{b::{self, one as renamed}, d::*};\n// crate::c::never\nconst S: &str = \"crate::c::never\";",
        ),
        (
            "b.rs",
            "pub fn one() {}\npub fn two(_: crate::Thing) {}\n#[cfg(test)]\nmod tests { fn t() { super::one(); } }",
        ),
        ("c.rs", "pub struct Thing;\nfn g() { let _ = format!(\"{}\", crate::inner::f()); }"),
        ("d.rs", "pub(crate) fn three() { crate::inner::f() }\nstruct S;\nimpl S { fn m(self) -> Self { self } }"),
    ];
    let files = sources.iter().map(|(path, text)| (file_module(Path::new(""), Path::new(path)), text.to_string()));
    let graph = Graph::from_sources(files.collect());
    let edges: Vec<String> = graph.edges.iter().map(|(from, to)| format!("{} → {}", name(from), name(to))).collect();
    assert_eq!(edges, ["crate → c", "a → b", "a → d", "b → c", "b::tests → b", "c → inner", "d → inner"], "{edges:?}");
}

fn module(name: &str) -> Module {
    name.split("::").filter(|s| !s.is_empty()).map(str::to_owned).collect()
}

fn name(module: &Module) -> String {
    if module.is_empty() { "crate".to_owned() } else { module.join("::") }
}

/// Where a path leads ([`Graph::follow`]).
enum Followed {
    /// To the module of this crate that defines what it names.
    Defined(Module),
    /// Out of the crate, through a re-export of another crate's name bound in this module.
    OtherCrate { bound_in: Module },
}

/// The modules of a crate, what each re-exports, and who imports from whom.
#[derive(Default)]
struct Graph {
    /// Every module: files and inline modules.
    modules: BTreeSet<Module>,
    /// Per module, the names it re-exports and the absolute paths they stand for (`None` for
    /// another crate's item, such as `pub use inventory;`).
    reexports: BTreeMap<Module, BTreeMap<String, Option<Module>>>,
    /// Every reference: the module it appears in and the path it names, made absolute.
    references: Vec<(Module, Module)>,
    /// Module → module it imports from, without self-edges.
    edges: BTreeSet<(Module, Module)>,
    /// Every reference that left the crate through a name bound from another crate, with the
    /// module that binds it, when that is not the module the reference appears in.
    aliased: Vec<(Module, Module, Module)>,
}

impl Graph {
    fn read(src: &Path) -> Graph {
        let files = rust_files(src).into_iter().map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (file_module(src, &path), text)
        });
        Graph::from_sources(files.collect())
    }

    /// The graph of the files given as (module, source text).
    fn from_sources(files: Vec<(Module, String)>) -> Graph {
        let mut graph = Graph::default();
        let parsed: Vec<(Module, syn::File)> = files
            .into_iter()
            .map(|(module, text)| {
                let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", name(&module)));
                (module, file)
            })
            .collect();
        // Every module first, inline ones included, so that relative paths can tell a child
        // module from an item.
        for (module, file) in &parsed {
            graph.modules.insert(module.clone());
            inline_modules(module, &file.items, &mut graph.modules);
        }
        for (module, file) in &parsed {
            let mut reader = Reader { graph: &mut graph, here: module.clone() };
            reader.visit_file(file);
        }
        let references = std::mem::take(&mut graph.references);
        for (from, path) in references {
            if let Some(binder) = graph.bound_elsewhere(&path).filter(|binder| *binder != from) {
                graph.aliased.push((from.clone(), path.clone(), binder));
            }
            if let Some(to) = graph.resolve(&path).filter(|to| *to != from) {
                graph.edges.insert((from, to));
            }
        }
        graph
    }

    /// Each reference through an alias of another crate, as `from → crate::path (bound in
    /// binder)`.
    fn aliases(&self) -> Vec<String> {
        let mut found: Vec<String> = self
            .aliased
            .iter()
            .map(|(from, path, binder)| {
                format!("{} → crate::{} (bound in {})", name(from), path.join("::"), name(binder))
            })
            .collect();
        found.sort();
        found.dedup();
        found
    }

    /// The module whose `use` of another crate's name `path` goes through, as [`Graph::follow`]
    /// finds it; `None` when `path` stays in this crate.
    fn bound_elsewhere(&self, path: &Module) -> Option<Module> {
        match self.follow(path, 0) {
            Followed::OtherCrate { bound_in } => Some(bound_in),
            Followed::Defined(_) => None,
        }
    }

    /// Records one path named in `here`, and the name it binds when it is re-exported.
    fn record(&mut self, here: &Module, path: &[String], reexported_as: Option<String>) {
        let absolute = self.absolute(here, path);
        if let Some(bound) = reexported_as {
            self.reexports.entry(here.clone()).or_default().insert(bound, absolute.clone());
        }
        if let Some(absolute) = absolute {
            self.references.push((here.clone(), absolute));
        }
    }

    /// `path` as seen from `here`, from the crate root; `None` for another crate's path.
    fn absolute(&self, here: &Module, path: &[String]) -> Option<Module> {
        let mut base = here.clone();
        let mut rest = path;
        match path.first()?.as_str() {
            "crate" => {
                base.clear();
                rest = &path[1..];
            }
            "self" => rest = &path[1..],
            "super" => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
            }
            // A bare first segment is relative only when it names a child module.
            first if self.modules.contains(&[here.as_slice(), &[first.to_owned()]].concat()) => {}
            _ => return None,
        }
        Some([base, rest.to_vec()].concat())
    }

    /// The module that defines what `path` names, following re-exports; `None` when the path
    /// leaves the crate through a re-export of another crate.
    fn resolve(&self, path: &Module) -> Option<Module> {
        match self.follow(path, 0) {
            Followed::Defined(module) => Some(module),
            Followed::OtherCrate { .. } => None,
        }
    }

    /// Where `path` leads, following re-exports: the module of this crate that defines it, or
    /// the module whose re-export of another crate's name it goes through.
    fn follow(&self, path: &Module, depth: usize) -> Followed {
        assert!(depth < 32, "re-exports loop at {}", name(path));
        let mut module: Module = Vec::new();
        for (i, segment) in path.iter().enumerate() {
            let child = [module.as_slice(), std::slice::from_ref(segment)].concat();
            if self.modules.contains(&child) {
                module = child;
                continue;
            }
            return match self.reexports.get(&module).and_then(|names| names.get(segment)) {
                Some(Some(target)) => self.follow(&[target.as_slice(), &path[i + 1..]].concat(), depth + 1),
                Some(None) => Followed::OtherCrate { bound_in: module },
                None => Followed::Defined(module),
            };
        }
        Followed::Defined(module)
    }
}

/// Adds the modules declared among `items` of `module` (`mod tests { … }`, `mod json;`), inline
/// ones at any depth.
fn inline_modules(module: &Module, items: &[syn::Item], modules: &mut BTreeSet<Module>) {
    for item in items {
        if let syn::Item::Mod(declared) = item {
            // A module declared here is one even when its file is elsewhere (`#[path]`).
            let child = [module.as_slice(), &[declared.ident.to_string()]].concat();
            if let Some((_, content)) = &declared.content {
                inline_modules(&child, content, modules);
            }
            modules.insert(child);
        }
    }
}

/// Walks one file's syntax tree, recording each path in the module it appears in.
struct Reader<'g> {
    graph: &'g mut Graph,
    here: Module,
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if item.content.is_some() {
            self.here.push(item.ident.to_string());
            syn::visit::visit_item_mod(self, item);
            self.here.pop();
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        // A private `use` binds its name too, for the module and everything below it: the
        // report crate's root names the judging crate's items so its files can say `crate::Metric`.
        for (path, bound) in use_tree(&item.tree, Vec::new()) {
            let reexported_as = (bound != "*").then_some(bound);
            self.graph.record(&self.here, &path, reexported_as);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        // A path of one segment (the `crate` of `pub(crate)`, a `self` receiver) names no item.
        let relative = segments.first().is_some_and(|first| matches!(first.as_str(), "crate" | "super" | "self"));
        if relative && segments.len() > 1 {
            self.graph.record(&self.here, &segments, None);
        }
        syn::visit::visit_path(self, path);
    }

    /// A macro call's tokens are not parsed as code, so its paths are read off the tokens.
    fn visit_macro(&mut self, call: &'ast syn::Macro) {
        for path in token_paths(call.tokens.clone()) {
            self.graph.record(&self.here, &path, None);
        }
        syn::visit::visit_macro(self, call);
    }
}

/// The paths a use tree names, each with the name it binds (`*` for a glob).
fn use_tree(tree: &syn::UseTree, prefix: Vec<String>) -> Vec<(Vec<String>, String)> {
    let extend = |name: &syn::Ident| [prefix.clone(), vec![name.to_string()]].concat();
    match tree {
        syn::UseTree::Path(path) => use_tree(&path.tree, extend(&path.ident)),
        // `use a::{self}` names `a` itself.
        syn::UseTree::Name(name) if name.ident == "self" && !prefix.is_empty() => {
            let bound = prefix.last().cloned().unwrap_or_default();
            vec![(prefix, bound)]
        }
        syn::UseTree::Name(name) => vec![(extend(&name.ident), name.ident.to_string())],
        syn::UseTree::Rename(rename) => vec![(extend(&rename.ident), rename.rename.to_string())],
        syn::UseTree::Glob(_) => vec![(prefix, "*".to_owned())],
        syn::UseTree::Group(group) => group.items.iter().flat_map(|tree| use_tree(tree, prefix.clone())).collect(),
    }
}

/// Every `crate::…`, `super::…` or `self::…` path in a token stream, nested groups included.
fn token_paths(tokens: proc_macro2::TokenStream) -> Vec<Vec<String>> {
    use proc_macro2::TokenTree;
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut paths = Vec::new();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(group) => paths.extend(token_paths(group.stream())),
            TokenTree::Ident(first) if matches!(first.to_string().as_str(), "crate" | "super" | "self") => {
                let mut path = vec![first.to_string()];
                // `::` is two `:` punctuation tokens, then the next segment.
                while let (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)), Some(TokenTree::Ident(next))) =
                    (trees.get(i + 1), trees.get(i + 2), trees.get(i + 3))
                {
                    if a.as_char() != ':' || b.as_char() != ':' {
                        break;
                    }
                    path.push(next.to_string());
                    i += 3;
                }
                if path.len() > 1 {
                    paths.push(path);
                }
            }
            _ => {}
        }
        i += 1;
    }
    paths
}

/// Every `.rs` file under `dir`, in a fixed order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// `src/lib.rs` → `[]`, `src/report/mod.rs` → `[report]`, `src/report/json.rs` →
/// `[report, json]`.
fn file_module(src: &Path, path: &Path) -> Module {
    let relative = path.strip_prefix(src).unwrap_or(path).with_extension("");
    let mut module: Module = relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if module.last().is_some_and(|last| last == "mod" || last == "lib") {
        module.pop();
    }
    module
}

/// `edges` between the crate's top-level modules (`report::json` counts as `report`).
fn top_level(edges: &BTreeSet<(Module, Module)>) -> BTreeSet<(Module, Module)> {
    let layer = |m: &Module| m.iter().take(1).cloned().collect::<Module>();
    edges.iter().map(|(from, to)| (layer(from), layer(to))).filter(|(from, to)| from != to).collect()
}

/// Each cycle once, as `a → b → a`, found from every edge that closes one.
fn cycles(edges: &BTreeSet<(Module, Module)>) -> Vec<String> {
    let mut found = BTreeSet::new();
    for (from, to) in edges {
        if let Some(path) = path_between(edges, to, from) {
            let mut names: Vec<String> = path.iter().map(name).collect();
            names.push(name(to));
            // One rotation per cycle: start at its smallest module.
            let ring = &names[..names.len() - 1];
            let start = ring.iter().enumerate().min_by_key(|(_, n)| n.as_str()).map_or(0, |(i, _)| i);
            let mut rotated: Vec<String> = ring[start..].iter().chain(&ring[..start]).cloned().collect();
            rotated.push(rotated[0].clone());
            found.insert(rotated.join(" → "));
        }
    }
    found.into_iter().collect()
}

/// The modules on one shortest path from `from` to `to`, both included.
fn path_between(edges: &BTreeSet<(Module, Module)>, from: &Module, to: &Module) -> Option<Vec<Module>> {
    let mut previous: BTreeMap<Module, Module> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from.clone()]);
    let mut seen = BTreeSet::from([from.clone()]);
    while let Some(module) = queue.pop_front() {
        if module == *to {
            let mut path = vec![module.clone()];
            while let Some(before) = previous.get(path.last()?) {
                path.push(before.clone());
            }
            path.reverse();
            return Some(path);
        }
        for (_, next) in edges.iter().filter(|(f, _)| *f == module) {
            if seen.insert(next.clone()) {
                previous.insert(next.clone(), module.clone());
                queue.push_back(next.clone());
            }
        }
    }
    None
}
