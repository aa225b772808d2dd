use rtcompare::compare;

fn old() {}

#[compare(baseline = old, args = [10, 100])]
fn new() {}

fn main() {}
