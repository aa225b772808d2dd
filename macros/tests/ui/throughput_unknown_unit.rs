use rtcompare::compare;

fn old() {}

#[compare(baseline = old, throughput = kib(4))]
fn new() {}

fn main() {}
