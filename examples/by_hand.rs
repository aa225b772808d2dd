//! The protocol without the macro: `rtcompare::compare` on two closures, then the steps one by
//! one on the same samples.
//!
//! ```sh
//! cargo run --release --example by_hand
//! ```

use rtcompare::stats::{Summary, bootstrap_difference, choose_resampling, detect_drift, paired_ratios};
use rtcompare::{Arm, Options, compare, report::Detail, report::render_text};
use std::hint::black_box;
use std::time::Duration;

fn main() {
    let data: Vec<u64> = (0..4_096).collect();
    let scan = Arm::from_fn("scan", || data.iter().position(|&x| x == black_box(3_000)));
    let bisect = Arm::from_fn("bisect", || data.binary_search(&black_box(3_000)).ok());
    let options = Options { budget: Duration::from_millis(500), ..Options::default() };
    let report = compare(bisect, scan, &options);
    println!("bisect vs scan:\n{}", render_text(&report, Detail::Verbose));

    // The same samples, step by step.
    let c = &report.samples.candidate.per_op;
    let b = &report.samples.baseline.per_op;
    let ratios = paired_ratios(c, b);
    let scheme = choose_resampling(&ratios);
    let bootstrap = bootstrap_difference(&ratios, scheme, 0.95, 5_000, 1);
    println!("median candidate {:.1} ns, baseline {:.1} ns", Summary::of(c).median, Summary::of(b).median);
    println!(
        "difference {:+.4} in [{:+.4}, {:+.4}]",
        bootstrap.estimate.difference, bootstrap.estimate.low, bootstrap.estimate.high
    );
    println!("confidence it is at least 50 % faster: {:.3}", bootstrap.confidence(0.5));
    println!("ratio drift: rho {:+.3}, p {:.3}", detect_drift(&ratios, 0.05).rho, detect_drift(&ratios, 0.05).p_value);
}
