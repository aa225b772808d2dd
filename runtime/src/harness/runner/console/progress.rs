//! A progress line on stderr while a comparison measures, for people watching a terminal: one
//! line redrawn in place at most ten times a second and cleared when the comparison ends.
//! Nothing at all when stderr is not a terminal, so CI logs and pipes stay clean.

use std::io::{IsTerminal, Write};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The comparison being measured, if any: the hook is a plain `fn(f64)`, so the name it shows
/// has to live here.
static CURRENT: Mutex<Option<Line>> = Mutex::new(None);

/// Redraws closer together than this would only flicker (and cost the measurement time).
const REDRAW_EVERY: Duration = Duration::from_millis(100);

/// Longer names keep their end, so the line fits an 80-column terminal without wrapping (a
/// wrapped line cannot be redrawn in place).
const NAME_WIDTH: usize = 38;

const BAR_WIDTH: usize = 20;

struct Line {
    name: String,
    drawn_at: Option<Instant>,
}

/// Shows progress under `name` until the returned guard is dropped, which clears the line.
pub(crate) fn measuring(name: &str) -> Measuring {
    *current() = Some(Line { name: name.to_owned(), drawn_at: None });
    Measuring(())
}

/// Clears the progress line when dropped.
pub(crate) struct Measuring(());

impl Measuring {
    /// The progress callback for [`Options::progress`](crate::Options::progress): draws this
    /// comparison's line when stderr is a terminal, `None` otherwise.
    pub(crate) fn hook(&self) -> Option<fn(f64)> {
        std::io::stderr().is_terminal().then_some(draw as fn(f64))
    }
}

impl Drop for Measuring {
    fn drop(&mut self) {
        if current().take().is_some_and(|line| line.drawn_at.is_some()) {
            let mut stderr = std::io::stderr().lock();
            let _ = write!(stderr, "\r\x1b[2K");
            let _ = stderr.flush();
        }
    }
}

fn current() -> MutexGuard<'static, Option<Line>> {
    CURRENT.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn draw(fraction: f64) {
    let mut current = current();
    let Some(line) = current.as_mut() else { return };
    let now = Instant::now();
    if line.drawn_at.is_some_and(|at| now.duration_since(at) < REDRAW_EVERY) {
        return;
    }
    line.drawn_at = Some(now);
    let mut stderr = std::io::stderr().lock();
    // Progress is a courtesy: a terminal that cannot take it must not fail the run.
    let _ = write!(stderr, "\r\x1b[2K{}", render(&line.name, fraction));
    let _ = stderr.flush();
}

/// `measuring perf::sort_vs_bubble  [########            ]  42 %`.
fn render(name: &str, fraction: f64) -> String {
    let fraction = if fraction.is_finite() { fraction.clamp(0.0, 1.0) } else { 0.0 };
    let filled = (fraction * BAR_WIDTH as f64).round() as usize;
    let count = name.chars().count();
    let name: String = if count > NAME_WIDTH {
        format!("…{}", name.chars().skip(count - (NAME_WIDTH - 1)).collect::<String>())
    } else {
        name.to_owned()
    };
    format!("measuring {name}  [{}{}] {:>3.0} %", "#".repeat(filled), " ".repeat(BAR_WIDTH - filled), fraction * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_the_name_a_bar_and_the_share_done() {
        assert_eq!(
            render("perf::a_vs_b", 0.5),
            format!("measuring perf::a_vs_b  [{}{}]  50 %", "#".repeat(10), " ".repeat(10))
        );
        assert_eq!(render("x", 7.0), format!("measuring x  [{}] 100 %", "#".repeat(20)));
        assert_eq!(render("x", f64::NAN), format!("measuring x  [{}]   0 %", " ".repeat(20)));
    }

    #[test]
    fn long_names_keep_their_end_and_the_line_fits_80_columns() {
        let name = format!("perf::{}_vs_reference", "very_long_candidate_name_".repeat(4));
        let line = render(&name, 0.3);
        assert!(line.chars().count() <= 80, "{line}");
        assert!(line.contains("…") && line.contains("_vs_reference  ["), "{line}");
    }
}
