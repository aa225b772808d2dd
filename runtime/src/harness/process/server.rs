//! A child's side of the child protocol (`protocol.rs`): a test binary started by a test
//! process to measure serves it over its standard input and output. It announces every test it
//! has, then answers requests for any of them, as many as it is sent: it measures a plan as a
//! fresh process does (a worker), or runs one batch of a candidate at a time (one side of a
//! lock-step pair). Nothing it does is read from the settings: a request carries it all.

use crate::child::panic_text;
use crate::compare::measure;
use crate::harness::loops::{Loop, Loops, Registered};
use crate::harness::protocol::{PROTOCOL, Reply, Request, Twin, write_reply};
use crate::harness::registry::Comparison;
use crate::instructions::per_call::label;
use crate::instructions::requests;
use crate::measure::{Arm, Halt, Meter, PLACEMENTS};
use rtcompare_judge::counts::Routines;
use rtcompare_judge::measure::Metric;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::CString;
use std::hint::black_box;
use std::io::{self, BufRead, Write};
use std::panic::catch_unwind;
use std::process::ExitCode;

/// Child mode: pin this process to `cpu` (a lock-step pair's, where the parent names one), then
/// serve `comparisons` until told to quit or the parent goes away, each test's loops reached
/// through `enter` (a registered comparison's own, without one).
pub(crate) fn serve(
    comparisons: &[(String, Comparison)],
    enter: Option<&mut Enter<'_>>,
    cpu: Option<usize>,
) -> ExitCode {
    if let Some(cpu) = cpu {
        // Best effort: a CPU that cannot be had leaves the process where the scheduler puts it.
        super::lockstep::pin_to(cpu);
    }
    // Standard output is locked for one reply at a time, never across a request: a measured
    // function may print, from any thread.
    let (input, output) = (Box::new(std::io::stdin().lock()), Box::new(std::io::stdout()));
    let served = match enter {
        Some(enter) => serve_on(comparisons, enter, input, output),
        None => serve_on(comparisons, &mut registered(comparisons), input, output),
    };
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

/// How a child reaches the loops of `comparisons` registered by `#[compare]`: they are functions.
fn registered(comparisons: &[(String, Comparison)]) -> impl FnMut(&str, Serving) -> Serving {
    |test, mut serving| {
        if let Some(&(_, comparison)) = comparisons.iter().find(|(name, _)| name == test) {
            serving.serve(&mut Registered(comparison));
        }
        serving
    }
}

/// How a child reaches a test's loops: `enter(test, serving)` runs the code that has them, which
/// answers from there with [`Serving::serve`], and hands `serving` back.
pub type Enter<'a> = dyn FnMut(&str, Serving) -> Serving + 'a;

/// A child's side of the protocol as it serves one test: handed to the code that reaches the
/// test's loops ([`Enter`]), which answers from there with [`Serving::serve`] and hands it back.
pub struct Serving {
    tests: BTreeMap<String, Comparison>,
    lines: io::Lines<Box<dyn BufRead>>,
    output: Box<dyn Write>,
    /// The request to answer next, once read.
    pending: Option<Request>,
    /// Whether a request was answered since the test was entered.
    answered: bool,
    /// Why a reply could not be written or a request read (the parent is gone).
    failed: Option<io::Error>,
}

impl Serving {
    /// Answers the request waiting and every one after it for the same test, running `loops`,
    /// until a request names another test, the parent says to quit, or it is gone.
    pub fn serve(&mut self, loops: &mut dyn Loops) {
        let Some(test) = self.pending.as_ref().map(|request| request.test().to_owned()) else { return };
        let Some(&comparison) = self.tests.get(&test) else { return };
        while let Some(request) = self.pending.take_if(|request| request.test() == test) {
            self.answered = true;
            let reply = answer(comparison, loops, request);
            match write_reply(&mut self.output, &reply).and_then(|()| read(&mut self.lines, &mut self.output)) {
                Ok(next) => self.pending = next,
                Err(error) => return self.failed = Some(error),
            }
        }
    }

    /// Refuses the request waiting, and reads the next.
    fn refuse(&mut self, why: String) -> io::Result<()> {
        write_reply(&mut self.output, &Reply::Refused { why })?;
        self.pending = read(&mut self.lines, &mut self.output)?;
        Ok(())
    }
}

/// Serves `comparisons`, reading requests from `input` and writing replies to `output`; an
/// error when a reply cannot be written (the parent is gone).
///
/// A request's test is entered once, and every request for it that follows is answered from
/// inside, until one names another test: a lock-step side's hundreds of batches enter it once.
fn serve_on(
    comparisons: &[(String, Comparison)],
    enter: &mut Enter<'_>,
    input: Box<dyn BufRead>,
    mut output: Box<dyn Write>,
) -> io::Result<()> {
    let tests: BTreeMap<String, Comparison> = comparisons.iter().cloned().collect();
    let names = tests.keys().cloned().collect();
    write_reply(&mut output, &Reply::Hello { protocol: PROTOCOL, tests: names })?;
    let mut lines = input.lines();
    let pending = read(&mut lines, &mut output)?;
    let mut serving = Serving { tests, lines, output, pending, answered: false, failed: None };
    while let Some(test) = serving.pending.as_ref().map(|request| request.test().to_owned()) {
        if !serving.tests.contains_key(&test) {
            serving.refuse(format!("this binary has no test `{test}`"))?;
            continue;
        }
        serving.answered = false;
        serving = enter(&test, serving);
        if let Some(error) = serving.failed.take() {
            return Err(error);
        }
        if !serving.answered {
            // The test exists, but this build's code reached no loop to measure.
            serving
                .refuse(format!("the benchmark `{test}` ran no measured routine (it called no `Bencher` method)"))?;
        }
    }
    Ok(())
}

/// The next request to answer from `lines`, each line that is none refused on `output`; `None`
/// at [`Request::Quit`] or the end of the input.
fn read(lines: &mut impl Iterator<Item = io::Result<String>>, output: &mut impl Write) -> io::Result<Option<Request>> {
    for line in lines {
        let Ok(line) = line else { break };
        match serde_json::from_str::<Request>(&line) {
            Ok(Request::Quit) => break,
            Ok(request) => return Ok(Some(request)),
            Err(error) => {
                let why = format!("cannot read the request {line:?}: {error}");
                write_reply(output, &Reply::Refused { why })?;
            }
        }
    }
    Ok(None)
}

/// The reply to `request` for `comparison`, whose loops are `loops`.
fn answer(comparison: Comparison, loops: &mut dyn Loops, request: Request) -> Reply {
    match request {
        Request::Measure { plan } => {
            let loops = RefCell::new(loops);
            let (candidate, baseline) = arms(comparison, &loops);
            Reply::Measured(Box::new(measure(candidate, baseline, &plan.options(comparison))))
        }
        Request::Run { routine, copy, iters, seed, metric, .. } if copy < PLACEMENTS => {
            let which = match routine {
                Twin::Primary => Loop::Candidate,
                Twin::Twin => Loop::CandidateTwin,
            };
            Reply::Total { total: loops.batch(which, copy, iters, seed, Meter::new(metric)) }
        }
        Request::Run { copy, .. } => Reply::Refused { why: format!("there is no placement copy {copy}") },
        Request::Count { id, sizes, seed, rounds, costly_warm_up, candidate_only, .. } => {
            let counted = if candidate_only { CANDIDATE_LOOPS } else { 4 };
            count(loops, id, sizes, seed, rounds, costly_warm_up, counted)
        }
        // `read` ends the serving at a quit; none reaches here.
        Request::Quit => Reply::Refused { why: "a quit has no reply".to_owned() },
    }
}

/// The candidate and baseline of `comparison` as arms of this process, their batches run by
/// `loops`.
fn arms<'a>(comparison: Comparison, loops: &'a RefCell<&mut dyn Loops>) -> (Arm<'a>, Arm<'a>) {
    let arm = |name: &str, primary: Loop, twin: Loop| {
        let copy = |which: Loop, copy: usize| {
            move |iters: u64, seed: u64, meter: Meter| -> Result<u64, Halt> {
                Ok(loops.borrow_mut().batch(which, copy, iters, seed, meter))
            }
        };
        let copies = |which: Loop| (0..PLACEMENTS).map(|k| copy(which, k)).collect::<Vec<_>>();
        Arm::from_copies(name, copies(primary), copies(twin))
    };
    let registration = comparison.registration;
    (
        arm(registration.candidate, Loop::Candidate, Loop::CandidateTwin),
        arm(registration.baseline, Loop::Baseline, Loop::BaselineTwin),
    )
}

/// The loops a count of only the candidate's runs: the first two of [`Routines::named`], the
/// candidate and its twin.
const CANDIDATE_LOOPS: usize = 2;

/// Answers a [`Request::Count`]: under callgrind, each of the first `counted` of the four loops
/// (all four, or the candidate's two) once in its first placement copy with one call, uncounted
/// (lazy initialisation, a buffer grown once), then, instrumented, round after round in a batch
/// of each size, counted by its meter ([`Meter::instructions`]) and dumped under its label. A
/// panic in a measured function is refused with its message.
///
/// Instrumentation stays on from one count to the next: switching it discards valgrind's
/// translations, which costs a count about 40 ms. Only a `costly_warm_up` (a first call that,
/// instrumented, would cost more than that) runs with it off, as the first count's warm-up
/// does, the process having started without it.
fn count(
    loops: &mut dyn Loops,
    id: u64,
    sizes: [u64; 2],
    seed: u64,
    rounds: u64,
    costly_warm_up: bool,
    counted: usize,
) -> Reply {
    if requests::running_on_valgrind() == 0 {
        return Reply::Refused { why: "this process does not run under callgrind, so it cannot count".to_owned() };
    }
    let names = Routines::NAMES.named();
    let counted = &Loop::ALL.iter().zip(names).collect::<Vec<_>>()[..counted.min(4)];
    let counting = catch_unwind(std::panic::AssertUnwindSafe(|| {
        if costly_warm_up {
            requests::stop_instrumentation();
        }
        for &(&which, _) in counted {
            black_box(loops.batch(which, 0, 1, seed, Meter::new(Metric::Time)));
        }
        requests::start_instrumentation();
        for round in 0..rounds {
            let seed = rtcompare_judge::seeds::nth(seed, round as usize);
            for &(&which, (routine, _)) in counted {
                for calls in sizes {
                    requests::zero_stats();
                    black_box(loops.batch(which, 0, calls, seed, Meter::instructions()));
                    // A label of ASCII words and numbers has no NUL.
                    let label = CString::new(label(id + round, routine, calls)).unwrap_or_default();
                    requests::dump_stats_at(&label);
                }
            }
        }
    }));
    // Also after a panic, which may have left a counted region open.
    requests::close_regions();
    match counting {
        Ok(()) => Reply::Counted { id },
        Err(payload) => Reply::Refused { why: format!("a measured function panicked: {}", panic_text(&*payload)) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::plan::ProcessPlan;
    use crate::harness::protocol::{hello, message, write_request};
    use crate::harness::registry::{AttributeSettings, Batches, Registration};
    use crate::measure::Layout;
    use rtcompare_judge::measure::Metric;
    use std::time::Duration;

    /// A batch that spins `iters` times, timed; for another metric, its total is its size plus
    /// `iters`, so the totals a request gets back are known.
    fn batch(iters: u64, _seed: u64, size: u64, meter: Meter) -> u64 {
        if meter.metric() != Metric::Time {
            return size + iters;
        }
        let reading = meter.start();
        (0..iters).for_each(|i| {
            std::hint::black_box(i);
        });
        meter.stop(reading).max(1)
    }

    fn comparison(candidate: &'static str, size: Option<u64>) -> (String, Comparison) {
        let registration: &'static Registration = Box::leak(Box::new(Registration {
            module_path: "perf",
            candidate,
            baseline: "old",
            baseline_name: "old",
            batches: Batches::uniform(batch),
            settings: AttributeSettings::default(),
            file: "tests/perf.rs",
            line: 1,
        }));
        let comparison = Comparison { registration, size };
        (comparison.name(), comparison)
    }

    /// What a child serving `comparisons` answers to `requests`, message by message, their loops
    /// reached through `enter`.
    fn served_through(
        comparisons: &[(String, Comparison)],
        enter: &mut Enter<'_>,
        requests: &[Request],
    ) -> Vec<String> {
        let mut input = Vec::new();
        for request in requests {
            write_request(&mut input, request).expect("a request is written");
        }
        let output = Output::default();
        serve_on(comparisons, enter, Box::new(io::Cursor::new(input)), Box::new(output.clone()))
            .expect("the replies are written");
        let output = output.text();
        output.lines().map(|line| message(line).expect("every line is a message").to_owned()).collect()
    }

    /// A child's standard output, shared with the test that reads it.
    #[derive(Clone, Default)]
    struct Output(std::rc::Rc<RefCell<Vec<u8>>>);

    impl Write for Output {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().write(bytes)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Output {
        fn text(&self) -> String {
            String::from_utf8(self.0.borrow().clone()).expect("UTF-8")
        }
    }

    /// What a child serving the registered `comparisons` answers to `requests`.
    fn served(comparisons: &[(String, Comparison)], requests: &[Request]) -> Vec<String> {
        served_through(comparisons, &mut registered(comparisons), requests)
    }

    fn reply(text: &str) -> Reply {
        serde_json::from_str(text).unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    #[test]
    fn one_child_answers_requests_for_several_tests_until_told_to_quit() {
        let comparisons = [comparison("a", None), comparison("b", Some(10))];
        let run = |test: &str, copy: usize| Request::Run {
            test: test.to_owned(),
            routine: Twin::Twin,
            copy,
            iters: 5,
            seed: 1,
            metric: Metric::Allocs,
        };
        let plan = ProcessPlan {
            test: "perf::a_vs_old".to_owned(),
            budget: Duration::from_millis(20),
            seed: 3,
            layout: Layout::Fixed,
            role: rtcompare_judge::decide::Role::Fresh,
        };
        let requests = [
            run("perf::b_vs_old/10", 1),
            run("perf::a_vs_old", 0),
            Request::Measure { plan },
            run("perf::c_vs_old", 0),
            run("perf::a_vs_old", crate::measure::PLACEMENTS),
            Request::Quit,
            run("perf::a_vs_old", 0),
        ];
        let messages = served(&comparisons, &requests);
        assert_eq!(messages.len(), 6, "a hello, then one reply a request up to the quit: {messages:#?}");
        let tests = hello(&messages[0]).expect("a hello of this protocol");
        assert_eq!(tests, ["perf::a_vs_old", "perf::b_vs_old/10"]);
        assert_eq!(reply(&messages[1]), Reply::Total { total: 15 }, "the size reaches the batch");
        assert_eq!(reply(&messages[2]), Reply::Total { total: 5 });
        let Reply::Measured(measured) = reply(&messages[3]) else { panic!("not measured: {}", messages[3]) };
        assert_eq!((measured.candidate.as_str(), measured.baseline.as_str()), ("a", "old"));
        assert!(measured.samples.rounds() >= crate::measure::Options::default().min_rounds, "{measured:?}");
        assert_eq!(reply(&messages[4]), Reply::Refused { why: "this binary has no test `perf::c_vs_old`".to_owned() });
        assert!(matches!(reply(&messages[5]), Reply::Refused { .. }), "{}", messages[5]);
    }

    #[test]
    fn a_request_that_cannot_be_read_is_refused_and_the_child_goes_on() {
        let comparisons = [comparison("a", None)];
        let output = Output::default();
        let input = "not a request\n{\"request\":\"quit\"}\n";
        serve_on(&comparisons, &mut registered(&comparisons), Box::new(input.as_bytes()), Box::new(output.clone()))
            .expect("the replies are written");
        let output = output.text();
        let messages: Vec<&str> = output.lines().filter_map(message).collect();
        assert_eq!(messages.len(), 2, "{output}");
        let Reply::Refused { why } = reply(messages[1]) else { panic!("not refused: {}", messages[1]) };
        assert!(why.starts_with("cannot read the request \"not a request\""), "{why}");
    }

    /// Loops that add `iters` and the copy's number, and count their batches.
    struct Counting<'a>(&'a mut u64);

    impl Loops for Counting<'_> {
        fn batch(&mut self, _which: Loop, copy: usize, iters: u64, _seed: u64, _meter: Meter) -> u64 {
            *self.0 += 1;
            iters + copy as u64
        }
    }

    #[test]
    fn a_test_is_entered_once_for_the_requests_that_follow_for_it() {
        let comparisons = [comparison("a", None), comparison("b", None), comparison("c", None)];
        let run = |test: &str, copy: usize| Request::Run {
            test: test.to_owned(),
            routine: Twin::Primary,
            copy,
            iters: 5,
            seed: 1,
            metric: Metric::Time,
        };
        let (mut entered, mut batches) = (Vec::new(), 0);
        // `c` exists, but its code never reaches a loop: a benchmark that calls no `Bencher` method.
        let mut enter = |test: &str, mut serving: Serving| -> Serving {
            entered.push(test.to_owned());
            if test != "perf::c_vs_old" {
                serving.serve(&mut Counting(&mut batches));
            }
            serving
        };
        let requests = [
            run("perf::a_vs_old", 0),
            run("perf::a_vs_old", 3),
            run("perf::a_vs_old", 4),
            run("perf::b_vs_old", 1),
            run("perf::c_vs_old", 0),
            run("perf::a_vs_old", 2),
            Request::Quit,
        ];
        let messages = served_through(&comparisons, &mut enter, &requests);
        assert_eq!(entered, ["perf::a_vs_old", "perf::b_vs_old", "perf::c_vs_old", "perf::a_vs_old"]);
        let replies: Vec<Reply> = messages[1..].iter().map(|m| reply(m)).collect();
        assert_eq!(replies.len(), 6, "{messages:#?}");
        assert_eq!(replies[..2], [Reply::Total { total: 5 }, Reply::Total { total: 8 }]);
        assert_eq!(replies[2], Reply::Refused { why: "there is no placement copy 4".to_owned() });
        assert_eq!(replies[3], Reply::Total { total: 6 });
        let why = "the benchmark `perf::c_vs_old` ran no measured routine (it called no `Bencher` method)";
        assert_eq!(replies[4], Reply::Refused { why: why.to_owned() });
        assert_eq!(replies[5], Reply::Total { total: 7 });
        assert_eq!(batches, 4, "a refused request runs no batch");
    }
}
