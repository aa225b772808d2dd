use rtcompare::compare;

async fn old() {}

#[compare(baseline = old)]
async fn new() {}

fn main() {}
