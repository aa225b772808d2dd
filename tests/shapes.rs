//! End to end on tests/fixtures/verdicts/tests/shapes.rs through a real `cargo test --release`
//! run: async pairs on rtcompare's executor and on tokio (`block_on`), generic pairs over
//! `types`, rates from `throughput` in every output, and batches on `threads`. Each candidate does 3x
//! its baseline's work (a loss) or the same work (parity); only verdict words are checked.

mod support;

use support::{block, fixture, fixture_command, run, scratch_dir, stdout, take_turn, text};

/// Runs the `shapes` target with `args`, and returns its output and standard output.
fn shapes(args: &[&str]) -> (std::process::Output, String) {
    let output = fixture("shapes", args);
    let out = stdout(&output);
    (output, out)
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
    let listed = fixture("shapes", &["--list", "--format", "terse", "vs_sum_once"]);
    assert!(listed.status.success(), "{}", text(&listed));
    assert_eq!(
        stdout(&listed),
        "shapes::sum_three_times_vs_sum_once::<u32>/256: test\n\
         shapes::sum_three_times_vs_sum_once::<u64>/256: test\n"
    );
    let (output, out) = shapes(&["vs_sum_once"]);
    assert_eq!(output.status.code(), Some(101), "{}", text(&output));
    for ty in ["u32", "u64"] {
        let name = format!("shapes::sum_three_times_vs_sum_once::<{ty}>/256");
        assert_verdict(&output, &out, &name, "FAILED", "loss (confirmed)");
    }
}

/// The arm lines of a verdict block, candidate then baseline.
fn arm_lines(block: &str) -> Vec<&str> {
    block.lines().filter(|l| l.starts_with("    candidate ") || l.starts_with("    baseline ")).collect()
}

#[test]
fn throughput_shows_each_arms_rate_in_the_block_and_every_file() {
    let _turn = take_turn();
    let dir = scratch_dir("rtcompare-throughput");
    let dir = dir.path();
    let (results, markdown, bmf) = (dir.join("shapes.json"), dir.join("shapes.md"), dir.join("shapes-bmf.json"));
    let mut command = fixture_command("shapes", &["checksum"]);
    command.env("RTCOMPARE_RESULTS", &results).env("RTCOMPARE_MARKDOWN", &markdown).env("RTCOMPARE_BMF", &bmf);
    let output = run(&mut command);
    let out = stdout(&output);
    let name = "shapes::checksum_three_times_vs_checksum_once";
    assert_verdict(&output, &out, name, "FAILED", "loss (confirmed)");
    let arms = arm_lines(block(&out, name));
    assert_eq!(arms.len(), 2, "{}", text(&output));
    for line in arms {
        let unit = line.rsplit(' ').next().unwrap_or_default();
        assert!(["B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"].contains(&unit), "no rate in {line:?}");
    }
    let read = |path: &std::path::Path| std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let file: serde_json::Value = serde_json::from_str(&read(&results)).unwrap_or_default();
    let throughput = &file["comparisons"][0]["throughput"];
    assert_eq!((throughput["unit"].as_str(), throughput["per_op"].as_u64()), (Some("bytes"), Some(4096)), "{file}");
    let (candidate, baseline) = (throughput["candidate"].as_f64(), throughput["baseline"].as_f64());
    assert!(candidate.zip(baseline).is_some_and(|(c, b)| c < b), "a slower arm has the lower rate: {throughput}");
    assert!(read(&markdown).contains("| throughput (candidate / baseline) |"), "{}", read(&markdown));
    let bmf: serde_json::Value = serde_json::from_str(&read(&bmf)).unwrap_or_default();
    assert!(bmf[format!("{name}/candidate")]["bytes_per_second"]["value"].is_number(), "{bmf}");
}

#[test]
fn elements_of_the_size_from_args_give_a_rate_per_type() {
    let _turn = take_turn();
    let (output, out) = shapes(&["--exact", "shapes::sum_three_times_vs_sum_once::<u32>/256"]);
    let arms = arm_lines(block(&out, "shapes::sum_three_times_vs_sum_once::<u32>/256"));
    assert!(arms.len() == 2 && arms.iter().all(|l| l.ends_with("elem/s")), "{}", text(&output));
}

#[test]
fn a_pair_on_two_threads_keeps_its_verdict() {
    let _turn = take_turn();
    let (output, out) = shapes(&["two_threads"]);
    assert_verdict(
        &output,
        &out,
        "shapes::two_threads_three_times_vs_two_threads_reference",
        "FAILED",
        "loss (confirmed)",
    );
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    assert_eq!(out.contains("runs each batch on 2 threads (`threads = 2`)"), cores < 2, "{}", text(&output));
}
