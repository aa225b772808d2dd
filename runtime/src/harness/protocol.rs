//! The child protocol: everything a test process and the child processes it starts to measure
//! say to each other, in one place. The parent's side is `client.rs`, the child's `server.rs`.
//!
//! A child is this test binary, or a baseline build of it, started with the variable
//! [`CHILD_VARIABLE`](super::variables::CHILD_VARIABLE) and no arguments. It first announces
//! itself with [`Reply::Hello`]: the protocol's version and every test it has. Then it answers
//! each [`Request`], one JSON object a line on its standard input, with one [`Reply`], one JSON
//! object a line after [`PREFIX`] on its standard output, until [`Request::Quit`] or the end of
//! its input. Anything else on its standard output is what a measured function printed, and is
//! skipped. A child that cannot go on ends, and its parent names how it ended with its last
//! words (`child.rs`): there is no other way for a child to fail.
//!
//! The variable, the prefix and the hello's `protocol` field stay as they are from one version
//! to the next, so that a build of any version can tell the parent which one it speaks.

use super::plan::ProcessPlan;
use rtcompare_judge::Measured;
use rtcompare_judge::measure::Metric;
use serde::{Deserialize, Serialize};
use std::io::{self, Write};

/// The protocol's version: a parent and its children must speak the same one. A child
/// announces it in its first message, [`Reply::Hello`].
pub(crate) const PROTOCOL: u32 = 3;

/// The prefix of every line a child sends back, so the parent can skip what a measured
/// function prints.
pub(crate) const PREFIX: &str = "@rtcompare-lockstep";

/// Which of a candidate's routines a [`Request::Run`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Twin {
    /// The primary routine.
    Primary,
    /// Its A/A twin.
    Twin,
}

/// What a test process asks of a child, one JSON object a line. Each request names its test, so
/// one child can answer requests for several tests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "snake_case")]
pub(crate) enum Request {
    /// Measure the plan's test in this process, as a fresh process does, and answer with what
    /// was measured ([`Reply::Measured`]): a worker.
    Measure { plan: ProcessPlan },
    /// Run one batch of placement copy `copy` of the test's candidate `routine` and answer with
    /// its metered total ([`Reply::Total`]): one side of a lock-step pair, driven batch by batch.
    Run { test: String, routine: Twin, copy: usize, iters: u64, seed: u64, metric: Metric },
    /// Count the test's four loops under callgrind ([`Reply::Counted`]): each loop's first
    /// placement copy once uncounted (its warm-up; with instrumentation off where `costly_warm_up`
    /// says a first call costs more than switching it), then `rounds` times in a batch of each
    /// of `sizes` calls, round `r` with the inputs of `rtcompare_judge::seeds::nth(seed, r)`, each batch
    /// dumped under the label `crate::instructions::per_call::label(id + r, loop, calls)`. Only a
    /// child running under callgrind can.
    Count {
        test: String,
        id: u64,
        sizes: [u64; 2],
        seed: u64,
        rounds: u64,
        /// Whether the warm-up runs with instrumentation off.
        costly_warm_up: bool,
        /// Whether only the candidate's two loops are counted: against a git revision each build
        /// counts its own candidate, and its baseline loops call that candidate too.
        candidate_only: bool,
    },
    /// End the process.
    Quit,
}

impl Request {
    /// The test a request is for (empty for [`Request::Quit`]).
    pub(crate) fn test(&self) -> &str {
        match self {
            Request::Measure { plan } => &plan.test,
            Request::Run { test, .. } | Request::Count { test, .. } => test,
            Request::Quit => "",
        }
    }
}

/// What a child answers, one JSON object a line after [`PREFIX`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub(crate) enum Reply {
    /// The first message: the protocol spoken, and the name of every test the child has.
    Hello { protocol: u32, tests: Vec<String> },
    /// What a [`Request::Measure`] measured (boxed: it is far larger than the other replies).
    Measured(Box<Measured>),
    /// A batch's metered total.
    Total { total: u64 },
    /// The dumps of a [`Request::Count`] are written.
    Counted { id: u64 },
    /// A request that cannot be carried out, and why.
    Refused { why: String },
}

/// Why a child's first message is not a hello of this protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unheard {
    /// It announced another version.
    Version(u32),
    /// It said something that is no hello of any version.
    Garbled,
}

/// The tests a child has, read from its first message; why not, when that is not a hello of
/// this protocol.
pub(crate) fn hello(message: &str) -> Result<Vec<String>, Unheard> {
    /// The one field every version's hello has.
    #[derive(Deserialize)]
    struct Version {
        protocol: u32,
    }
    match serde_json::from_str::<Reply>(message) {
        Ok(Reply::Hello { protocol: PROTOCOL, tests }) => Ok(tests),
        _ => match serde_json::from_str::<Version>(message) {
            Ok(Version { protocol }) if protocol != PROTOCOL => Err(Unheard::Version(protocol)),
            _ => Err(Unheard::Garbled),
        },
    }
}

/// The message on a line a child printed, without the prefix; `None` for a line a measured
/// function printed. The prefix may follow what a function printed without a line break.
pub(crate) fn message(line: &str) -> Option<&str> {
    line.find(PREFIX).map(|at| line[at + PREFIX.len()..].trim())
}

/// Writes one reply as a line after the prefix, and flushes it.
pub(crate) fn write_reply(out: &mut impl Write, reply: &Reply) -> io::Result<()> {
    let json = serde_json::to_string(reply).map_err(io::Error::from)?;
    writeln!(out, "{PREFIX} {json}").and_then(|()| out.flush())
}

/// Writes one request as a line, and flushes it.
pub(crate) fn write_request(out: &mut impl Write, request: &Request) -> io::Result<()> {
    let json = serde_json::to_string(request).map_err(io::Error::from)?;
    writeln!(out, "{json}").and_then(|()| out.flush())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Layout;
    use rtcompare_judge::measure::{Calibration, Samples, Series};
    use std::time::Duration;

    fn plan() -> ProcessPlan {
        ProcessPlan {
            test: "perf::fast_vs_slow/10".to_owned(),
            budget: Duration::from_millis(250),
            seed: u64::MAX,
            layout: Layout::Random,
            role: rtcompare_judge::decide::Role::Pilot,
        }
    }

    fn measured() -> Measured {
        let series = |per_op: Vec<f64>| Series {
            position: (0..per_op.len() as u32).map(|round| round * 4).collect(),
            placements: vec![per_op.clone(), Vec::new()],
            per_op,
        };
        Measured {
            candidate: "fast".to_owned(),
            baseline: "slow".to_owned(),
            calibration: Calibration {
                resolution: 100.0,
                clock_step_ns: 25.0,
                candidate_iters: 40,
                baseline_iters: 20,
                target_batch_ns: 1e5,
                candidate_batch_ns: 98_765.432_1,
                baseline_batch_ns: 101_234.5,
                first_call_ns: 0.0,
            },
            samples: Samples {
                candidate_iters: 40,
                baseline_iters: 20,
                candidate: series(vec![1.0 / 3.0, 2.25]),
                candidate_twin: series(vec![0.1 + 0.2, 2.0]),
                baseline: series(vec![3.0, std::f64::consts::PI]),
                baseline_twin: series(vec![3.25, 4.0e-9]),
            },
        }
    }

    #[test]
    fn requests_are_one_json_object_each_and_read_back_as_sent() {
        let run = Request::Run {
            test: "perf::a_vs_b".to_owned(),
            routine: Twin::Twin,
            copy: 2,
            iters: 40,
            seed: 7,
            metric: Metric::AllocBytes,
        };
        let text = serde_json::to_string(&run).expect("a request encodes");
        assert_eq!(
            text,
            r#"{"request":"run","test":"perf::a_vs_b","routine":"twin","copy":2,"iters":40,"seed":7,"metric":"alloc_bytes"}"#
        );
        let measure = Request::Measure { plan: plan() };
        let text = serde_json::to_string(&measure).expect("a request encodes");
        assert_eq!(
            text,
            r#"{"request":"measure","plan":{"test":"perf::fast_vs_slow/10","budget":{"secs":0,"nanos":250000000},"seed":18446744073709551615,"layout":"random","role":"pilot"}}"#,
            "the seed and the budget travel as whole numbers, exactly"
        );
        let count = |rounds, costly_warm_up, candidate_only| Request::Count {
            test: "perf::a_vs_b".to_owned(),
            id: 3,
            sizes: [1, 2],
            seed: 9,
            rounds,
            costly_warm_up,
            candidate_only,
        };
        let text = serde_json::to_string(&count(8, false, true)).expect("a request encodes");
        assert_eq!(
            text,
            r#"{"request":"count","test":"perf::a_vs_b","id":3,"sizes":[1,2],"seed":9,"rounds":8,"costly_warm_up":false,"candidate_only":true}"#
        );
        let count = count(8, false, true);
        for request in [run, measure, count, Request::Quit] {
            let mut line = Vec::new();
            write_request(&mut line, &request).expect("a request is written");
            let line = String::from_utf8(line).expect("UTF-8");
            assert_eq!(line.matches('\n').count(), 1, "{line}");
            assert_eq!(serde_json::from_str::<Request>(&line).ok(), Some(request));
        }
    }

    #[test]
    fn replies_are_prefixed_lines_that_read_back_as_sent() {
        for reply in [
            Reply::Hello { protocol: PROTOCOL, tests: vec!["perf::a_vs_b".to_owned()] },
            Reply::Measured(Box::new(measured())),
            Reply::Total { total: 12 },
            Reply::Counted { id: 4 },
            Reply::Refused { why: "no".to_owned() },
        ] {
            let mut line = Vec::new();
            write_reply(&mut line, &reply).expect("a reply is written");
            let line = String::from_utf8(line).expect("UTF-8");
            let printed_before = format!("what a function printed{line}");
            let text = message(&printed_before).expect("the prefix is found after other output");
            assert_eq!(serde_json::from_str::<Reply>(text).ok(), Some(reply));
        }
        assert_eq!(message("a line a measured function printed"), None);
    }

    #[test]
    fn a_measured_reply_keeps_every_figure_to_the_bit() {
        let mut sent = measured();
        // Doubles of every magnitude, every bit of their mantissas in use: serde_json reads each
        // back as written only with its `float_roundtrip` feature.
        let mut rng = rtcompare_judge::Dprng::new(7);
        let doubles = std::iter::repeat_with(|| f64::from_bits(rng.u64()).abs()).filter(|x| x.is_finite());
        sent.samples.baseline_twin.per_op = doubles.take(10_000).collect();
        let text = serde_json::to_string(&Reply::Measured(Box::new(sent.clone()))).expect("a reply encodes");
        assert!(text.starts_with(r#"{"reply":"measured","candidate":"fast","baseline":"slow","#), "{text:.80}");
        let Ok(Reply::Measured(back)) = serde_json::from_str::<Reply>(&text) else { panic!("not a measured reply") };
        let bits = |m: &Measured| m.samples.baseline_twin.per_op.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(&sent));
        assert_eq!(*back, sent);
    }

    #[test]
    fn the_hello_says_which_version_a_child_speaks() {
        let ours = serde_json::to_string(&Reply::Hello { protocol: PROTOCOL, tests: vec!["t".to_owned()] })
            .expect("a hello encodes");
        assert_eq!(hello(&ours), Ok(vec!["t".to_owned()]));
        // The hello of protocol 2, which served one comparison named on the command line.
        assert_eq!(hello(r#"{"reply":"hello","protocol":2,"has_comparison":true}"#), Err(Unheard::Version(2)));
        assert_eq!(hello(r#"{"reply":"hello","protocol":999,"tests":[]}"#), Err(Unheard::Version(999)));
        // The first protocol's announcement, and a hello of ours that lost its fields.
        assert_eq!(hello("1 ready"), Err(Unheard::Garbled));
        assert_eq!(hello(&format!(r#"{{"reply":"hello","protocol":{PROTOCOL}}}"#)), Err(Unheard::Garbled));
        assert_eq!(hello(r#"{"reply":"total","total":3}"#), Err(Unheard::Garbled));
    }
}
