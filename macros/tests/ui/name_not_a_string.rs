use rtcompare::compare;

fn old() {}

#[compare(baseline = old, name = 42)]
fn new() {}

fn main() {}
