//! Instruction counts beside time: the parts of counting under callgrind that do not depend on
//! how the harness talks to the process it counts.
//!
//! | step | module |
//! | --- | --- |
//! | switching collection on and off around a batch, labelling its dump | `requests` |
//! | finding valgrind, its command line, why a counting process failed | `valgrind` |
//! | reading a dump: every function's exclusive and inclusive cost | `profile` |
//! | counts per call, the change, the twins, the functions that moved | `per_call` |
//!
//! How the harness is to use them is planned in `docs/instructions.md`.

pub(crate) mod per_call;
pub(crate) mod profile;
pub(crate) mod requests;
pub(crate) mod valgrind;

// The proof runs valgrind, which has client requests only where `requests` knows the sequence.
#[cfg(all(test, target_arch = "x86_64", target_os = "linux"))]
mod proof;
