use rtcompare::compare;

fn numbers() -> Vec<u32> {
    vec![3, 1, 2]
}

fn old(v: &mut Vec<u32>) {
    v.sort();
}

#[compare(baseline = old, setup = numbers, keep_input)]
fn new(v: &mut Vec<u32>) {
    v.sort_unstable();
}

fn main() {}
