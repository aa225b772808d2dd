use rtcompare::compare;

fn old() {}

#[compare(baseline = old, metric = "instructions", throughput = bytes(64))]
fn new() {}

fn main() {}
