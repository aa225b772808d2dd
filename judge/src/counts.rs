//! A comparison's instruction counts as data, and how they read beside its time verdict: whether
//! each arm counts what its twin counts, which way the change points against the verdict's
//! tolerance, and whether time and instructions tell the same story. Reading the counts from
//! callgrind's dumps is the runtime's; this is what a record keeps of them.

use serde::{Deserialize, Serialize};

use crate::stats::Outcome;

/// How far a twin's count per call may be from its primary's, relative, and the arm's count still
/// be called stable. Identical code counts identically under callgrind, so any difference means
/// the count varies within the process (a hash seed, a path that depends on timing); the
/// allowance only keeps a difference of one instruction in a long call from being one.
pub const TWIN_TOLERANCE: f64 = 1e-4;

/// Which way an instruction change points, against the verdict's tolerance: [`Outcome::Loss`]
/// for more instructions beyond it, [`Outcome::Win`] for fewer, else [`Outcome::Parity`].
pub fn direction(change: f64, tolerance: f64) -> Outcome {
    if change > tolerance {
        Outcome::Loss
    } else if change < -tolerance {
        Outcome::Win
    } else {
        Outcome::Parity
    }
}

/// Whether the time verdict and the instruction change tell the same story.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Agreement {
    /// Both moved the same way beyond the tolerance, or neither moved.
    Agrees,
    /// Time moved and the instructions did not: memory, cache or code layout.
    TimeOnly,
    /// The instructions moved and time did not: more (or less) work the CPU hid.
    InstructionsOnly,
    /// Time and instructions moved in opposite directions.
    Opposite,
}

impl Agreement {
    /// The name the results file gives it: `agrees`, `time_only`, `instructions_only`,
    /// `opposite`.
    pub fn as_str(self) -> &'static str {
        match self {
            Agreement::Agrees => "agrees",
            Agreement::TimeOnly => "time_only",
            Agreement::InstructionsOnly => "instructions_only",
            Agreement::Opposite => "opposite",
        }
    }
}

/// The agreement of a time verdict with an instruction change, both read against the same
/// tolerance (the verdict's).
pub fn agreement(time: Outcome, change: f64, tolerance: f64) -> Agreement {
    match (time, direction(change, tolerance)) {
        (time, instructions) if time == instructions => Agreement::Agrees,
        (Outcome::Parity, _) => Agreement::InstructionsOnly,
        (_, Outcome::Parity) => Agreement::TimeOnly,
        _ => Agreement::Opposite,
    }
}

/// A value for each of a comparison's four batch loops: the arms and their twins.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Routines<T> {
    /// The candidate's loop.
    pub candidate: T,
    /// The candidate's twin, an identical copy of its loop.
    pub candidate_twin: T,
    /// The baseline's loop.
    pub baseline: T,
    /// The baseline's twin.
    pub baseline_twin: T,
}

impl Routines<&'static str> {
    /// The routines' names, as the dumps' labels spell them.
    pub const NAMES: Routines<&'static str> = Routines {
        candidate: "candidate",
        candidate_twin: "candidate_twin",
        baseline: "baseline",
        baseline_twin: "baseline_twin",
    };
}

impl<T> Routines<T> {
    /// Each routine's value with its name.
    pub fn named(&self) -> [(&'static str, &T); 4] {
        let names = Routines::NAMES;
        [
            (names.candidate, &self.candidate),
            (names.candidate_twin, &self.candidate_twin),
            (names.baseline, &self.baseline),
            (names.baseline_twin, &self.baseline_twin),
        ]
    }

    /// `f` of each routine's value, or the first error.
    pub fn try_map<U, E>(&self, mut f: impl FnMut(&T) -> Result<U, E>) -> Result<Routines<U>, E> {
        Ok(Routines {
            candidate: f(&self.candidate)?,
            candidate_twin: f(&self.candidate_twin)?,
            baseline: f(&self.baseline)?,
            baseline_twin: f(&self.baseline_twin)?,
        })
    }
}

/// Whether both arms count the same per call as their twins, within [`TWIN_TOLERANCE`].
pub fn stable(per_call: &Routines<f64>) -> bool {
    let close = |primary: f64, twin: f64| (twin - primary).abs() <= TWIN_TOLERANCE * primary.abs();
    close(per_call.candidate, per_call.candidate_twin) && close(per_call.baseline, per_call.baseline_twin)
}

/// A function whose inclusive count per call differs between the arms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FunctionChange {
    /// Its demangled name.
    pub name: String,
    /// Instructions per call of the candidate's batch spent in it (and what it called).
    pub candidate: f64,
    /// The same in the baseline's batch.
    pub baseline: f64,
}

/// What callgrind counted for one comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Counted {
    /// Instructions per call of each of the four loops.
    #[serde(flatten)]
    pub per_call: Routines<f64>,
    /// `candidate / baseline − 1`, per call.
    pub change: f64,
    /// Whether each arm counts what its twin counts.
    pub stable: bool,
    /// The functions whose counts per call moved most, largest first.
    pub functions: Vec<FunctionChange>,
}

impl Counted {
    /// How far a twin's count per call is from its arm's, relative, the larger of the two arms:
    /// how much the count varies within the process (0 for code that counts the same every call).
    pub fn twin_spread(&self) -> f64 {
        let apart = |primary: f64, twin: f64| if primary > 0.0 { (twin / primary - 1.0).abs() } else { 0.0 };
        let p = &self.per_call;
        apart(p.candidate, p.candidate_twin).max(apart(p.baseline, p.baseline_twin))
    }

    /// How this count agrees with the time verdict, against its tolerance.
    pub fn agreement(&self, time: Outcome, tolerance: f64) -> Agreement {
        agreement(time, self.change, tolerance)
    }
}

/// A comparison's instruction counts as its record carries them: where they come from, what
/// was counted, and how they read beside the time verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Instructions {
    /// The counter: `callgrind`.
    pub source: String,
    /// The version of valgrind that counted.
    pub valgrind: String,
    /// The counts.
    #[serde(flatten)]
    pub counted: Counted,
    /// How the instruction change reads beside the time verdict, against its tolerance.
    pub agreement: Agreement,
}

impl Instructions {
    /// The record of `counted`, counted by valgrind `version`, read beside a time verdict of
    /// `time` against `tolerance`.
    pub fn new(counted: Counted, version: &str, time: Outcome, tolerance: f64) -> Instructions {
        Instructions {
            source: "callgrind".to_owned(),
            valgrind: version.to_owned(),
            agreement: counted.agreement(time, tolerance),
            counted,
        }
    }
}
