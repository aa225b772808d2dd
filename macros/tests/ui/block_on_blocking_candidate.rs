use rtcompare::compare;

fn run<F: std::future::Future>(f: F) -> F::Output {
    rtcompare::Executor::current().block_on(f)
}

fn old() {}

#[compare(baseline = old, block_on = run)]
fn new() {}

fn main() {}
