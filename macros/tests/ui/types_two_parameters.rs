use rtcompare::compare;

fn old<T, U>() {}

#[compare(baseline = old, types = [u32])]
fn new<T, U>() {}

fn main() {}
