//! What the human formats print: libtest's lines, the verdict block under each, the failures
//! and the closing summary.

mod progress;

pub(crate) use progress::measuring;

use anstream::{print, println};
use anstyle::{AnsiColor, Style};
use rtcompare_judge::Outcome;
use rtcompare_judge::verdict::Judgement;
use rtcompare_report::{
    Detail, Line, Test, Written, alone_lines, placement_summary, rankings, text_lines, unoptimised_note, with_counts,
};
use std::path::Path;
use std::time::Duration;

const GREEN: Style = AnsiColor::Green.on_default();
const RED: Style = AnsiColor::Red.on_default();
const YELLOW: Style = AnsiColor::Yellow.on_default();

/// Prints libtest's `running N tests` header.
pub(crate) fn print_header(count: usize) {
    println!();
    println!("running {count} test{}", if count == 1 { "" } else { "s" });
}

/// Prints a run-wide warning once, in yellow.
pub(crate) fn print_warning(message: &str) {
    println!("{YELLOW}warning: {message}{YELLOW:#}");
}

/// Prints libtest's `test name ... ignored` line (or `i` in terse mode).
pub(crate) fn print_ignored(name: &str, terse: bool) {
    if terse {
        print!("{YELLOW}i{YELLOW:#}");
    } else {
        println!("test {name} ... {YELLOW}ignored{YELLOW:#}");
    }
}

/// Prints a finished test: libtest's line, then (unless terse) the verdict block, which says
/// so when it measured an unoptimised build (`unoptimised`, from `RTCOMPARE_DEBUG=1`).
pub(crate) fn print_trial(test: &Test, terse: bool, unoptimised: bool, detail: Detail) {
    let (word, mark, style) = if test.passed() { ("ok", ".", GREEN) } else { ("FAILED", "F", RED) };
    if terse {
        print!("{style}{mark}{style:#}");
        return;
    }
    println!("test {} ... {style}{word}{style:#}", test.name);
    if let Some(alone) = &test.alone {
        alone_lines(alone, test.work).iter().for_each(|line| println!("{line}"));
        if unoptimised {
            println!("{YELLOW}    measured in an unoptimised build (RTCOMPARE_DEBUG=1){YELLOW:#}");
        }
    }
    if test.new_at_revision() {
        println!(
            "    new: `{}` has no comparison at the baseline revision; nothing to compare against yet",
            test.candidate
        );
    }
    if let Some(judgement) = &test.judgement {
        print_block(test, judgement, detail);
        if unoptimised {
            let note = unoptimised_note(test.fails.is_some());
            println!("{YELLOW}    {note}{YELLOW:#}");
        }
    }
}

/// The verdict block, coloured by the verdict (green win, red loss, plain parity) with warnings
/// in yellow.
fn print_block(test: &Test, judgement: &Judgement, detail: Detail) {
    let verdict_style = match judgement.verdict.outcome {
        Outcome::Win => GREEN,
        Outcome::Loss => RED,
        Outcome::Parity => Style::new(),
    };
    let counts = (test.instructions.as_ref(), test.instructions_not_counted.as_deref());
    let lines = with_counts(text_lines(judgement, test.work, detail), counts, judgement.verdict.outcome, detail);
    for (kind, line) in lines {
        let style = match kind {
            Line::Figure => Style::new(),
            Line::Outcome => verdict_style,
            Line::Warning => YELLOW,
        };
        println!("{style}{line}{style:#}");
    }
}

/// libtest's `failures:` section.
pub(crate) fn print_failures(tests: &[Test]) {
    let failed: Vec<&Test> = tests.iter().filter(|t| !t.passed()).collect();
    if failed.is_empty() {
        return;
    }
    println!();
    println!("failures:");
    println!();
    for test in &failed {
        println!("---- {} ----", test.name);
        println!("{}", test.failure.as_deref().unwrap_or_default());
        println!();
    }
    println!();
    println!("failures:");
    for test in &failed {
        println!("    {}", test.name);
    }
}

/// The tally of libtest's `test result:` line.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub ignored: usize,
    pub filtered_out: usize,
}

/// libtest's `test result:` line.
pub(crate) fn print_result_line(tally: Tally, elapsed: Duration) {
    let (word, style) = if tally.failed > 0 { ("FAILED", RED) } else { ("ok", GREEN) };
    println!();
    println!(
        "test result: {style}{word}{style:#}. {} passed; {} failed; {} ignored; 0 measured; {} filtered out; \
         finished in {:.2}s",
        tally.passed,
        tally.failed,
        tally.ignored,
        tally.filtered_out,
        elapsed.as_secs_f64()
    );
    println!();
}

/// rtcompare's own summary after libtest's: verdict counts, measuring time, the candidates of
/// each baseline that has several side by side, and where the files went. `unoptimised` says
/// the run measured an unoptimised build on purpose (`RTCOMPARE_DEBUG=1`).
pub(crate) fn print_summary(tests: &[Test], written: &Written, unoptimised: bool, detail: Detail) {
    if tests.is_empty() {
        return;
    }
    let judgements: Vec<&Judgement> = tests.iter().filter_map(|t| t.judgement.as_ref()).collect();
    if let Some(line) = placement_summary(&judgements).filter(|_| detail == Detail::Short) {
        println!("{YELLOW}warning[placement]: {line}{YELLOW:#}");
    }
    let verdicts = verdict_line(tests, &judgements);
    if let Some(line) = &verdicts {
        println!("{line}");
    }
    if let Some(line) = alone_line(tests) {
        println!("{line}");
    }
    if unoptimised && verdicts.is_some() {
        println!(
            "{YELLOW}rtcompare: these verdicts describe an unoptimised build (RTCOMPARE_DEBUG=1), so none of them \
             failed a test; `--release` measures the code you ship{YELLOW:#}"
        );
    }
    let tables = rankings(tests);
    for table in &tables {
        println!();
        print!("{}", table.render_text());
    }
    if !tables.is_empty() {
        println!();
    }
    for line in file_lines(written) {
        println!("{line}");
    }
    println!();
}

/// The line that counts the run's verdicts (wins, parities, losses, how many confirmed) and its
/// measuring time; `None` when every test was measured alone, with no verdict to count.
fn verdict_line(tests: &[Test], judgements: &[&Judgement]) -> Option<String> {
    // A function new since the baseline revision passes without a judgement, as does a
    // benchmark measured alone (whose line follows this one).
    let new = tests.iter().filter(|t| t.new_at_revision()).count();
    let alone = tests.iter().filter(|t| t.alone.is_some()).count();
    if alone == tests.len() {
        return None;
    }
    let unmeasured = tests.len() - judgements.len() - new - alone;
    let count = |outcome: Outcome| judgements.iter().filter(|j| j.verdict.outcome == outcome).count();
    let (wins, losses) = (count(Outcome::Win), count(Outcome::Loss));
    let confirmed = |outcome: Outcome| {
        judgements.iter().filter(|j| j.verdict.outcome == outcome && j.confirmed() == Some(true)).count()
    };
    let measuring: Duration = judgements.iter().map(|j| j.duration()).sum();
    // A loss the time cap left undecided is said apart: it passed only for want of room.
    let out_of_time = judgements.iter().filter(|j| j.verdict.outcome == Outcome::Loss && j.out_of_time()).count();
    Some(format!(
        "rtcompare: {wins} win{} ({} confirmed), {}, {losses} loss{} ({} confirmed{}){}; measured for {:.1} s",
        if wins == 1 { "" } else { "s" },
        confirmed(Outcome::Win),
        rtcompare_report::parity_counts(judgements),
        if losses == 1 { "" } else { "es" },
        confirmed(Outcome::Loss),
        if out_of_time > 0 { format!(", {out_of_time} out of time to confirm") } else { String::new() },
        if unmeasured > 0 { format!(", {unmeasured} not measured (see failures)") } else { String::new() }
            + &if new > 0 { format!(", {new} new since the baseline revision") } else { String::new() },
        measuring.as_secs_f64()
    ))
}

/// Once a run measured benchmarks alone, the line that says they have no verdict and how to get
/// one against a git revision; `None` when none was.
pub(crate) fn alone_line(tests: &[Test]) -> Option<String> {
    let alone = tests.iter().filter(|test| test.alone.is_some()).count();
    (alone > 0).then(|| {
        format!(
            "rtcompare: {alone} benchmark{} measured alone, without a verdict; to compare each with itself at a git \
             revision, {}",
            if alone == 1 { "" } else { "s" },
            crate::harness::rebuild::revision::run_with()
        )
    })
}

/// Where the results file, the pictures, the Markdown summaries and the continuous-benchmarking
/// files went, one line each.
pub(crate) fn file_lines(written: &Written) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(path) = &written.results {
        let dropped = match written.dropped {
            0 => String::new(),
            n => format!(
                " (it held {n} other comparison{} of an earlier run, which this run did not run; RTCOMPARE_RESULTS \
                 names another file for a filtered run)",
                if n == 1 { "" } else { "s" }
            ),
        };
        lines.push(format!("rtcompare: results file {}{dropped}", shown(path)));
    }
    if let Some(path) = &written.comment {
        lines.push(format!("rtcompare: pull-request comment {}", shown(path)));
    }
    if let Some((dir, count)) = &written.pictures {
        let noun = if *count == 1 { "picture" } else { "pictures" };
        lines.push(format!("rtcompare: {count} {noun} (SVG) in {}{}", shown(dir), std::path::MAIN_SEPARATOR));
    }
    for target in &written.markdown {
        let verb = match target.mode {
            rtcompare_report::Mode::Append => "appended to",
            rtcompare_report::Mode::Replace => "written to",
        };
        lines.push(format!("rtcompare: Markdown summary {verb} {} (${})", shown(&target.path), target.variable));
    }
    for target in &written.tracking {
        lines.push(format!(
            "rtcompare: {} {} (${})",
            target.format.what(),
            shown(&target.path),
            target.format.variable()
        ));
    }
    lines
}

/// The GitHub Actions annotations of `tests` ([`rtcompare_report::annotations`]), each source
/// file named as GitHub knows it.
pub(crate) fn annotation_lines(tests: &[Test]) -> Vec<String> {
    let package = std::env::var_os("CARGO_MANIFEST_DIR").map(std::path::PathBuf::from);
    let repository = std::env::var_os("GITHUB_WORKSPACE").map(std::path::PathBuf::from);
    rtcompare_report::annotations(tests, |file| in_repository(file, package.as_deref(), repository.as_deref()))
}

/// `file` (as `file!()` names it: from the folder rustc ran in, the workspace's root) relative
/// to `repository`, found from the package's folder or one above it; as it is where it cannot
/// be found there.
fn in_repository(file: &str, package: Option<&Path>, repository: Option<&Path>) -> String {
    let found = package.into_iter().flat_map(Path::ancestors).map(|dir| dir.join(file)).find(|path| path.is_file());
    let (Some(found), Some(repository)) = (found, repository) else { return file.to_owned() };
    let canonical = |path: &Path| path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    match canonical(&found).strip_prefix(canonical(repository)) {
        Ok(relative) => relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"),
        Err(_) => file.to_owned(),
    }
}

/// A path relative to the current directory when it lies inside it: shorter to read.
fn shown(path: &Path) -> String {
    let relative = std::env::current_dir().ok().and_then(|dir| path.strip_prefix(dir).ok().map(Path::to_path_buf));
    relative.as_deref().unwrap_or(path).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_annotated_file_is_named_from_the_repository_s_top() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dir = dir.path();
        let (repository, package) = (dir.join("repo"), dir.join("repo/crates/mine"));
        std::fs::create_dir_all(package.join("tests")).expect("folders");
        std::fs::write(package.join("tests/perf.rs"), "").expect("a file");
        // rustc ran in the workspace's root, `repo/crates`, so `file!()` is `mine/tests/perf.rs`.
        let named = |file| in_repository(file, Some(&package), Some(&repository));
        assert_eq!(named("mine/tests/perf.rs"), "crates/mine/tests/perf.rs");
        assert_eq!(named("tests/perf.rs"), "crates/mine/tests/perf.rs", "rustc ran in the package's folder");
        assert_eq!(named("elsewhere.rs"), "elsewhere.rs", "not found: as it is");
        assert_eq!(in_repository("tests/perf.rs", Some(&package), None), "tests/perf.rs", "no repository named");
    }
}
