//! Keeps the module graph of `runtime/src` acyclic, so the engine reads top to bottom: measure →
//! judge → report → harness, each layer importing only from the ones below it.
//!
//! The test reads the sources rather than asking the compiler: every `use` (with its braces
//! expanded) and every `crate::…`, `super::…` or `self::…` path in code is an edge from the
//! module it appears in — a file, or an inline module such as `tests` — to the module that
//! defines the item. A name that a module merely re-exports (`pub use text::render_text;` in
//! `report/mod.rs`, `pub use report::Report;` in `lib.rs`) is followed to where it is defined,
//! so re-exporting parents do not count as cycles. Comments, strings and character literals are
//! skipped. Declaring a module (`mod json;`) is structure, not an edge. A name that is both a
//! module and a re-exported item (`crate::measure`, the module and the function) counts as the
//! module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path below the crate root: `["report", "json"]`; the root is `[]`.
type Module = Vec<String>;

/// No module under `report` may import from this one: the outputs sit below the harness.
const REPORT_MAY_NOT_IMPORT: &str = "harness";

#[test]
fn the_module_graph_has_no_cycle() {
    let graph = Graph::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let files = cycles(&graph.edges);
    assert!(files.is_empty(), "import cycles between modules of runtime/src:\n{}", files.join("\n"));
    // The layers themselves too: `caveats` using `report::units` while `report::text` uses
    // `caveats::pct` is no cycle between files, but it is one between the two layers.
    let layers = cycles(&top_level(&graph.edges));
    assert!(layers.is_empty(), "import cycles between the top-level modules of runtime/src:\n{}", layers.join("\n"));
}

#[test]
fn report_imports_nothing_from_the_harness() {
    let graph = Graph::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let upward: Vec<String> = graph
        .edges
        .iter()
        .filter(|(from, to)| {
            from.first().is_some_and(|m| m == "report") && to.first().is_some_and(|m| m == REPORT_MAY_NOT_IMPORT)
        })
        .map(|(from, to)| format!("{} → {}", name(from), name(to)))
        .collect();
    assert!(upward.is_empty(), "report/ imports from harness/: {upward:?}");
}

/// The graph reads what it should: a re-export is followed, a test module is its own node.
#[test]
fn the_reader_follows_re_exports_and_sees_inline_modules() {
    let graph = Graph::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let has = |from: &str, to: &str| graph.edges.contains(&(module(from), module(to)));
    // `use crate::report::{Destinations, …}` in harness/run.rs, re-exported from report/files.rs.
    assert!(has("harness::run", "report::files"));
    // `use crate::{…, Report, …}` reaches verdict.rs through lib.rs and report/mod.rs.
    assert!(has("harness::trial", "verdict"));
    // The inline `__private` module of lib.rs re-exports what generated code names.
    assert!(has("__private", "harness::registry") && has("__private", "measure::input"));
    // The tests on synthetic data, `#[cfg(test)]` files under synthetic/, are read like any other.
    assert!(has("synthetic::decision", "decide::confirm") && has("synthetic::decision", "synthetic"));
    assert!(has("synthetic::calibration", "validate") && has("synthetic::verdicts", "judge"));
    assert!(has("report::json::tests", "report::fixtures"));
    assert!(!has("report", "report") && !has("report::json", "report"), "re-exports are not edges upward");
}

fn module(name: &str) -> Module {
    name.split("::").filter(|s| !s.is_empty()).map(str::to_owned).collect()
}

fn name(module: &Module) -> String {
    if module.is_empty() { "crate".to_owned() } else { module.join("::") }
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
}

impl Graph {
    fn read(src: &Path) -> Graph {
        let mut graph = Graph::default();
        let mut files: Vec<(Module, Vec<Token>)> = Vec::new();
        for path in rust_files(src) {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let file_module = file_module(src, &path);
            graph.modules.insert(file_module.clone());
            files.push((file_module, tokens(&strip(&text))));
        }
        // Inline modules first, so that relative paths can tell a child module from an item.
        for (file_module, tokens) in &files {
            for (module, _) in scopes(file_module, tokens) {
                graph.modules.insert(module);
            }
        }
        for (file_module, tokens) in &files {
            graph.collect(file_module, tokens);
        }
        let references = std::mem::take(&mut graph.references);
        for (from, path) in references {
            if let Some(to) = graph.resolve(&path, 0).filter(|to| *to != from) {
                graph.edges.insert((from, to));
            }
        }
        graph
    }

    /// Records the `use` statements and the paths in code of one file.
    fn collect(&mut self, file_module: &Module, tokens: &[Token]) {
        let scopes = scopes(file_module, tokens);
        let mut i = 0;
        while i < tokens.len() {
            let here = &scopes[i].0;
            if tokens[i] == "use" {
                let end = tokens[i..].iter().position(|t| t == ";").map_or(tokens.len(), |p| i + p);
                let public = i > 0 && (tokens[i - 1] == "pub" || tokens[i - 1] == ")");
                for (path, bound) in use_tree(&tokens[i + 1..end], &[]) {
                    let absolute = self.absolute(here, &path);
                    if public && bound != "*" {
                        self.reexports.entry(here.clone()).or_default().insert(bound, absolute.clone());
                    }
                    if let Some(absolute) = absolute {
                        self.references.push((here.clone(), absolute));
                    }
                }
                i = end;
            } else if matches!(tokens[i].as_str(), "crate" | "super" | "self")
                && tokens.get(i + 1).is_some_and(|t| t == "::")
            {
                let mut path = vec![tokens[i].clone()];
                while tokens.get(i + 1).is_some_and(|t| t == "::") && tokens.get(i + 2).is_some_and(|t| is_ident(t)) {
                    path.push(tokens[i + 2].clone());
                    i += 2;
                }
                if let Some(absolute) = self.absolute(here, &path) {
                    self.references.push((here.clone(), absolute));
                }
            }
            i += 1;
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
    fn resolve(&self, path: &Module, depth: usize) -> Option<Module> {
        assert!(depth < 32, "re-exports loop at {}", name(path));
        let mut module: Module = Vec::new();
        for (i, segment) in path.iter().enumerate() {
            let child = [module.as_slice(), std::slice::from_ref(segment)].concat();
            if self.modules.contains(&child) {
                module = child;
                continue;
            }
            return match self.reexports.get(&module).and_then(|names| names.get(segment)) {
                Some(Some(target)) => self.resolve(&[target.as_slice(), &path[i + 1..]].concat(), depth + 1),
                Some(None) => None,
                None => Some(module),
            };
        }
        Some(module)
    }
}

/// For each token, the module it is in: `file_module`, or an inline module inside it.
fn scopes(file_module: &Module, tokens: &[Token]) -> Vec<(Module, usize)> {
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut out = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        match token.as_str() {
            "{" => {
                depth += 1;
                let is_module = i >= 2 && tokens[i - 2] == "mod" && is_ident(&tokens[i - 1]);
                if is_module {
                    open.push((tokens[i - 1].clone(), depth));
                }
            }
            "}" => {
                if open.last().is_some_and(|(_, d)| *d == depth) {
                    open.pop();
                }
                depth -= 1;
            }
            _ => {}
        }
        let inline = open.iter().map(|(name, _)| name.clone());
        out.push((file_module.iter().cloned().chain(inline).collect(), depth));
    }
    out
}

/// The paths a use tree names, each with the name it binds (`*` for a glob).
fn use_tree(tokens: &[Token], prefix: &[String]) -> Vec<(Vec<String>, String)> {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "::" => {}
            "{" => {
                let inner = &tokens[i + 1..tokens.len() - 1];
                return split_top_level(inner).into_iter().flat_map(|part| use_tree(part, &path)).collect();
            }
            "*" => return vec![(path, "*".to_owned())],
            "self" if i > 0 || !prefix.is_empty() => {
                let bound = path.last().cloned().unwrap_or_default();
                return vec![(path, bound)];
            }
            "as" => {
                let bound = tokens.get(i + 1).cloned().unwrap_or_default();
                return vec![(path, bound)];
            }
            segment => path.push(segment.to_owned()),
        }
        i += 1;
    }
    let bound = path.last().cloned().unwrap_or_default();
    vec![(path, bound)]
}

/// `a, b::{c, d}, e` → its three comma-separated parts.
fn split_top_level(tokens: &[Token]) -> Vec<&[Token]> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, token) in tokens.iter().enumerate() {
        match token.as_str() {
            "{" => depth += 1,
            "}" => depth -= 1,
            "," if depth == 0 => {
                parts.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tokens[start..]);
    parts.into_iter().filter(|part| !part.is_empty()).collect()
}

type Token = String;

fn is_ident(token: &str) -> bool {
    token.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers, `::` and single punctuation characters.
fn tokens(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
            continue;
        }
        if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".to_owned());
            i += 2;
            continue;
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
        i += 1;
    }
    out
}

/// The code of a source file without comments, and with string and character literals emptied,
/// so that neither braces nor paths inside them are read.
fn strip(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let next = chars.get(i + 1).copied();
        let previous_is_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        match chars[i] {
            '/' if next == Some('/') => i = skip_line(&chars, i),
            '/' if next == Some('*') => i = skip_block_comment(&chars, i),
            'r' if !previous_is_ident && matches!(next, Some('"' | '#')) && raw_string_start(&chars, i + 1) => {
                i = skip_raw_string(&chars, i + 1);
                out.push_str("\"\"");
            }
            '"' => {
                i = skip_string(&chars, i);
                out.push_str("\"\"");
            }
            '\'' if next == Some('\\') || chars.get(i + 2) == Some(&'\'') => {
                i = skip_char(&chars, i);
                out.push_str("' '");
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

fn skip_line(chars: &[char], i: usize) -> usize {
    chars[i..].iter().position(|&c| c == '\n').map_or(chars.len(), |p| i + p)
}

fn skip_block_comment(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Whether `r` at `i − 1` starts a raw string: `#`s, then a quote.
fn raw_string_start(chars: &[char], i: usize) -> bool {
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    chars.get(i + hashes) == Some(&'"')
}

fn skip_raw_string(chars: &[char], i: usize) -> usize {
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    let mut j = i + hashes + 1;
    while j < chars.len() {
        if chars[j] == '"' && chars[j + 1..].iter().take(hashes).filter(|&&c| c == '#').count() == hashes {
            return j + 1 + hashes;
        }
        j += 1;
    }
    j
}

fn skip_string(chars: &[char], mut i: usize) -> usize {
    i += 1;
    while i < chars.len() && chars[i] != '"' {
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    i + 1
}

fn skip_char(chars: &[char], mut i: usize) -> usize {
    i += 1;
    while i < chars.len() && chars[i] != '\'' {
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    i + 1
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
