use rtcompare::compare;

fn old(n: u64) -> u64 {
    n
}

#[compare(baseline = old)]
fn new() -> u64 {
    1
}

fn main() {}
