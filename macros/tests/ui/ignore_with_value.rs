use rtcompare::compare;

fn old() {}

#[compare(baseline = old, ignore = true)]
fn new() {}

fn main() {}
