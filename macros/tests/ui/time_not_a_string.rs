use rtcompare::compare;

fn old() {}

#[compare(baseline = old, time = 2)]
fn new() {}

fn main() {}
