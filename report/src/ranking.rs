//! Several candidates against one baseline: `#[compare(baseline = x)]` on three functions is
//! three tests, and this puts them in one table, like hyperfine's relative column — each
//! candidate's ratio to the baseline, fastest first, with its direction in words. Only baselines
//! with two or more measured candidates in the run get a table.

use super::run::Test;
use super::text::outcome_line;
use crate::units::pct;
use rtcompare_judge::{Metric, Outcome};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One baseline's candidates, fastest first.
#[derive(Debug)]
pub struct Ranking {
    baseline: String,
    size: Option<u64>,
    metric: Metric,
    rows: Vec<Row>,
}

/// One candidate in its baseline's table.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    candidate: String,
    ratio: f64,
    tolerance: f64,
    verdict: String,
    decided: bool,
}

/// A table for each baseline (in its module, at one size, on one metric) that two or more
/// measured tests of `tests` compare against. A function compared with itself at a git revision
/// shares its baseline with no other test, even where another test's baseline has its name.
pub fn rankings(tests: &[Test]) -> Vec<Ranking> {
    let mut groups: BTreeMap<(&str, &str, Option<u64>, &str), Ranking> = BTreeMap::new();
    for test in tests {
        let Some(judgement) = test.judgement.as_ref().filter(|_| test.revision.is_none()) else { continue };
        let metric = judgement.first.metric;
        let key = (test.baseline.as_str(), test.module_path.as_str(), test.size, metric.as_str());
        let ranking = groups.entry(key).or_insert_with(|| Ranking {
            baseline: test.baseline.clone(),
            size: test.size,
            metric,
            rows: Vec::new(),
        });
        ranking.rows.push(Row {
            candidate: judgement.first.candidate.clone(),
            ratio: judgement.verdict.ratio,
            tolerance: judgement.verdict.tolerance,
            verdict: outcome_line(judgement),
            decided: judgement.verdict.outcome != Outcome::Parity,
        });
    }
    let mut rankings: Vec<Ranking> = groups.into_values().filter(|r| r.rows.len() >= 2).collect();
    for ranking in &mut rankings {
        ranking.rows.sort_by(|a, b| a.ratio.total_cmp(&b.ratio).then_with(|| a.candidate.cmp(&b.candidate)));
    }
    rankings
}

impl Ranking {
    /// `3 candidates against `reference`, fastest first`.
    fn title(&self) -> String {
        let order = match self.metric {
            Metric::Time => "fastest first",
            Metric::AllocBytes => "fewest bytes first",
            Metric::Allocs => "fewest allocations first",
            Metric::Instructions => "fewest instructions first",
        };
        let size = self.size.map_or_else(String::new, |size| format!(" at size {size}"));
        format!("{} candidates against `{}`{size}, {order}", self.rows.len(), self.baseline)
    }

    /// The table for the terminal: a title line, then one indented line per candidate.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        let quantity = super::text::quantity(self.metric);
        // Writing to a String cannot fail; the results are ignored for that reason.
        let _ = writeln!(
            out,
            "rtcompare: {} (ratio = the median of the candidate's {quantity} over the baseline's in the same round, from each candidate's own test):",
            self.title()
        );
        let directions: Vec<String> = self.rows.iter().map(|row| direction(row, self.metric)).collect();
        let name_width = self.rows.iter().map(|row| row.candidate.chars().count()).max().unwrap_or(0);
        let direction_width = directions.iter().map(|d| d.chars().count()).max().unwrap_or(0);
        let ratios: Vec<String> = self.rows.iter().map(|row| ratio_text(row.ratio)).collect();
        let ratio_width = ratios.iter().map(String::len).max().unwrap_or(0);
        for (rank, ((row, direction), ratio)) in self.rows.iter().zip(&directions).zip(&ratios).enumerate() {
            let _ = writeln!(
                out,
                "    {}. {:<name_width$}  {:<direction_width$}  ratio {ratio:<ratio_width$}  {}",
                rank + 1,
                row.candidate,
                direction,
                row.verdict
            );
        }
        out
    }

    /// The table for the Markdown summary: a heading, then one row per candidate.
    pub fn render_markdown(&self) -> String {
        let mut out = String::new();
        let quantity = super::text::quantity(self.metric);
        let _ = writeln!(out, "#### {}\n", self.title());
        let _ = writeln!(out, "| | candidate | against `{}` | ratio (candidate / baseline) | verdict |", self.baseline);
        let _ = writeln!(out, "| --- | --- | --- | --- | --- |");
        for (rank, row) in self.rows.iter().enumerate() {
            let verdict = if row.decided { format!("**{}**", row.verdict) } else { row.verdict.clone() };
            let _ = writeln!(
                out,
                "| {} | `{}` | {} | {} | {verdict} |",
                rank + 1,
                row.candidate,
                direction(row, self.metric),
                ratio_text(row.ratio)
            );
        }
        let _ = writeln!(
            out,
            "\nEach ratio is the median of the candidate's {quantity} over the baseline's in the same round, measured in the candidate's own test."
        );
        out
    }
}

/// Which way the ratio points, in words: `4.00x faster`, `takes 1.30x the baseline's time`,
/// or `same speed within the tolerance (±4.00 %)` when the ratio lies within the tolerance its
/// test was judged against. "1.3x slower" is avoided, as in the verdict blocks: it is read both
/// as "takes 1.3x the time" and as "takes 2.3x the time".
fn direction(row: &Row, metric: Metric) -> String {
    let r = row.ratio;
    let (faster, slower, same, none) = match metric {
        Metric::Time => ("{}x faster", "takes {}x the baseline's time", "same speed", "takes no measurable time"),
        Metric::AllocBytes => {
            ("allocates {}x fewer bytes", "allocates {}x the baseline's bytes", "same bytes", "allocates no bytes")
        }
        Metric::Allocs => (
            "makes {}x fewer allocations",
            "makes {}x the baseline's allocations",
            "same allocations",
            "makes no allocations",
        ),
        Metric::Instructions => (
            "executes {}x fewer instructions",
            "executes {}x the baseline's instructions",
            "same instructions",
            "executes no instructions",
        ),
    };
    let fill = |template: &str, factor: f64| template.replacen("{}", &format!("{factor:.2}"), 1);
    match r {
        r if !r.is_finite() || r < 0.0 => "cannot be compared with the baseline".to_owned(),
        r if (r - 1.0).abs() <= row.tolerance => format!("{same} within the tolerance (±{})", pct(row.tolerance)),
        0.0 => none.to_owned(),
        r if r < 1.0 => fill(faster, 1.0 / r),
        r => fill(slower, r),
    }
}

/// A ratio with three significant digits: `0.250`, `4.01`, `0.000100`.
fn ratio_text(ratio: f64) -> String {
    if !ratio.is_finite() || ratio == 0.0 {
        return format!("{ratio}");
    }
    let decimals = (2 - ratio.abs().log10().floor() as i32).clamp(0, 12) as usize;
    format!("{ratio:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    /// A measured test of `candidate` against `baseline` with the given per-op medians.
    fn test(candidate: &str, baseline: &str, size: Option<u64>, c: f64, b: f64) -> Test {
        let mut report = fixtures::report(c, b);
        report.candidate = candidate.to_owned();
        report.baseline = baseline.to_owned();
        let name = format!("perf::{candidate}_vs_{baseline}");
        Test {
            candidate: candidate.to_owned(),
            baseline: baseline.to_owned(),
            size,
            ..fixtures::measured(&name, report)
        }
    }

    fn three_against_reference() -> Vec<Test> {
        vec![
            test("four_times", "reference", None, 400.0, 100.0),
            test("quarter", "reference", None, 25.0, 100.0),
            test("same", "reference", None, 100.0, 100.0),
            // A baseline with one candidate gets no table.
            test("alone", "other", None, 50.0, 100.0),
        ]
    }

    #[test]
    fn only_baselines_with_several_candidates_get_a_table_sorted_fastest_first() {
        let records = three_against_reference();
        let tables = rankings(&records);
        assert_eq!(tables.len(), 1, "{tables:?}");
        let order: Vec<&str> = tables[0].rows.iter().map(|row| row.candidate.as_str()).collect();
        assert_eq!(order, ["quarter", "same", "four_times"]);
        let mut records = records;
        records.push(fixtures::panicked("perf::boom_vs_reference"));
        assert_eq!(rankings(&records).len(), 1, "a test that measured nothing is left out");
        // `reference` against itself at a revision (a criterion group's baseline function, whose
        // other functions are paired with it) is not a candidate against `reference`.
        let mut itself = test("reference", "reference", None, 100.0, 100.0);
        itself.revision = Some(crate::Revision { name: "main".to_owned(), commit: "abc".to_owned() });
        records.push(itself);
        assert_eq!(rankings(&records)[0].rows.len(), 3, "{:?}", rankings(&records));
    }

    #[test]
    fn the_terminal_table_states_every_direction_in_words() {
        let records = three_against_reference();
        let text = rankings(&records)[0].render_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].starts_with("rtcompare: 3 candidates against `reference`, fastest first (ratio = "), "{text}");
        let expect = [
            // The fixtures' series wobble out of phase, so the paired median ratio is not 1/4 exactly.
            ("    1. quarter ", "4.04x faster", "ratio 0.248", "win (resolved)"),
            (
                "    2. same ",
                "same speed within the tolerance (±",
                "ratio 0.990",
                "parity (established in one process)",
            ),
            ("    3. four_times ", "takes 3.96x the baseline's time", "ratio 3.96", "loss (resolved)"),
        ];
        for (line, parts) in lines[1..].iter().zip(expect) {
            for part in [parts.0, parts.1, parts.2, parts.3] {
                assert!(line.contains(part), "missing {part:?} in {line:?}\n{text}");
            }
        }
        // The columns line up.
        // The columns line up: each line's ratio and verdict start at the same character.
        let column = |words: [&str; 3]| -> Vec<Option<usize>> {
            words.iter().zip(&lines[1..]).map(|(word, l)| l.find(word).map(|at| l[..at].chars().count())).collect()
        };
        for words in [["ratio "; 3], ["win (", "parity (", "loss ("]] {
            let at = column(words);
            assert!(at[0].is_some() && at.windows(2).all(|w| w[0] == w[1]), "{words:?} at {at:?}\n{text}");
        }
    }

    #[test]
    fn the_markdown_table_has_one_row_per_candidate_in_order() {
        let records = three_against_reference();
        let markdown = rankings(&records)[0].render_markdown();
        assert!(markdown.starts_with("#### 3 candidates against `reference`, fastest first\n\n"), "{markdown}");
        let rows: Vec<&str> = markdown.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(rows[0], "| | candidate | against `reference` | ratio (candidate / baseline) | verdict |");
        assert_eq!(rows[2], "| 1 | `quarter` | 4.04x faster | 0.248 | **win (resolved)** |");
        assert!(
            rows[3].starts_with("| 2 | `same` | same speed within the tolerance (±")
                && rows[3].ends_with("| parity (established in one process) |"),
            "{markdown}"
        );
        assert_eq!(rows[4], "| 3 | `four_times` | takes 3.96x the baseline's time | 3.96 | **loss (resolved)** |");
        assert_eq!(rows.len(), 5, "{markdown}");
    }

    #[test]
    fn sizes_get_a_table_each() {
        let records = [
            test("a", "reference", Some(10), 25.0, 100.0),
            test("b", "reference", Some(10), 50.0, 100.0),
            test("a", "reference", Some(1000), 25.0, 100.0),
        ];
        let tables = rankings(&records);
        assert_eq!(tables.len(), 1);
        assert!(
            tables[0]
                .render_text()
                .starts_with("rtcompare: 2 candidates against `reference` at size 10, fastest first")
        );
    }

    #[test]
    fn directions_read_one_way_for_every_metric() {
        let row = |ratio: f64| Row {
            candidate: "c".to_owned(),
            ratio,
            tolerance: 0.04,
            verdict: String::new(),
            decided: false,
        };
        assert_eq!(direction(&row(0.5), Metric::Time), "2.00x faster");
        assert_eq!(direction(&row(1.3), Metric::Time), "takes 1.30x the baseline's time");
        assert_eq!(direction(&row(1.03), Metric::Time), "same speed within the tolerance (±4.00 %)");
        assert_eq!(direction(&row(0.97), Metric::Time), "same speed within the tolerance (±4.00 %)");
        assert_eq!(direction(&row(0.5), Metric::AllocBytes), "allocates 2.00x fewer bytes");
        assert_eq!(direction(&row(2.0), Metric::Allocs), "makes 2.00x the baseline's allocations");
        assert_eq!(direction(&row(0.0), Metric::Allocs), "makes no allocations");
        assert_eq!(direction(&row(f64::NAN), Metric::Time), "cannot be compared with the baseline");
    }

    #[test]
    fn ratios_keep_three_significant_digits() {
        assert_eq!(ratio_text(0.25), "0.250");
        assert_eq!(ratio_text(4.0123), "4.01");
        assert_eq!(ratio_text(0.0001), "0.000100");
        assert_eq!(ratio_text(8174.2), "8174");
    }
}
