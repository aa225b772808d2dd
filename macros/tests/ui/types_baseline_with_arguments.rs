use rtcompare::compare;

fn old<T>() {}

#[compare(baseline = old::<u32>, types = [u32, u64])]
fn new<T>() {}

fn main() {}
