//! The generated batch loops give both arms identical inputs (the same seed per round), rebuild
//! a `&mut` input for every call, and keep setup outside the metered region. Checked by calling
//! the registered loops directly, with candidate and baseline recording what they receive.
//!
//! The loops are reached as the generated code reaches the runtime, through
//! `rtcompare::__private` (the registration `#[compare]` submits), which is no public API: these
//! tests check the macro's own output. How an arm spreads a batch over the placement copies of
//! such loops is checked inside the runtime (`measure::arm`'s unit tests).

use rtcompare::__private::{Batches, Registration, inventory};
use rtcompare::{Dprng, Meter, Metric, compare};
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

thread_local! {
    static SEEN: RefCell<Vec<(&'static str, Vec<u32>)>> = const { RefCell::new(Vec::new()) };
}

fn record(arm: &'static str, input: &[u32]) {
    SEEN.with(|seen| seen.borrow_mut().push((arm, input.to_vec())));
}

fn take(arm: &str) -> Vec<Vec<u32>> {
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        let (taken, kept): (Vec<_>, Vec<_>) = seen.drain(..).partition(|(a, _)| *a == arm);
        *seen = kept;
        taken.into_iter().map(|(_, input)| input).collect()
    })
}

fn random_input(rng: &mut Dprng) -> Vec<u32> {
    rng.vec_u32(8)
}

fn baseline_sort(v: &mut [u32]) {
    record("baseline", v);
    v.sort();
}

#[compare(baseline = baseline_sort, setup = random_input)]
fn candidate_sort(v: &mut [u32]) {
    record("candidate", v);
    v.sort_unstable();
}

/// Every comparison registered in this test binary.
fn registrations() -> impl Iterator<Item = &'static Registration> {
    inventory::iter::<Registration>.into_iter()
}

fn batches() -> Batches {
    let registration =
        registrations().find(|r| r.test_name() == "inputs::candidate_sort_vs_baseline_sort").expect("registered");
    registration.batches
}

#[test]
fn both_arms_twins_and_placement_copies_see_identical_inputs_for_the_same_seed() {
    let meter = Meter::new(Metric::Time);
    let batches = batches();
    for seed in [1, 2, 99] {
        for copy in 0..batches.candidate.len() {
            (batches.candidate[copy])(5, seed, 0, meter);
            (batches.baseline[copy])(5, seed, 0, meter);
            (batches.candidate_twin[copy])(5, seed, 0, meter);
            (batches.baseline_twin[copy])(5, seed, 0, meter);
            let (c, b) = (take("candidate"), take("baseline"));
            assert_eq!(c.len(), 10, "5 calls per loop, primary and twin");
            assert_eq!(c, b, "seed {seed}, copy {copy}: the arms saw different inputs");
            assert_eq!(c[..5], c[5..], "the twin saw other inputs than the primary");
        }
    }
}

#[test]
fn a_mutable_input_is_fresh_for_every_call() {
    let meter = Meter::new(Metric::Time);
    let candidate = batches().candidate[0];
    candidate(6, 7, 0, meter);
    let seen = take("candidate");
    assert_eq!(seen.len(), 6);
    for input in &seen {
        let mut sorted = input.clone();
        sorted.sort_unstable();
        assert_ne!(input, &sorted, "a call received an input an earlier call had already sorted");
    }
    let mut distinct = seen.clone();
    distinct.dedup();
    assert_eq!(distinct.len(), 6, "calls in one batch should get different inputs");
}

#[test]
fn different_round_seeds_give_different_inputs() {
    let meter = Meter::new(Metric::Time);
    let candidate = batches().candidate[0];
    candidate(1, 1, 0, meter);
    candidate(1, 2, 0, meter);
    let seen = take("candidate");
    assert_ne!(seen[0], seen[1]);
}

fn sorted_copy<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut copy = v.to_vec();
    copy.sort();
    copy
}

// A generic baseline instantiated with a turbofish; the candidate is concrete.
#[compare(baseline = sorted_copy::<u32>, setup = random_input)]
fn sorted_copy_unstable(v: &[u32]) -> Vec<u32> {
    let mut copy = v.to_vec();
    copy.sort_unstable();
    copy
}

#[test]
fn a_turbofish_baseline_registers_under_its_function_name() {
    let names: Vec<String> = registrations().map(Registration::test_name).collect();
    assert!(names.contains(&"inputs::sorted_copy_unstable_vs_sorted_copy".to_owned()), "{names:?}");
    let registration =
        registrations().find(|r| r.test_name().ends_with("sorted_copy_unstable_vs_sorted_copy")).expect("registered");
    assert_eq!(registration.baseline, "sorted_copy::<u32>");
}

/// An input whose answer is worked out on its first use and kept inside it, as a regex fills its
/// caches or a map grows: `fills` counts how often it is worked out.
struct Lazy {
    answer: std::sync::OnceLock<u64>,
}

static FILLED_PER_BATCH: AtomicUsize = AtomicUsize::new(0);
static FILLED_KEPT: AtomicUsize = AtomicUsize::new(0);

fn lazy() -> Lazy {
    Lazy { answer: std::sync::OnceLock::new() }
}

fn answer(input: &Lazy, fills: &AtomicUsize) -> u64 {
    *input.answer.get_or_init(|| {
        fills.fetch_add(1, Ordering::SeqCst);
        42
    })
}

fn lazy_baseline(input: &Lazy) -> u64 {
    answer(input, &AtomicUsize::new(0))
}

#[compare(baseline = lazy_baseline, setup = lazy)]
fn lazy_per_batch(input: &Lazy) -> u64 {
    answer(input, &FILLED_PER_BATCH)
}

#[compare(baseline = lazy_baseline, setup = lazy, keep_input)]
fn lazy_kept(input: &Lazy) -> u64 {
    answer(input, &FILLED_KEPT)
}

/// A shared input is built for every batch, so what it fills lazily is cold in each; with
/// `keep_input` it is built once for the process, and stays warm across batches, seeds and the
/// loop's placement copies (each arm and twin keeping its own).
#[test]
fn a_lazily_filled_input_is_cold_in_every_batch_unless_it_is_kept() {
    let meter = Meter::new(Metric::Time);
    let of = |name: &str| registrations().find(|r| r.test_name() == name).expect("registered").batches;
    let (per_batch, kept) = (of("inputs::lazy_per_batch_vs_lazy_baseline"), of("inputs::lazy_kept_vs_lazy_baseline"));
    for seed in 1..=5 {
        for copy in 0..kept.candidate.len() {
            (per_batch.candidate[copy])(3, seed, 0, meter);
            (kept.candidate[copy])(3, seed, 0, meter);
        }
    }
    assert_eq!(FILLED_PER_BATCH.load(Ordering::SeqCst), 5 * per_batch.candidate.len(), "cold in every batch");
    assert_eq!(FILLED_KEPT.load(Ordering::SeqCst), 1, "filled once, warm in every later batch");
    (kept.candidate_twin[0])(3, 1, 0, meter);
    assert_eq!(FILLED_KEPT.load(Ordering::SeqCst), 2, "the twin keeps an input of its own");
}
