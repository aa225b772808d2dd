use rtcompare::compare;

fn old() {}

#[compare(baseline = old, time = "2 fortnights")]
fn new() {}

fn main() {}
