use rtcompare::compare;

fn old<T>() {}

#[compare(baseline = old, types = [])]
fn new<T>() {}

fn main() {}
