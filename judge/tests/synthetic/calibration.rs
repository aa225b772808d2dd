//! Calibration of the statistical engine on synthetic data with a known truth.
//!
//! Measures the figures that `synthetic::statistics` asserts, with more data sets and more
//! sample sizes, prints them as a table and writes them as Markdown. A test that asserts
//! nothing and takes minutes, so it is ignored unless asked for:
//!
//! ```text
//! cargo test --release -p rtcompare-judge --test synthetic calibration -- --ignored --nocapture
//! ```
//!
//! The Markdown goes to `target/rtcompare/calibration.md` in the workspace, or to the path in
//! `CALIBRATION_OUTPUT`. Every data set has its own seed derived from its index, so the figures do
//! not depend on the number of threads used.

use std::fmt::Write as _;
use std::time::Instant;

use super::{ar1, normal, paired_rounds};
use rtcompare_judge::Dprng;
use rtcompare_judge::stats::{
    DEFAULT_RESAMPLES, DRIFT_ALPHA, Resampling, block_length, bootstrap_difference, choose_resampling, detect_drift,
    paired_ratios,
};
use rtcompare_judge::validate::{ValidationOptions, validate_harness};

/// Runs `trial(index)` for `count` indices on all cores and returns how many returned true.
fn count_parallel(count: usize, trial: impl Fn(usize) -> bool + Sync) -> usize {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|thread| {
                let trial = &trial;
                scope.spawn(move || (thread..count).step_by(threads).filter(|&i| trial(i)).count())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    })
}

/// A generator for data set `index` of experiment `experiment`.
fn rng_for(experiment: u64, index: usize) -> Dprng {
    Dprng::new(experiment.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64)
}

/// One measured figure.
struct Figure {
    property: String,
    data: String,
    value: String,
    target: &'static str,
}

fn coverage(n: usize, rho: f64, data_sets: usize, experiment: u64) -> f64 {
    let delta = 0.05;
    let covered = count_parallel(data_sets, |i| {
        let mut rng = rng_for(experiment, i);
        let (c, b) = paired_rounds(n, delta, rho, 0.03, &mut rng);
        let ratios = paired_ratios(&c, &b);
        let boot = bootstrap_difference(&ratios, choose_resampling(&ratios), 0.95, DEFAULT_RESAMPLES, i as u64);
        !boot.estimate.excludes(delta)
    });
    covered as f64 / data_sets as f64
}

fn false_signals(rho: f64, data_sets: usize, force_iid: bool) -> f64 {
    let signals = count_parallel(data_sets, |i| {
        let mut rng = rng_for(30, i);
        let (c, b) = paired_rounds(200, 0.0, rho, 0.03, &mut rng);
        let ratios = paired_ratios(&c, &b);
        let scheme = if force_iid { Resampling::Iid } else { choose_resampling(&ratios) };
        bootstrap_difference(&ratios, scheme, 0.95, DEFAULT_RESAMPLES, i as u64).estimate.excludes(0.0)
    });
    signals as f64 / data_sets as f64
}

fn drift_rate(n: usize, series: usize, trend: f64, tied: bool, experiment: u64) -> f64 {
    let flagged = count_parallel(series, |i| {
        let mut rng = rng_for(experiment, i);
        let values: Vec<f64> = (0..n)
            .map(|j| {
                let level = 1.0 + trend * j as f64 / (n - 1).max(1) as f64;
                if tied {
                    // A coarse clock: five possible readings.
                    (100 + rng.below(5)) as f64 * level
                } else {
                    100.0 * level * (0.02 * normal(&mut rng)).exp()
                }
            })
            .collect();
        let drift = detect_drift(&values, DRIFT_ALPHA);
        drift.drifted && (trend == 0.0 || drift.rho > 0.0)
    });
    flagged as f64 / series as f64
}

/// Trend-free series whose 2 % log-noise follows AR(1) with correlation `rho`: how often drift
/// is reported.
fn drift_rate_ar1(rho: f64, n: usize, series: usize, experiment: u64) -> f64 {
    let flagged = count_parallel(series, |i| {
        let mut rng = rng_for(experiment, i);
        let values: Vec<f64> = ar1(n, rho, 0.02, &mut rng).iter().map(|x| 100.0 * x.exp()).collect();
        detect_drift(&values, DRIFT_ALPHA).drifted
    });
    flagged as f64 / series as f64
}

fn floor_exceedance(data_sets: usize) -> (f64, f64) {
    let floors: Vec<f64> = (0..data_sets)
        .map(|i| {
            let mut rng = rng_for(50, i);
            let (p, t) = paired_rounds(200, 0.0, 0.0, 0.03, &mut rng);
            let options = ValidationOptions { seed: i as u64, resamples: 2_000, ..ValidationOptions::default() };
            validate_harness(&p, &t, &options).noise_floor
        })
        .collect();
    let exceeded = count_parallel(data_sets, |i| {
        let mut rng = rng_for(51, i);
        let (a, b) = paired_rounds(200, 0.0, 0.0, 0.03, &mut rng);
        let apparent = 1.0 - rtcompare_judge::stats::median(&paired_ratios(&a, &b));
        apparent.abs() > floors[i]
    });
    (floors.iter().sum::<f64>() / data_sets as f64, exceeded as f64 / data_sets as f64)
}

fn typical_block_length(rho: f64, n: usize) -> usize {
    let mut lengths: Vec<usize> = (0..51)
        .map(|i| {
            let mut rng = rng_for(60, i);
            block_length(&ar1(n, rho, 1.0, &mut rng))
        })
        .collect();
    lengths.sort_unstable();
    lengths[lengths.len() / 2]
}

fn bootstrap_time(n: usize) -> f64 {
    let mut rng = Dprng::new(70);
    let ratios: Vec<f64> = (0..n).map(|_| (0.03 * normal(&mut rng)).exp()).collect();
    let repeats = 10;
    let start = Instant::now();
    for seed in 0..repeats {
        std::hint::black_box(bootstrap_difference(&ratios, Resampling::Iid, 0.95, DEFAULT_RESAMPLES, seed));
    }
    start.elapsed().as_secs_f64() / repeats as f64
}

fn percent(x: f64) -> String {
    format!("{:.2} %", x * 100.0)
}

#[test]
#[ignore = "prints the calibration figures, in minutes: run with --ignored --nocapture, in release"]
fn calibration() {
    let output = std::env::var("CALIBRATION_OUTPUT")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/rtcompare/calibration.md").to_owned());
    let started = Instant::now();
    let mut table = Table::default();
    coverage_figures(&mut table);
    drift_figures(&mut table);
    floor_and_block_figures(&mut table);
    let markdown = table.markdown(started);
    let written = std::path::Path::new(&output)
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&output, &markdown));
    match written {
        Ok(()) => println!("\nwritten to {output} in {:.0} s", started.elapsed().as_secs_f64()),
        Err(error) => panic!("could not write {output}: {error}"),
    }
}

/// The figures so far, printed as they are added.
#[derive(Default)]
struct Table {
    figures: Vec<Figure>,
}

impl Table {
    fn add(&mut self, property: &str, data: String, value: String, target: &'static str) {
        println!("{property:<34} {data:<58} {value:>12}   target {target}");
        self.figures.push(Figure { property: property.to_owned(), data, value, target });
    }

    fn markdown(&self, started: Instant) -> String {
        let mut markdown = String::from("| property | data | measured | target |\n| --- | --- | --- | --- |\n");
        for f in &self.figures {
            let _ = writeln!(markdown, "| {} | {} | {} | {} |", f.property, f.data, f.value, f.target);
        }
        let _ = writeln!(
            markdown,
            "\nResamples per bootstrap: {DEFAULT_RESAMPLES} (A/A floors: 2000). Threads: {}. Wall time: {:.0} s.",
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            started.elapsed().as_secs_f64()
        );
        markdown
    }
}

/// The interval's coverage and the A/A false signals.
fn coverage_figures(table: &mut Table) {
    let sets = 8_000;
    for n in [100, 200, 300] {
        let value = coverage(n, 0.0, sets, 10 + n as u64);
        let data = format!("n = {n}, {sets} data sets, log-noise 3 %");
        table.add("coverage, independent rounds", data, percent(value), "94–97 %");
    }
    for (rho, n) in [(0.4, 100), (0.4, 200), (0.4, 300), (0.4, 500), (0.2, 200), (0.6, 200)] {
        let value = coverage(n, rho, sets, 20 + n as u64 + (rho * 10.0) as u64);
        let target = if rho == 0.4 { "93–97 %" } else { "(informative)" };
        table.add(
            "coverage, AR(1) log-noise",
            format!("rho = {rho}, n = {n}, {sets} data sets"),
            percent(value),
            target,
        );
    }
    let aa_sets = 4_000;
    table.add(
        "A/A false signals (95 % interval)",
        format!("AR(1) 0.4, n = 200, chosen scheme, {aa_sets} sets"),
        percent(false_signals(0.4, aa_sets, false)),
        "≈ 5 %",
    );
    table.add(
        "A/A false signals (95 % interval)",
        format!("AR(1) 0.4, n = 200, iid forced, {aa_sets} sets"),
        percent(false_signals(0.4, aa_sets, true)),
        "(shows why blocks)",
    );
}

/// The drift test's false-positive rate and power.
fn drift_figures(table: &mut Table) {
    let series = 20_000;
    for n in [10, 20, 50, 200, 1000] {
        let value = drift_rate(n, series, 0.0, false, 40 + n as u64);
        table.add("drift false-positive rate", format!("i.i.d., n = {n}, {series} series"), percent(value), "4–6 %");
    }
    table.add(
        "drift false-positive rate",
        format!("5 tied clock readings, n = 200, {series} series"),
        percent(drift_rate(200, series, 0.0, true, 41)),
        "4–6 %",
    );
    for (rho, experiment) in [(0.4, 42), (0.2, 43)] {
        table.add(
            "drift false-positive rate",
            format!("AR(1) ρ = {rho} log-noise, n = 200, {series} series"),
            percent(drift_rate_ar1(rho, 200, series, experiment)),
            if rho == 0.4 { "4–6 %" } else { "(informative)" },
        );
    }
    for (trend, n) in [(0.05, 200), (0.02, 200), (0.05, 50)] {
        let value = drift_rate(n, 4_000, trend, false, 45 + n as u64);
        let target = if trend == 0.05 && n == 200 { "≥ 90 %" } else { "(informative)" };
        let data = format!("{} % trend, 2 % noise, n = {n}, 4000 series", trend * 100.0);
        table.add("drift power", data, percent(value), target);
    }
}

/// The A/A noise floor, the block lengths and the bootstrap's time.
fn floor_and_block_figures(table: &mut Table) {
    let (floor, exceeded) = floor_exceedance(2_000);
    table.add(
        "A/A noise floor",
        "3 % log-noise, n = 200, 2000 sets (mean)".to_owned(),
        percent(floor),
        "(informative)",
    );
    table.add(
        "independent A/A above that floor",
        "3 % log-noise, n = 200, 2000 pairs of sets".to_owned(),
        percent(exceeded),
        "≤ 10 %",
    );
    for rho in [0.0, 0.2, 0.4, 0.6, 0.8] {
        let data = format!("AR(1) rho = {rho}, n = 500");
        table.add("block length (median of 51)", data, typical_block_length(rho, 500).to_string(), "grows with rho");
    }
    for n in [200, 1_000, 3_000] {
        let value = format!("{:.1} ms", bootstrap_time(n) * 1e3);
        table.add("bootstrap time (iid, 5000 resamples)", format!("n = {n}, one thread"), value, "(informative)");
    }
}
