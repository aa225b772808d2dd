//! `threads = N`: each batch runs on N threads at once, and takes as long as the slowest.
//!
//! Every thread builds its own inputs, then waits at a [`Gate`] until all N have arrived, and
//! only then starts its meter: the calls overlap, and no thread's clock includes another's setup.
//! The gate spins rather than sleeping, because a thread woken from a futex starts tens of
//! microseconds late, as long as a whole batch of short calls; past a few thousand spins it
//! yields, so threads beyond the machine's cores still get their turn.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;

/// Spins before a waiting thread starts yielding its core.
const SPINS_BEFORE_YIELDING: u32 = 4_096;

/// Releases a batch's threads together once every one of them has arrived.
///
/// ```
/// use rtcompare_runtime::__private::Gate;
/// let gate = Gate::new(1);
/// gate.wait(); // the only thread: released at once
/// ```
#[derive(Debug)]
pub struct Gate {
    threads: usize,
    arrived: AtomicUsize,
    /// Set when a thread panicked before arriving: the others must not wait for it.
    broken: AtomicBool,
}

impl Gate {
    /// A gate for `threads` threads.
    pub fn new(threads: usize) -> Self {
        Gate { threads, arrived: AtomicUsize::new(0), broken: AtomicBool::new(false) }
    }

    /// Waits until every thread has arrived (or one has panicked).
    #[inline(never)]
    pub fn wait(&self) {
        self.arrived.fetch_add(1, Ordering::AcqRel);
        let mut spins = 0u32;
        while self.arrived.load(Ordering::Acquire) < self.threads && !self.broken.load(Ordering::Acquire) {
            if spins < SPINS_BEFORE_YIELDING {
                spins += 1;
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
    }

    fn abandon(&self) {
        self.broken.store(true, Ordering::Release);
    }
}

/// Runs `batch` on `threads` threads (this one and `threads - 1` more), all released together
/// by the [`Gate`] each passes to [`Gate::wait`] before starting its meter, and returns the
/// slowest thread's total. A panic in any thread is raised again here, with its own message,
/// once every thread has finished.
///
/// ```
/// use rtcompare_runtime::__private::on_threads;
/// let slowest = on_threads(3, |gate| {
///     gate.wait();
///     7
/// });
/// assert_eq!(slowest, 7);
/// ```
pub fn on_threads<F>(threads: usize, batch: F) -> u64
where
    F: Fn(&Gate) -> u64 + Sync,
{
    let gate = Gate::new(threads.max(1));
    let run = || {
        catch_unwind(AssertUnwindSafe(|| batch(&gate))).inspect_err(|_| {
            // Threads still at the gate would otherwise wait forever for this one.
            gate.abandon();
        })
    };
    thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(run)).collect();
        let mut results = vec![run()];
        results.extend(others.into_iter().map(|other| other.join().unwrap_or_else(Err)));
        let mut slowest = 0;
        for result in results {
            match result {
                Ok(total) => slowest = slowest.max(total),
                Err(panic) => resume_unwind(panic),
            }
        }
        slowest
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn every_thread_runs_the_batch_and_the_slowest_total_is_returned() {
        let totals = Mutex::new(vec![5, 9, 2]);
        let slowest = on_threads(3, |gate| {
            gate.wait();
            totals.lock().map_or(0, |mut t| t.pop().unwrap_or(0))
        });
        assert_eq!(slowest, 9);
        assert!(totals.lock().is_ok_and(|t| t.is_empty()), "each of the 3 threads ran once");
    }

    #[test]
    fn no_thread_passes_the_gate_before_all_have_arrived() {
        let arrived = AtomicUsize::new(0);
        let seen_at_release = on_threads(4, |gate| {
            arrived.fetch_add(1, Ordering::SeqCst);
            gate.wait();
            arrived.load(Ordering::SeqCst) as u64
        });
        assert_eq!(seen_at_release, 4);
    }

    #[test]
    fn a_panic_before_the_gate_is_raised_with_its_message_instead_of_hanging() {
        let caught = catch_unwind(|| {
            on_threads(3, |gate| {
                if thread::current().name().is_none() {
                    panic!("setup failed on a helper thread");
                }
                gate.wait();
                1
            })
        });
        let payload = caught.err().and_then(|p| p.downcast::<&str>().ok());
        assert_eq!(payload.as_deref(), Some(&"setup failed on a helper thread"));
    }
}
