use rtcompare::compare;

fn old() {}

#[compare(baseline = old, throughput = 4096)]
fn new() {}

fn main() {}
