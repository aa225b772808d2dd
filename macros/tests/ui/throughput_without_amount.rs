use rtcompare::compare;

fn old() {}

#[compare(baseline = old, throughput = bytes())]
fn new() {}

fn main() {}
