//! From callgrind's dumps to a comparison's counts per call, pure: the count per call from two
//! batch sizes, the change between the arms and the functions whose counts moved most. What a
//! record keeps of them ([`Counted`]), and how they read beside the time verdict, is the judging
//! crate's `counts`.
//!
//! Under callgrind a batch of `n` calls counts exactly `n · per_call + fixed` instructions (the
//! loop around the calls and the requests that switch collection on and off are the fixed part):
//! two sizes give both, whatever the fixed part is.

use std::collections::BTreeMap;
use std::fmt;

use rtcompare_judge::counts::{Counted, FunctionChange, Routines, stable};

use super::profile::Profile;

/// One batch under callgrind: how many calls it made and how many instructions it counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Batch {
    /// Calls in the batch.
    pub(crate) calls: u64,
    /// Instructions counted for the whole batch.
    pub(crate) instructions: u64,
}

/// A batch's count, split into the part each call adds and the part every batch pays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Linear {
    /// Instructions per call.
    pub(crate) per_call: f64,
    /// Instructions per batch, whatever its size.
    pub(crate) fixed: f64,
}

/// Why a count is not given.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NotCounted {
    /// The two batches had the same number of calls, so they cannot separate the parts.
    SameSize(u64),
    /// The larger batch counted fewer instructions, or more per call than the smaller one
    /// could account for: the count per call is not constant in this process.
    NotLinear { small: Batch, large: Batch },
    /// A dump this comparison needs was not written (its label is given).
    MissingDump(String),
    /// The dumps do not count instructions (`Ir`).
    NoInstructionEvent,
    /// The baseline counted no instruction per call, so no change can be given.
    EmptyBaseline,
}

impl fmt::Display for NotCounted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotCounted::SameSize(calls) => write!(f, "both batches made {calls} calls; two sizes are needed"),
            NotCounted::NotLinear { small, large } => write!(
                f,
                "the count is not linear in the batch size ({} instructions for {} calls, {} for {}): it varies within the process",
                small.instructions, small.calls, large.instructions, large.calls
            ),
            NotCounted::MissingDump(label) => write!(f, "callgrind wrote no dump `{label}`"),
            NotCounted::NoInstructionEvent => write!(f, "callgrind's dumps do not count instructions (no `Ir` event)"),
            NotCounted::EmptyBaseline => write!(f, "the baseline counted no instruction per call"),
        }
    }
}

impl std::error::Error for NotCounted {}

/// Splits two batches' counts into per call and fixed (in either order).
pub(crate) fn linear(a: Batch, b: Batch) -> Result<Linear, NotCounted> {
    let (small, large) = if a.calls <= b.calls { (a, b) } else { (b, a) };
    if small.calls == large.calls {
        return Err(NotCounted::SameSize(small.calls));
    }
    if large.instructions < small.instructions {
        return Err(NotCounted::NotLinear { small, large });
    }
    let per_call = (large.instructions - small.instructions) as f64 / (large.calls - small.calls) as f64;
    let fixed = small.instructions as f64 - small.calls as f64 * per_call;
    // A batch pays at least the requests around it; less than nothing means the smaller
    // batch's calls were cheaper than the larger one's.
    if fixed < 0.0 {
        return Err(NotCounted::NotLinear { small, large });
    }
    Ok(Linear { per_call, fixed })
}

/// The change from baseline to candidate, `candidate / baseline − 1`: +0.25 is a quarter more
/// instructions (the sign of the time change as the text block prints it, a loss positive).
pub(crate) fn change(candidate: f64, baseline: f64) -> Result<f64, NotCounted> {
    if baseline > 0.0 { Ok(candidate / baseline - 1.0) } else { Err(NotCounted::EmptyBaseline) }
}

/// Every function's inclusive count of event `index` per call, from an arm's two batches
/// (`(calls, dump)`), leaving out the frames around the counted region, which hold the whole
/// batch and say nothing about where its instructions went.
pub(crate) fn per_call_by_function(
    small: (u64, &Profile),
    large: (u64, &Profile),
    index: usize,
) -> BTreeMap<String, f64> {
    let (small, large) = if small.0 <= large.0 { (small, large) } else { (large, small) };
    let calls = large.0.saturating_sub(small.0).max(1) as f64;
    let enclosing: Vec<&str> = small.1.enclosing(index).chain(large.1.enclosing(index)).collect();
    small
        .1
        .functions
        .keys()
        .chain(large.1.functions.keys())
        .filter(|name| !enclosing.contains(&name.as_str()))
        .map(|name| {
            let grown = large.1.inclusive(name, index) as f64 - small.1.inclusive(name, index) as f64;
            (name.clone(), grown / calls)
        })
        .collect()
}

/// The functions whose counts per call differ between the arms, the largest difference first
/// (then by name), at most `limit` of them; a function that did not run in an arm counts 0
/// there, and one whose counts are equal is not a change.
pub(crate) fn changed_functions(
    candidate: &BTreeMap<String, f64>,
    baseline: &BTreeMap<String, f64>,
    limit: usize,
) -> Vec<FunctionChange> {
    let names: std::collections::BTreeSet<&String> = candidate.keys().chain(baseline.keys()).collect();
    let mut changes: Vec<FunctionChange> = names
        .into_iter()
        .map(|name| FunctionChange {
            name: name.clone(),
            candidate: candidate.get(name).copied().unwrap_or(0.0),
            baseline: baseline.get(name).copied().unwrap_or(0.0),
        })
        .filter(|f| f.candidate != f.baseline)
        .collect();
    let size = |f: &FunctionChange| (f.candidate - f.baseline).abs();
    changes.sort_by(|a, b| size(b).total_cmp(&size(a)).then_with(|| a.name.cmp(&b.name)));
    changes.truncate(limit);
    changes
}

/// The label of the dump of one batch: `rtcompare <comparison> <routine> <calls>`, which the
/// counting process passes to `CALLGRIND_DUMP_STATS_AT` after the batch, and which
/// [`counted`] looks for.
pub(crate) fn label(comparison: u64, routine: &str, calls: u64) -> String {
    format!("rtcompare {comparison} {routine} {calls}")
}

/// Reads comparison `comparison`'s counts from a run's dumps: the four loops, each run in
/// batches of `sizes.0` and `sizes.1` calls and dumped under [`label`]; `limit` functions at
/// most.
pub(crate) fn counted(
    dumps: &[Profile],
    comparison: u64,
    sizes: (u64, u64),
    limit: usize,
) -> Result<Counted, NotCounted> {
    let names = Routines::NAMES;
    let sources = Routines {
        candidate: Dumped { dumps, comparison, routine: names.candidate },
        candidate_twin: Dumped { dumps, comparison, routine: names.candidate_twin },
        baseline: Dumped { dumps, comparison, routine: names.baseline },
        baseline_twin: Dumped { dumps, comparison, routine: names.baseline_twin },
    };
    counted_from(&sources, sizes, limit)
}

/// Reads the counts of a comparison against a git revision, whose arms ran in two builds: the
/// candidate and its twin from this build's dumps (`now`, comparison `now_id`), the baseline and
/// its twin from the candidate's loops in the baseline build's (`then`, comparison `then_id`).
pub(crate) fn counted_across(
    (now, now_id): (&[Profile], u64),
    (then, then_id): (&[Profile], u64),
    sizes: (u64, u64),
    limit: usize,
) -> Result<Counted, NotCounted> {
    let names = Routines::NAMES;
    let sources = Routines {
        candidate: Dumped { dumps: now, comparison: now_id, routine: names.candidate },
        candidate_twin: Dumped { dumps: now, comparison: now_id, routine: names.candidate_twin },
        baseline: Dumped { dumps: then, comparison: then_id, routine: names.candidate },
        baseline_twin: Dumped { dumps: then, comparison: then_id, routine: names.candidate_twin },
    };
    counted_from(&sources, sizes, limit)
}

/// Where one loop's dumps are: in which dumps, under which comparison and routine.
struct Dumped<'a> {
    dumps: &'a [Profile],
    comparison: u64,
    routine: &'static str,
}

fn counted_from<'a>(sources: &Routines<Dumped<'a>>, sizes: (u64, u64), limit: usize) -> Result<Counted, NotCounted> {
    let find = |source: &Dumped<'a>, calls: u64| -> Result<&'a Profile, NotCounted> {
        let wanted = label(source.comparison, source.routine, calls);
        source.dumps.iter().find(|d| d.label() == Some(wanted.as_str())).ok_or(NotCounted::MissingDump(wanted))
    };
    let dumped = sources.try_map(|source| Ok((find(source, sizes.0)?, find(source, sizes.1)?)))?;
    let index = dumped.candidate.0.event("Ir").ok_or(NotCounted::NoInstructionEvent)?;
    let per_call = dumped.try_map(|&(small, large)| {
        let total = |p: &Profile| p.event("Ir").map(|i| p.totals[i]).ok_or(NotCounted::NoInstructionEvent);
        let small = Batch { calls: sizes.0, instructions: total(small)? };
        let large = Batch { calls: sizes.1, instructions: total(large)? };
        Ok(linear(small, large)?.per_call)
    })?;
    let by_function =
        |(small, large): (&Profile, &Profile)| per_call_by_function((sizes.0, small), (sizes.1, large), index);
    let functions = changed_functions(&by_function(dumped.candidate), &by_function(dumped.baseline), limit);
    Ok(Counted {
        change: change(per_call.candidate, per_call.baseline)?,
        stable: stable(&per_call),
        per_call,
        functions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtcompare_judge::Dprng;
    use rtcompare_judge::counts::{Agreement, agreement};
    use rtcompare_judge::stats::Outcome;

    fn batch(calls: u64, instructions: u64) -> Batch {
        Batch { calls, instructions }
    }

    /// The figures callgrind gave on this project's machine: 7 calls of an 18-instruction
    /// function in a batch with 37 instructions around it.
    #[test]
    fn two_batch_sizes_give_the_count_per_call_and_the_fixed_part() {
        let got = linear(batch(7, 7 * 18 + 37), batch(1_000_000, 18_000_037)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(got, Linear { per_call: 18.0, fixed: 37.0 });
        assert_eq!(linear(batch(1_000_000, 18_000_037), batch(7, 163)), Ok(got), "in either order");
    }

    #[test]
    fn seeded_linear_counts_are_recovered_exactly() {
        let mut rng = Dprng::new(37);
        for _ in 0..1_000 {
            let (per_call, fixed) = (rng.u64() % 1_000_000, rng.u64() % 10_000);
            let (n1, n2) = (1 + rng.u64() % 64, 65 + rng.u64() % 64);
            let got = linear(batch(n1, n1 * per_call + fixed), batch(n2, n2 * per_call + fixed))
                .unwrap_or_else(|e| panic!("{per_call} {fixed} {n1} {n2}: {e}"));
            assert_eq!(got, Linear { per_call: per_call as f64, fixed: fixed as f64 });
        }
    }

    #[test]
    fn counts_that_are_not_linear_are_not_counted() {
        assert_eq!(linear(batch(4, 100), batch(4, 100)), Err(NotCounted::SameSize(4)));
        let shrank = linear(batch(4, 100), batch(8, 90));
        assert_eq!(shrank, Err(NotCounted::NotLinear { small: batch(4, 100), large: batch(8, 90) }));
        // 4 calls for 100, 8 for 300: 50 a call, and the smaller batch would have paid −100.
        assert!(matches!(linear(batch(4, 100), batch(8, 300)), Err(NotCounted::NotLinear { .. })));
        let message = shrank.unwrap_err().to_string();
        assert!(message.contains("100 instructions for 4 calls, 90 for 8"), "{message}");
    }

    #[test]
    fn the_change_has_the_time_changes_sign_and_needs_a_baseline() {
        assert_eq!(change(25_000.0, 20_000.0), Ok(0.25));
        assert_eq!(change(15_000.0, 20_000.0), Ok(-0.25));
        assert_eq!(change(1.0, 0.0), Err(NotCounted::EmptyBaseline));
    }

    #[test]
    fn agreement_reads_time_and_instructions_against_one_tolerance() {
        use Agreement::*;
        use Outcome::{Loss, Parity, Win};
        let t = 0.01;
        let cases = [
            (Loss, 0.25, Agrees),
            (Win, -0.2, Agrees),
            (Parity, 0.005, Agrees),
            (Parity, -0.01, Agrees),
            (Loss, 0.001, TimeOnly),
            (Win, 0.0, TimeOnly),
            (Parity, 0.03, InstructionsOnly),
            (Parity, -0.03, InstructionsOnly),
            (Loss, -0.05, Opposite),
            (Win, 0.05, Opposite),
        ];
        for (time, change, expected) in cases {
            assert_eq!(agreement(time, change, t), expected, "time {time:?}, instructions {change:+}");
        }
        let names = [Agrees, TimeOnly, InstructionsOnly, Opposite].map(Agreement::as_str);
        assert_eq!(names, ["agrees", "time_only", "instructions_only", "opposite"]);
    }

    #[test]
    fn twins_that_count_differently_make_the_arm_unstable() {
        let same =
            Routines { candidate: 25_005.0, candidate_twin: 25_005.0, baseline: 20_000.0, baseline_twin: 20_000.0 };
        assert!(stable(&same));
        let one_in_a_long_call = Routines { candidate_twin: 25_006.0, ..same };
        assert!(stable(&one_in_a_long_call), "within the tolerance");
        let seeded = Routines { baseline_twin: 20_210.0, ..same };
        assert!(!stable(&seeded), "a baseline twin 1 % off");
        let candidate_off = Routines { candidate_twin: 24_990.0, ..same };
        assert!(!stable(&candidate_off));
    }

    #[test]
    fn changed_functions_come_largest_change_first() {
        let map = |pairs: &[(&str, f64)]| pairs.iter().map(|(n, v)| (n.to_string(), *v)).collect::<BTreeMap<_, _>>();
        let candidate = map(&[("spin", 25_000.0), ("extra_step", 5.0), ("same", 7.0), ("grew", 30.0)]);
        let baseline = map(&[("spin", 20_000.0), ("same", 7.0), ("grew", 10.0), ("gone", 40.0)]);
        let names =
            |limit| changed_functions(&candidate, &baseline, limit).into_iter().map(|f| f.name).collect::<Vec<_>>();
        assert_eq!(names(10), ["spin", "gone", "grew", "extra_step"]);
        assert_eq!(names(2), ["spin", "gone"]);
        let first = &changed_functions(&candidate, &baseline, 1)[0];
        assert_eq!((first.candidate, first.baseline), (25_000.0, 20_000.0));
        let extra = changed_functions(&candidate, &baseline, 10).pop();
        assert_eq!(extra, Some(FunctionChange { name: "extra_step".into(), candidate: 5.0, baseline: 0.0 }));
        assert!(changed_functions(&candidate, &candidate, 10).is_empty(), "an arm against itself changes nothing");
    }

    /// A dump of one batch of `calls` calls: `batch` (the frame around the counted region, with
    /// `fixed` of its own) calls `work` `calls` times at `per_call` each, and `work` calls
    /// `helper` at `helper` each.
    fn dump(label: &str, calls: u64, fixed: u64, per_call: u64, helper: u64) -> Profile {
        let (work, help) = (calls * per_call, calls * helper);
        let text = format!(
            "events: Ir\ndesc: Trigger: Client Request: {label}\nfn=(1) batch\n1 {fixed}\ncfn=(2) work\ncalls={calls} 5\n1 {work}\n\
             fn=(2)\n5 {}\ncfn=(3) helper\ncalls={calls} 9\n5 {help}\nfn=(3)\n9 {help}\ntotals: {}\n",
            work - help,
            fixed + work
        );
        Profile::parse(&text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_comparison_is_counted_from_its_eight_labelled_dumps() {
        let mut dumps = Vec::new();
        let costs =
            Routines { candidate: (125, 25), candidate_twin: (125, 25), baseline: (100, 10), baseline_twin: (100, 10) };
        for (routine, &(per_call, helper)) in costs.named() {
            for calls in [4, 8] {
                dumps.push(dump(&label(3, routine, calls), calls, 37, per_call, helper));
            }
        }
        let got = counted(&dumps, 3, (4, 8), 5).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            got.per_call,
            Routines { candidate: 125.0, candidate_twin: 125.0, baseline: 100.0, baseline_twin: 100.0 }
        );
        assert_eq!(got.change, 0.25);
        assert!(got.stable);
        let functions: Vec<_> = got.functions.iter().map(|f| (f.name.as_str(), f.candidate, f.baseline)).collect();
        assert_eq!(
            functions,
            [("work", 125.0, 100.0), ("helper", 25.0, 10.0)],
            "the enclosing batch frame is left out"
        );
        assert_eq!(got.agreement(Outcome::Loss, 0.01), Agreement::Agrees);
        assert_eq!(got.agreement(Outcome::Parity, 0.01), Agreement::InstructionsOnly);

        assert_eq!(counted(&dumps, 4, (4, 8), 5), Err(NotCounted::MissingDump("rtcompare 4 candidate 4".into())));
        dumps.retain(|d| d.label() != Some("rtcompare 3 baseline_twin 8"));
        let missing = counted(&dumps, 3, (4, 8), 5).unwrap_err();
        assert_eq!(missing.to_string(), "callgrind wrote no dump `rtcompare 3 baseline_twin 8`");
    }

    #[test]
    fn a_twin_counting_differently_is_reported_unstable() {
        let mut dumps = Vec::new();
        for (routine, per_call) in
            [("candidate", 100), ("candidate_twin", 100), ("baseline", 100), ("baseline_twin", 103)]
        {
            for calls in [4, 8] {
                dumps.push(dump(&label(0, routine, calls), calls, 37, per_call, 0));
            }
        }
        let got = counted(&dumps, 0, (4, 8), 5).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(got.change, 0.0);
        assert!(!got.stable);
        assert!(got.functions.is_empty(), "the same code in both arms: {:?}", got.functions);
    }

    /// Against a revision each build counts its own candidate (the baseline loops of a build
    /// call its candidate too): the baseline's figures are the candidate loops of the other
    /// build's dumps, under that build's own comparison number.
    #[test]
    fn a_comparison_against_a_revision_takes_its_baseline_from_the_other_builds_candidate() {
        let build = |comparison: u64, per_call: u64, helper: u64| {
            let mut dumps = Vec::new();
            for routine in Routines::NAMES.named().map(|(name, _)| name) {
                for calls in [4, 8] {
                    dumps.push(dump(&label(comparison, routine, calls), calls, 37, per_call, helper));
                }
            }
            dumps
        };
        let (now, then) = (build(2, 110, 30), build(7, 100, 10));
        let got = counted_across((&now, 2), (&then, 7), (4, 8), 5).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            got.per_call,
            Routines { candidate: 110.0, candidate_twin: 110.0, baseline: 100.0, baseline_twin: 100.0 }
        );
        assert!((got.change - 0.1).abs() < 1e-12, "{}", got.change);
        assert!(got.stable);
        let functions: Vec<_> = got.functions.iter().map(|f| (f.name.as_str(), f.candidate, f.baseline)).collect();
        assert_eq!(functions, [("helper", 30.0, 10.0), ("work", 110.0, 100.0)]);
        // Each build's dumps are read under its own number.
        assert_eq!(
            counted_across((&now, 7), (&then, 7), (4, 8), 5),
            Err(NotCounted::MissingDump("rtcompare 7 candidate 4".into()))
        );
    }
}
