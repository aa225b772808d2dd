//! End to end through a real `cargo test --release --test known_answers` on the fixture crate
//! tests/fixtures/verdicts: 4x the work fails as a loss, the same work passes as parity, a
//! quarter of the work passes as a win. The differences are far outside any noise.

mod support;

use support::{Profile, fixture, fixture_cargo, run, stdout, take_turn, text};

fn known_answers(args: &[&str]) -> std::process::Output {
    fixture("known_answers", args)
}

// One test function, so the three measurements run one after another and never beside a build.
#[test]
fn verdicts_and_exit_codes_follow_the_work() {
    let _turn = take_turn();
    let loss = known_answers(&["--exact", "known_answers::four_times_the_work_vs_reference"]);
    let out = stdout(&loss);
    assert_eq!(loss.status.code(), Some(101), "{}", text(&loss));
    assert!(out.contains("test known_answers::four_times_the_work_vs_reference ... FAILED"), "{}", text(&loss));
    assert!(out.contains("    loss ("), "{}", text(&loss));
    assert!(out.contains("`four_times_the_work` is slower than `reference`: median"), "{}", text(&loss));
    for figure in ["ratio ", "best-run ratio ", "tolerance ±"] {
        assert!(out.contains(figure), "missing {figure:?} in the failure message:\n{}", text(&loss));
    }

    let parity = known_answers(&["--exact", "known_answers::same_work_vs_reference"]);
    assert!(parity.status.success(), "{}", text(&parity));
    assert!(stdout(&parity).contains("test known_answers::same_work_vs_reference ... ok"), "{}", text(&parity));
    assert!(stdout(&parity).contains("    parity ("), "{}", text(&parity));

    let win = known_answers(&["--exact", "known_answers::quarter_of_the_work_vs_reference"]);
    assert!(win.status.success(), "{}", text(&win));
    let out = stdout(&win);
    assert!(out.contains("test known_answers::quarter_of_the_work_vs_reference ... ok"), "{}", text(&win));
    // The short block: the verdict with the change in time (criterion's sign: the faster candidate
    // is negative) and both arms; a win four times over has no warning that changes its reading.
    let block = block_under(&out, "known_answers::quarter_of_the_work_vs_reference");
    assert!(block.len() <= 4 && !block.iter().any(|l| l.contains("warning")), "{}", text(&win));
    assert!(block[0].starts_with("    win (") && block[0].contains(": time -"), "{}", text(&win));
    assert!(!out.contains("A/A floor"), "{}", text(&win));

    // Every figure under RTCOMPARE_VERBOSE=1.
    let mut verbose = support::fixture_command("known_answers", &["--exact", "known_answers::same_work_vs_reference"]);
    let verbose = run(verbose.env("RTCOMPARE_VERBOSE", "1"));
    for figure in ["A/A floor", "(best ", "rounds"] {
        assert!(stdout(&verbose).contains(figure), "missing {figure:?}:\n{}", text(&verbose));
    }

    // The whole suite: one failure makes the process fail, and the others still run.
    let all = known_answers(&[]);
    assert_eq!(all.status.code(), Some(101), "{}", text(&all));
    assert!(stdout(&all).contains("test result: FAILED. 2 passed; 1 failed"), "{}", text(&all));
}

#[test]
fn list_terse_prints_exactly_the_names() {
    let _turn = take_turn();
    let listed = known_answers(&["--list", "--format", "terse"]);
    assert!(listed.status.success(), "{}", text(&listed));
    assert_eq!(
        stdout(&listed),
        "known_answers::four_times_the_work_vs_reference: test\n\
         known_answers::quarter_of_the_work_vs_reference: test\n\
         known_answers::same_work_vs_reference: test\n"
    );
}

#[test]
fn a_malformed_setting_stops_the_run_before_measuring() {
    let _turn = take_turn();
    let mut command = fixture_cargo(Profile::Release, "known_answers", &[]);
    let output = run(command.env("RTCOMPARE_TIME", "fast"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(stderr.contains("invalid RTCOMPARE_TIME=\"fast\""), "{}", text(&output));
    assert!(stderr.contains("for example RTCOMPARE_TIME=2s"), "{}", text(&output));
    assert!(!stdout(&output).contains("running"), "{}", text(&output));
}

/// The indented lines under `test <name> ...`: its verdict block.
fn block_under<'a>(out: &'a str, name: &str) -> Vec<&'a str> {
    let mut lines = out.lines().skip_while(|line| !line.starts_with(&format!("test {name} ... ")));
    lines.next();
    lines.take_while(|line| line.starts_with("    ")).collect()
}
