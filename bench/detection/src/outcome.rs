//! Reading one trial's results file, and one criterion report.

use serde_json::Value;

/// What a comparison reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The candidate was faster.
    Win,
    /// No difference beyond the tolerance (or too little evidence to tell).
    Parity,
    /// The candidate was slower.
    Loss,
    /// No verdict: the run failed, or its file could not be read.
    Failed,
}

/// One trial: one run of the fixture (or of criterion's compare step).
#[derive(Debug, Clone, PartialEq)]
pub struct Trial {
    /// The reported outcome (first round, for rtcompare).
    pub outcome: Outcome,
    /// The win or loss fresh processes confirmed: the first round's, or the one a first-round
    /// parity leaned to (`None` when none was, and for criterion, which has no such step).
    pub confirmed: Option<Outcome>,
    /// The estimated difference, `d = 1 − candidate/baseline` (positive: candidate faster): for
    /// rtcompare the change its block prints — the fresh processes' once a confirmation ran, the
    /// first round's otherwise.
    pub difference: Option<f64>,
    /// The interval the block prints beside that change, `(low, high)` as `d`, when a
    /// confirmation ran (the fresh processes' own interval); `None` otherwise, and for criterion.
    pub interval: Option<(f64, f64)>,
    /// Whether the first round was a parity leaning to a win or a loss that went to fresh
    /// processes, established or not.
    pub leaned: bool,
    /// Wall-clock seconds the verdict took, process start to exit: it includes starting the
    /// test binary and writing its output files, which lie outside the comparison.
    pub wall_s: f64,
    /// The comparison's own wall-clock seconds, confirmation included, as rtcompare records it
    /// (`duration_s`): what its cap of 4× the budget applies to. `None` when the file gave none,
    /// and for criterion.
    pub duration_s: Option<f64>,
    /// Whether the reported verdict was resolved (`verdict.resolved`): for a parity, whether it
    /// was established rather than inconclusive. `None` when the file gave none, and for
    /// criterion.
    pub resolved: Option<bool>,
    /// What the results file says would settle a signal fresh processes did not confirm.
    pub settle: Option<Settle>,
    /// The one-sided level the confirmation was taken at, when one ran.
    pub alpha: Option<f64>,
}

impl Trial {
    /// A trial that has nothing but an outcome, an estimate and a wall time (criterion's).
    pub fn bare(outcome: Outcome, difference: Option<f64>, wall_s: f64) -> Trial {
        Trial {
            outcome,
            confirmed: None,
            difference,
            interval: None,
            leaned: false,
            wall_s,
            duration_s: None,
            resolved: None,
            settle: None,
            alpha: None,
        }
    }

    /// The trial of one rtcompare run: `reading`, and the run's wall-clock seconds.
    pub fn of(reading: Reading, wall_s: f64) -> Trial {
        Trial {
            outcome: reading.outcome,
            confirmed: reading.confirmed,
            difference: reading.difference,
            interval: reading.interval,
            leaned: reading.leaned,
            wall_s,
            duration_s: reading.duration_s,
            resolved: reading.resolved,
            settle: reading.settle,
            alpha: reading.alpha,
        }
    }

    /// Whether the reported verdict is an established parity: a parity (no confirmed win or
    /// loss, and a first-round parity) whose interval lay within the parity band.
    pub fn established_parity(&self) -> bool {
        self.confirmed.is_none() && self.outcome == Outcome::Parity && self.resolved == Some(true)
    }
}

/// What would settle a confirmation that could not decide, as the results file states it:
/// `confirmation.settle` (or the `unconfirmed` caveat's copy of it), or, when the time cap left
/// no room for a confirmation at all, the `no_room` caveat's fewest processes and budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settle {
    /// Fresh processes that would settle it.
    pub processes: u64,
    /// How long those would take at the pace seen; `None` for `no_room`, which ran none.
    pub seconds: Option<f64>,
    /// A budget, in seconds, whose time cap would hold them (`RTCOMPARE_TIME`).
    pub budget_s: f64,
}

/// The parts of an rtcompare results file this benchmark reads, for the comparison `name`, in
/// schema 2 (and, for files of earlier runs, schema 1, where the first round's fields stood
/// beside the verdict, and the verdict said what the first round and the confirmation did).
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The first round's outcome (`first.verdict.outcome`; `verdict.first_round` in schema 1),
    /// `Failed` when the comparison has no verdict.
    pub outcome: Outcome,
    /// `verdict.outcome` when it is a win or a loss that fresh processes confirmed
    /// (`confirmation.confirmed`; `verdict.confirmed` in schema 1).
    pub confirmed: Option<Outcome>,
    /// The change the block prints (`report::headline`): `confirmation.report.estimate.difference`
    /// when a confirmation ran, else the first round's `estimate.difference` (files of schema 1,
    /// whose confirmation kept no report, give `over_processes.difference`).
    pub difference: Option<f64>,
    /// `confirmation.report.estimate`'s `(low, high)`: the interval printed beside that change,
    /// when a confirmation ran.
    pub interval: Option<(f64, f64)>,
    /// The first round was a parity and a confirmation ran (`confirmation` is not null): the
    /// parity leaned to a win or a loss.
    pub leaned: bool,
    /// `verdict.ratio`.
    pub ratio: Option<f64>,
    /// The arms' medians (`first.candidate_summary.median` and `first.baseline_summary.median`),
    /// ns per operation.
    pub medians: Option<(f64, f64)>,
    /// The comparison's wall-clock seconds, confirmation included, without the process's start
    /// or its output files: its rounds' `duration_s` (the comparison's in schema 1).
    pub duration_s: Option<f64>,
    /// `verdict.resolved`.
    pub resolved: Option<bool>,
    /// What would settle an undecided confirmation ([`Settle`]), schema 2 only.
    pub settle: Option<Settle>,
    /// The confirmation's one-sided level: `(1 − confirmation.report.estimate.level) / 2`, the
    /// report's level being two-sided; schema 2 only, `None` when no confirmation ran.
    pub alpha: Option<f64>,
}

impl Reading {
    /// The reading of a run without a verdict or a file.
    pub fn failed() -> Reading {
        Reading {
            outcome: Outcome::Failed,
            confirmed: None,
            difference: None,
            interval: None,
            leaned: false,
            ratio: None,
            medians: None,
            duration_s: None,
            resolved: None,
            settle: None,
            alpha: None,
        }
    }
}

/// The settling figure of a comparison ([`Settle`]): `confirmation.settle`, else the one in its
/// `unconfirmed` caveat, else its `no_room` caveat's.
fn settle_of(comparison: &Value) -> Option<Settle> {
    let stated = |settle: &Value| {
        Some(Settle {
            processes: settle["processes"].as_u64()?,
            seconds: settle["seconds"].as_f64(),
            budget_s: settle["budget"].as_f64()?,
        })
    };
    let caveats = comparison["caveats"].as_array().map(Vec::as_slice).unwrap_or_default();
    stated(&comparison["confirmation"]["settle"])
        .or_else(|| caveats.iter().find_map(|c| stated(&c["unconfirmed"]["settle"])))
        .or_else(|| {
            caveats.iter().find_map(|c| {
                let no_room = &c["no_room"];
                Some(Settle {
                    processes: no_room["fewest"].as_u64()?,
                    seconds: None,
                    budget_s: no_room["budget"].as_f64()?,
                })
            })
        })
}

/// Reads comparison `name` from the text of a results file.
///
/// # Errors
/// When the text is not JSON or holds no comparison of that name.
pub fn read_results(text: &str, name: &str) -> Result<Reading, String> {
    let run: Value = serde_json::from_str(text).map_err(|e| format!("results file is not JSON: {e}"))?;
    let comparison = run["comparisons"]
        .as_array()
        .and_then(|all| all.iter().find(|c| c["name"] == name))
        .ok_or_else(|| format!("results file has no comparison named {name}"))?;
    let verdict = &comparison["verdict"];
    let outcome_of = |value: &Value| match value.as_str() {
        Some("win") => Outcome::Win,
        Some("parity") => Outcome::Parity,
        Some("loss") => Outcome::Loss,
        _ => Outcome::Failed,
    };
    let reported = outcome_of(&verdict["outcome"]);
    let schema_2 = run["schema_version"].as_u64().is_some_and(|v| v >= 2);
    let (first, confirmed, medians, duration_s) = if schema_2 {
        let first = &comparison["first"];
        let median = |arm: &str| first[format!("{arm}_summary")]["median"].as_f64();
        let confirmation = comparison["confirmation"]["report"]["duration_s"].as_f64().unwrap_or(0.0);
        let duration_s = first["duration_s"].as_f64().map(|d| d + confirmation);
        (
            first,
            comparison["confirmation"]["confirmed"].as_bool(),
            median("candidate").zip(median("baseline")),
            duration_s,
        )
    } else {
        let summaries = &comparison["summaries"];
        let medians = summaries["candidate"]["median"].as_f64().zip(summaries["baseline"]["median"].as_f64());
        (comparison, verdict["confirmed"].as_bool(), medians, comparison["duration_s"].as_f64())
    };
    let outcome = match (schema_2, verdict["first_round"].is_null()) {
        (true, _) => outcome_of(&first["verdict"]["outcome"]),
        // Files written before `first_round` existed: the first round's outcome was the verdict's.
        (false, true) => reported,
        (false, false) => outcome_of(&verdict["first_round"]),
    };
    let confirmed_outcome = matches!(reported, Outcome::Loss | Outcome::Win) && confirmed == Some(true);
    // What the block heads the verdict with: the fresh processes' report once they ran.
    let printed = &comparison["confirmation"]["report"]["estimate"];
    Ok(Reading {
        outcome,
        confirmed: confirmed_outcome.then_some(reported),
        difference: printed["difference"]
            .as_f64()
            .or_else(|| comparison["over_processes"]["difference"].as_f64())
            .or_else(|| first["estimate"]["difference"].as_f64()),
        interval: printed["low"].as_f64().zip(printed["high"].as_f64()),
        leaned: outcome == Outcome::Parity && !comparison["confirmation"].is_null(),
        ratio: verdict["ratio"].as_f64(),
        medians,
        duration_s,
        resolved: verdict["resolved"].as_bool(),
        settle: if schema_2 { settle_of(comparison) } else { None },
        alpha: comparison["confirmation"]["report"]["estimate"]["level"]
            .as_f64()
            .filter(|_| schema_2)
            .map(|level| (1.0 - level) / 2.0),
    })
}

/// Criterion's verdict for each benchmark in the output of one `--baseline` run:
/// `(benchmark, outcome, difference)`, the difference being minus criterion's estimated change
/// of the mean (so positive means the candidate got faster, as in rtcompare).
pub fn read_criterion(stdout: &str, benchmarks: &[&str]) -> Vec<(String, Outcome, Option<f64>)> {
    let mut found = Vec::new();
    let mut current: Option<&str> = None;
    let mut change = None;
    for line in stdout.lines() {
        let trimmed = line.trim();
        if let Some(name) = benchmarks.iter().find(|b| trimmed.split_whitespace().next() == Some(**b)) {
            current = Some(name);
            change = None;
        }
        if trimmed.starts_with("change:") {
            change = middle_percent(trimmed).map(|c| -c);
        }
        let outcome = if trimmed.starts_with("Performance has regressed") {
            Outcome::Loss
        } else if trimmed.starts_with("Performance has improved") {
            Outcome::Win
        } else if trimmed.starts_with("No change in performance") || trimmed.starts_with("Change within noise") {
            Outcome::Parity
        } else {
            continue;
        };
        if let Some(name) = current.take() {
            found.push((name.to_owned(), outcome, change.take()));
        }
    }
    found
}

/// The middle of three bracketed percentages, `[-1.2% +0.3% +1.5%]` → 0.003.
fn middle_percent(line: &str) -> Option<f64> {
    let inside = line.split('[').nth(1)?.split(']').next()?;
    let middle = inside.split_whitespace().nth(1)?;
    // Criterion writes negative changes with U+2212 MINUS SIGN, which `f64::from_str` rejects.
    middle.trim_end_matches('%').replace('\u{2212}', "-").parse::<f64>().ok().map(|p| p / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{"comparisons": [
        {"name": "detection/cpu_10us/p01", "verdict": {"outcome": "loss", "ratio": 1.02, "confirmed": true},
         "estimate": {"difference": -0.0199, "level": 0.95},
         "over_processes": {"difference": -0.0203, "processes": 3},
         "summaries": {"candidate": {"median": 10.2}, "baseline": {"median": 10.0}}, "duration_s": 2.75},
        {"name": "detection/memwalk_10us/p01", "verdict": {"outcome": "parity", "ratio": 1.01, "confirmed": null},
         "estimate": {"difference": -0.011, "level": 0.99}, "over_processes": null,
         "summaries": {"candidate": {"median": 10.1}, "baseline": {"median": 10.0}}},
        {"name": "detection/alloc_10us/p01", "verdict": {"outcome": "loss", "first_round": "parity", "confirmed": true},
         "estimate": {"difference": -0.017, "level": 0.99}, "over_processes": {"difference": -0.021, "processes": 6},
         "confirmation": {"verdict": {"outcome": "loss"}}, "summaries": null},
        {"name": "detection/hashmap_10us/p01",
         "verdict": {"outcome": "parity", "first_round": "parity", "confirmed": false},
         "estimate": {"difference": -0.012, "level": 0.95}, "over_processes": {"difference": -0.004, "processes": 4},
         "confirmation": {"verdict": {"outcome": "parity"}}, "summaries": null},
        {"name": "detection/empty/aa", "verdict": null, "estimate": null, "summaries": null}
    ]}"#;

    #[test]
    fn reads_a_confirmed_loss() {
        let reading = read_results(FILE, "detection/cpu_10us/p01").expect("present");
        assert_eq!((reading.outcome, reading.confirmed), (Outcome::Loss, Some(Outcome::Loss)));
        assert_eq!(reading.difference, Some(-0.0203), "the mean over processes");
        assert_eq!(reading.medians, Some((10.2, 10.0)));
        assert_eq!(reading.duration_s, Some(2.75), "the comparison's own time");
        let parity = read_results(FILE, "detection/memwalk_10us/p01").expect("present");
        assert_eq!(parity.difference, Some(-0.011), "the first round's");
        assert_eq!((parity.outcome, parity.confirmed, parity.leaned), (Outcome::Parity, None, false));
    }

    #[test]
    fn the_estimate_level_does_not_change_the_reading() {
        // The screen no longer measures a second budget: a level other than 95 %, as older
        // files carry, says nothing this benchmark reads.
        let at_95 = FILE.replace("0.99}, \"over_processes\": null", "0.95}, \"over_processes\": null");
        assert_ne!(at_95, FILE, "the memory walk's entry is the one at 99 %");
        let name = "detection/memwalk_10us/p01";
        let (at_99, at_95) = (read_results(FILE, name).expect("present"), read_results(&at_95, name).expect("present"));
        assert_eq!(at_99, at_95);
    }

    #[test]
    fn a_leaning_parity_that_fresh_processes_established_is_a_first_round_parity_and_a_confirmed_loss() {
        let reading = read_results(FILE, "detection/alloc_10us/p01").expect("present");
        assert_eq!((reading.outcome, reading.confirmed), (Outcome::Parity, Some(Outcome::Loss)));
        assert_eq!(reading.difference, Some(-0.021));
        assert!(reading.leaned);
    }

    #[test]
    fn a_leaning_parity_that_fresh_processes_did_not_establish_stays_a_parity_that_leaned() {
        let reading = read_results(FILE, "detection/hashmap_10us/p01").expect("present");
        assert_eq!((reading.outcome, reading.confirmed, reading.leaned), (Outcome::Parity, None, true));
        let loss = read_results(FILE, "detection/cpu_10us/p01").expect("present");
        assert!(!loss.leaned, "a first-round loss that went to fresh processes did not lean");
    }

    #[test]
    fn a_comparison_without_verdict_failed() {
        let reading = read_results(FILE, "detection/empty/aa").expect("present");
        assert_eq!((reading.outcome, reading.confirmed), (Outcome::Failed, None));
        assert_eq!(reading.duration_s, None, "no report, no duration (as in files from before `duration_s`)");
        assert!(read_results(FILE, "missing").is_err());
        assert!(read_results("not json", "x").is_err());
    }

    /// The entries of [`FILE`] in schema 2.
    const FILE_2: &str = r#"{"schema_version": 2, "comparisons": [
        {"name": "detection/cpu_10us/p01", "verdict": {"outcome": "loss", "ratio": 1.02},
         "over_processes": {"difference": -0.0203, "processes": 3},
         "first": {"verdict": {"outcome": "loss"}, "estimate": {"difference": -0.0199, "level": 0.95},
                   "candidate_summary": {"median": 10.2}, "baseline_summary": {"median": 10.0}, "duration_s": 1.25},
         "confirmation": {"report": {"duration_s": 1.5, "estimate": {"difference": -0.0207, "low": -0.03, "high": -0.012}},
                          "confirmed": true}},
        {"name": "detection/memwalk_10us/p01", "verdict": {"outcome": "parity", "ratio": 1.01}, "over_processes": null,
         "first": {"verdict": {"outcome": "parity"}, "estimate": {"difference": -0.011, "level": 0.99},
                   "candidate_summary": {"median": 10.1}, "baseline_summary": {"median": 10.0}, "duration_s": 1.0},
         "confirmation": null},
        {"name": "detection/alloc_10us/p01", "verdict": {"outcome": "loss"},
         "over_processes": {"difference": -0.021, "processes": 6},
         "first": {"verdict": {"outcome": "parity"}, "estimate": {"difference": -0.017}},
         "confirmation": {"report": {"verdict": {"outcome": "loss"}}, "confirmed": true}},
        {"name": "detection/hashmap_10us/p01", "verdict": {"outcome": "parity"},
         "over_processes": {"difference": -0.004, "processes": 4},
         "first": {"verdict": {"outcome": "parity"}, "estimate": {"difference": -0.012}},
         "confirmation": {"report": {"verdict": {"outcome": "parity"}}, "confirmed": false}},
        {"name": "detection/empty/aa", "verdict": null, "first": null, "confirmation": null}
    ]}"#;

    /// Both schemas read the same, but for the change: schema 2 keeps the fresh processes'
    /// report, whose change and interval the block prints.
    #[test]
    fn the_change_is_the_one_the_block_prints() {
        let confirmed = read_results(FILE_2, "detection/cpu_10us/p01").expect("present");
        assert_eq!((confirmed.difference, confirmed.interval), (Some(-0.0207), Some((-0.03, -0.012))));
        let first_round = read_results(FILE_2, "detection/memwalk_10us/p01").expect("present");
        assert_eq!((first_round.difference, first_round.interval), (Some(-0.011), None));
    }

    /// Both schemas read the same.
    #[test]
    fn schema_2_reads_as_schema_1() {
        for name in [
            "detection/memwalk_10us/p01",
            "detection/alloc_10us/p01",
            "detection/hashmap_10us/p01",
            "detection/empty/aa",
        ] {
            let (one, two) = (read_results(FILE, name).expect("present"), read_results(FILE_2, name).expect("present"));
            assert_eq!(Reading { duration_s: None, ..one }, Reading { duration_s: None, ..two }, "{name}");
        }
        let two = read_results(FILE_2, "detection/cpu_10us/p01").expect("present");
        let one = read_results(FILE, "detection/cpu_10us/p01").expect("present");
        assert_eq!(Reading { duration_s: Some(2.75), difference: two.difference, interval: two.interval, ..one }, two);
        assert_eq!(read_results(FILE_2, "detection/memwalk_10us/p01").map(|r| r.duration_s), Ok(Some(1.0)));
    }

    /// Schema-2 entries with what the confirmation rule of issue 36 writes: a confirmation's
    /// two-sided level, an undecided one's settling figure (in `confirmation.settle` and in its
    /// `unconfirmed` caveat, or in the caveat alone), and a `no_room` caveat without a confirmation.
    const FILE_36: &str = r#"{"schema_version": 2, "comparisons": [
        {"name": "confirmed", "verdict": {"outcome": "loss", "resolved": true},
         "first": {"verdict": {"outcome": "parity"}, "duration_s": 1.0},
         "confirmation": {"report": {"duration_s": 2.9, "estimate": {"level": 0.9995}}, "confirmed": true,
                          "planned": 18, "ending": "confirmed", "settle": null},
         "caveats": [{"leaned": {"side": "loss"}}]},
        {"name": "undecided", "verdict": {"outcome": "parity", "resolved": false},
         "first": {"verdict": {"outcome": "parity"}, "duration_s": 1.0},
         "confirmation": {"report": {"duration_s": 2.9, "estimate": {"level": 0.9995}}, "confirmed": false,
                          "planned": 18, "ending": "last_look",
                          "settle": {"processes": 41, "seconds": 6.6, "budget": 2.3}},
         "caveats": [{"unconfirmed": {"ending": "last_look", "settle": {"processes": 41, "seconds": 6.6, "budget": 2.3}}}]},
        {"name": "caveat only", "verdict": {"outcome": "loss", "resolved": true},
         "first": {"verdict": {"outcome": "loss"}}, "confirmation": null,
         "caveats": [{"unconfirmed": {"ending": "time_cap", "settle": {"processes": 20, "seconds": 3.0, "budget": 1.2}}}]},
        {"name": "no room", "verdict": {"outcome": "win", "resolved": true},
         "first": {"verdict": {"outcome": "win"}, "duration_s": 3.5}, "confirmation": null,
         "caveats": [{"drift": {"series": "baseline"}}, {"no_room": {"side": "win", "fewest": 12, "room": 9, "budget": 1.4}}]},
        {"name": "established", "verdict": {"outcome": "parity", "resolved": true},
         "first": {"verdict": {"outcome": "parity"}}, "confirmation": null, "caveats": []}
    ]}"#;

    #[test]
    fn reads_the_level_the_settling_figure_and_whether_the_verdict_was_resolved() {
        let read = |name| read_results(FILE_36, name).expect("present");
        let confirmed = read("confirmed");
        assert_eq!((confirmed.outcome, confirmed.confirmed), (Outcome::Parity, Some(Outcome::Loss)));
        let alpha = confirmed.alpha.expect("a confirmation ran");
        assert!((alpha - 0.00025).abs() < 1e-12, "(1 - 0.9995) / 2: {alpha}");
        assert_eq!((confirmed.settle, confirmed.resolved), (None, Some(true)));
        let undecided = read("undecided");
        assert_eq!(undecided.settle, Some(Settle { processes: 41, seconds: Some(6.6), budget_s: 2.3 }));
        assert_eq!((undecided.resolved, undecided.confirmed), (Some(false), None));
        let caveat = read("caveat only");
        assert_eq!(caveat.settle, Some(Settle { processes: 20, seconds: Some(3.0), budget_s: 1.2 }));
        assert_eq!(caveat.alpha, None, "no confirmation, no level");
        let no_room = read("no room");
        assert_eq!(no_room.settle, Some(Settle { processes: 12, seconds: None, budget_s: 1.4 }), "the fewest");
        assert_eq!((no_room.outcome, no_room.confirmed), (Outcome::Win, None), "a win the cap left unconfirmed");
        let established = Trial::of(read("established"), 0.3);
        assert!(established.established_parity() && established.settle.is_none());
        assert!(!Trial::of(read("undecided"), 4.0).established_parity());
        assert!(!Trial::of(read("confirmed"), 4.0).established_parity());
        // Schema 1 files have none of it.
        let one = read_results(FILE, "detection/cpu_10us/p01").expect("present");
        assert_eq!((one.settle, one.alpha, one.resolved), (None, None, None));
    }

    #[test]
    fn reads_criterion_reports() {
        let out = "cpu_10us                time:   [10.2 µs 10.3 µs 10.4 µs]\n\
                   change: [+1.5000% +2.0100% +2.5000%] (p = 0.00 < 0.05)\n\
                   Performance has regressed.\n\
                   hashmap_10us            time:   [7.0 µs 7.1 µs 7.2 µs]\n\
                   change: [-0.5% +0.1% +0.6%] (p = 0.71 > 0.05)\n\
                   No change in performance detected.\n\
                   cpu_10us                time:   [9.0 µs 9.1 µs 9.2 µs]\n\
                   change: [\u{2212}10.5% \u{2212}9.98% \u{2212}9.5%] (p = 0.00 < 0.05)\n\
                   Performance has improved.\n";
        let found = read_criterion(out, &["cpu_10us", "hashmap_10us"]);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].0, "cpu_10us");
        assert_eq!(found[0].1, Outcome::Loss);
        assert!((found[0].2.expect("change") + 0.0201).abs() < 1e-12);
        assert_eq!(found[1].1, Outcome::Parity);
        assert_eq!(found[2].1, Outcome::Win);
        assert!((found[2].2.expect("change") - 0.0998).abs() < 1e-12);
    }
}
