use rtcompare::compare;

fn old() {}

#[compare(baseline)]
fn new() {}

fn main() {
    old();
    new();
}
