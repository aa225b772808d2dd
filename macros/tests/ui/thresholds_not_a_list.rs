use rtcompare::compare;

fn old() {}

#[compare(baseline = old, thresholds = 0.05)]
fn new() {}

fn main() {}
