use rtcompare::compare;

fn input() -> (Vec<u32>, u32) {
    (vec![1, 2, 3], 2)
}

fn old(v: &[u32], x: u32) -> bool {
    v.contains(&x)
}

#[compare(baseline = old, setup = input)]
fn new(v: &[u32], x: u32) -> bool {
    v.binary_search(&x).is_ok()
}

fn main() {}
