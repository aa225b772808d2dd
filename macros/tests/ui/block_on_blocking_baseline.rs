use rtcompare::compare;

fn run<F: std::future::Future>(f: F) -> F::Output {
    rtcompare::Executor::current().block_on(f)
}

fn old() -> u64 {
    1
}

#[compare(baseline = old, block_on = run)]
async fn new() -> u64 {
    1
}

fn main() {}
