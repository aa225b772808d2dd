//! Comparisons registered in a library's own src/ (root, private module, nested module) reach
//! the package's perf binary in every build profile, and the library's plain build does not
//! depend on rtcompare. The crate is examples/in-crate.

mod support;

use support::{cargo, run, text};

const EXAMPLE: &str = "rtcompare-example-in-crate";

const EXPECTED: &str = "\
in_crate_demo::checksum::checksum_fast_vs_checksum_reference: test
in_crate_demo::formula_sum_10k_vs_loop_sum_10k: test
text::join::write_vs_format: test
";

fn listed(profile_args: &[&str]) -> String {
    let mut args = vec!["test", "-p", EXAMPLE, "--test", "perf"];
    args.extend_from_slice(profile_args);
    args.extend_from_slice(&["--", "--list", "--format", "terse"]);
    let output = run(&mut cargo(&args));
    assert!(output.status.success(), "{}", text(&output));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn debug_build_lists_every_comparison() {
    assert_eq!(listed(&[]), EXPECTED);
}

#[test]
fn release_build_lists_every_comparison() {
    assert_eq!(listed(&["--release"]), EXPECTED);
}

#[test]
fn fat_lto_with_one_codegen_unit_lists_every_comparison() {
    let profile = [
        "--config",
        "profile.fat-lto.inherits=\"release\"",
        "--config",
        "profile.fat-lto.lto=\"fat\"",
        "--config",
        "profile.fat-lto.codegen-units=1",
        "--profile",
        "fat-lto",
    ];
    assert_eq!(listed(&profile), EXPECTED);
}

#[test]
fn plain_build_does_not_depend_on_rtcompare() {
    let output = run(&mut cargo(&["tree", "-p", EXAMPLE, "-e", "normal"]));
    assert!(output.status.success(), "{}", text(&output));
    let tree = String::from_utf8_lossy(&output.stdout);
    assert!(tree.contains(EXAMPLE), "{tree}");
    assert!(!tree.contains("rtcompare v"), "the plain build pulls in rtcompare:\n{tree}");
}
