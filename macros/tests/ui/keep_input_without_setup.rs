use rtcompare::compare;

fn old() {}

#[compare(baseline = old, keep_input)]
fn new() {}

fn main() {}
