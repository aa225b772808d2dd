use rtcompare::compare;

fn old() {}

#[compare(baseline = old, metric = "instructions", threads = 2)]
fn new() {}

fn main() {}
