//! The protocol between a test process and the processes it starts, in one place: the variables
//! that put a test binary in worker or lock-step mode, the worker's result file (its format and
//! its atomic write), the exit codes a worker reports with, and how each child's seed is derived
//! from the run's. The lock-step processes' line protocol (`harness/lockstep.rs`) is versioned
//! there, next to the code that speaks it.

use crate::Measured;
use std::path::Path;

/// The variable that puts a test binary in worker mode; its value is the file to write.
pub const WORKER_VARIABLE: &str = "RTCOMPARE_WORKER";

/// The variable that gives a worker its own budget (a confirmation process measures for a share
/// of the comparison's budget).
pub const WORKER_TIME_VARIABLE: &str = "RTCOMPARE_WORKER_TIME";

/// The variable that puts a test binary in lock-step mode.
pub const LOCKSTEP_VARIABLE: &str = "RTCOMPARE_LOCKSTEP";

/// The variable that marks the optimised build an unoptimised perf binary built and started in
/// its place; its value is the unoptimised build's target folder, where the results file and
/// baseline builds go as if it had measured itself. It also keeps the optimised build from
/// re-building itself should it have debug assertions on too.
pub const OPTIMISED_VARIABLE: &str = "RTCOMPARE_OPTIMISED";

/// Exit code of a worker whose command line did not select exactly one comparison.
pub(crate) const EXIT_NO_SUCH_COMPARISON: u8 = 3;

/// Salt of the confirmation's seeds, so its processes draw new round orders and resamples.
const CONFIRMATION_SALT: u64 = 0xC04F_143D;

/// The seed the confirmation of a run seeded with `seed` derives its processes' seeds from.
pub(crate) fn confirmation_seed(seed: u64) -> u64 {
    seed ^ CONFIRMATION_SALT
}

/// The seed of worker process `process` of a series seeded with `seed`.
pub(crate) fn process_seed(seed: u64, process: usize) -> u64 {
    seed.wrapping_add((process as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Reads a worker's result file: the samples it measured, or why they cannot be used.
pub(crate) fn read_result(path: &Path) -> Result<Measured, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("the worker process exited without writing its samples ({}: {e})", path.display()))?;
    let measured: Measured = serde_json::from_str(&text)
        .map_err(|e| format!("the worker process wrote samples that cannot be read: {e}"))?;
    if measured.samples.rounds() == 0 {
        return Err("the worker process wrote no rounds".to_owned());
    }
    Ok(measured)
}

/// Worker mode: writes what `measured` holds to `path` atomically
/// ([`write_atomically`](crate::report::write_atomically)), so the parent never reads half a file.
pub(crate) fn write_result(path: &Path, measured: &Measured) -> Result<(), String> {
    let text = serde_json::to_string(measured).map_err(|e| format!("cannot encode the samples: {e}"))?;
    crate::report::write_atomically(path, |file| std::io::Write::write_all(file, text.as_bytes()))
        .map_err(|e| format!("cannot write the samples to {}: {e}", path.display()))
}
