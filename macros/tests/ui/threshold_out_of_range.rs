use rtcompare::compare;

fn old() {}

#[compare(baseline = old, thresholds = [0.05, 2.0])]
fn new() {}

fn main() {}
