//! A bench target as written for criterion 0.5–0.8, compiled against this crate by `cargo test`:
//! proof that such a file builds unchanged. In a user's package the `extern crate` line is not
//! needed: `criterion = { package = "rtcompare-criterion", … }` in `Cargo.toml` does the renaming.
//!
//! Everything below that line is criterion code as users write it.

extern crate rtcompare_criterion as criterion;

use criterion::measurement::WallTime;
use criterion::{
    AxisScale, BatchSize, Bencher, BenchmarkGroup, BenchmarkId, Criterion, PlotConfiguration, SamplingMode, Throughput,
    black_box, criterion_group, criterion_main,
};
use std::time::{Duration, Instant};

fn fibonacci(n: u64) -> u64 {
    match n {
        0 | 1 => 1,
        n => fibonacci(n - 1) + fibonacci(n - 2),
    }
}

fn fibonacci_iterative(n: u64) -> u64 {
    let (mut a, mut b) = (1u64, 1u64);
    for _ in 1..n {
        (a, b) = (b, a + b);
    }
    b
}

fn simple(c: &mut Criterion) {
    c.bench_function("fib 20", |b| b.iter(|| fibonacci(black_box(20))));
    c.bench_with_input(BenchmarkId::new("input_example", 10), &10u64, |b, &n| b.iter(|| fibonacci(n)));
}

fn compare(c: &mut Criterion) {
    let mut group = c.benchmark_group("Fibonacci");
    for i in [10u64, 15].iter() {
        group.bench_with_input(BenchmarkId::new("Recursive", i), i, |b, i| b.iter(|| fibonacci(*i)));
        group.bench_with_input(BenchmarkId::new("Iterative", i), i, |b, i| b.iter(|| fibonacci_iterative(*i)));
    }
    group.finish();
}

fn configured(c: &mut Criterion) {
    let mut group = c.benchmark_group("from_elem");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .noise_threshold(0.05)
        .sampling_mode(SamplingMode::Flat)
        .plot_config(PlotConfiguration::default().summary_scale(AxisScale::Logarithmic));
    for size in [1024usize, 4096] {
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &size, |b, &size| {
            b.iter(|| std::iter::repeat_n(0u8, size).collect::<Vec<_>>())
        });
    }
}

fn timing_loops(c: &mut Criterion) {
    let data: Vec<u64> = (0..1_000).rev().collect();
    c.bench_function("sort batched", |b| b.iter_batched(|| data.clone(), |mut v| v.sort(), BatchSize::SmallInput));
    c.bench_function("sort batched ref", |b| b.iter_batched_ref(|| data.clone(), |v| v.sort(), BatchSize::LargeInput));
    c.bench_function("sort with setup", |b| b.iter_with_setup(|| data.clone(), |mut v| v.sort()));
    c.bench_function("large drop", |b| b.iter_with_large_drop(|| vec![0u8; 1 << 16]));
    c.bench_function("custom", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(fibonacci(black_box(10)));
            }
            start.elapsed()
        })
    });
}

fn helper(group: &mut BenchmarkGroup<WallTime>, name: &str) {
    group.bench_function(name, |b: &mut Bencher| b.iter(|| fibonacci(5)));
}

fn generic_helpers(c: &mut Criterion) {
    let mut group = c.benchmark_group("helpers");
    helper(&mut group, "one");
    helper(&mut group, &String::from("two"));
    group.bench_function(String::from("three"), |b| b.iter(|| 3));
}

criterion_group!(benches, simple, compare);
criterion_group! {
    name = more;
    config = Criterion::default()
        .sample_size(50)
        .measurement_time(Duration::from_secs(3))
        .noise_threshold(0.02)
        .confidence_level(0.99)
        .significance_level(0.01)
        .without_plots()
        .with_output_color(false);
    targets = configured, timing_loops, generic_helpers,
}
criterion_main!(benches, more);
