use rtcompare::compare;

fn old() {}

#[compare(baseline = old)]
struct New;

fn main() {}
