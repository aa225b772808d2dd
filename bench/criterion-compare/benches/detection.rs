//! The detection workloads as criterion benchmarks. Each benchmark runs the *candidate* side of
//! a pair: the baseline's iteration count scaled by `1 + k/100`, `k` from `DETECTION_K`. In
//! criterion's regression workflow a run with `k = 0` saves the baseline (`--save-baseline
//! base`) and a run with `DETECTION_K=k` compares against it (`--baseline base`).

use criterion::{Criterion, criterion_group, criterion_main};
use rtcompare_detection_fixture::{
    ALLOC_ROUNDS, CPU_LARGE, CPU_SMALL, Chase, MAP_KEYS, WALK_STEPS, allocate, hash_map, iterations, spin,
};

fn workloads(c: &mut Criterion) {
    c.bench_function("cpu_100ns", |b| b.iter(|| spin(iterations(CPU_SMALL, true))));
    c.bench_function("cpu_10us", |b| b.iter(|| spin(iterations(CPU_LARGE, true))));
    let chase = Chase::get();
    c.bench_function("memwalk_10us", |b| b.iter(|| chase.walk(iterations(WALK_STEPS, true))));
    c.bench_function("alloc_10us", |b| b.iter(|| allocate(iterations(ALLOC_ROUNDS, true))));
    c.bench_function("hashmap_10us", |b| b.iter(|| hash_map(iterations(MAP_KEYS, true))));
}

criterion_group!(benches, workloads);
criterion_main!(benches);
