use rtcompare::compare;

fn old() {}

#[compare(baseline = old, speed = 2)]
fn new() {}

fn main() {}
