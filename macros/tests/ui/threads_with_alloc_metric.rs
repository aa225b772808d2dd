use rtcompare::compare;

fn old() {}

#[compare(baseline = old, metric = "alloc_bytes", threads = 2)]
fn new() {}

fn main() {}
