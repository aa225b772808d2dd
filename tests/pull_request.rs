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
    let dir = dir.path();
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

/// A loss that fresh processes could not repeat is a warning at its line: at a budget of 10 ms
/// the time cap (four budgets) leaves no room for the seven fresh processes a confirmation needs.
#[test]
fn on_github_actions_an_unconfirmed_loss_is_a_warning_at_its_line() {
    let _turn = take_turn();
    let dir = scratch_dir("pull-request-warning");
    let dir = dir.path();
    let output = run(fixture_command("known_answers", &["--exact", LOSS])
        .env("RTCOMPARE_TIME", "10ms")
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", root())
        .env("RTCOMPARE_RESULTS", dir.join("known_answers.json")));
    let (out, everything) = (stdout(&output), text(&output));
    assert!(output.status.success(), "an unconfirmed loss passes: {everything}");
    let printed = annotations(&out);
    assert_eq!(printed.len(), 1, "{everything}");
    assert!(
        printed[0].starts_with(
            "::warning file=tests/fixtures/verdicts/tests/known_answers.rs,line=11,title=rtcompare%3A a loss fresh \
             processes did not confirm"
        ),
        "{}",
        printed[0]
    );
    assert!(printed[0].contains(&format!("::{LOSS}: loss (not confirmed: out of time): time +")), "{}", printed[0]);
}

/// Fifteen failed tests: the ten largest losses are errors, and one notice counts the rest.
/// (`RTCOMPARE_CONFIRM=0` fails each loss at once, without fresh processes.)
#[test]
fn on_github_actions_ten_errors_at_most_and_a_notice_for_the_rest() {
    let _turn = take_turn();
    let dir = scratch_dir("pull-request-many");
    let dir = dir.path();
    let output = run(fixture_command("many_losses", &[])
        .env("RTCOMPARE_CONFIRM", "0")
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", root())
        .env("RTCOMPARE_RESULTS", dir.join("many_losses.json")));
    let (out, everything) = (stdout(&output), text(&output));
    assert!(out.contains("0 passed; 15 failed"), "{everything}");
    let printed = annotations(&out);
    assert_eq!(printed.len(), 11, "{everything}");
    assert!(
        printed[..10]
            .iter()
            .all(|line| line.starts_with("::error file=tests/fixtures/verdicts/tests/many_losses.rs,line=15,")),
        "{printed:#?}"
    );
    assert!(
        printed[10].starts_with("::notice title=rtcompare::5 more failed tests (GitHub shows 10"),
        "{}",
        printed[10]
    );
}
