use rtcompare::compare;

fn input() -> Vec<u32> {
    vec![1, 2, 3]
}

fn old() {}

#[compare(baseline = old, setup = input)]
fn new() {}

fn main() {}
