use rtcompare::compare;

fn old() {}

#[compare(baseline = old, throughput = bytes(arg))]
fn new() {}

fn main() {}
