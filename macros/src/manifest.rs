//! Just enough of the package's `Cargo.toml` to know its library's crate name: `[lib] name`,
//! or the package name with `-` replaced by `_`, and whether there is a library at all.

use std::path::Path;

/// The library crate name of the package at `manifest_dir`, or `None` when it has no library.
pub(crate) fn library_crate(manifest_dir: &Path, package_name: &str) -> Option<String> {
    let manifest = std::fs::read_to_string(manifest_dir.join("Cargo.toml")).ok()?;
    let lib = table(&manifest, "lib");
    let autolib_off = table(&manifest, "package").iter().any(|(k, v)| k == "autolib" && v == "false");
    let has_lib = !lib.is_empty() || (!autolib_off && manifest_dir.join("src/lib.rs").is_file());
    if !has_lib {
        return None;
    }
    let name = lib.iter().find(|(k, _)| k == "name").map(|(_, v)| v.clone());
    Some(name.unwrap_or_else(|| package_name.replace('-', "_")))
}

/// The names declared in the package's `[features]` table (empty when it has none or the
/// manifest cannot be read).
pub(crate) fn features(manifest_dir: &Path) -> Vec<String> {
    let Ok(manifest) = std::fs::read_to_string(manifest_dir.join("Cargo.toml")) else {
        return Vec::new();
    };
    table(&manifest, "features")
        .into_iter()
        .map(|(key, _)| key.trim_matches('"').to_owned())
        .filter(|key| !key.is_empty() && !key.contains(['.', ' ']))
        .collect()
}

/// `key = value` pairs of a top-level table (`[name]` or dotted `name.key = value`), with
/// quotes stripped. Not a TOML parser: it reads the simple forms Cargo manifests use for these
/// keys.
fn table(manifest: &str, name: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut current = String::new();
    for raw in manifest.lines() {
        let line = raw.split(" #").next().unwrap_or("").trim();
        if line.starts_with('[') {
            current = line.trim_matches(|c| c == '[' || c == ']').trim().to_owned();
            if line.starts_with("[[") {
                current.clear();
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let key = key.trim();
        let value = value.trim().trim_matches('"').trim_matches('\'').to_owned();
        if current == name {
            pairs.push((key.to_owned(), value));
        } else if current.is_empty()
            && let Some(dotted) = key.strip_prefix(name).and_then(|k| k.strip_prefix('.'))
        {
            pairs.push((dotted.trim().to_owned(), value));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::table;

    #[test]
    fn reads_the_lib_table_and_dotted_keys() {
        let manifest = "[package]\nname = \"a-b\"\nautolib = false\n\n[lib]\nname = \"renamed\" # why\npath = 'src/x.rs'\n\n[[test]]\nname = \"perf\"\n";
        assert_eq!(table(manifest, "lib"), vec![("name".into(), "renamed".into()), ("path".into(), "src/x.rs".into())]);
        assert!(table(manifest, "package").contains(&("autolib".into(), "false".into())));
        assert_eq!(table("lib.name = \"d\"\n", "lib"), vec![("name".into(), "d".into())]);
        assert!(table("[[test]]\nname = \"perf\"\n", "lib").is_empty());
        let features = "[features]\ndefault = [\"a\"]\nperf = [\"dep:x\"]\n\n[dependencies]\nx = \"1\"\n";
        let keys: Vec<String> = table(features, "features").into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["default", "perf"]);
    }
}
