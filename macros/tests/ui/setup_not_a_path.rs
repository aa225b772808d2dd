use rtcompare::compare;

fn old(v: &[u8]) -> usize {
    v.len()
}

#[compare(baseline = old, setup = "make_input")]
fn new(v: &[u8]) -> usize {
    v.len()
}

fn main() {}
