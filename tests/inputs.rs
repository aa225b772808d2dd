//! The generated batch loops give both arms identical inputs (the same seed per round), rebuild
//! a `&mut` input for every call, and keep setup outside the metered region. Checked by calling
//! the registered loops directly, with candidate and baseline recording what they receive.

use rtcompare::harness::comparisons;
use rtcompare::measure::{Meter, Metric};
use rtcompare::{Dprng, compare};
use std::cell::RefCell;

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

fn batches() -> rtcompare::harness::Batches {
    let all = comparisons();
    let (_, comparison) =
        all.iter().find(|(name, _)| name == "inputs::candidate_sort_vs_baseline_sort").expect("registered");
    comparison.registration.batches
}

#[test]
fn both_arms_twins_and_placement_copies_see_identical_inputs_for_the_same_seed() {
    let meter = Meter::new(Metric::Time);
    let batches = batches();
    for seed in [1, 2, 99] {
        for copy in 0..rtcompare::measure::PLACEMENTS {
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
fn an_arm_spreads_a_batch_over_its_placement_copies_with_the_same_inputs_in_both_arms() {
    let meter = Meter::new(Metric::Time);
    let batches = batches();
    let mut candidate = rtcompare::Arm::from_placed("c", batches.candidate, batches.candidate_twin, 0);
    let mut baseline = rtcompare::Arm::from_placed("b", batches.baseline, batches.baseline_twin, 0);
    let batch = candidate.run(10, 3, 0, meter).expect("local arms never halt");
    baseline.run(10, 3, 0, meter).expect("local arms never halt");
    assert_eq!(batch.iters, [3, 3, 2, 2], "ten calls over four copies");
    let (c, b) = (take("candidate"), take("baseline"));
    assert_eq!(c.len(), 10);
    assert_eq!(c, b, "the arms saw different inputs");
    // Each copy draws its inputs from its own seed: the copies do not repeat one another.
    assert_ne!(c[0], c[3], "the second copy repeated the first copy's inputs");
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
    let names: Vec<String> = comparisons().into_iter().map(|(name, _)| name).collect();
    assert!(names.contains(&"inputs::sorted_copy_unstable_vs_sorted_copy".to_owned()), "{names:?}");
    let (_, comparison) = comparisons()
        .into_iter()
        .find(|(n, _)| n.ends_with("sorted_copy_unstable_vs_sorted_copy"))
        .expect("registered");
    assert_eq!(comparison.registration.baseline, "sorted_copy::<u32>");
}
