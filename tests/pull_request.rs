//! Where a pull request is read: on GitHub Actions (`GITHUB_ACTIONS=true`) a run annotates each
//! failed test at its `#[compare]` line and nothing else, and every run writes its pull-request
//! comment beside the results file. The fixture's known answers: a fourfold loss at line 11 of
//! `tests/known_answers.rs`, a parity, and a fourfold win.

mod support;

use support::{fixture_command, root, run, scratch_dir, stdout, take_turn, text};

const LOSS: &str = "known_answers::four_times_the_work_vs_reference";
const WIN: &str = "known_answers::quarter_of_the_work_vs_reference";

/// The workflow commands a run printed.
fn annotations(out: &str) -> Vec<&str> {
    out.lines().filter(|line| line.starts_with("::")).collect()
}

#[test]
fn on_github_actions_a_confirmed_loss_is_an_error_at_its_line_and_nothing_else_is_annotated() {
    let _turn = take_turn();
    let dir = scratch_dir("pull-request");
    let output = run(fixture_command("known_answers", &[])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", root())
        .env("RTCOMPARE_RESULTS", dir.join("known_answers.json")));
    let (out, everything) = (stdout(&output), text(&output));
    assert_eq!(output.status.code(), Some(101), "{everything}");
    let printed = annotations(&out);
    assert_eq!(printed.len(), 1, "the loss alone: {everything}");
    let error = printed[0];
    assert!(
        error.starts_with(
            "::error file=tests/fixtures/verdicts/tests/known_answers.rs,line=11,title=rtcompare%3A a confirmed loss"
        ),
        "{error}"
    );
    assert!(error.contains(&format!("::{LOSS}: loss (confirmed): time +")), "{error}");

    // The comment: the loss, then the win; the parity counted.
    let comment =
        std::fs::read_to_string(dir.join("known_answers-comment.md")).expect("the comment beside the results");
    assert!(comment.starts_with("<!-- rtcompare-comment: known_answers -->\n"), "{comment}");
    let (loss, win) = (
        comment.find(&format!("| ❌ | `{LOSS}` | loss (confirmed)")),
        comment.find(&format!("| ✅ | `{WIN}` | win (")),
    );
    assert!(loss.is_some() && win.is_some() && loss < win, "{comment}");
    assert!(comment.contains("\nNot listed: 1 at parity.\n"), "{comment}");
    assert!(out.contains("rtcompare: pull-request comment "), "{everything}");

    // Outside GitHub Actions, and with annotations turned off, none.
    let outside =
        run(fixture_command("known_answers", &["--exact", LOSS]).env("RTCOMPARE_RESULTS", dir.join("outside.json")));
    assert_eq!(outside.status.code(), Some(101), "{}", text(&outside));
    assert!(annotations(&stdout(&outside)).is_empty(), "{}", text(&outside));
    let off = run(fixture_command("known_answers", &["--exact", LOSS])
        .env("GITHUB_ACTIONS", "true")
        .env("RTCOMPARE_ANNOTATIONS", "0")
        .env("RTCOMPARE_RESULTS", dir.join("off.json")));
    assert_eq!(off.status.code(), Some(101), "{}", text(&off));
    assert!(annotations(&stdout(&off)).is_empty(), "{}", text(&off));
}
