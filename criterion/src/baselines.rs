//! criterion's "comparing functions": a group that runs the same inputs through several
//! functions, each judged against one of them. The bench files say nothing of which one is the
//! baseline, and stay unchanged; the package's manifest names it, per group:
//!
//! ```toml
//! [package.metadata.rtcompare.group-baselines]
//! Fibonacci = "Recursive"
//! ```
//!
//! Every other function of the group `Fibonacci` is then compared with `Recursive` on the same
//! input (`Fibonacci/Iterative/20` with `Fibonacci/Recursive/20`), a pair as `#[compare(baseline
//! = …)]` makes one; `Recursive`'s own benchmarks stay against the git revision, or measured
//! alone. Whatever names nothing — a group or a function no benchmark has, a benchmark with no
//! counterpart in the baseline function — is an error that stops the run before anything is
//! measured, never a pairing quietly left out.

use crate::benchmark::Benchmark;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, Item};

/// The table of the manifest rtcompare reads.
const TABLE: &str = "[package.metadata.rtcompare]";

/// The key of [`TABLE`] that names each group's baseline function.
const KEY: &str = "group-baselines";

/// Each group's baseline function, by group name.
pub(crate) type GroupBaselines = BTreeMap<String, String>;

/// Why the manifest's group baselines cannot be read, or cannot pair the benchmarks.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BaselineError {
    /// The manifest exists and cannot be read.
    #[error("cannot read {path}: {error}")]
    Unreadable {
        path: PathBuf,
        #[source]
        error: std::io::Error,
    },
    /// The manifest is not TOML.
    #[error("{path} is not valid TOML: {error}")]
    NotToml {
        path: PathBuf,
        #[source]
        error: toml_edit::TomlError,
    },
    /// `[package.metadata.rtcompare]` or its `group-baselines` is something other than a table.
    #[error("`{what}` in {path} is not a table; write it as `[{what}]` (or `{what} = {{ … }}`)")]
    NotATable { what: String, path: PathBuf },
    /// `[package.metadata.rtcompare]` has a key this crate does not read.
    #[error(
        "{TABLE} in {path} has `{key}`, which rtcompare-criterion does not read; the one key it reads is `{KEY}` \
         (`[package.metadata.rtcompare.{KEY}]`, each group's name = its baseline function's)"
    )]
    UnknownKey { key: String, path: PathBuf },
    /// A group's baseline is not a string.
    #[error(
        "the baseline of the group `{group}` in [package.metadata.rtcompare.{KEY}] ({path}) is not a string; write \
         the function's name as its `BenchmarkId::new` names it: `\"{group}\" = \"function\"`"
    )]
    NotAString { group: String, path: PathBuf },
    /// A group named in the manifest has no benchmark.
    #[error(
        "[package.metadata.rtcompare.{KEY}] names the group `{group}`, and no benchmark is in a group of that name; \
         its groups are: {groups}"
    )]
    NoSuchGroup { group: String, groups: String },
    /// The baseline function named for a group has no benchmark in it.
    #[error(
        "[package.metadata.rtcompare.{KEY}] names `{function}` as the baseline of the group `{group}`, which has no \
         benchmark of that function; its functions are: {functions}"
    )]
    NoSuchFunction { group: String, function: String, functions: String },
    /// A benchmark of a group with a baseline function has no counterpart there.
    #[error(
        "the benchmark `{id}` ({location}) is in the group `{group}`, whose baseline function is `{function}` \
         ([package.metadata.rtcompare.{KEY}]), and `{function}` has no benchmark with its input to compare it with \
         (`{counterpart}`); bench `{function}` with the same inputs, or remove `{group}` from \
         [package.metadata.rtcompare.{KEY}]"
    )]
    NoCounterpart { id: String, location: String, group: String, function: String, counterpart: String },
}

/// The group baselines the manifest `Cargo.toml` in `manifest_dir` names; none where it names
/// none, or where the manifest is not there (a bench binary run away from its sources).
pub(crate) fn read(manifest_dir: &Path) -> Result<GroupBaselines, BaselineError> {
    let path = manifest_dir.join("Cargo.toml");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(GroupBaselines::new()),
        Err(error) => return Err(BaselineError::Unreadable { path, error }),
    };
    parse(&text, &path)
}

/// The group baselines of the manifest `text`, read from `path`.
fn parse(text: &str, path: &Path) -> Result<GroupBaselines, BaselineError> {
    let document: DocumentMut =
        text.parse().map_err(|error| BaselineError::NotToml { path: path.to_owned(), error })?;
    let Some(table) = document.get("package").and_then(|p| p.get("metadata")).and_then(|m| m.get("rtcompare")) else {
        return Ok(GroupBaselines::new());
    };
    let not_a_table = |what: &str| BaselineError::NotATable { what: what.to_owned(), path: path.to_owned() };
    let table = table.as_table_like().ok_or_else(|| not_a_table("package.metadata.rtcompare"))?;
    if let Some((key, _)) = table.iter().find(|(key, _)| *key != KEY) {
        return Err(BaselineError::UnknownKey { key: key.to_owned(), path: path.to_owned() });
    }
    let Some(groups) = table.get(KEY) else { return Ok(GroupBaselines::new()) };
    let groups = groups.as_table_like().ok_or_else(|| not_a_table(&format!("package.metadata.rtcompare.{KEY}")))?;
    groups
        .iter()
        .map(|(group, function)| match function {
            Item::Value(toml_edit::Value::String(function)) => Ok((group.to_owned(), function.value().clone())),
            _ => Err(BaselineError::NotAString { group: group.to_owned(), path: path.to_owned() }),
        })
        .collect()
}

/// The benchmark each of `benchmarks` is compared with, as `baselines` pair them: for a
/// benchmark of a group with a baseline function, other than that function's own, the id of the
/// baseline function's benchmark with the same parameter; `None` for every other.
pub(crate) fn pair(benchmarks: &[Benchmark], baselines: &GroupBaselines) -> Result<Vec<Option<String>>, BaselineError> {
    for (group, function) in baselines {
        let members: Vec<&Benchmark> = benchmarks.iter().filter(|b| &b.group == group).collect();
        if members.is_empty() {
            return Err(BaselineError::NoSuchGroup {
                group: group.clone(),
                groups: listed(benchmarks.iter().map(|b| &b.group)),
            });
        }
        if !members.iter().any(|b| b.function.as_ref() == Some(function)) {
            let functions = listed(members.iter().filter_map(|b| b.function.as_ref()));
            return Err(BaselineError::NoSuchFunction { group: group.clone(), function: function.clone(), functions });
        }
    }
    benchmarks.iter().map(|benchmark| counterpart(benchmark, benchmarks, baselines)).collect()
}

/// The id of the benchmark `benchmark` is compared with, where its group has a baseline function
/// and it is not that function's.
fn counterpart(
    benchmark: &Benchmark,
    benchmarks: &[Benchmark],
    baselines: &GroupBaselines,
) -> Result<Option<String>, BaselineError> {
    let Some(function) = baselines.get(&benchmark.group) else { return Ok(None) };
    if benchmark.function.as_ref() == Some(function) {
        return Ok(None);
    }
    let same_input = |other: &&Benchmark| {
        other.group == benchmark.group
            && other.function.as_ref() == Some(function)
            && other.parameter == benchmark.parameter
    };
    match benchmarks.iter().find(same_input) {
        Some(baseline) => Ok(Some(baseline.id.clone())),
        None => Err(BaselineError::NoCounterpart {
            id: benchmark.id.clone(),
            location: format!("{}:{}", benchmark.location.file(), benchmark.location.line()),
            group: benchmark.group.clone(),
            function: function.clone(),
            counterpart: crate::id::full_id(&benchmark.group, Some(function), benchmark.parameter.as_deref()),
        }),
    }
}

/// `names`, each once, in backticks, in order; "none" where there are none.
fn listed<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let mut names: Vec<&String> = names.collect();
    names.sort();
    names.dedup();
    if names.is_empty() {
        return "none (each of its ids is `BenchmarkId::from_parameter`'s, which names no function)".to_owned();
    }
    names.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::Location;

    fn benchmark(group: &str, function: Option<&str>, parameter: Option<&str>) -> Benchmark {
        Benchmark {
            id: crate::id::full_id(group, function, parameter),
            group: group.to_owned(),
            function: function.map(str::to_owned),
            parameter: parameter.map(str::to_owned),
            throughput: None,
            noise_threshold: None,
            location: Location::caller(),
            custom_measurement: None,
        }
    }

    fn baselines(pairs: &[(&str, &str)]) -> GroupBaselines {
        pairs.iter().map(|&(group, function)| (group.to_owned(), function.to_owned())).collect()
    }

    /// criterion's user-guide group: two functions over the same inputs, and a benchmark outside it.
    fn fibonacci() -> Vec<Benchmark> {
        vec![
            benchmark("Fibonacci", Some("Recursive"), Some("20")),
            benchmark("Fibonacci", Some("Iterative"), Some("20")),
            benchmark("Fibonacci", Some("Recursive"), Some("21")),
            benchmark("Fibonacci", Some("Iterative"), Some("21")),
            benchmark("fib 20", None, None),
        ]
    }

    #[test]
    fn every_other_function_of_the_group_is_paired_with_the_baseline_on_the_same_input() {
        let paired = pair(&fibonacci(), &baselines(&[("Fibonacci", "Recursive")])).expect("paired");
        let expected = [None, Some("Fibonacci/Recursive/20"), None, Some("Fibonacci/Recursive/21"), None];
        assert_eq!(paired, expected.map(|id| id.map(str::to_owned)));
        assert_eq!(pair(&fibonacci(), &GroupBaselines::new()).expect("none"), vec![None; 5]);
    }

    #[test]
    fn a_group_or_function_that_names_nothing_is_an_error_that_lists_what_there_is() {
        let error = pair(&fibonacci(), &baselines(&[("fibonacci", "Recursive")])).expect_err("no such group");
        assert!(matches!(&error, BaselineError::NoSuchGroup { groups, .. } if groups == "`Fibonacci`, `fib 20`"));
        let error = pair(&fibonacci(), &baselines(&[("Fibonacci", "recursive")])).expect_err("no such function");
        let message = error.to_string();
        assert!(message.contains("its functions are: `Iterative`, `Recursive`"), "{message}");
        let error = pair(&fibonacci(), &baselines(&[("fib 20", "f")])).expect_err("no functions");
        assert!(error.to_string().contains("none (each of its ids is `BenchmarkId::from_parameter`'s"), "{error}");
    }

    #[test]
    fn a_benchmark_whose_input_the_baseline_function_lacks_is_an_error_naming_both() {
        let mut benchmarks = fibonacci();
        benchmarks.push(benchmark("Fibonacci", Some("Iterative"), Some("22")));
        let error = pair(&benchmarks, &baselines(&[("Fibonacci", "Recursive")])).expect_err("no counterpart");
        let message = error.to_string();
        assert!(
            message.starts_with("the benchmark `Fibonacci/Iterative/22` (criterion/src/baselines.rs:"),
            "{message}"
        );
        assert!(message.contains("(`Fibonacci/Recursive/22`)"), "{message}");
    }

    #[test]
    fn the_manifest_names_each_groups_baseline_and_nothing_else() {
        let path = Path::new("Cargo.toml");
        let read = |text: &str| parse(text, path);
        let manifest = "[package]\nname = \"p\"\n\n[package.metadata.rtcompare.group-baselines]\nFibonacci = \
                        \"Recursive\"\n\"parse json\" = \"serde\"\n";
        let expected = baselines(&[("Fibonacci", "Recursive"), ("parse json", "serde")]);
        assert_eq!(read(manifest).expect("read"), expected);
        assert_eq!(read("[package]\nname = \"p\"\n").expect("none"), GroupBaselines::new());
        let inline = "[package.metadata.rtcompare]\ngroup-baselines = { Fibonacci = \"Recursive\" }\n";
        assert_eq!(read(inline).expect("inline"), baselines(&[("Fibonacci", "Recursive")]));
        let typo = "[package.metadata.rtcompare.group-baseline]\nFibonacci = \"Recursive\"\n";
        assert!(matches!(read(typo), Err(BaselineError::UnknownKey { key, .. }) if key == "group-baseline"));
        let number = "[package.metadata.rtcompare.group-baselines]\nFibonacci = 1\n";
        assert!(matches!(read(number), Err(BaselineError::NotAString { group, .. }) if group == "Fibonacci"));
        let flat = "[package.metadata]\nrtcompare = \"x\"\n";
        assert!(matches!(read(flat), Err(BaselineError::NotATable { .. })));
        assert!(matches!(read("[package"), Err(BaselineError::NotToml { .. })));
    }

    #[test]
    fn a_missing_manifest_names_no_baselines() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("no such folder");
        assert_eq!(read(&folder).expect("none"), GroupBaselines::new());
    }
}
