//! A nested module (`text::join`): two ways to join numbers with commas.

use std::fmt::Write;

/// Joins `0..n` with commas through `format!` and `Vec::join`.
pub fn join_by_format(n: u32) -> String {
    (0..n).map(|i| format!("{i}")).collect::<Vec<_>>().join(",")
}

/// Joins `0..n` with commas into one pre-sized buffer.
pub fn join_by_write(n: u32) -> String {
    let mut out = String::with_capacity(n as usize * 4);
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{i}");
    }
    out
}

#[cfg(feature = "perf")]
fn joined_with_format() -> String {
    join_by_format(std::hint::black_box(200))
}

#[cfg(feature = "perf")]
#[rtcompare::compare(baseline = joined_with_format, name = "text::join::write_vs_format")]
fn joined_with_write() -> String {
    join_by_write(std::hint::black_box(200))
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_joins_agree() {
        assert_eq!(super::join_by_format(12), super::join_by_write(12));
    }
}
