//! Async functions: an `async fn` candidate, baseline or both. Each call's future is created
//! and driven to completion inside the timed region, by rtcompare's own executor (it parks the
//! thread between polls), or by the function `block_on = path` names, for code that needs a
//! runtime's context (`tokio::spawn`, timers): `fn on_tokio<F: Future>(f: F) -> F::Output`.
//!
//! ```sh
//! cargo run --release --example async_fns
//! ```

use rtcompare::compare;
use std::hint::black_box;

/// Yields once before answering, as an async function waiting on I/O would.
struct YieldOnce(bool);

impl std::future::Future for YieldOnce {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<()> {
        if self.0 {
            return std::task::Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

async fn checksum(bytes: &[u8]) -> u64 {
    YieldOnce(false).await;
    bytes.iter().fold(0u64, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn page() -> Vec<u8> {
    (0..4096u32).map(|i| i as u8).collect()
}

async fn checksum_twice(bytes: &[u8]) -> u64 {
    checksum(bytes).await ^ checksum(black_box(bytes)).await
}

// Async against async, on rtcompare's executor: a loss, twice the work.
#[compare(baseline = checksum, setup = page)]
async fn checksum_and_again(bytes: &[u8]) -> u64 {
    checksum_twice(bytes).await
}

/// Any executor works through `block_on`; this one is rtcompare's own, named explicitly.
fn on_my_runtime<F: std::future::Future>(future: F) -> F::Output {
    rtcompare::Executor::current().block_on(future)
}

#[compare(baseline = checksum, setup = page, block_on = on_my_runtime)]
async fn checksum_through_block_on(bytes: &[u8]) -> u64 {
    checksum(bytes).await
}

rtcompare::main!();
