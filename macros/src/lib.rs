//! The procedural macros of rtcompare, `#[compare]` and `main!()`: an internal crate.
//!
//! Depend on `rtcompare`, which re-exports both; the generated code names `::rtcompare`, or the
//! path given with `crate = ...`. This crate's version moves together with rtcompare's, and
//! nothing here is meant to be used without it.
//!
//! Each macro is parsed (`attr.rs`), validated (`valid.rs`) and generated (`expand.rs` for the
//! attribute, `runner.rs` for `main!()`); when it is rejected, `fallback.rs` emits the error
//! beside the code as written.

#![warn(missing_docs)]

use proc_macro::TokenStream;

mod attr;
mod expand;
mod fallback;
mod manifest;
mod runner;
mod valid;

/// Registers a performance comparison of the annotated function, the *candidate*, against a
/// *baseline* that takes the same input: one test, named `module_path::candidate_vs_baseline`, that
/// `rtcompare::main!()` runs and that passes or fails on the verdict.
///
/// ```rust
/// use rtcompare::compare;
/// use std::hint::black_box;
///
/// fn sum_loop() -> u64 {
///     (0..black_box(10_000u64)).map(black_box).sum()
/// }
///
/// #[compare(baseline = sum_loop)]
/// fn sum_formula() -> u64 {
///     let n = black_box(10_000u64);
///     n * (n - 1) / 2
/// }
///
/// rtcompare::main!();
/// ```
///
/// # Keys
///
/// | key | meaning | default |
/// | --- | --- | --- |
/// | `baseline = path` | the function to compare against; it takes the same input as the candidate, and may return another type (`Vec<u8>` against `Box<[u8]>`, `String` against `Cow<str>`) | none: the function itself at the git revision `RTCOMPARE_BASELINE` names ([Against a git revision](#against-a-git-revision)) |
/// | `setup = path` | builds the input outside the timer: `fn() -> I` or `fn(&mut Dprng) -> I` (with `args`: also takes `usize`) | none: zero-argument functions |
/// | `keep_input` | with `setup` and a candidate taking `&I`: one input for the whole process (per size), kept, instead of one per batch | off: one per batch |
/// | `args = [10, 1_000]` | one test per size, passed to setup | none |
/// | `types = [u32, u64, String]` | instantiates the generic candidate, its baseline and its setup with each type, one test per type named `…::<u32>` | none: the candidate is concrete |
/// | `block_on = path` | runs each future of an async pair: `fn on_tokio<F: Future>(f: F) -> F::Output` | async calls run on rtcompare's own executor |
/// | `throughput = bytes(4096)` | also show each arm's rate: `bytes(N)` or `elements(N)` per call, `N` a number or `arg` (the size from `args`) | none |
/// | `threads = 4` | run each batch on this many threads released together, timed by the slowest | the measuring thread alone |
/// | `metric = "alloc_bytes"` | `"time"`, `"alloc_bytes"`, `"allocs"` or `"instructions"` | `"time"` |
/// | `time_drop` | drop each output inside the timed region | off |
/// | `name = "..."` | the test name | `module_path::candidate_vs_baseline`; without `baseline`, `module_path::candidate_vs_<revision>` |
/// | `parity = 0.04` | smallest relative difference that counts as a win or a loss | `0.04` |
/// | `time = "2s"` | measurement budget of this pair | `RTCOMPARE_TIME`, else `1s` |
/// | `thresholds = [0.05, -0.02]` | also report the confidence that the candidate is ahead by each margin (negative = tolerated slowdown) | none |
/// | `expect = "win"` | fail unless the candidate is a confirmed win; `"no_loss"` fails only on a confirmed loss | `"no_loss"` |
/// | `ignore` | libtest's `#[ignore]` | off |
/// | `crate = path` | where the generated code finds rtcompare, for a crate that renames it in Cargo.toml or re-exports it (`crate = my_reexports::rtcompare`); `main!(crate = path)` likewise | `::rtcompare` |
///
/// Candidate and baseline must take the same input (none, or the `&I`, `&mut I` or `I` that
/// `setup` builds); their return types may differ, since each output is passed through `black_box`
/// and dropped outside the timer on its own side. A wrong key, a wrong value type, or a baseline
/// that takes another input than the candidate is a compile error pointing at the offending token.
/// A rejected attribute is the only error: the function is still compiled as written. Your
/// functions may have any name but one starting with `__rtcompare_`: the generated code's own
/// locals cannot capture them, and it reaches std, core and rtcompare by paths your items cannot
/// shadow.
///
/// # Inputs and sizes
///
/// `setup` builds the input outside the timer, from a seeded generator (`Dprng`) when it takes
/// `&mut Dprng`, and both arms of every round get identical inputs. The candidate's parameter says
/// how it gets them: `&mut I`, a fresh input for every call, built before the clock starts; `&I`,
/// one input shared by a whole batch; `I`, a fresh input moved into each call.
///
/// A batch is many calls timed together, and a round has a batch of each arm, so a `&I` input is
/// built anew for every batch: what it fills in lazily on first use — a regex's caches, a map
/// grown on its first inserts, a buffer sized by the first call — is filled again in every
/// batch, and the figures include filling it. Where your program keeps one such value warm for
/// its whole life, `keep_input` keeps one input for the process instead: built at the arm's
/// first batch (from a seed fixed for both arms, once per size), never dropped, and shared by
/// every later call, so the figures describe the warm value.
///
/// ```rust
/// use std::collections::HashMap;
///
/// fn table() -> HashMap<u64, u64> {
///     (0..1_000).map(|k| (k, k * k)).collect()
/// }
///
/// fn lookup_get(t: &HashMap<u64, u64>) -> u64 {
///     (0..100).filter_map(|k| t.get(&k)).sum()
/// }
///
/// #[rtcompare::compare(baseline = lookup_get, setup = table, keep_input)]
/// fn lookup_iter(t: &HashMap<u64, u64>) -> u64 {
///     t.iter().filter(|(k, _)| **k < 100).map(|(_, v)| v).sum()
/// }
/// ```
///
/// ```rust
/// use rtcompare::{Dprng, compare};
///
/// fn random_numbers(rng: &mut Dprng, len: usize) -> Vec<u32> {
///     rng.vec_u32(len)
/// }
///
/// fn stable_sort(v: &mut [u32]) {
///     v.sort();
/// }
///
/// #[compare(baseline = stable_sort, setup = random_numbers, args = [10, 1_000, 100_000])]
/// fn unstable_sort(v: &mut [u32]) {
///     v.sort_unstable();
/// }
/// ```
///
/// `args` runs one test per size (`unstable_sort_vs_stable_sort/10`, `…/1000`, …), passing the
/// size to setup: `fn(usize) -> I` or `fn(&mut Dprng, usize) -> I`. Outputs are dropped after the
/// clock stops (kept in a vector sized before it starts), so freeing them is not measured;
/// `time_drop` times the drop with the call. A concrete candidate may have a generic baseline
/// named with a turbofish, `baseline = sorted_copy::<u32>`.
///
/// # Allocations
///
/// `metric = "alloc_bytes"` or `metric = "allocs"` compares allocated bytes or allocation counts
/// per call instead of time, through a counting allocator that `main!()` installs. Counts are
/// exact, so equal counts are an established parity and twice the bytes is a loss.
///
/// ```rust
/// #[rtcompare::compare(baseline = collect_then_join, metric = "allocs")]
/// fn join_in_place() -> String {
///     let mut out = String::with_capacity(64);
///     for word in ["a", "b", "c"] {
///         out.push_str(word);
///     }
///     out
/// }
///
/// fn collect_then_join() -> String {
///     ["a", "b", "c"].iter().map(|w| w.to_string()).collect::<Vec<_>>().join("")
/// }
/// ```
///
/// # Instructions
///
/// `metric = "instructions"` judges the pair on the instructions each call executes, counted by
/// valgrind's callgrind in processes of their own, instead of on time: the same count on any
/// machine of the same architecture, for a gate that a noisy CI runner cannot trip. It is blind
/// to what time sees beyond instructions — cache misses, memory, code layout — so it is never
/// the default. The parity rule and the confirmation are time's; the fresh processes are
/// counting processes. A pair judged on instructions fails where nothing can count them:
/// valgrind missing, `RTCOMPARE_INSTRUCTIONS=off`, or a baseline at a git revision.
///
/// ```rust
/// #[rtcompare::compare(baseline = sum_by_index, metric = "instructions", parity = 0.01)]
/// fn sum_by_iterator() -> u64 {
///     (0..1_000u64).map(std::hint::black_box).sum()
/// }
///
/// fn sum_by_index() -> u64 {
///     let mut total = 0;
///     for i in 0..1_000u64 {
///         total += std::hint::black_box(i);
///     }
///     total
/// }
/// ```
///
/// # Several types
///
/// `types = [u32, u64, String]` compares a generic candidate once per type: the candidate (generic
/// over exactly one type parameter), the baseline and the setup are each instantiated with every
/// type, and each type is a test of its own, named by it — `sort_unstable_vs_sort_stable::<u32>`,
/// and with `args`, `…::<u32>/1000`. Filters and `--exact` take those names.
///
/// ```rust
/// use rtcompare::{Dprng, compare};
///
/// fn random<T: From<u32>>(rng: &mut Dprng) -> Vec<T> {
///     (0..1_000).map(|_| T::from(rng.u32())).collect()
/// }
///
/// fn sort_stable<T: Ord>(v: &mut [T]) {
///     v.sort();
/// }
///
/// #[compare(baseline = sort_stable, setup = random, types = [u32, u64, i64])]
/// fn sort_unstable<T: Ord>(v: &mut [T]) {
///     v.sort_unstable();
/// }
/// ```
///
/// # Async functions
///
/// The candidate, the baseline or both may be an `async fn`, with or without `setup`. Each call's
/// future is created and driven to completion inside the timed region, and its output is dropped
/// outside it. Without more, rtcompare's own executor drives it: it polls, and parks the measuring
/// thread until the future's waker unparks it (no runtime, no dependency). Code that needs a
/// runtime's context (`tokio::spawn`, tokio's timers) names the function that runs a future with
/// `block_on = path` — any `fn<F: Future>(F) -> F::Output`, such as a thread-local tokio runtime's
/// `block_on` — and is then measured inside that runtime. The runner's own cost is part of each
/// measured call, and both arms pay it. With `block_on`, both functions must be async (a blocking
/// one is a compile error at its path); an async function beside a blocking one needs no
/// `block_on`.
///
/// ```rust
/// use rtcompare::compare;
///
/// fn on_my_runtime<F: std::future::Future>(future: F) -> F::Output {
///     rtcompare::Executor::current().block_on(future)
/// }
///
/// async fn fetch_in_turn() -> usize {
///     std::hint::black_box(1) + std::hint::black_box(2)
/// }
///
/// #[compare(baseline = fetch_in_turn, block_on = on_my_runtime)]
/// async fn fetch_together() -> usize {
///     std::hint::black_box(3)
/// }
/// ```
///
/// # Rates
///
/// `throughput = bytes(4096)` or `elements(1_000)` says how much one call processes; with `args`,
/// `bytes(arg)` / `elements(arg)` takes the test's size. Each arm's line then ends with its rate at
/// its median time (bytes with binary prefixes, `KiB/s`, elements with decimal ones, `Kelem/s`),
/// and the results file, the Markdown summary and the Bencher file carry it too. The verdict is the
/// same as without: a ratio of times is a ratio of rates.
///
/// ```rust
/// use rtcompare::{Dprng, compare};
///
/// fn bytes(rng: &mut Dprng, len: usize) -> Vec<u8> {
///     let mut data = vec![0; len];
///     rng.fill_bytes(&mut data);
///     data
/// }
///
/// fn count_zeros_by_loop(data: &[u8]) -> usize {
///     let mut zeros = 0;
///     for &b in data {
///         zeros += usize::from(b == 0);
///     }
///     zeros
/// }
///
/// #[compare(baseline = count_zeros_by_loop, setup = bytes, args = [4_096, 65_536], throughput = bytes(arg))]
/// fn count_zeros_by_filter(data: &[u8]) -> usize {
///     data.iter().filter(|&&b| b == 0).count()
/// }
/// ```
///
/// # Threads
///
/// `threads = 4` runs every batch on 4 threads at once: each thread builds its own inputs, all wait
/// at a gate until every one has arrived, then each times its own calls, and the batch takes as
/// long as the slowest thread. So the verdict answers: *is each call slower or faster when 4
/// threads make it at the same time* — contention on a lock, an atomic, a shared cache line or the
/// allocator. It is one count per pair, not a scaling curve (compare `threads = 1` and
/// `threads = 8` pairs for that), and the cost of starting threads is not measured. The figures are
/// per call on one thread. On a machine with fewer cores than `threads` the threads take turns,
/// and rtcompare says so once at the start of the run. `threads` compares time only
/// (`metric = "allocs"` with it is a compile error: the allocation counters cannot tell threads
/// apart; so is `metric = "instructions"`: callgrind runs threads one at a time).
///
/// ```rust
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// static SHARED: AtomicU64 = AtomicU64::new(0);
///
/// fn count_locally() -> u64 {
///     (0..std::hint::black_box(1_000u64)).fold(0, |count, _| std::hint::black_box(count + 1))
/// }
///
/// #[rtcompare::compare(baseline = count_locally, threads = 2)]
/// fn count_in_a_shared_atomic() -> u64 {
///     for _ in 0..std::hint::black_box(1_000) {
///         SHARED.fetch_add(1, Ordering::Relaxed);
///     }
///     SHARED.load(Ordering::Relaxed)
/// }
/// ```
///
/// # Against a git revision
///
/// Without `baseline`, the function is compared with itself as it is at the git revision that
/// `RTCOMPARE_BASELINE` names (`RTCOMPARE_BASELINE=main cargo test --release --test perf`), in a
/// test named `parse_vs_main`; without that variable the test is reported as ignored, with a line
/// saying how to run it. How the baseline is built, and recipes for CI, are in rtcompare's
/// `docs/revision.md`.
///
/// ```rust
/// #[rtcompare::compare]
/// fn parse() -> usize {
///     "1,2,3".split(',').count()
/// }
/// ```
#[proc_macro_attribute]
pub fn compare(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    expand::compare(args.into(), item.clone()).unwrap_or_else(|error| fallback::compare(item, error)).into()
}

/// Expands to the `main` function of a `harness = false` test or bench target: it runs every
/// registered comparison as a libtest-style test, and links the package's library (its name read
/// from `Cargo.toml`, `[lib] name` included) so that comparisons registered there are found.
///
/// ```rust
/// // tests/perf.rs, after the comparisons (or alone, when they live in the library)
/// rtcompare::main!();
/// ```
///
/// It also installs the counting allocator that `metric = "allocs"` and `"alloc_bytes"` read, over
/// the system allocator; `rtcompare::main!(allocator = mimalloc::MiMalloc)` keeps your own
/// allocator underneath it (a unit struct that implements `GlobalAlloc`). `main!(crate = path)`
/// names where rtcompare is, for a crate that renames or re-exports it, as the attribute's
/// `crate = path` does. `main!(run = path)` is for front-ends such as rtcompare-criterion: `main`
/// calls `path`, a `fn(BuildInfo) -> ExitCode`, in place of the harness.
#[proc_macro]
pub fn main(input: TokenStream) -> TokenStream {
    runner::main(input.into()).unwrap_or_else(fallback::main).into()
}
