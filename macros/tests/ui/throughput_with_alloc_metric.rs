use rtcompare::compare;

fn old() {}

#[compare(baseline = old, metric = "allocs", throughput = bytes(64))]
fn new() {}

fn main() {}
