use rtcompare::compare;

fn old() -> Vec<u8> {
    Vec::new()
}

#[compare(baseline = old, metric = "memory")]
fn new() -> Vec<u8> {
    Vec::new()
}

fn main() {}
