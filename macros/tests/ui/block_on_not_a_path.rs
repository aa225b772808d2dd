use rtcompare::compare;

async fn old() {}

#[compare(baseline = old, block_on = "tokio")]
async fn new() {}

fn main() {}
