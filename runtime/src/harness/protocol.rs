//! The protocol between a test process and the processes it starts, in one place (the variables
//! that start them are in `variables.rs`): the worker's result file (its format and its atomic
//! write), the exit codes a worker reports with, and the typed messages of the lock-step
//! processes (`harness/lockstep.rs`).

use super::error::HarnessError;
use crate::Measured;
use crate::measure::Metric;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The lock-step protocol's version: both builds of a pair must speak the same one. A process
/// announces it in its first message, [`Reply::Hello`].
pub(crate) const LOCKSTEP_PROTOCOL: u32 = 2;

/// The prefix of every line a lock-step process sends back, so the parent can skip what a
/// measured function prints.
pub(crate) const LOCKSTEP_PREFIX: &str = "@rtcompare-lockstep";

/// Which of an arm's routines a lock-step process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Twin {
    /// The primary routine.
    Primary,
    /// Its A/A twin.
    Twin,
}

/// What the test process asks of a lock-step process, one JSON object a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "snake_case")]
pub(crate) enum Request {
    /// Run one batch of placement copy `copy` of `routine` and answer with its metered total.
    Run { routine: Twin, copy: usize, iters: u64, seed: u64, metric: Metric },
    /// End the process.
    Quit,
}

/// What a lock-step process answers, one JSON object a line after [`LOCKSTEP_PREFIX`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub(crate) enum Reply {
    /// The first message: the protocol spoken, and whether the command line named a comparison
    /// this build has.
    Hello { protocol: u32, has_comparison: bool },
    /// A batch's metered total.
    Total { total: u64 },
    /// A request that cannot be carried out, and why.
    Refused { why: String },
}

/// Exit code of a worker whose command line did not select exactly one comparison.
pub(crate) const EXIT_NO_SUCH_COMPARISON: u8 = 3;

/// Reads a worker's result file: the samples it measured, or why they cannot be used.
pub(crate) fn read_result(path: &Path) -> Result<Measured, HarnessError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| HarnessError::Samples(format!("exited without writing its samples ({}: {e})", path.display())))?;
    let measured: Measured = serde_json::from_str(&text)
        .map_err(|e| HarnessError::Samples(format!("wrote samples that cannot be read: {e}")))?;
    if measured.samples.rounds() == 0 {
        return Err(HarnessError::Samples("wrote no rounds".to_owned()));
    }
    Ok(measured)
}

/// Worker mode: writes what `measured` holds to `path` atomically
/// ([`write_atomically`](crate::report::write_atomically)), so the parent never reads half a file.
pub(crate) fn write_result(path: &Path, measured: &Measured) -> Result<(), HarnessError> {
    let text =
        serde_json::to_string(measured).map_err(|e| HarnessError::io("encode the samples for", path)(e.into()))?;
    crate::report::write_atomically(path, |file| std::io::Write::write_all(file, text.as_bytes()))
        .map_err(HarnessError::io("write the samples to", path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_step_messages_are_one_json_object_each() {
        let run = Request::Run { routine: Twin::Twin, copy: 2, iters: 40, seed: 7, metric: Metric::AllocBytes };
        let text = serde_json::to_string(&run).expect("a request encodes");
        assert_eq!(text, r#"{"request":"run","routine":"twin","copy":2,"iters":40,"seed":7,"metric":"alloc_bytes"}"#);
        assert_eq!(serde_json::from_str::<Request>(&text).ok(), Some(run));
        for reply in [
            Reply::Hello { protocol: LOCKSTEP_PROTOCOL, has_comparison: true },
            Reply::Total { total: 12 },
            Reply::Refused { why: "no".to_owned() },
        ] {
            let text = serde_json::to_string(&reply).expect("a reply encodes");
            assert_eq!(serde_json::from_str::<Reply>(&text).ok(), Some(reply));
        }
        // The first protocol's announcement reads as another version, not as a hello.
        assert!(serde_json::from_str::<Reply>("1 ready").is_err());
    }
}
