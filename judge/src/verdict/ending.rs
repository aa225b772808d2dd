//! How a confirmation ended ([`Ending`]), and what would settle one that ended undecided
//! ([`Settle`]).

use super::seconds;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Why a confirmation stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// A look repeated the signal.
    Confirmed,
    /// A look ruled the signal out.
    RuledOut,
    /// The planned look was taken and did not confirm the signal, nor did the processes rule it
    /// out.
    LastLook,
    /// The comparison's time cap came before the planned look, which was then not taken: a look
    /// at whatever processes the cap left would test at a level nobody planned.
    TimeCap,
    /// The time cap left room for fewer fresh processes than the test needs at this binary's
    /// level, so none was started.
    NoRoom,
}

/// What would settle a confirmation that ended undecided, from what its fresh processes
/// measured: how many processes the test would need to confirm the difference they estimate
/// nine times in ten, how long those would take at the pace seen, and a budget whose time cap
/// would hold them.
///
/// ```
/// use rtcompare_judge::verdict::Settle;
/// use std::time::Duration;
/// let s = Settle { processes: 20, seconds: 3.1, budget: Duration::from_millis(1500) };
/// assert!(s.processes > 12 && s.budget > Duration::from_secs(1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settle {
    /// Fresh processes needed.
    pub processes: usize,
    /// Seconds they would take at the pace seen.
    pub seconds: f64,
    /// A budget (`RTCOMPARE_TIME`, or the attribute's `time`) whose time cap would hold them, in
    /// seconds in the files.
    #[serde(with = "seconds")]
    pub budget: Duration,
}
