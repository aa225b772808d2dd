use rtcompare::compare;

fn old<T>() {}

#[compare(baseline = old, types = [u32, String, u32])]
fn new<T>() {}

fn main() {}
