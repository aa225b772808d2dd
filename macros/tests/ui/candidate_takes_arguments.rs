use rtcompare::compare;

fn old(n: u64) -> u64 {
    n
}

#[compare(baseline = old)]
fn new(n: u64) -> u64 {
    n
}

fn main() {}
