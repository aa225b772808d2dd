use rtcompare::compare;

fn old() {}

#[compare(baseline = old, threads = 0)]
fn new() {}

fn main() {}
