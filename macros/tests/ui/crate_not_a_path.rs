use rtcompare::compare;

fn old() {}

#[compare(crate = "rtcompare", baseline = old)]
fn new() {}

fn main() {}
