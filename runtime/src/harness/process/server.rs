//! A child's side of the child protocol (`protocol.rs`): a test binary started by a test
//! process to measure serves it over its standard input and output. It announces every test it
//! has, then answers requests for any of them, as many as it is sent: it measures a plan as a
//! fresh process does (a worker), or runs one batch of a candidate at a time (one side of a
//! lock-step pair). Nothing it does is read from the settings: a request carries it all.

use crate::child::panic_text;
use crate::harness::plan::arms;
use crate::harness::protocol::{PROTOCOL, Reply, Request, Twin, write_reply};
use crate::harness::registry::Comparison;
use crate::instructions::per_call::label;
use crate::instructions::requests;
use crate::measure;
use crate::measure::Meter;
use rtcompare_judge::counts::Routines;
use rtcompare_judge::measure::Metric;
use std::collections::BTreeMap;
use std::ffi::CString;
use std::hint::black_box;
use std::io::{self, BufRead, Write};
use std::panic::catch_unwind;
use std::process::ExitCode;

/// Child mode: pin this process to `cpu` (a lock-step pair's, where the parent names one), then
/// serve `comparisons` until told to quit or the parent goes away.
pub(crate) fn serve(comparisons: &[(String, Comparison)], cpu: Option<usize>) -> ExitCode {
    if let Some(cpu) = cpu {
        // Best effort: a CPU that cannot be had leaves the process where the scheduler puts it.
        super::lockstep::pin_to(cpu);
    }
    // Standard output is locked for one reply at a time, never across a request: a measured
    // function may print, from any thread.
    match serve_on(comparisons, std::io::stdin().lock(), &mut std::io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

/// Serves `comparisons`, reading requests from `input` and writing replies to `output`; an
/// error when a reply cannot be written (the parent is gone).
fn serve_on(comparisons: &[(String, Comparison)], input: impl BufRead, output: &mut impl Write) -> io::Result<()> {
    let tests: BTreeMap<&str, Comparison> = comparisons.iter().map(|(name, c)| (name.as_str(), *c)).collect();
    let names = tests.keys().map(|name| (*name).to_owned()).collect();
    write_reply(output, &Reply::Hello { protocol: PROTOCOL, tests: names })?;
    for line in input.lines() {
        let Ok(line) = line else { break };
        let reply = match serde_json::from_str::<Request>(&line) {
            Ok(request) => match answer(&tests, request) {
                Some(reply) => reply,
                None => break,
            },
            Err(error) => Reply::Refused { why: format!("cannot read the request {line:?}: {error}") },
        };
        write_reply(output, &reply)?;
    }
    Ok(())
}

/// The reply to `request`; `None` for [`Request::Quit`].
fn answer(tests: &BTreeMap<&str, Comparison>, request: Request) -> Option<Reply> {
    let unknown = |test: &str| Reply::Refused { why: format!("this binary has no test `{test}`") };
    Some(match request {
        Request::Measure { plan } => match tests.get(plan.test.as_str()) {
            Some(&comparison) => {
                let (candidate, baseline) = arms(comparison);
                Reply::Measured(Box::new(measure(candidate, baseline, &plan.options(comparison))))
            }
            None => unknown(&plan.test),
        },
        Request::Run { test, routine, copy, iters, seed, metric } => match tests.get(test.as_str()) {
            Some(comparison) => {
                let batches = comparison.registration.batches;
                let copies = match routine {
                    Twin::Primary => batches.candidate,
                    Twin::Twin => batches.candidate_twin,
                };
                match copies.get(copy) {
                    Some(batch) => {
                        Reply::Total { total: batch(iters, seed, comparison.size.unwrap_or(0), Meter::new(metric)) }
                    }
                    None => Reply::Refused { why: format!("there is no placement copy {copy}") },
                }
            }
            None => unknown(&test),
        },
        Request::Count { test, id, sizes, seed, rounds, costly_warm_up, candidate_only } => {
            match tests.get(test.as_str()) {
                Some(comparison) => {
                    let loops = if candidate_only { CANDIDATE_LOOPS } else { 4 };
                    count(comparison, id, sizes, seed, rounds, costly_warm_up, loops)
                }
                None => unknown(&test),
            }
        }
        Request::Quit => return None,
    })
}

/// The loops a count of only the candidate's runs: the first two of [`Routines::named`], the
/// candidate and its twin.
const CANDIDATE_LOOPS: usize = 2;

/// Answers a [`Request::Count`]: under callgrind, each of the first `loops` of the four loops'
/// (all four, or the candidate's two) first placement copy once with one call, uncounted (lazy initialisation, a buffer grown once), then, instrumented,
/// round after round in a batch of each size, counted by its meter ([`Meter::instructions`])
/// and dumped under its label. A panic in a measured function is refused with its message.
///
/// Instrumentation stays on from one count to the next: switching it discards valgrind's
/// translations, which costs a count about 40 ms. Only a `costly_warm_up` (a first call that,
/// instrumented, would cost more than that) runs with it off, as the first count's warm-up
/// does, the process having started without it.
fn count(
    comparison: &Comparison,
    id: u64,
    sizes: [u64; 2],
    seed: u64,
    rounds: u64,
    costly_warm_up: bool,
    loops: usize,
) -> Reply {
    if requests::running_on_valgrind() == 0 {
        return Reply::Refused { why: "this process does not run under callgrind, so it cannot count".to_owned() };
    }
    let batches = comparison.registration.batches;
    let routines = Routines {
        candidate: batches.candidate[0],
        candidate_twin: batches.candidate_twin[0],
        baseline: batches.baseline[0],
        baseline_twin: batches.baseline_twin[0],
    };
    let loops = &routines.named()[..loops.min(4)];
    let size = comparison.size.unwrap_or(0);
    let counted = catch_unwind(|| {
        if costly_warm_up {
            requests::stop_instrumentation();
        }
        for (_, batch) in loops {
            black_box(batch(1, seed, size, Meter::new(Metric::Time)));
        }
        requests::start_instrumentation();
        for round in 0..rounds {
            let seed = rtcompare_judge::seeds::nth(seed, round as usize);
            for (routine, batch) in loops {
                for calls in sizes {
                    requests::zero_stats();
                    black_box(batch(calls, seed, size, Meter::instructions()));
                    // A label of ASCII words and numbers has no NUL.
                    let label = CString::new(label(id + round, routine, calls)).unwrap_or_default();
                    requests::dump_stats_at(&label);
                }
            }
        }
    });
    // Also after a panic, which may have left a counted region open.
    requests::close_regions();
    match counted {
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

    /// What a child serving `comparisons` answers to `requests`, message by message.
    fn served(comparisons: &[(String, Comparison)], requests: &[Request]) -> Vec<String> {
        let mut input = Vec::new();
        for request in requests {
            write_request(&mut input, request).expect("a request is written");
        }
        let mut output = Vec::new();
        serve_on(comparisons, input.as_slice(), &mut output).expect("the replies are written");
        let output = String::from_utf8(output).expect("UTF-8");
        output.lines().map(|line| message(line).expect("every line is a message").to_owned()).collect()
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
        let mut output = Vec::new();
        let input = "not a request\n{\"request\":\"quit\"}\n";
        serve_on(&comparisons, input.as_bytes(), &mut output).expect("the replies are written");
        let output = String::from_utf8(output).expect("UTF-8");
        let messages: Vec<&str> = output.lines().filter_map(message).collect();
        assert_eq!(messages.len(), 2, "{output}");
        let Reply::Refused { why } = reply(messages[1]) else { panic!("not refused: {}", messages[1]) };
        assert!(why.starts_with("cannot read the request \"not a request\""), "{why}");
    }
}
