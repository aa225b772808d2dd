use rtcompare::compare;

fn old() {}

#[compare(baseline = old, time = "0s")]
fn new() {}

fn main() {}
