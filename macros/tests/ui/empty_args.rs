use rtcompare::compare;

fn sized(n: usize) -> Vec<u8> {
    vec![0; n]
}

fn old(v: &[u8]) -> usize {
    v.len()
}

#[compare(baseline = old, setup = sized, args = [])]
fn new(v: &[u8]) -> usize {
    v.len()
}

fn main() {}
