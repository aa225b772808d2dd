use rtcompare::compare;

fn input(label: &str) -> Vec<u32> {
    vec![label.len() as u32]
}

fn old(v: &[u32]) -> usize {
    v.len()
}

#[compare(baseline = old, setup = input)]
fn new(v: &[u32]) -> usize {
    v.len()
}

fn main() {}
