//! The judging crate stays pure: no code of its own (tests aside) reaches a file, a process, the
//! environment, the network or a clock, so a verdict is a function of what was measured and a
//! seed. Cargo keeps measuring out of it (the crate depends on nothing that measures); this
//! check keeps the standard library's ways out. The report crate, which depends on this one
//! alone, is held to the same but for files (it writes the run's files and reads its records
//! back, and names its temporary files by process id) and its own version: what it shows
//! depends on what it is given, never on when or where it runs.

use std::path::{Path, PathBuf};

/// What a pure crate's code may not name, and why each matters.
const FORBIDDEN: [(&str, &str); 8] = [
    ("std::fs", "files"),
    ("std::process", "processes"),
    ("std::env", "the environment"),
    ("env!(", "the build environment"),
    ("std::net", "the network"),
    ("Instant", "a clock"),
    ("SystemTime", "a clock"),
    ("thread::sleep", "a clock"),
];

/// What the report crate may name of [`FORBIDDEN`]: files, its own process id, and the version
/// it was built as (the results file's `rtcompare_version`, fixed at compile time).
const REPORT_MAY: [&str; 3] = ["std::fs", "std::process::id()", "env!(\"CARGO_PKG_VERSION\")"];

#[test]
fn the_judging_code_reads_no_file_process_environment_network_or_clock() {
    let found = forbidden_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &[]);
    assert!(found.is_empty(), "the judging crate must stay pure:\n{}", found.join("\n"));
}

#[test]
fn the_report_code_reads_no_process_environment_network_or_clock() {
    let found = forbidden_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../report/src"), &REPORT_MAY);
    assert!(found.is_empty(), "the report crate must not depend on when or where it runs:\n{}", found.join("\n"));
}

/// Each line of code under `src` (tests aside) naming a forbidden name, but for what `allowed`
/// names on that line.
fn forbidden_in(src: &Path, allowed: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let files = rust_files(src);
    assert!(files.len() > 5, "{} was not read", src.display());
    for file in files.into_iter().filter(|file| !test_only(file)) {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (number, line) in code_lines(&text) {
            let line = allowed.iter().fold(line.to_owned(), |line, name| line.replace(name, ""));
            for (name, what) in FORBIDDEN {
                if line.contains(name) {
                    found.push(format!("{}:{number}: `{name}` ({what})", file.display()));
                }
            }
        }
    }
    found
}

/// Whether `file` is a module its parent declares only for tests (`#[cfg(test)]` before `mod
/// name;` in the `lib.rs` or `mod.rs` beside it).
fn test_only(file: &Path) -> bool {
    let (Some(dir), Some(name)) = (file.parent(), file.file_stem().and_then(|n| n.to_str())) else { return false };
    ["lib.rs", "mod.rs"].iter().any(|parent| {
        let text = std::fs::read_to_string(dir.join(parent)).unwrap_or_default();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        lines.windows(2).any(|pair| pair[0] == "#[cfg(test)]" && pair[1] == format!("mod {name};"))
    })
}

#[test]
fn the_check_sees_code_and_skips_comments_and_tests() {
    let text =
        "use std::fs;\n// std::process in a comment\nfn f() {}\n#[cfg(test)]\nmod tests {\n    use std::env;\n}\n";
    let lines: Vec<(usize, &str)> = code_lines(text).collect();
    assert_eq!(lines, vec![(1, "use std::fs;"), (3, "fn f() {}")]);
}

/// Whether `line` opens an inline module (`mod tests {`, `pub(crate) mod fixtures {`).
fn is_inline_module(line: &str) -> bool {
    let line = line.trim_start();
    let line = line.strip_prefix("pub ").or_else(|| line.strip_prefix("pub(crate) ")).unwrap_or(line);
    line.starts_with("mod ") && line.trim_end().ends_with('{')
}

/// The lines of code before the file's test module, numbered from 1, comments and doc
/// comments left out (they may name what the code does not use).
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|pair| pair[0].trim() == "#[cfg(test)]" && is_inline_module(pair[1]))
        .unwrap_or(lines.len());
    lines
        .into_iter()
        .enumerate()
        .take(end)
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with("//"))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}
