//! Several candidates against one baseline get one table, fastest first, in the terminal and in
//! the Markdown summary. Fixture: tests/fixtures/verdicts/tests/known_answers.rs, whose three candidates
//! of `reference` do a quarter, the same and four times its work — differences in the amount of
//! work, 4x apart, so neither the verdicts nor the order can flip on a noisy machine.

mod support;

use support::{fixture_command, run, scratch_dir, stdout, take_turn, text};

/// The lines from `start` on, up to the first empty one.
fn block<'a>(text: &'a str, start: &str) -> Vec<&'a str> {
    let at = text.find(start).unwrap_or_else(|| panic!("no {start:?} in\n{text}"));
    text[at..].lines().take_while(|line| !line.trim().is_empty()).collect()
}

#[test]
fn three_candidates_of_one_baseline_are_ranked_in_the_terminal_and_in_markdown() {
    let _turn = take_turn();
    let dir = scratch_dir("several-candidates");
    let dir = dir.path();
    let markdown = dir.join("perf.md");
    let output = run(fixture_command("known_answers", &[])
        .env("RTCOMPARE_RESULTS", dir.join("perf.json"))
        .env("RTCOMPARE_MARKDOWN", &markdown));
    // Four times the work is a confirmed loss, which fails its test; the files are still written.
    assert_eq!(output.status.code(), Some(101), "{}", text(&output));

    let out = stdout(&output);
    let terminal = block(&out, "rtcompare: 3 candidates against `reference`, fastest first");
    assert_eq!(terminal.len(), 4, "{}", text(&output));
    let expected = [
        ("    1. quarter_of_the_work ", "x faster", "win ("),
        ("    2. same_work ", "", "parity ("),
        ("    3. four_times_the_work ", "x the baseline's time", "loss ("),
    ];
    for (line, (start, direction, verdict)) in terminal[1..].iter().zip(expected) {
        assert!(line.starts_with(start) && line.contains(direction) && line.contains(verdict), "{line:?}\n{out}");
    }

    let summary = std::fs::read_to_string(&markdown).unwrap_or_else(|e| panic!("no summary: {e}\n{}", text(&output)));
    let table = block(&summary, "| | candidate | against `reference` | ratio (candidate / baseline) | verdict |");
    assert!(summary.contains("#### 3 candidates against `reference`, fastest first\n\n| | candidate |"), "{summary}");
    assert_eq!(table.len(), 5, "{summary}");
    let rows = [
        ("| 1 | `quarter_of_the_work` | ", "x faster | ", "| **win ("),
        ("| 2 | `same_work` | ", " | ", "| parity ("),
        ("| 3 | `four_times_the_work` | ", "takes ", "| **loss ("),
    ];
    for (row, (start, direction, verdict)) in table[2..].iter().zip(rows) {
        assert!(row.starts_with(start) && row.contains(direction) && row.contains(verdict), "{row:?}\n{summary}");
    }
}
