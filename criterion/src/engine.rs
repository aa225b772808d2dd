//! Where criterion's API meets rtcompare: every `bench_function` and `bench_with_input` ends in
//! [`benchmark`], every `Bencher::iter*` in the [`Serve`] it is handed, and `criterion_main!` in
//! [`run`].
//!
//! A criterion benchmark exists only while its group function runs: `bench_function` takes the
//! user's closure, which borrows what the group function built, and calls it there. So the
//! engine runs the group functions — a *walk* — once to find the benchmarks, calling none of
//! their closures (as criterion's own `--list` does), and hands them to rtcompare's harness as
//! tests against a git revision, or against their group's baseline function where the manifest
//! names one (`baselines.rs`). A process that measures a benchmark (one side of a lock-step
//! pair, a counting process) walks again when its parent asks for that benchmark, calls that
//! one's closure, and answers its parent from inside the `Bencher`'s routine
//! ([`Serving::serve`]), every request for the benchmark in turn.

use crate::baselines;
use crate::benchmark::Benchmark;
use rtcompare::__private::{Amount, BuildInfo, FrontEndBenchmark, Loop, Loops, Meter, Serving, ThroughputUnit};
use std::cell::RefCell;
use std::path::Path;
use std::process::ExitCode;

/// A measured routine, as a `Bencher::iter*` method builds it from the user's closure.
pub(crate) trait Routine {
    /// Runs `iters` operations in placement copy `copy` (`0..4`, each a distinct monomorphised
    /// loop starting with `place::<copy>()`) of the primary loop, or of its A/A twin when
    /// `twin`, metered by `meter` (setup outside the meter), and returns the metered total.
    fn batch(&mut self, copy: usize, twin: bool, iters: u64, meter: Meter) -> u64;
}

/// What a `Bencher` hands its routine to.
pub(crate) type Serve<'a> = dyn FnMut(&mut dyn Routine) + 'a;

/// What the walk under way is for.
enum Walk {
    /// Finding the benchmarks: each is recorded, and its closure is not called.
    Find(Vec<Benchmark>),
    /// Entering the benchmark `test` to serve it: its closure is called, and no other's.
    Enter {
        /// The benchmark's id.
        test: String,
        /// The child's side of the protocol, until the benchmark's routine takes it.
        serving: Option<Serving>,
    },
}

thread_local! {
    /// The walk under way on this thread; none outside `criterion_main!`'s `main`.
    static WALK: RefCell<Option<Walk>> = const { RefCell::new(None) };
}

/// Every `bench_function` and `bench_with_input` (of `Criterion` and of `BenchmarkGroup`) ends
/// here: `call` runs the user's function with a `Bencher` built on the `Serve` it is given, and
/// is called only when this process measures this benchmark.
pub(crate) fn benchmark(benchmark: Benchmark, call: &mut dyn FnMut(&mut Serve<'_>)) {
    let serving = WALK.with_borrow_mut(|walk| match walk {
        Some(Walk::Find(found)) => {
            found.push(benchmark.clone());
            None
        }
        Some(Walk::Enter { test, serving }) if *test == benchmark.id => serving.take(),
        _ => None,
    });
    let Some(mut serving) = serving else { return };
    call(&mut |routine: &mut dyn Routine| serving.serve(&mut Entered(routine)));
    WALK.with_borrow_mut(|walk| {
        if let Some(Walk::Enter { serving: slot, .. }) = walk {
            *slot = Some(serving);
        }
    });
}

/// `criterion_main!`'s `main`: the benchmarks of `groups`, found by walking them once, run by
/// rtcompare's harness as tests against a git revision; a process measuring one of them walks
/// `groups` again to enter it.
pub fn run(build: BuildInfo, groups: &[fn()]) -> ExitCode {
    let Walk::Find(found) = walk(groups, Walk::Find(Vec::new())) else { return ExitCode::from(2) };
    if let Some(custom) = found.iter().find(|b| b.custom_measurement.is_some()) {
        eprintln!(
            "error: the benchmark `{}` ({}:{}) is measured with `{}`, a custom criterion `Measurement`, which \
             rtcompare cannot judge; measure it with criterion's `WallTime` (the default), or compare it with \
             `#[rtcompare::compare(metric = \"...\")]`",
            custom.id,
            custom.location.file(),
            custom.location.line(),
            custom.custom_measurement.unwrap_or_default(),
        );
        return ExitCode::from(2);
    }
    let paired = baselines::read(Path::new(build.manifest_dir)).and_then(|named| baselines::pair(&found, &named));
    let paired = match paired {
        Ok(paired) => paired,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let benchmarks = found.iter().zip(paired).map(|(benchmark, baseline)| front_end(benchmark, baseline)).collect();
    let mut enter = |test: &str, serving: Serving| -> Serving {
        match walk(groups, Walk::Enter { test: test.to_owned(), serving: Some(serving) }) {
            Walk::Enter { serving: Some(serving), .. } => serving,
            // The routine took it and never gave it back: only a panic does that, which ended
            // this process before here.
            _ => unreachable!("a benchmark's routine keeps the child's side of the protocol only while it serves"),
        }
    };
    rtcompare::__private::front_end_main(build, benchmarks, &mut enter)
}

/// Runs every group function with `walk` under way, and returns it as they left it.
fn walk(groups: &[fn()], walk: Walk) -> Walk {
    WALK.with_borrow_mut(|slot| *slot = Some(walk));
    for group in groups {
        group();
    }
    WALK.with_borrow_mut(Option::take).unwrap_or(Walk::Find(Vec::new()))
}

/// The test rtcompare's harness runs for `benchmark`, compared with the benchmark `baseline`
/// where its group has a baseline function, else with itself at a git revision.
fn front_end(benchmark: &Benchmark, baseline: Option<String>) -> FrontEndBenchmark {
    let location = benchmark.location;
    let mut test = FrontEndBenchmark::new(benchmark.id.clone(), location.file(), location.line());
    test.baseline = baseline;
    test.throughput = benchmark.throughput.clone().map(throughput);
    test.parity = benchmark.noise_threshold;
    test
}

/// criterion's throughput as rtcompare shows it: bytes, or elements.
fn throughput(throughput: crate::Throughput) -> rtcompare::__private::Throughput {
    // rtcompare counts bytes or elements; bits are an eighth of a byte, and a count of both
    // shows its elements, as criterion's own report does first.
    let (unit, amount) = match throughput {
        crate::Throughput::Bytes(bytes) | crate::Throughput::BytesDecimal(bytes) => (ThroughputUnit::Bytes, bytes),
        crate::Throughput::Bits(bits) => (ThroughputUnit::Bytes, bits / 8),
        crate::Throughput::Elements(elements) | crate::Throughput::ElementsAndBytes { elements, .. } => {
            (ThroughputUnit::Elements, elements)
        }
    };
    rtcompare::__private::Throughput { unit, amount: Amount::Fixed(amount) }
}

/// A benchmark's routine as rtcompare's four loops: the candidate is this build's routine, and so
/// is the baseline (the baseline build's is in its own process).
struct Entered<'a>(&'a mut dyn Routine);

impl Loops for Entered<'_> {
    fn batch(&mut self, which: Loop, copy: usize, iters: u64, _seed: u64, meter: Meter) -> u64 {
        // The seed builds a generated loop's inputs; a criterion routine builds its own.
        let twin = matches!(which, Loop::CandidateTwin | Loop::BaselineTwin);
        self.0.batch(copy, twin, iters, meter)
    }
}
