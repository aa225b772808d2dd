//! Just enough of the package's `Cargo.toml`, read with a TOML parser: its library's crate name
//! (`[lib] name`, or the package name with `-` replaced by `_`), whether there is a library at
//! all, and the features it declares.

use serde::Deserialize;
use serde::de::IgnoredAny;
use std::collections::BTreeMap;
use std::path::Path;

/// What is read of a `Cargo.toml`; every other key is ignored.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Manifest {
    package: Package,
    lib: Option<Lib>,
    features: BTreeMap<String, IgnoredAny>,
}

/// The `[package]` keys read.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Package {
    autolib: Option<bool>,
}

/// The `[lib]` keys read.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Lib {
    name: Option<String>,
}

/// The manifest of the package at `manifest_dir`; `None` when it cannot be read (Cargo, which
/// read it before compiling, then says why).
fn read(manifest_dir: &Path) -> Option<Manifest> {
    parse(&std::fs::read_to_string(manifest_dir.join("Cargo.toml")).ok()?)
}

fn parse(manifest: &str) -> Option<Manifest> {
    basic_toml::from_str(manifest).ok()
}

/// The library crate name of the package at `manifest_dir`, or `None` when it has no library.
pub(crate) fn library_crate(manifest_dir: &Path, package_name: &str) -> Option<String> {
    let manifest = read(manifest_dir)?;
    let autolib = manifest.package.autolib != Some(false);
    if manifest.lib.is_none() && !(autolib && manifest_dir.join("src/lib.rs").is_file()) {
        return None;
    }
    let name = manifest.lib.and_then(|lib| lib.name);
    Some(name.unwrap_or_else(|| package_name.replace('-', "_")))
}

/// The features the package at `manifest_dir` declares in `[features]`.
pub(crate) fn features(manifest_dir: &Path) -> Vec<String> {
    read(manifest_dir).map(|manifest| manifest.features.into_keys().collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn reads_the_lib_table_the_features_and_dotted_keys() {
        let manifest = "[package]\nname = \"a-b\"\nversion.workspace = true\nautolib = false\n\n[lib]\nname = \"renamed\" # why\npath = 'src/x.rs'\n\n[[test]]\nname = \"perf\"\n\n[features]\ndefault = [\"a\"]\nperf = [\n  \"dep:x\",\n]\n";
        let read = parse(manifest).expect("a manifest");
        assert_eq!(read.lib.and_then(|lib| lib.name).as_deref(), Some("renamed"));
        assert_eq!(read.package.autolib, Some(false));
        assert_eq!(read.features.into_keys().collect::<Vec<_>>(), ["default", "perf"]);
        let dotted = parse("lib.name = \"d\"\n").expect("a manifest");
        assert_eq!(dotted.lib.and_then(|lib| lib.name).as_deref(), Some("d"));
        let inline = parse("lib = { name = \"e\" }\n").expect("a manifest");
        assert_eq!(inline.lib.and_then(|lib| lib.name).as_deref(), Some("e"));
        assert!(parse("[[test]]\nname = \"perf\"\n").expect("a manifest").lib.is_none());
    }
}
