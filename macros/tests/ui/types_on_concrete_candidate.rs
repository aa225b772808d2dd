use rtcompare::compare;

fn old() {}

#[compare(baseline = old, types = [u32, u64])]
fn new() {}

fn main() {}
