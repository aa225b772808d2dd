use rtcompare::compare;

fn input() -> Vec<u32> {
    vec![1, 2, 3]
}

fn old(v: &[u32]) -> usize {
    v.len()
}

#[compare(baseline = old, setup = input, args = [10])]
fn new(v: &[u32]) -> usize {
    v.len()
}

fn main() {}
