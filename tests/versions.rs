//! The recipe of docs/revision.md, "Two published versions of a dependency": both versions of a
//! crate linked into one perf target under two names (the old one from another source, here an
//! unpacked copy in `vendor/`), and a pair that calls each on the same input. The fixture's
//! `mathlib` 1.1.0 does a third of the work of 1.0.0, so the new version is a confirmed win.

mod support;

use std::path::Path;
use support::{cargo, nested_target, root, run, stdout, take_turn, text};

/// The library of a `mathlib` whose `total` adds up `passes` times the numbers it is given.
fn mathlib(passes: u32) -> String {
    format!(
        "use std::hint::black_box;\n\npub fn total(numbers: &[u32]) -> u64 {{\n    let mut sum = 0u64;\n    for _ in \
         0..black_box({passes}) {{\n        for &n in numbers {{\n            sum = sum.wrapping_add(black_box(u64::from(n)));\n        \
         }}\n    }}\n    sum\n}}\n"
    )
}

const PERF: &str = r#"use rtcompare::{Dprng, compare};

fn numbers(rng: &mut Dprng) -> Vec<u32> {
    rng.vec_u32(1_000)
}

fn total_old(numbers: &Vec<u32>) -> u64 {
    mathlib_old::total(numbers)
}

#[compare(baseline = total_old, setup = numbers)]
fn total_new(numbers: &Vec<u32>) -> u64 {
    mathlib::total(numbers)
}

rtcompare::main!();
"#;

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

#[test]
fn two_versions_of_one_crate_are_compared_in_one_build() {
    let _turn = take_turn();
    let dir = nested_target().join("versions");
    let _ = std::fs::remove_dir_all(&dir);
    for (version, passes) in [("1.0.0", 3), ("1.1.0", 1)] {
        let crate_dir = dir.join("vendor").join(format!("mathlib-{version}"));
        let manifest = format!("[package]\nname = \"mathlib\"\nversion = \"{version}\"\nedition = \"2024\"\n");
        write(&crate_dir.join("Cargo.toml"), &manifest);
        write(&crate_dir.join("src/lib.rs"), &mathlib(passes));
    }
    let manifest = format!(
        "[package]\nname = \"versions\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\nexclude \
         = [\"vendor\"]\n\n[dev-dependencies]\nrtcompare = {{ path = '{}' }}\nmathlib = {{ path = \
         \"vendor/mathlib-1.1.0\" }}\nmathlib_old = {{ package = \"mathlib\", path = \"vendor/mathlib-1.0.0\" \
         }}\n\n[[test]]\nname = \"perf\"\nharness = false\ntest = false\n",
        root().display()
    );
    write(&dir.join("Cargo.toml"), &manifest);
    write(&dir.join("src/lib.rs"), "");
    write(&dir.join("tests/perf.rs"), PERF);
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).expect("rtcompare's Cargo.lock");
    write(&dir.join("Cargo.lock"), &lock);

    let output = run(cargo(&["test", "--release", "--test", "perf"])
        .current_dir(&dir)
        .env("RTCOMPARE_TIME", "1s")
        .env("NO_COLOR", "1"));
    let (out, everything) = (stdout(&output), text(&output));
    assert!(output.status.success(), "{everything}");
    assert!(out.contains("test perf::total_new_vs_total_old ... ok\n    win (confirmed): "), "{everything}");
    assert!(out.contains("    baseline  total_old "), "{everything}");
}
