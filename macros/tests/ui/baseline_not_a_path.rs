use rtcompare::compare;

#[compare(baseline = "old")]
fn new() {}

fn main() {}
