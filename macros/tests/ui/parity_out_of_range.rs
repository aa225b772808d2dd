use rtcompare::compare;

fn old() {}

#[compare(baseline = old, parity = 1.5)]
fn new() {}

fn main() {}
