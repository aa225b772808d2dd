//! criterion's async executors: the [`AsyncExecutor`] trait that `Bencher::to_async` takes
//! (feature `async`), and, behind criterion's feature of the same name, its implementations:
//! `async_futures` (`FuturesExecutor`), `async_smol` (`SmolExecutor`) and `async_tokio` (tokio's
//! `Runtime` and `Handle`, and references to them). criterion 0.5's `async_std` is not provided: async-std is deprecated in favour of smol,
//! and criterion 0.8 dropped it.
//!
//! Each async routine runs inside one `block_on` per batch, the meter inside the future, as in
//! criterion: the executor's own cost per `await` is measured with the routine.

use std::future::Future;

/// Runs a future to completion on the current thread: what an async benchmark runs on.
///
/// ```
/// use rtcompare_criterion::async_executor::AsyncExecutor;
/// use std::future::Future;
/// use std::pin::pin;
/// use std::task::{Context, Poll, Waker};
///
/// /// Polls until ready; enough for futures that never wait on I/O.
/// struct Spin;
///
/// impl AsyncExecutor for Spin {
///     fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
///         let mut future = pin!(future);
///         let mut cx = Context::from_waker(Waker::noop());
///         loop {
///             if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
///                 return value;
///             }
///         }
///     }
/// }
///
/// assert_eq!(Spin.block_on(async { 6 * 7 }), 42);
/// ```
pub trait AsyncExecutor {
    /// Runs `future` to completion and returns its output.
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T;
}

/// The `futures` crate's current-thread executor (feature `async_futures`).
#[cfg(feature = "async_futures")]
#[derive(Clone, Copy, Debug, Default)]
pub struct FuturesExecutor;

#[cfg(feature = "async_futures")]
impl AsyncExecutor for FuturesExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        futures::executor::block_on(future)
    }
}

/// smol's `block_on` (feature `async_smol`).
#[cfg(feature = "async_smol")]
#[derive(Clone, Copy, Debug, Default)]
pub struct SmolExecutor;

#[cfg(feature = "async_smol")]
impl AsyncExecutor for SmolExecutor {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        smol::block_on(future)
    }
}

#[cfg(feature = "async_tokio")]
impl AsyncExecutor for tokio::runtime::Runtime {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        tokio::runtime::Runtime::block_on(self, future)
    }
}

#[cfg(feature = "async_tokio")]
impl AsyncExecutor for &tokio::runtime::Runtime {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        tokio::runtime::Runtime::block_on(self, future)
    }
}

/// criterion 0.8: a handle runs the future on its runtime, from outside it.
#[cfg(feature = "async_tokio")]
impl AsyncExecutor for tokio::runtime::Handle {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        tokio::runtime::Handle::block_on(self, future)
    }
}

/// criterion 0.8: a handle runs the future on its runtime, from outside it.
#[cfg(feature = "async_tokio")]
impl AsyncExecutor for &tokio::runtime::Handle {
    fn block_on<T>(&self, future: impl Future<Output = T>) -> T {
        tokio::runtime::Handle::block_on(self, future)
    }
}

#[cfg(test)]
mod tests {
    #[allow(unused_imports, reason = "used only by the tests of an executor's feature")]
    use super::AsyncExecutor;

    #[cfg(feature = "async_futures")]
    #[test]
    fn futures_runs_a_future() {
        assert_eq!(super::FuturesExecutor.block_on(async { 2 + 2 }), 4);
    }

    #[cfg(feature = "async_smol")]
    #[test]
    fn smol_runs_a_future() {
        assert_eq!(super::SmolExecutor.block_on(async { 2 + 2 }), 4);
    }

    #[cfg(feature = "async_tokio")]
    #[test]
    fn tokio_runs_a_future_by_runtime_and_by_handle() -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_current_thread().build()?;
        assert_eq!(AsyncExecutor::block_on(&runtime, async { 2 + 2 }), 4);
        assert_eq!(AsyncExecutor::block_on(&&runtime, async { 3 + 3 }), 6);
        let handle = runtime.handle().clone();
        assert_eq!(AsyncExecutor::block_on(&handle, async { 4 + 4 }), 8);
        assert_eq!(AsyncExecutor::block_on(&&handle, async { 5 + 5 }), 10);
        assert_eq!(AsyncExecutor::block_on(&runtime, async { 1 + 1 }), 2);
        Ok(())
    }
}
