//! One picture per comparison, for people who would rather look than read figures: both arms'
//! per-op values as dots on a shared axis with their medians and middle halves, and below them
//! the bootstrap interval of the difference against the ±tolerance band. Plain SVG, written by
//! hand; any browser or CI page shows it.

mod scale;

use super::text::{factor_words, outcome_line};
use crate::units::{format_value, signed_pct};
use rtcompare_judge::Metric;
use rtcompare_judge::stats::{Outcome, quantile_sorted, sorted_copy};
use rtcompare_judge::verdict::Judgement;
use rtcompare_judge::verdict::Report;
use scale::{LEFT, LinearScale, RIGHT, ValueScale, WIDTH, trim_number};
use std::fmt::Write;

const HEIGHT: f64 = 485.0;
const CANDIDATE_ROW: f64 = 140.0;
const BASELINE_ROW: f64 = 215.0;
/// Half the height of an arm's row.
const ROW: f64 = 28.0;
const VALUE_AXIS: f64 = 255.0;
const INTERVAL_ROW: f64 = 360.0;
const DIFFERENCE_AXIS: f64 = 390.0;
const LEGEND: f64 = 462.0;

const CANDIDATE: &str = "#1f77b4";
const CANDIDATE_DARK: &str = "#0b3c66";
const BASELINE: &str = "#e6750a";
const BASELINE_DARK: &str = "#8a4100";
const GREY: &str = "#555555";

/// Renders a comparison as an SVG picture titled `title` (usually the test name).
///
/// ```
/// use rtcompare::{JudgeOptions, Metric, judge};
/// use rtcompare::report::{Calibration, Samples, Series};
/// let series = |ns: f64| Series {
///     per_op: (0..40).map(|i| ns + (i % 5) as f64).collect(),
///     position: (0..40).collect(),
///     placements: Vec::new(),
/// };
/// let samples = Samples { candidate_iters: 100, baseline_iters: 100, candidate: series(50.0),
///     candidate_twin: series(50.0), baseline: series(100.0), baseline_twin: series(100.0) };
/// let calibration = Calibration { resolution: 20.0, clock_step_ns: 20.0, candidate_iters: 100,
///     baseline_iters: 100, target_batch_ns: 20_000.0, candidate_batch_ns: 5_000.0,
///     baseline_batch_ns: 10_000.0, first_call_ns: 0.0 };
/// let report = judge("new", "old", Metric::Time, calibration, samples, &JudgeOptions::default());
/// let svg = rtcompare::report::render_svg(&report, "new_vs_old");
/// assert!(svg.starts_with("<svg") && svg.contains("new_vs_old: win"));
/// ```
pub fn render_svg(report: &Report, title: &str) -> String {
    picture(&Judgement::of(report.clone()), title)
}

/// The picture of a comparison's judgement, titled `title`.
pub(crate) fn picture(judgement: &Judgement, title: &str) -> String {
    let report = &judgement.first;
    let mut svg = String::new();
    // Writing to a String cannot fail; the results are ignored for that reason.
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12" fill="#222222">"##
    );
    let _ = write!(svg, r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##);
    heading(&mut svg, judgement, title);
    let values = ValueScale::new(report);
    arm_rows(&mut svg, report, &values);
    difference(&mut svg, judgement);
    legend(&mut svg);
    svg.push_str("</svg>\n");
    svg
}

/// The test name as a file name: letters, digits, `-`, `_` and `.` kept, anything else `_`.
pub(crate) fn file_stem(name: &str) -> String {
    let stem: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).take(200).collect();
    if stem.is_empty() || stem.starts_with('.') { format!("_{stem}") } else { stem }
}

fn verdict_colour(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win => "#1b7f3b",
        Outcome::Loss => "#c62828",
        Outcome::Parity => GREY,
    }
}

fn heading(svg: &mut String, judgement: &Judgement, title: &str) {
    let (v, report) = (&judgement.verdict, &judgement.first);
    let colour = verdict_colour(v.outcome);
    let outcome = outcome_line(judgement);
    let _ = write!(svg, "<title>{}: {}</title>", escape(title), escape(&outcome));
    let _ = write!(
        svg,
        r#"<text id="title" x="20" y="30" font-size="16" font-weight="bold">{}: <tspan fill="{colour}">{}</tspan></text>"#,
        escape(title),
        escape(&outcome)
    );
    let _ = write!(
        svg,
        r#"<text x="20" y="52" font-size="13">the candidate {}; ratio {:.3} (best {:.3}), tolerance ±{:.2} %</text>"#,
        escape(&factor_words(report.estimate.difference, report.metric)),
        v.ratio,
        v.best_ratio,
        v.tolerance * 100.0
    );
}

/// The dots, middle halves and medians of both arms, and their shared value axis.
fn arm_rows(svg: &mut String, report: &Report, scale: &ValueScale) {
    let _ = write!(
        svg,
        r#"<text x="{LEFT}" y="86" fill="{GREY}">per-operation values, one dot per round ({} rounds, {})</text>"#,
        report.samples.rounds(),
        batch_words(report)
    );
    let arms = [
        ("candidate", &report.candidate, &report.samples.candidate.per_op, CANDIDATE_ROW, CANDIDATE, CANDIDATE_DARK),
        ("baseline", &report.baseline, &report.samples.baseline.per_op, BASELINE_ROW, BASELINE, BASELINE_DARK),
    ];
    for (role, name, values, row, colour, dark) in arms {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end" font-weight="bold" fill="{dark}">{role}</text><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LEFT - 14.0,
            row - 3.0,
            LEFT - 14.0,
            row + 13.0,
            escape(&shorten(name, 26))
        );
        spread(svg, role, values, row, colour, scale);
        dots(svg, role, values, row, colour, scale);
        median_mark(svg, role, values, row, dark, scale);
    }
    value_axis(svg, scale);
}

/// `50 ops per batch`, or both sizes when the arms' batches differ.
fn batch_words(report: &Report) -> String {
    let (c, b) = (report.samples.candidate_iters, report.samples.baseline_iters);
    if c == b { format!("{c} ops per batch") } else { format!("batches of {c} candidate and {b} baseline ops") }
}

/// The middle half of an arm's values (first to third quartile) as a pale box.
fn spread(svg: &mut String, role: &str, values: &[f64], row: f64, colour: &str, scale: &ValueScale) {
    let sorted = sorted_copy(values);
    let (q1, q3) = (scale.x(quantile_sorted(&sorted, 0.25)), scale.x(quantile_sorted(&sorted, 0.75)));
    let _ = write!(
        svg,
        r#"<rect id="{role}-spread" x="{q1:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{colour}" fill-opacity="0.12" stroke="{colour}" stroke-opacity="0.5"/>"#,
        row - ROW,
        (q3 - q1).max(1.0),
        2.0 * ROW
    );
}

/// One dot per round, spread vertically by a fixed pseudo-random jitter so equal values stay
/// visible; values beyond the axis are counted at its right end.
fn dots(svg: &mut String, role: &str, values: &[f64], row: f64, colour: &str, scale: &ValueScale) {
    let _ = write!(svg, r#"<g id="{role}-dots" fill="{colour}" fill-opacity="0.45">"#);
    let mut beyond = 0;
    for (i, &value) in values.iter().enumerate() {
        if !value.is_finite() {
            continue;
        }
        if value > scale.high {
            beyond += 1;
            continue;
        }
        let _ =
            write!(svg, r#"<circle cx="{:.1}" cy="{:.1}" r="2.2"/>"#, scale.x(value), row + jitter(i) * (ROW - 4.0));
    }
    svg.push_str("</g>");
    if beyond > 0 {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" fill="{colour}">▸ {beyond} beyond</text>"#,
            RIGHT + 4.0,
            row + 4.0
        );
    }
}

fn median_mark(svg: &mut String, role: &str, values: &[f64], row: f64, dark: &str, scale: &ValueScale) {
    let median = rtcompare_judge::stats::median(values);
    let x = scale.x(median);
    let _ = write!(
        svg,
        r#"<line id="{role}-median" x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="{dark}" stroke-width="3"/>"#,
        row - ROW - 2.0,
        row + ROW + 2.0
    );
    let anchor = text_anchor(x, 60.0);
    let _ = write!(
        svg,
        r#"<text x="{x:.1}" y="{:.1}" text-anchor="{anchor}" font-weight="bold" fill="{dark}">median {}</text>"#,
        row - ROW - 6.0,
        escape(&format_value(median, scale.metric))
    );
}

fn value_axis(svg: &mut String, scale: &ValueScale) {
    axis_line(svg, VALUE_AXIS);
    for tick in scale.ticks() {
        let x = scale.x(tick);
        tick_mark(svg, x, VALUE_AXIS, &scale.label(tick));
    }
    let _ = write!(
        svg,
        r#"<text id="value-axis-label" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        (LEFT + RIGHT) / 2.0,
        VALUE_AXIS + 34.0,
        escape(&scale.title())
    );
}

/// The interval of `d` (positive = candidate ahead) over the ±tolerance band and zero.
fn difference(svg: &mut String, judgement: &Judgement) {
    let (v, report) = (&judgement.verdict, &judgement.first);
    let e = &report.estimate;
    let _ = write!(
        svg,
        r#"<text x="{LEFT}" y="316" fill="{GREY}">difference d = 1 − median(candidate / baseline) per round, {} interval</text>"#,
        crate::units::level_pct(e.level)
    );
    let scale = LinearScale::fitting(&[e.low, e.high, e.difference, v.tolerance, -v.tolerance, 0.0], 0.08);
    let (band_left, band_right) = (scale.x(-v.tolerance), scale.x(v.tolerance));
    let _ = write!(
        svg,
        r##"<rect id="tolerance-band" x="{band_left:.1}" y="{:.1}" width="{:.1}" height="36" fill="#9e9e9e" fill-opacity="0.3"/>"##,
        INTERVAL_ROW - 18.0,
        (band_right - band_left).max(1.0)
    );
    let zero = scale.x(0.0);
    let _ = write!(
        svg,
        r#"<line x1="{zero:.1}" y1="{:.1}" x2="{zero:.1}" y2="{DIFFERENCE_AXIS}" stroke="{GREY}" stroke-dasharray="4 3"/>"#,
        INTERVAL_ROW - 20.0
    );
    interval(svg, judgement, &scale);
    axis_line(svg, DIFFERENCE_AXIS);
    for tick in scale.ticks() {
        tick_mark(svg, scale.x(tick), DIFFERENCE_AXIS, &format!("{} %", trim_number(tick * 100.0, scale.step * 100.0)));
    }
    let (worse, better) = match report.metric {
        Metric::Time => ("slower", "faster"),
        Metric::AllocBytes | Metric::Allocs => ("allocates more", "allocates less"),
        Metric::Instructions => ("executes more", "executes less"),
    };
    // The value axis above puts a faster candidate on the left, this one on the right: say so.
    let y = DIFFERENCE_AXIS + 34.0;
    let _ = write!(
        svg,
        r#"<text id="difference-axis-label" x="{:.1}" y="{y}" text-anchor="middle">difference d (%)</text><text x="{LEFT}" y="{y}" fill="{GREY}">← candidate {worse}</text><text x="{RIGHT}" y="{y}" text-anchor="end" fill="{GREY}">candidate {better} →</text>"#,
        (LEFT + RIGHT) / 2.0,
    );
}

fn interval(svg: &mut String, judgement: &Judgement, scale: &LinearScale) {
    let e = &judgement.first.estimate;
    let colour = verdict_colour(judgement.verdict.outcome);
    let (low, high, point, y) = (scale.x(e.low), scale.x(e.high), scale.x(e.difference), INTERVAL_ROW);
    let _ = write!(
        svg,
        r#"<g id="interval" stroke="{colour}" stroke-width="3"><line x1="{low:.1}" y1="{y}" x2="{high:.1}" y2="{y}"/><line x1="{low:.1}" y1="{:.1}" x2="{low:.1}" y2="{:.1}"/><line x1="{high:.1}" y1="{:.1}" x2="{high:.1}" y2="{:.1}"/><circle cx="{point:.1}" cy="{y}" r="5" fill="{colour}"/></g>"#,
        y - 8.0,
        y + 8.0,
        y - 8.0,
        y + 8.0
    );
    let anchor = text_anchor(point, 120.0);
    let _ = write!(
        svg,
        r#"<text x="{point:.1}" y="{:.1}" text-anchor="{anchor}" font-weight="bold" fill="{colour}">d = {} [{}, {}]</text>"#,
        y - 24.0,
        signed_pct(e.difference),
        signed_pct(e.low),
        signed_pct(e.high)
    );
}

fn legend(svg: &mut String) {
    let _ = write!(svg, r#"<g id="legend" transform="translate({LEFT},{LEGEND})">"#);
    let items: [(&str, String); 6] = [
        ("candidate", format!(r#"<circle cx="6" cy="-4" r="4" fill="{CANDIDATE}"/>"#)),
        ("baseline", format!(r#"<circle cx="6" cy="-4" r="4" fill="{BASELINE}"/>"#)),
        ("median", format!(r#"<line x1="6" y1="-12" x2="6" y2="4" stroke="{GREY}" stroke-width="3"/>"#)),
        (
            "middle half",
            format!(
                r#"<rect x="0" y="-11" width="12" height="14" fill="{GREY}" fill-opacity="0.15" stroke="{GREY}"/>"#
            ),
        ),
        ("interval of d", format!(r#"<line x1="0" y1="-4" x2="14" y2="-4" stroke="{GREY}" stroke-width="3"/>"#)),
        (
            "±tolerance",
            r##"<rect x="0" y="-11" width="14" height="14" fill="#9e9e9e" fill-opacity="0.3"/>"##.to_owned(),
        ),
    ];
    let mut x = 0.0;
    for (label, mark) in items {
        let _ = write!(svg, r#"<g transform="translate({x},0)">{mark}<text x="20" y="0">{label}</text></g>"#);
        // About 6.5 px a character at 12 px: a fixed gap after each label.
        x += 20.0 + 6.5 * label.chars().count() as f64 + 28.0;
    }
    svg.push_str("</g>");
}

fn axis_line(svg: &mut String, y: f64) {
    let _ = write!(svg, r#"<line x1="{LEFT}" y1="{y}" x2="{RIGHT}" y2="{y}" stroke="{GREY}"/>"#);
}

fn tick_mark(svg: &mut String, x: f64, y: f64, label: &str) {
    let _ = write!(
        svg,
        r#"<line x1="{x:.1}" y1="{y}" x2="{x:.1}" y2="{:.1}" stroke="{GREY}"/><text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="{GREY}">{}</text>"#,
        y + 5.0,
        y + 18.0,
        escape(label)
    );
}

/// A value in −1..1 for dot `i`: a fixed hash, so the same samples always draw the same picture.
fn jitter(i: usize) -> f64 {
    let mut z = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

fn shorten(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return name.to_owned();
    }
    let tail: String = name.chars().rev().take(max - 1).collect::<Vec<_>>().into_iter().rev().collect();
    format!("…{tail}")
}

/// Text safe inside an XML element or attribute.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// How a label of about `half` the plot's units either side of `x` is anchored so that it stays
/// inside the plot: from its start near the left edge, from its end near the right one.
fn text_anchor(x: f64, half: f64) -> &'static str {
    if x < LEFT + half {
        "start"
    } else if x > RIGHT - half {
        "end"
    } else {
        "middle"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures;

    fn parse(svg: &str) -> roxmltree::Document<'_> {
        roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}\n{svg}"))
    }

    fn by_id<'a>(doc: &'a roxmltree::Document<'a>, id: &str) -> roxmltree::Node<'a, 'a> {
        doc.descendants().find(|n| n.attribute("id") == Some(id)).unwrap_or_else(|| panic!("no element #{id}"))
    }

    fn text_of(node: roxmltree::Node<'_, '_>) -> String {
        node.descendants().filter(|n| n.is_text()).filter_map(|n| n.text()).collect()
    }

    #[test]
    fn the_picture_is_well_formed_with_every_part() {
        let report = fixtures::report(25.0, 100.0);
        let svg = render_svg(&report, "perf::fast_vs_slow<u32> & co");
        let doc = parse(&svg);
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert_eq!(text_of(by_id(&doc, "title")), "perf::fast_vs_slow<u32> & co: win (resolved)");
        for arm in ["candidate", "baseline"] {
            let dots = by_id(&doc, &format!("{arm}-dots"));
            assert_eq!(dots.children().filter(|n| n.has_tag_name("circle")).count(), fixtures::ROUNDS);
            by_id(&doc, &format!("{arm}-median"));
            by_id(&doc, &format!("{arm}-spread"));
        }
        assert!(by_id(&doc, "interval").children().any(|n| n.has_tag_name("line")));
        assert!(by_id(&doc, "tolerance-band").has_tag_name("rect"));
        assert_eq!(text_of(by_id(&doc, "value-axis-label")), "time per operation (ns)");
        assert_eq!(text_of(by_id(&doc, "difference-axis-label")), "difference d (%)");
        assert!(svg.contains("← candidate slower") && svg.contains("candidate faster →"));
        let legend = text_of(by_id(&doc, "legend"));
        for entry in ["candidate", "baseline", "median", "interval of d", "±tolerance"] {
            assert!(legend.contains(entry), "{legend}");
        }
    }

    #[test]
    fn the_candidate_sits_left_of_the_baseline_when_faster() {
        let report = fixtures::report(25.0, 100.0);
        let doc_text = render_svg(&report, "t");
        let doc = parse(&doc_text);
        let x = |id: &str| by_id(&doc, id).attribute("x1").unwrap().parse::<f64>().unwrap();
        assert!(x("candidate-median") < x("baseline-median"));
        assert!((LEFT..=RIGHT).contains(&x("candidate-median")) && (LEFT..=RIGHT).contains(&x("baseline-median")));
    }

    #[test]
    fn far_apart_arms_get_a_logarithmic_axis() {
        let report = fixtures::report(10.0, 1000.0);
        let svg = render_svg(&report, "t");
        let doc = parse(&svg);
        assert_eq!(text_of(by_id(&doc, "value-axis-label")), "time per operation (logarithmic scale)");
        for tick in ["10 ns", "100 ns", "1 µs"] {
            assert!(svg.contains(&format!(">{tick}</text>")), "no tick {tick}");
        }
    }

    #[test]
    fn file_names_keep_only_safe_characters() {
        assert_eq!(file_stem("perf::sort_vs_bubble/1000"), "perf__sort_vs_bubble_1000");
        assert_eq!(file_stem("a<u32> b"), "a_u32__b");
        assert_eq!(file_stem(".hidden"), "_.hidden");
    }
}
