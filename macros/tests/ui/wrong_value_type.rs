use rtcompare::compare;

fn old() {}

#[compare(baseline = old, parity = "high")]
fn new() {}

fn main() {}
