use rtcompare::compare;

fn old() {}

#[compare(baseline = old, expect = "faster")]
fn new() {}

fn main() {}
