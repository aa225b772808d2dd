use rtcompare::compare;

fn old() {}

#[compare(baseline = old, baseline = old)]
fn new() {}

fn main() {}
