//! The judging crate stays pure: no code of its own (tests aside) reaches a file, a process, the
//! environment, the network or a clock, so a verdict is a function of what was measured and a
//! seed. Cargo keeps measuring out of it (the crate depends on nothing that measures); this
//! check keeps the standard library's ways out.

use std::path::{Path, PathBuf};

/// What the crate's code may not name, and why each matters.
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

#[test]
fn the_judging_code_reads_no_file_process_environment_network_or_clock() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (number, line) in code_lines(&text) {
            for (name, what) in FORBIDDEN {
                if line.contains(name) {
                    found.push(format!("{}:{number}: `{name}` ({what})", file.display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "the judging crate must stay pure:\n{}", found.join("\n"));
}

#[test]
fn the_check_sees_code_and_skips_comments_and_tests() {
    let text =
        "use std::fs;\n// std::process in a comment\nfn f() {}\n#[cfg(test)]\nmod tests {\n    use std::env;\n}\n";
    let lines: Vec<(usize, &str)> = code_lines(text).collect();
    assert_eq!(lines, vec![(1, "use std::fs;"), (3, "fn f() {}")]);
}

/// The lines of code before the file's test module, numbered from 1, comments and doc
/// comments left out (they may name what the code does not use).
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|pair| pair[0].trim() == "#[cfg(test)]" && pair[1].trim_start().starts_with("mod tests"))
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
