use rtcompare::compare;

fn old() -> u32 {
    1
}

#[compare(baseline = old)]
fn new() -> u64 {
    1
}

fn main() {}
