//! End to end on tests/fixtures/verdicts/tests/shapes.rs through a real `cargo test --release`
//! run: async pairs on rtcompare's executor and on tokio (`block_on`). Each candidate does 3x
//! its baseline's work (a loss) or the same work (parity); only verdict words are checked.

mod support;

use support::{fixture, stdout, take_turn, text};

/// Runs the `shapes` target with `args`, and returns its output and standard output.
fn shapes(args: &[&str]) -> (std::process::Output, String) {
    let output = fixture("shapes", args);
    let out = stdout(&output);
    (output, out)
}

/// The verdict block printed under `test <name> ... <result>`, up to the next test's line.
fn block<'a>(out: &'a str, name: &str) -> &'a str {
    let start = out.find(&format!("test {name} ... ")).unwrap_or_else(|| panic!("no test {name}:\n{out}"));
    let rest = &out[start..];
    let end = rest[1..].find("\ntest ").map_or(rest.len(), |i| i + 1);
    &rest[..end]
}

/// Asserts that the test ran with the libtest result and the verdict given.
fn assert_verdict(output: &std::process::Output, out: &str, name: &str, result: &str, verdict: &str) {
    let block = block(out, name);
    assert!(block.starts_with(&format!("test {name} ... {result}")), "{name}: {block}\n{}", text(output));
    assert!(block.contains(&format!("\n    {verdict}")), "{name}: expected {verdict:?}:\n{block}\n{}", text(output));
}

#[test]
fn async_pairs_run_on_the_executor_and_on_tokio() {
    let _turn = take_turn();
    let (output, out) = shapes(&["async"]);
    assert_eq!(output.status.code(), Some(101), "{}", text(&output));
    let loss = "loss (confirmed)";
    assert_verdict(&output, &out, "shapes::async_three_times_vs_async_reference", "FAILED", loss);
    assert_verdict(&output, &out, "shapes::blocking_three_times_vs_async_reference", "FAILED", loss);
    assert_verdict(&output, &out, "shapes::tokio_async_three_times_vs_tokio_async_reference", "FAILED", loss);
    assert_verdict(&output, &out, "shapes::async_same_sum_vs_async_sum", "ok", "parity (");
}

#[test]
fn types_give_one_test_per_type_named_by_it() {
    let _turn = take_turn();
    let listed = fixture("shapes", &["--list", "--format", "terse", "sum_three_times"]);
    assert!(listed.status.success(), "{}", text(&listed));
    assert_eq!(
        stdout(&listed),
        "shapes::sum_three_times_vs_sum_once::<u32>/256: test\n\
         shapes::sum_three_times_vs_sum_once::<u64>/256: test\n"
    );
    let (output, out) = shapes(&["sum_three_times"]);
    assert_eq!(output.status.code(), Some(101), "{}", text(&output));
    for ty in ["u32", "u64"] {
        let name = format!("shapes::sum_three_times_vs_sum_once::<{ty}>/256");
        assert_verdict(&output, &out, &name, "FAILED", "loss (confirmed)");
    }
    // One type alone, by its exact name.
    let (one, out) = shapes(&["--exact", "shapes::sum_three_times_vs_sum_once::<u64>/256"]);
    assert!(out.contains("test result: FAILED. 0 passed; 1 failed"), "{}", text(&one));
}
