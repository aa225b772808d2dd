//! End to end on tests/fixtures/verdicts/tests/workloads.rs: inputs from `setup`, `args`,
//! allocation metrics and `expect = "win"`, through a real `cargo test --release` run.

mod support;

use support::{fixture, run, stdout, take_turn, text};

fn workloads(args: &[&str]) -> std::process::Output {
    fixture("workloads", args)
}

fn assert_outcome(name: &str, passes: bool, outcome: &str) -> String {
    let output = workloads(&["--exact", name]);
    let out = stdout(&output);
    assert_eq!(output.status.success(), passes, "{}", text(&output));
    let line = format!("test {name} ... {}", if passes { "ok" } else { "FAILED" });
    assert!(out.contains(&line), "missing {line:?}:\n{}", text(&output));
    assert!(out.contains(&format!("    {outcome}")), "missing outcome {outcome:?}:\n{}", text(&output));
    out
}

#[test]
fn a_three_times_slower_sort_on_mutable_input_is_a_loss_and_the_same_sort_is_parity() {
    let _turn = take_turn();
    assert_outcome("workloads::slow_sort_vs_std_sort", false, "loss (");
    assert_outcome("workloads::same_sort_vs_std_sort", true, "parity (");
}

#[test]
fn allocation_metrics_give_exact_verdicts() {
    let _turn = take_turn();
    let out = assert_outcome("workloads::two_kib_vs_one_kib", false, "loss (");
    assert!(out.contains("`two_kib` allocates more than `one_kib`: median 2.00 KiB/op against 1.00 KiB/op"), "{out}");
    assert_outcome("workloads::also_one_kib_vs_one_kib", true, "parity (established in one process)");
    let out = assert_outcome("workloads::two_allocations_vs_one_kib", false, "loss (");
    assert!(out.contains("2 allocs/op"), "{out}");
    // Processes of deterministic code count the same: the fewest that can confirm at the
    // binary's level (8 for its 9 comparisons) and one spare, not as many as the time cap holds.
    assert!(out.contains("confirmed in 9 fresh processes"), "{out}");
}

#[test]
fn expect_win_without_a_difference_fails_and_says_why() {
    let _turn = take_turn();
    let output = workloads(&["--exact", "workloads::summed_again_vs_summed"]);
    assert_eq!(output.status.code(), Some(101), "{}", text(&output));
    assert!(
        stdout(&output).contains(
            "`summed_again` was expected to win against `summed` (`expect = \"win\"`) but the verdict is parity"
        ),
        "{}",
        text(&output)
    );
}

#[test]
fn args_give_one_test_per_size() {
    let _turn = take_turn();
    let output = workloads(&["--list", "--format", "terse", "fold_slice"]);
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(
        stdout(&output),
        "workloads::fold_slice_vs_sum_slice/10: test\n\
         workloads::fold_slice_vs_sum_slice/1000: test\n\
         workloads::fold_slice_vs_sum_slice/100000: test\n"
    );
    let ran = workloads(&["fold_slice"]);
    assert!(ran.status.success(), "{}", text(&ran));
    assert!(stdout(&ran).contains("test result: ok. 3 passed; 0 failed"), "{}", text(&ran));
}

#[test]
fn the_counting_allocator_wraps_the_users_allocator() {
    let _turn = take_turn();
    // Verbose, for the sampling line that says the counts were exact.
    let output = run(support::fixture_command("allocator", &[]).env("RTCOMPARE_VERBOSE", "1"));
    assert!(output.status.success(), "{}", text(&output));
    let out = stdout(&output);
    assert!(out.contains("    parity (established in one process)"), "{}", text(&output));
    assert!(out.contains("exact: every round counted the same"), "{}", text(&output));
}
