use rtcompare::compare;

fn old() {}

#[compare(baseline = old, time = "1.5.2s")]
fn new() {}

fn main() {}
