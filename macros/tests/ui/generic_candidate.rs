use rtcompare::compare;

fn old(v: &[u32]) -> usize {
    v.len()
}

fn input() -> Vec<u32> {
    vec![1, 2, 3]
}

#[compare(baseline = old, setup = input)]
fn new<T>(v: &[T]) -> usize {
    v.len()
}

fn main() {
    new(&[1u8]);
}
