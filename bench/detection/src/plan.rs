//! What a run measures: workloads, injected differences, conditions, parities, trials, budgets.

/// One workload of the fixture (`bench/detection-fixture/tests/detection.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Workload {
    /// The middle part of the pair names, `detection/<name>/p04`.
    pub name: &'static str,
    /// Whether one call lasts about 10 µs or more (the workloads the sensitivity targets are for).
    pub long: bool,
    /// Whether its arms depend on what each process draws: hash seeds (the HashMap) or memory
    /// layout (the buffer of the memory walk, the heap of the allocation workload).
    pub per_process: bool,
}

/// Every workload, in table order.
pub const WORKLOADS: [Workload; 5] = [
    Workload { name: "cpu_100ns", long: false, per_process: false },
    Workload { name: "cpu_10us", long: true, per_process: false },
    Workload { name: "memwalk_10us", long: true, per_process: true },
    Workload { name: "alloc_10us", long: true, per_process: true },
    Workload { name: "hashmap_10us", long: true, per_process: true },
];

/// The two parity settings: the default and the attribute's `parity = 0.01`.
pub const PARITIES: [Parity; 2] = [Parity::Default, Parity::Tight];

/// Which registration of a workload a trial runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Parity {
    /// `parity = 0.04`, the default.
    Default,
    /// `parity = 0.01`.
    Tight,
}

impl Parity {
    /// The parity as a fraction.
    pub fn value(self) -> f64 {
        match self {
            Parity::Default => 0.04,
            Parity::Tight => 0.01,
        }
    }

    /// The suffix of the pair name.
    pub fn suffix(self) -> &'static str {
        match self {
            Parity::Default => "p04",
            Parity::Tight => "p01",
        }
    }
}

/// The machine's state while a trial runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Condition {
    /// Nothing started by this program besides the trial.
    Idle,
    /// A process spinning on one core (the other of two) for the whole block of trials.
    Hog,
}

impl Condition {
    /// The label in tables.
    pub fn label(self) -> &'static str {
        match self {
            Condition::Idle => "idle",
            Condition::Hog => "hog",
        }
    }
}

/// The name of a pair in the fixture.
pub fn pair_name(workload: &str, parity: Parity) -> String {
    format!("detection/{workload}/{}", parity.suffix())
}

/// The name of the pair the truth of `workload` is measured with: the same functions at a
/// parity of 0.5, so no injected difference ends a run before its budget is spent.
pub fn truth_name(workload: &str) -> String {
    format!("detection/{workload}/truth")
}

/// Everything one run does.
#[derive(Debug, Clone)]
pub struct Plan {
    /// `quick` or `full`.
    pub mode: &'static str,
    /// The workloads measured.
    pub workloads: Vec<Workload>,
    /// Injected differences in percent (positive: the candidate does more work).
    pub ks: Vec<i64>,
    /// The conditions, each a block of trials.
    pub conditions: Vec<Condition>,
    /// Trials per cell at `k = 0` (the A/A cells get more: false losses are the rare event).
    pub trials_aa: u64,
    /// Trials per cell at `k ≠ 0`.
    pub trials: u64,
    /// `RTCOMPARE_TIME` of a trial.
    pub budget: &'static str,
    /// `RTCOMPARE_TIME` of a calibration run (confirmation off).
    pub calibration_budget: &'static str,
    /// Calibration runs per workload and k; the truth is their median.
    pub calibration_runs: u64,
    /// `RTCOMPARE_TIME` of the empty-function overhead run.
    pub overhead_budget: &'static str,
}

impl Plan {
    /// The quick plan: two ≥ 10 µs workloads, k ∈ {0, ±2, ±10}, 3 trials, 300 ms, idle and hog.
    pub fn quick() -> Plan {
        Plan {
            mode: "quick",
            workloads: vec![WORKLOADS[1], WORKLOADS[4]],
            ks: vec![0, 2, -2, 10, -10],
            conditions: vec![Condition::Idle, Condition::Hog],
            trials_aa: 3,
            trials: 3,
            budget: "300ms",
            calibration_budget: "1s",
            calibration_runs: 3,
            overhead_budget: "300ms",
        }
    }

    /// The full plan, sized for about an hour on 2 cores (calibration 4 × 1 s per cell of
    /// workload × k and condition, ~10 minutes; trials 1–3 s each, confirmation included):
    /// every workload, k ∈ {0, ±1, ±2, ±5, ±10, ±20}, idle and hog, 20 A/A trials per cell (400
    /// A/A comparisons in all, 80 of them on the hash-seeded workload) and 6 per cell otherwise,
    /// 500 ms per trial.
    pub fn full() -> Plan {
        Plan {
            mode: "full",
            workloads: WORKLOADS.to_vec(),
            ks: vec![0, 1, -1, 2, -2, 5, -5, 10, -10, 20, -20],
            conditions: vec![Condition::Idle, Condition::Hog],
            trials_aa: 20,
            trials: 6,
            budget: "500ms",
            calibration_budget: "1s",
            calibration_runs: 8,
            overhead_budget: "1s",
        }
    }

    /// The trial budget in seconds.
    pub fn budget_s(&self) -> f64 {
        seconds(self.budget)
    }

    /// The calibration budget in seconds.
    pub fn calibration_budget_s(&self) -> f64 {
        seconds(self.calibration_budget)
    }

    /// Trials of a cell with injected difference `k`.
    pub fn trials_for(&self, k: i64) -> u64 {
        if k == 0 { self.trials_aa } else { self.trials }
    }

    /// Trials in one condition's block.
    pub fn trials_per_condition(&self) -> u64 {
        let per_workload: u64 = self.ks.iter().map(|&k| self.trials_for(k)).sum();
        per_workload * self.workloads.len() as u64 * PARITIES.len() as u64
    }
}

/// Seconds in a budget written `300ms` or `2s` (the forms this program uses); 0 otherwise.
pub fn seconds(budget: &str) -> f64 {
    if let Some(ms) = budget.strip_suffix("ms") {
        ms.parse::<f64>().map_or(0.0, |v| v / 1_000.0)
    } else if let Some(s) = budget.strip_suffix('s') {
        s.parse::<f64>().unwrap_or(0.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_in_seconds() {
        assert_eq!(seconds("300ms"), 0.3);
        assert_eq!(seconds("5s"), 5.0);
        assert_eq!(seconds("five"), 0.0);
    }

    #[test]
    fn names_match_the_fixture() {
        assert_eq!(pair_name("cpu_10us", Parity::Tight), "detection/cpu_10us/p01");
        assert_eq!(pair_name("hashmap_10us", Parity::Default), "detection/hashmap_10us/p04");
        assert_eq!(truth_name("memwalk_10us"), "detection/memwalk_10us/truth");
    }

    #[test]
    fn full_plan_has_400_aa_comparisons() {
        let plan = Plan::full();
        let aa = plan.trials_aa * plan.workloads.len() as u64 * 2 * plan.conditions.len() as u64;
        assert_eq!(aa, 400);
        assert_eq!(plan.trials_per_condition(), (20 + 10 * 6) * 5 * 2);
    }
}
