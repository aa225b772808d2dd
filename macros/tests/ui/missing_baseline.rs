use rtcompare::compare;

fn old() {}

#[compare(name = "no baseline")]
fn new() {}

fn main() {
    old();
    new();
}
