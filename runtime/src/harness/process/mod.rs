//! The processes a test is measured in beside the test process: a worker of this binary
//! (`client.rs`, its side `server.rs`), a lock-step pair against a git revision (`lockstep.rs`),
//! a counting process under callgrind (`counting/`), and the comparison measured afresh in one of
//! them (`fresh.rs`).

mod client;
pub(super) mod counting;
pub(super) mod fresh;
mod lockstep;
pub(crate) mod server;
