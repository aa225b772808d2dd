use rtcompare::compare;

fn old() {}

#[compare(baseline = old, throughput = elements(0))]
fn new() {}

fn main() {}
