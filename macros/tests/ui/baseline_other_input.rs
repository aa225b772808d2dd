use rtcompare::compare;

fn input() -> Vec<u32> {
    vec![1, 2, 3]
}

// The return types may differ; the inputs may not.
fn old(v: &[u64]) -> u64 {
    v.len() as u64
}

#[compare(baseline = old, setup = input)]
fn new(v: &[u32]) -> usize {
    v.len()
}

fn main() {}
