use rtcompare::compare;

struct Counter(u64);

fn old() -> u64 {
    1
}

impl Counter {
    #[compare(baseline = old)]
    fn new(&self) -> u64 {
        self.0
    }
}

fn main() {
    Counter(1).new();
}
