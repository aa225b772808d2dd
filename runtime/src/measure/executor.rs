//! Running an `async fn`'s future to completion on the measuring thread.
//!
//! A measured call that returns a future is driven inside the timed region, creation and every
//! poll, by the smallest executor that works: poll, and between polls park the thread until the
//! future's waker unparks it. No runtime, no queue, no dependency; code that needs a runtime's
//! context (`tokio::spawn`, its timers) is measured through `block_on = path` instead, which the
//! generated code calls in place of [`Executor::block_on`].
//!
//! Which calls return a future is decided by the type checker, not the macro: the baseline of an
//! `async fn` may be blocking, or the other way round. The generated loop asks through
//! [`IsFuture`] and [`IsValue`], two traits with a method of one name at different autoref
//! levels, so that a future picks [`FutureCall`] and any other value [`ValueCall`], which hands
//! it back untouched.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

/// Wakes the thread that polls by unparking it; a wake before the park makes the park return
/// at once, so no wake is lost.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

thread_local! {
    // One waker per thread, made on its first use: a batch then takes a clone (a reference
    // count), not an allocation, so `metric = "allocs"` counts none for the executor.
    static WAKER: Waker = Waker::from(Arc::new(Unpark(thread::current())));
}

/// Drives futures to completion on the current thread.
///
/// ```
/// use rtcompare::Executor;
/// async fn add(a: u64, b: u64) -> u64 { a + b }
/// assert_eq!(Executor::current().block_on(add(2, 3)), 5);
/// ```
#[derive(Clone, Debug)]
pub struct Executor {
    waker: Waker,
}

impl Executor {
    /// An executor for the current thread, whose waker unparks it. `Executor::current().block_on`
    /// is what `#[compare]` runs an async pair's futures with; a `block_on = path` function may
    /// call it too.
    ///
    /// ```
    /// use rtcompare::Executor;
    /// fn block_on<F: std::future::Future>(future: F) -> F::Output {
    ///     Executor::current().block_on(future)
    /// }
    /// assert_eq!(block_on(async { 6 * 7 }), 42);
    /// ```
    pub fn current() -> Self {
        Executor { waker: WAKER.with(Waker::clone) }
    }

    /// Polls `future` until it is ready, parking the thread while it is pending.
    ///
    /// ```
    /// use rtcompare::Executor;
    /// let executor = Executor::current();
    /// assert_eq!(executor.block_on(async { "ready" }), "ready");
    /// ```
    #[inline]
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        let mut future = pin!(future);
        let mut context = Context::from_waker(&self.waker);
        loop {
            if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
                return output;
            }
            // A spurious return of `park` only costs one more poll.
            thread::park();
        }
    }
}

/// What [`IsFuture`] picks for a call that returned a future: drive it.
#[derive(Clone, Copy, Debug)]
pub struct FutureCall;

/// What [`IsValue`] picks for a call that returned anything else: keep it as it is.
#[derive(Clone, Copy, Debug)]
pub struct ValueCall;

/// Picks [`FutureCall`] for a future. Called as `(&output).__rtcompare_kind()`: a future matches
/// this impl without autoref, so it wins over [`IsValue`], which needs one more.
///
/// ```
/// use rtcompare_runtime::__private::{Executor, IsFuture as _, IsValue as _};
/// let executor = Executor::current();
/// let future = async { 7 };
/// assert_eq!((&future).__rtcompare_kind().settle(future, &executor), 7);
/// let value = String::from("kept");
/// assert_eq!((&value).__rtcompare_kind().settle(value, &executor), "kept");
/// ```
pub trait IsFuture {
    /// [`FutureCall`].
    #[inline(always)]
    fn __rtcompare_kind(&self) -> FutureCall {
        FutureCall
    }
}

impl<F: Future> IsFuture for F {}

/// Picks [`ValueCall`] for whatever is not a future (see [`IsFuture`]).
pub trait IsValue {
    /// [`ValueCall`].
    #[inline(always)]
    fn __rtcompare_kind(&self) -> ValueCall {
        ValueCall
    }
}

impl<T> IsValue for &T {}

impl FutureCall {
    /// The future's output, driven to completion by `executor`.
    #[inline(always)]
    pub fn settle<F: Future>(self, future: F, executor: &Executor) -> F::Output {
        executor.block_on(future)
    }

    /// The future's output, run by the attribute's `block_on = path` function
    /// (`fn on_runtime<F: Future>(f: F) -> F::Output`).
    ///
    /// ```
    /// use rtcompare_runtime::__private::{Executor, IsFuture as _, IsValue as _};
    /// fn mine<F: std::future::Future>(f: F) -> F::Output { Executor::current().block_on(f) }
    /// let future = async { 2 + 2 };
    /// assert_eq!((&future).__rtcompare_kind().settle_on(future, mine), 4);
    /// ```
    #[inline(always)]
    pub fn settle_on<F: Future, B: FnOnce(F) -> F::Output>(self, future: F, block_on: B) -> F::Output {
        block_on(future)
    }
}

impl ValueCall {
    /// The value itself.
    #[inline(always)]
    pub fn settle<T>(self, value: T, _executor: &Executor) -> T {
        value
    }

    /// Never compiles: `block_on` was given, and this call is blocking ([`BlockOnNeedsAFuture`]).
    #[inline(always)]
    pub fn settle_on<T: BlockOnNeedsAFuture, B>(self, value: T, _block_on: B) -> T {
        value
    }
}

/// What a blocking call's output would need for `block_on = path`, which runs futures only. Nothing
/// implements it: the bound in [`ValueCall::settle_on`] is an error in rtcompare's words at the
/// blocking function's path.
#[diagnostic::on_unimplemented(
    message = "`block_on` runs futures, but this function returns `{Self}`, which is not one",
    label = "with `block_on`, this function must be an `async fn` (or return a future)",
    note = "remove `block_on` to measure a blocking function; an async function beside a blocking one runs on \
            rtcompare's own executor without it"
)]
pub trait BlockOnNeedsAFuture {}
#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Pending until another thread sets the flag and wakes it.
    struct WokenElsewhere {
        ready: Arc<AtomicBool>,
        started: bool,
    }

    impl Future for WokenElsewhere {
        type Output = &'static str;
        fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
            if self.ready.load(Ordering::Acquire) {
                return Poll::Ready("woken");
            }
            if !self.started {
                self.started = true;
                let (ready, waker) = (Arc::clone(&self.ready), cx.waker().clone());
                thread::spawn(move || {
                    ready.store(true, Ordering::Release);
                    waker.wake();
                });
            }
            Poll::Pending
        }
    }

    #[test]
    fn a_future_woken_from_another_thread_completes() {
        let future = WokenElsewhere { ready: Arc::new(AtomicBool::new(false)), started: false };
        assert_eq!(Executor::current().block_on(future), "woken");
    }

    // The borrow is the dispatch: `(&future)` is how the generated code asks.
    #[allow(clippy::needless_borrow)]
    #[test]
    fn futures_are_driven_and_other_values_pass_through() {
        let executor = Executor::current();
        let future = async { vec![1u8, 2] };
        assert_eq!((&future).__rtcompare_kind().settle(future, &executor), vec![1, 2]);
        let borrowed = &5u32;
        assert_eq!(*(&borrowed).__rtcompare_kind().settle(borrowed, &executor), 5);
        let unit = ();
        (&unit).__rtcompare_kind().settle(unit, &executor);
    }
}
