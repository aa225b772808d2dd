use rtcompare::compare;

fn run(rounds: u32) -> u32 {
    rounds
}

async fn old() {}

#[compare(baseline = old, block_on = run)]
async fn new() {}

fn main() {}
