//! The baseline's manifest: a revision's `Cargo.toml` mended so that the current perf target
//! builds against its library (`revision.rs`).
//!
//! A revision from before rtcompare was adopted has neither the rtcompare dev-dependency nor the
//! `[[test]]` (or `[[bench]]`) target whose main is `rtcompare::main!()`: the target's table and
//! every dev-dependency of the current package that the revision's manifest lacks are brought in
//! from the current package. A dependency whose relative `path` leads out of the repository
//! (`path = "../rtcompare"`, as a checkout beside the project is written) would lead somewhere
//! else from the baseline's checkout under the target folder, so it is made absolute, to where it
//! leads from the package itself. Everything else in the revision's manifest is kept as written
//! (toml_edit keeps its layout), and the run says in one line what was changed.

use super::cargo::TargetKind;
use serde_json::Value;
use std::path::{Component, Path, PathBuf};
use toml_edit::{ArrayOfTables, DocumentMut, InlineTable, Item, Table, TableLike, TomlError};

/// What the current package lends a revision's manifest.
#[derive(Clone, Debug)]
pub(crate) struct Donor {
    /// The perf target's name.
    pub target: String,
    /// Its kind.
    pub kind: TargetKind,
    /// The target's table in the current manifest (`[[test]]`), where it has one.
    pub target_table: Option<Table>,
    /// The current package's dev-dependencies, each as the baseline's manifest would write it.
    pub dev_dependencies: Vec<Dependency>,
}

impl Donor {
    /// What a revision's own perf target still needs from the current package: rtcompare's
    /// stand-ins for other packages ([`Dependency::stands_in`]), and nothing else.
    pub(crate) fn stand_ins(&self) -> Donor {
        Donor {
            target_table: None,
            dev_dependencies: self.dev_dependencies.iter().filter(|d| d.stands_in()).cloned().collect(),
            ..self.clone()
        }
    }
}

/// One dependency as a manifest writes it.
#[derive(Clone, Debug)]
pub(crate) struct Dependency {
    /// The name the package's code knows it by: its rename, else its package's name.
    pub key: String,
    /// The package's name (`rtcompare-criterion` for `criterion = { package = "rtcompare-criterion" }`).
    pub package: String,
    /// The platform of a platform-specific dependency (`cfg(unix)`), as `[target.…]` names it.
    pub platform: Option<String>,
    /// Its entry: `{ version = "1", features = [...] }`, `{ path = "/abs" }`, ...
    pub entry: InlineTable,
}

impl Dependency {
    /// A dependency as `cargo metadata` describes it (an element of a package's `dependencies`),
    /// with every path absolute; `rtcompare` is taken from `rtcompare_dir` when given, the very
    /// rtcompare the current build uses. `None` for one that is not a dev-dependency.
    pub(crate) fn dev_from_metadata(dependency: &Value, rtcompare_dir: Option<&Path>) -> Option<Dependency> {
        if dependency["kind"] != "dev" {
            return None;
        }
        let name = dependency["name"].as_str()?;
        let key = dependency["rename"].as_str().unwrap_or(name);
        let mut entry = InlineTable::new();
        if key != name {
            entry.insert("package", name.into());
        }
        let requirement = dependency["req"].as_str().filter(|req| *req != "*");
        match (name, rtcompare_dir, dependency["path"].as_str(), dependency["source"].as_str()) {
            ("rtcompare", Some(dir), ..) => {
                entry.insert("path", dir.to_string_lossy().as_ref().into());
            }
            (_, _, Some(path), _) => {
                entry.insert("path", path.into());
                if let Some(requirement) = requirement {
                    entry.insert("version", requirement.into());
                }
            }
            (_, _, None, Some(source)) if source.starts_with("git+") => git_entry(&mut entry, &source["git+".len()..]),
            _ => {
                entry.insert("version", requirement.unwrap_or("*").into());
                if let Some(index) = dependency["registry"].as_str() {
                    entry.insert("registry-index", index.into());
                }
            }
        }
        if dependency["uses_default_features"] == false {
            entry.insert("default-features", false.into());
        }
        let features: Vec<&str> = dependency["features"].as_array()?.iter().filter_map(Value::as_str).collect();
        if !features.is_empty() {
            entry.insert("features", features.into_iter().collect::<toml_edit::Array>().into());
        }
        let platform = dependency["target"].as_str().map(str::to_owned);
        Some(Dependency { key: key.to_owned(), package: name.to_owned(), platform, entry })
    }

    /// Whether it is one of rtcompare's packages standing in for another's under that one's name
    /// (`criterion = { package = "rtcompare-criterion" }`): the baseline build must take it too,
    /// or its benchmarks would not speak rtcompare's protocol.
    fn stands_in(&self) -> bool {
        self.package.starts_with("rtcompare-") && self.key != self.package
    }
}

/// A git dependency's entry from its source, `URL?branch=NAME` (or `tag=`, `rev=`).
fn git_entry(entry: &mut InlineTable, source: &str) {
    let (url, query) = source.split_once('?').unwrap_or((source, ""));
    entry.insert("git", url.split('#').next().unwrap_or(url).into());
    for (key, value) in query.split('#').next().unwrap_or_default().split('&').filter_map(|kv| kv.split_once('=')) {
        if ["branch", "tag", "rev"].contains(&key) {
            entry.insert(key, value.into());
        }
    }
}

/// The table of the `kind` target `name` in the manifest `text` (`[[test]] name = "perf"`), if it
/// has one.
pub(crate) fn target_table(text: &str, kind: TargetKind, name: &str) -> Option<Table> {
    let document: DocumentMut = text.parse().ok()?;
    let targets = document.get(kind.word())?.as_array_of_tables()?;
    targets.iter().find(|t| t.get("name").and_then(Item::as_str) == Some(name)).cloned()
}

/// Where a manifest's package sits: in the repository, and in the working tree it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    /// The manifest's folder relative to the repository's top (empty at the top).
    pub in_repository: PathBuf,
    /// The same folder in the working tree the run started in.
    pub in_working_tree: PathBuf,
}

/// A revision's manifest as the baseline build gets it, and what was changed, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mended {
    /// The manifest's text.
    pub manifest: String,
    /// Whether the revision's manifest had the perf target (else its table was brought in).
    pub had_target: bool,
    /// What was changed, one phrase each (empty when the manifest is the revision's as written).
    pub changes: Vec<String>,
}

/// The revision's manifest `original`, of the package at `place`, mended: every dependency path
/// that leads out of the repository made absolute, and, with a `donor`, the perf target's table
/// and the dev-dependencies it lacks brought in.
pub(crate) fn mend(original: &str, donor: Option<&Donor>, place: &Place) -> Result<Mended, TomlError> {
    let mut document: DocumentMut = original.parse()?;
    let mut changes = Vec::new();
    let rebased = rebase_paths(&mut document, place);
    let mut had_target = true;
    // Tables are written in the order of their positions: what is added comes last.
    let mut next = isize::MAX / 2;
    if let Some(donor) = donor {
        had_target = has_target(&document, donor);
        if !had_target && let Some(table) = &donor.target_table {
            add_target(&mut document, donor.kind, table.clone(), &mut next);
            changes.push(format!("the `[[{}]]` target `{}`", donor.kind.word(), donor.target));
        }
        let replaced: Vec<&Dependency> = donor
            .dev_dependencies
            .iter()
            .filter(|d| d.stands_in() && depends_on(&document, &d.key) && package_of(&document, &d.key) != d.package)
            .collect();
        for dependency in &replaced {
            remove_dependency(&mut document, &dependency.key);
            add_dev_dependency(&mut document, dependency, &mut next);
        }
        if !replaced.is_empty() {
            let keys: Vec<String> = replaced.iter().map(|d| format!("`{}` by `{}`", d.key, d.package)).collect();
            changes.push(format!("replaced {}", keys.join(", ")));
        }
        let missing: Vec<&Dependency> =
            donor.dev_dependencies.iter().filter(|d| !depends_on(&document, &d.key)).collect();
        for dependency in &missing {
            add_dev_dependency(&mut document, dependency, &mut next);
        }
        if !missing.is_empty() {
            let keys: Vec<String> = missing.iter().map(|d| format!("`{}`", d.key)).collect();
            changes.push(format!("the dev-dependenc{} {}", if keys.len() == 1 { "y" } else { "ies" }, keys.join(", ")));
        }
        let (replacing, adding): (Vec<String>, Vec<String>) =
            changes.drain(..).partition(|change| change.starts_with("replaced "));
        if !adding.is_empty() {
            changes.push(format!("added {} from the current manifest", adding.join(" and ")));
        }
        changes.extend(replacing.into_iter().map(|change| format!("{change}, as the current manifest does")));
    }
    if !rebased.is_empty() {
        let keys: Vec<String> = rebased.iter().map(|key| format!("`{key}`")).collect();
        changes.push(format!("made the path of {}, which leads out of the repository, absolute", keys.join(", ")));
    }
    Ok(Mended { manifest: document.to_string(), had_target, changes })
}

/// The names of a manifest's dependency tables, at its root and in each `[target.…]` section.
const DEPENDENCY_TABLES: [&str; 5] =
    ["dependencies", "dev-dependencies", "dev_dependencies", "build-dependencies", "build_dependencies"];

/// Every table of a manifest whose entries are dependencies: the dependency tables, those of
/// each platform, `[workspace.dependencies]`, each source's `[patch]` and `[replace]`.
fn dependency_tables(root: &mut Table) -> Vec<&mut dyn TableLike> {
    let mut tables = Vec::new();
    for (key, item) in root.iter_mut() {
        let Some(table) = item.as_table_like_mut() else { continue };
        match key.get() {
            name if DEPENDENCY_TABLES.contains(&name) || name == "replace" => tables.push(table),
            "workspace" => tables.extend(table.get_mut("dependencies").and_then(Item::as_table_like_mut)),
            "patch" => tables.extend(table.iter_mut().filter_map(|(_, source)| source.as_table_like_mut())),
            "target" => {
                for (_, platform) in table.iter_mut() {
                    let Some(platform) = platform.as_table_like_mut() else { continue };
                    let inner = platform.iter_mut().filter(|(key, _)| DEPENDENCY_TABLES.contains(&key.get()));
                    tables.extend(inner.filter_map(|(_, item)| item.as_table_like_mut()));
                }
            }
            _ => {}
        }
    }
    tables
}

/// Makes every relative dependency path that leads out of the repository absolute; the keys of
/// the dependencies changed.
fn rebase_paths(document: &mut DocumentMut, place: &Place) -> Vec<String> {
    let mut rebased = Vec::new();
    for table in dependency_tables(document.as_table_mut()) {
        for (key, item) in table.iter_mut() {
            let Some(entry) = item.as_table_like_mut() else { continue };
            let Some(path) = entry.get("path").and_then(Item::as_str).map(PathBuf::from) else { continue };
            if leads_out(&place.in_repository, &path) {
                let absolute = lexical(&place.in_working_tree.join(&path));
                entry.insert("path", toml_edit::value(absolute.to_string_lossy().as_ref()));
                rebased.push(key.get().to_owned());
            }
        }
    }
    rebased
}

/// Whether the relative path `path`, from the folder `from` of a repository (relative to its
/// top), leads out of the repository.
fn leads_out(from: &Path, path: &Path) -> bool {
    if path.is_absolute() {
        return false;
    }
    let mut depth = from.components().filter(|c| matches!(c, Component::Normal(_))).count();
    for component in path.components() {
        match component {
            Component::ParentDir if depth == 0 => return true,
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    false
}

/// `path` with its `.` and `..` components resolved without asking the file system.
fn lexical(path: &Path) -> PathBuf {
    let mut resolved = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                resolved.pop();
            }
            other => resolved.push(other),
        }
    }
    resolved
}

/// Whether the manifest has the donor's target, of its kind.
fn has_target(document: &DocumentMut, donor: &Donor) -> bool {
    document
        .get(donor.kind.word())
        .and_then(Item::as_array_of_tables)
        .is_some_and(|targets| targets.iter().any(|t| t.get("name").and_then(Item::as_str) == Some(&donor.target)))
}

fn add_target(document: &mut DocumentMut, kind: TargetKind, mut table: Table, next: &mut isize) {
    table.decor_mut().clear();
    table.set_position(Some(take(next)));
    let targets = document.entry(kind.word()).or_insert(Item::ArrayOfTables(ArrayOfTables::new()));
    if let Some(targets) = targets.as_array_of_tables_mut() {
        targets.push(table);
    }
}

/// The tables whose dependencies the package's code can use.
const USABLE: [&str; 3] = ["dependencies", "dev-dependencies", "dev_dependencies"];

/// Whether the package's code can use a dependency known as `key`: a normal or dev-dependency
/// of any platform.
fn depends_on(document: &DocumentMut, key: &str) -> bool {
    let has = |table: &dyn TableLike| {
        USABLE
            .iter()
            .any(|name| table.get(name).and_then(Item::as_table_like).is_some_and(|deps| deps.contains_key(key)))
    };
    let platforms = document.get("target").and_then(Item::as_table_like);
    has(document.as_table())
        || platforms.is_some_and(|p| p.iter().any(|(_, section)| section.as_table_like().is_some_and(has)))
}

/// The package a dependency known as `key` is (its `package`, else its key), in the first table
/// that has it.
fn package_of(document: &DocumentMut, key: &str) -> String {
    let mut tables = vec![document.as_table() as &dyn TableLike];
    if let Some(platforms) = document.get("target").and_then(Item::as_table_like) {
        tables.extend(platforms.iter().filter_map(|(_, section)| section.as_table_like()));
    }
    let entry = tables
        .into_iter()
        .find_map(|table| USABLE.iter().find_map(|name| table.get(name).and_then(Item::as_table_like)?.get(key)));
    let package = entry.and_then(Item::as_table_like).and_then(|e| e.get("package")).and_then(Item::as_str);
    package.unwrap_or(key).to_owned()
}

/// Removes the dependency known as `key` from the package's dependency tables, of every
/// platform (a workspace's, a patch's or a replacement's are the other members' too).
fn remove_dependency(document: &mut DocumentMut, key: &str) {
    let remove = |section: &mut dyn TableLike| {
        for name in USABLE {
            if let Some(table) = section.get_mut(name).and_then(Item::as_table_like_mut) {
                table.remove(key);
            }
        }
    };
    remove(document.as_table_mut());
    if let Some(platforms) = document.get_mut("target").and_then(Item::as_table_like_mut) {
        platforms.iter_mut().filter_map(|(_, section)| section.as_table_like_mut()).for_each(remove);
    }
}

fn add_dev_dependency(document: &mut DocumentMut, dependency: &Dependency, next: &mut isize) {
    let root = document.as_table_mut();
    let section = match &dependency.platform {
        None => root,
        Some(platform) => {
            let targets = implicit(root, "target", next);
            implicit(targets, platform, next)
        }
    };
    // A manifest that writes the old spelling keeps it: Cargo refuses both in one manifest.
    let name = if section.contains_key("dev_dependencies") { "dev_dependencies" } else { "dev-dependencies" };
    let table = section.entry(name).or_insert_with(|| Item::Table(positioned(Table::new(), next)));
    if let Some(table) = table.as_table_like_mut() {
        table.insert(&dependency.key, toml_edit::value(dependency.entry.clone()));
    }
}

/// `table` placed at the next position.
fn positioned(mut table: Table, next: &mut isize) -> Table {
    table.set_position(Some(take(next)));
    table
}

/// The next position, moved on.
fn take(next: &mut isize) -> isize {
    *next += 1;
    *next - 1
}

/// The table `key` of `table`, made implicit (no header of its own) when it is new.
fn implicit<'a>(table: &'a mut Table, key: &str, next: &mut isize) -> &'a mut Table {
    let item = table.entry(key).or_insert_with(|| {
        let mut new = positioned(Table::new(), next);
        new.set_implicit(true);
        Item::Table(new)
    });
    if !item.is_table() {
        // An inline `target = { ... }` becomes a table of its own.
        let inline = std::mem::take(item).into_table().unwrap_or_default();
        *item = Item::Table(inline);
    }
    item.as_table_mut().expect("made a table above")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(in_repository: &str) -> Place {
        Place { in_repository: PathBuf::from(in_repository), in_working_tree: Path::new("/w/repo").join(in_repository) }
    }

    fn dependency(json: &str, rtcompare: Option<&Path>) -> Dependency {
        let value: Value = serde_json::from_str(json).expect("JSON");
        Dependency::dev_from_metadata(&value, rtcompare).expect("a dev-dependency")
    }

    fn donor(dev_dependencies: Vec<Dependency>) -> Donor {
        let table: DocumentMut = "[[test]]\nname = \"perf\"\nharness = false\ntest = false\n".parse().expect("TOML");
        let table = table["test"].as_array_of_tables().and_then(|t| t.get(0)).cloned();
        Donor { target: "perf".to_owned(), kind: TargetKind::Test, target_table: table, dev_dependencies }
    }

    const RTCOMPARE: &str = r#"{"name":"rtcompare","source":null,"req":"*","kind":"dev","rename":null,"optional":false,
        "uses_default_features":true,"features":[],"target":null,"registry":null,"path":"/w/rtcompare"}"#;
    const CRITERION: &str = r#"{"name":"criterion","source":"registry+https://github.com/rust-lang/crates.io-index",
        "req":"^0.8","kind":"dev","rename":null,"optional":false,"uses_default_features":false,"features":["html"],
        "target":"cfg(not(miri))","registry":null}"#;

    /// itoa 1.0.15's manifest, the shape of a library from before rtcompare was adopted.
    const BEFORE: &str = r#"[package]
name = "itoa"
version = "1.0.15"

[dependencies]
no-panic = { version = "0.1", optional = true }

[[bench]]
name = "bench"
harness = false
"#;

    #[test]
    fn a_revision_before_rtcompare_gets_the_target_and_the_dev_dependencies() {
        let from_git = dependency(
            r#"{"name":"helpers","source":"git+https://example.com/h.git?branch=perf","req":"*","kind":"dev",
            "rename":"h","optional":false,"uses_default_features":true,"features":[],"target":null,"registry":null}"#,
            None,
        );
        let donor = donor(vec![dependency(RTCOMPARE, None), dependency(CRITERION, None), from_git]);
        let mended = mend(BEFORE, Some(&donor), &place("")).expect("mended");
        assert!(!mended.had_target);
        assert_eq!(
            mended.changes,
            ["added the `[[test]]` target `perf` and the dev-dependencies `rtcompare`, `criterion`, `h` from the \
              current manifest"]
        );
        let expected = format!(
            "{BEFORE}\n[[test]]\nname = \"perf\"\nharness = false\ntest = false\n\n[dev-dependencies]\nrtcompare = {{ \
             path = \"/w/rtcompare\" }}\nh = {{ package = \"helpers\", git = \"https://example.com/h.git\", branch = \
             \"perf\" }}\n\n[target.\"cfg(not(miri))\".dev-dependencies]\ncriterion = {{ version = \"^0.8\", \
             default-features = false, features = [\"html\"] }}\n"
        );
        assert_eq!(mended.manifest, expected);
        // Cargo reads what was written, and the revision's own parts are as they were.
        let read: toml_edit::DocumentMut = mended.manifest.parse().expect("the mended manifest parses");
        assert_eq!(read["package"]["version"].as_str(), Some("1.0.15"));
        assert_eq!(read["bench"].as_array_of_tables().map(ArrayOfTables::len), Some(1));
    }

    #[test]
    fn what_the_revision_has_is_kept_and_nothing_is_said() {
        let with = format!(
            "{BEFORE}\n[dev-dependencies]\nrtcompare = \"0.1\"\n\n[target.'cfg(unix)'.dependencies]\ncriterion = \
             \"0.5\"\n\n[[test]]\nname = \"perf\"\nharness = false\n"
        );
        let donor = donor(vec![dependency(RTCOMPARE, None), dependency(CRITERION, None)]);
        let mended = mend(&with, Some(&donor), &place("")).expect("mended");
        assert_eq!(mended, Mended { manifest: with, had_target: true, changes: Vec::new() });
    }

    #[test]
    fn a_stand_in_of_rtcompares_replaces_the_package_it_stands_in_for() {
        // The current manifest renames rtcompare-criterion into criterion's place; the revision
        // still has criterion itself, for every platform and on unix too.
        let stand_in = dependency(
            r#"{"name":"rtcompare-criterion","source":null,"req":"*","kind":"dev","rename":"criterion",
            "optional":false,"uses_default_features":true,"features":[],"target":null,"registry":null,
            "path":"/w/rtcompare/criterion"}"#,
            None,
        );
        let with = format!(
            "{BEFORE}\n[dev-dependencies]\ncriterion = \"0.5\"\nserde = \"1\"\n\n[target.'cfg(unix)'.dev-dependencies]\n\
             criterion = {{ version = \"0.5\", features = [\"html_reports\"] }}\n"
        );
        // The perf target is the revision's own `[[bench]]`, as in a criterion suite.
        let donor = |dev_dependencies| Donor {
            target: "bench".to_owned(),
            kind: TargetKind::Bench,
            target_table: None,
            dev_dependencies,
        };
        let mended = mend(&with, Some(&donor(vec![stand_in.clone()])), &place("")).expect("mended");
        assert!(mended.had_target, "BEFORE has its bench target");
        assert_eq!(
            mended.changes,
            ["replaced `criterion` by `rtcompare-criterion`, as the current manifest does"],
            "{}",
            mended.manifest
        );
        let read: toml_edit::DocumentMut = mended.manifest.parse().expect("the mended manifest parses");
        let criterion = &read["dev-dependencies"]["criterion"];
        assert_eq!(criterion["package"].as_str(), Some("rtcompare-criterion"), "{}", mended.manifest);
        assert_eq!(criterion["path"].as_str(), Some("/w/rtcompare/criterion"));
        assert_eq!(read["dev-dependencies"]["serde"].as_str(), Some("1"));
        assert!(!mended.manifest.contains("html_reports"), "no criterion is left: {}", mended.manifest);
        // A revision that already has the stand-in keeps its entry.
        let mended_again = mend(&mended.manifest, Some(&donor(vec![stand_in.clone()])), &place("")).expect("mended");
        assert!(mended_again.changes.is_empty(), "{:?}", mended_again.changes);
        // A revision's own perf target gets the stand-in, and none of the rest.
        let rtcompare = dependency(RTCOMPARE, None);
        let stand_ins = donor(vec![rtcompare, stand_in]).stand_ins();
        assert_eq!(stand_ins.dev_dependencies.iter().map(|d| d.key.as_str()).collect::<Vec<_>>(), ["criterion"]);
    }

    #[test]
    fn the_old_spelling_of_dev_dependencies_is_kept() {
        let old = format!("{BEFORE}\n[dev_dependencies]\nserde = \"1\"\n");
        let mended = mend(&old, Some(&donor(vec![dependency(RTCOMPARE, None)])), &place("")).expect("mended");
        assert!(mended.manifest.contains("[dev_dependencies]\nserde = \"1\"\nrtcompare = "), "{}", mended.manifest);
        assert!(!mended.manifest.contains("[dev-dependencies]"), "{}", mended.manifest);
    }

    #[test]
    fn rtcompare_is_the_current_builds_own_whatever_its_source() {
        let from_registry = RTCOMPARE
            .replace(r#""source":null"#, r#""source":"registry+https://github.com/rust-lang/crates.io-index""#)
            .replace(r#","path":"/w/rtcompare""#, "")
            .replace(r#""req":"*""#, r#""req":"^0.1""#);
        let here = Path::new("/home/u/.cargo/registry/src/index/rtcompare-0.1.0");
        let entry = dependency(&from_registry, Some(here)).entry.to_string();
        assert_eq!(entry, r#"{ path = "/home/u/.cargo/registry/src/index/rtcompare-0.1.0" }"#);
        let without = dependency(&from_registry, None).entry.to_string();
        assert_eq!(without, r#"{ version = "^0.1" }"#);
        let renamed = RTCOMPARE.replace(r#""rename":null"#, r#""rename":"rtc""#);
        let renamed = dependency(&renamed, Some(here));
        assert_eq!(renamed.key, "rtc");
        assert!(renamed.entry.to_string().starts_with(r#"{ package = "rtcompare", path = "#), "{}", renamed.entry);
        let normal: Value =
            serde_json::from_str(&RTCOMPARE.replace(r#""kind":"dev""#, r#""kind":null"#)).expect("JSON");
        assert!(Dependency::dev_from_metadata(&normal, None).is_none(), "not a dev-dependency");
    }

    #[test]
    fn paths_out_of_the_repository_are_made_absolute_and_paths_inside_are_kept() {
        let manifest = r#"[package]
name = "member"

[dependencies]
inside = { path = "../sibling" }
outside = { path = "../../../elsewhere/outside", version = "1" }
absolute = { path = "/opt/absolute" }

[dev-dependencies.rtcompare]
path = "../../../rtcompare"

[target.'cfg(unix)'.dev-dependencies]
unix-only = { path = "../../../unix" }

[patch.crates-io]
serde = { path = "../../../serde" }

[workspace.dependencies]
shared = { path = "../../../shared" }
"#;
        let mended = mend(manifest, None, &place("crates/member")).expect("mended");
        assert_eq!(
            mended.changes,
            ["made the path of `outside`, `rtcompare`, `unix-only`, `serde`, `shared`, which leads out of the \
                 repository, absolute"]
        );
        let read: DocumentMut = mended.manifest.parse().expect("TOML");
        let path = |item: &Item| item["path"].as_str().map(str::to_owned);
        assert_eq!(path(&read["dependencies"]["inside"]).as_deref(), Some("../sibling"));
        assert_eq!(path(&read["dependencies"]["outside"]).as_deref(), Some("/w/elsewhere/outside"));
        assert_eq!(path(&read["dependencies"]["absolute"]).as_deref(), Some("/opt/absolute"));
        assert_eq!(path(&read["dev-dependencies"]["rtcompare"]).as_deref(), Some("/w/rtcompare"));
        assert_eq!(path(&read["target"]["cfg(unix)"]["dev-dependencies"]["unix-only"]).as_deref(), Some("/w/unix"));
        assert_eq!(path(&read["patch"]["crates-io"]["serde"]).as_deref(), Some("/w/serde"));
        assert_eq!(path(&read["workspace"]["dependencies"]["shared"]).as_deref(), Some("/w/shared"));
    }

    #[test]
    fn a_path_leads_out_only_when_it_climbs_above_the_top() {
        assert!(!leads_out(Path::new("a/b"), Path::new("../../c")));
        assert!(leads_out(Path::new("a/b"), Path::new("../../../c")));
        assert!(leads_out(Path::new(""), Path::new("../rtcompare")));
        assert!(!leads_out(Path::new(""), Path::new("vendor/../vendor/x")));
        assert!(leads_out(Path::new(""), Path::new("vendor/../../x")));
        assert!(!leads_out(Path::new(""), Path::new("/abs")));
        assert_eq!(lexical(Path::new("/w/repo/a/../../x/./y")), PathBuf::from("/w/x/y"));
    }

    #[test]
    fn a_manifest_that_is_not_toml_is_an_error() {
        assert!(mend("[package\n", None, &place("")).is_err());
    }
}
