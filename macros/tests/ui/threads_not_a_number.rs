use rtcompare::compare;

fn old() {}

#[compare(baseline = old, threads = "four")]
fn new() {}

fn main() {}
