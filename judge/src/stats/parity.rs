//! The parity rule: win, parity or loss from two ratios and their tolerances.
//!
//! A difference counts only when the median ratio (what a round usually costs, candidate over
//! baseline in the same round) and the ratio of fast ends (what the code costs when nothing
//! interferes) both leave their tolerance on the same side. Timing modes move medians but not
//! fast ends, so two arms that share a fast mode but land in it in different proportions stay at
//! parity.
//!
//! The median ratio is the median of the paired per-round ratios `c_i / b_i`, not the ratio of
//! the arms' medians: the rounds are paired so that what a round shares (the machine's state,
//! a drift, a slow mode both arms fall into) cancels, and the unpaired ratio of medians threw
//! that away. On an allocation workload whose timings doubled halfway through a run, the ratio
//! of medians said 0.919 for a true 2 % slowdown whose paired median said 1.020.

use super::{Summary, sorted_copy};

/// Which spread widens the median tolerance.
///
/// ```
/// use rtcompare::JudgeOptions;
/// use rtcompare_judge::stats::Spread;
/// assert_eq!(JudgeOptions::default().spread, Spread::RoundMedian);
/// let raw = JudgeOptions { spread: Spread::RawSamples, ..JudgeOptions::default() };
/// # let _ = raw;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spread {
    /// How far the median of the per-round ratios would move from one run to the next: the
    /// relative IQR of the ratios `c_i / b_i` times `√(π/2) / √n` (the IQR of a sample median's
    /// spread) for `n` independent units — the rounds of one process, or the processes when
    /// several are pooled, since their rounds share each process's draw of hash seeds and
    /// layout. The default; why, against the two below: `docs/statistics.md`, "Parity rule and
    /// verdict".
    RoundMedian,
    /// Relative IQR of the per-round ratios `c_i / b_i`, undivided: how much one round varies.
    /// Noise both arms of a round share cancels; modes that hit one arm and not the other widen
    /// the tolerance. Hides any difference smaller than single-round jitter.
    RoundRatios,
    /// The larger of the two arms' relative IQRs over their raw per-op samples: the original
    /// rule, made for a handful of whole-process runs a side.
    RawSamples,
}

/// What the parity rule looks at.
///
/// ```
/// use rtcompare_judge::stats::{ParityInputs, Spread, parity_verdict};
/// use rtcompare::Outcome;
/// let baseline = [100.0, 101.0, 99.0, 100.5, 100.2];
/// let candidate = [100.5, 100.0, 99.5, 100.0, 100.1];
/// let inputs = ParityInputs {
///     candidate: &candidate, baseline: &baseline, parity: 0.04,
///     spread: Spread::RoundMedian, candidate_floor: 0.0, baseline_floor: 0.0, process_spread: None,
///     process_rounds: &[],
/// };
/// assert_eq!(parity_verdict(&inputs).outcome, Outcome::Parity);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ParityInputs<'a> {
    /// Candidate per-op values, one per round.
    pub candidate: &'a [f64],
    /// Baseline per-op values, one per round (paired with `candidate` by index).
    pub baseline: &'a [f64],
    /// Smallest relative difference that counts as a win or a loss (e.g. 0.04).
    pub parity: f64,
    /// Which spread to use.
    pub spread: Spread,
    /// The candidate's per-op measurement floor, in the samples' unit (the meter's resolution
    /// divided by the candidate's batch size).
    pub candidate_floor: f64,
    /// The baseline's per-op measurement floor.
    pub baseline_floor: f64,
    /// When the rounds come from several processes: the standard deviation `s` of one process's
    /// difference, from the processes' own spread ([`crate::stats::Pooled::process_spread`]).
    /// Rounds of one process share its draw of per-process randomness, so how far the figure
    /// moves from one set of processes to the next is read off the processes, not the rounds:
    /// [`Spread::RoundMedian`] is then `1.349 · s / √k` for `k` processes, the interquartile
    /// range of the mean's own sampling distribution — the one-process rule's quantity, with the
    /// variation between processes that one process's rounds cannot see. `None` for one process.
    pub process_spread: Option<f64>,
    /// When the rounds come from several processes: how many each contributed, in order (empty
    /// for one process). The ratio of fast ends is then each process's own, and their median is
    /// the best ratio ([`parity_verdict`]).
    pub process_rounds: &'a [usize],
}

/// Outcome of a comparison: the candidate against its baseline.
///
/// ```
/// use rtcompare::{Arm, Options, Outcome, compare};
/// use std::time::Duration;
/// let options = Options { budget: Duration::from_millis(50), ..Options::default() };
/// let report = compare(Arm::from_fn("a", || 1 + 1), Arm::from_fn("b", || 2 * 1), &options);
/// match report.verdict.outcome {
///     Outcome::Win => println!("faster"),
///     Outcome::Parity => println!("no difference that counts"),
///     Outcome::Loss => println!("slower"),
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The candidate is faster (or uses less).
    Win,
    /// No difference that clears the tolerance.
    Parity,
    /// The candidate is slower (or uses more).
    Loss,
}

impl Outcome {
    /// The lowercase word used in output and the results file: `win`, `parity` or `loss`.
    ///
    /// ```
    /// assert_eq!(rtcompare::Outcome::Loss.as_str(), "loss");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Parity => "parity",
            Outcome::Loss => "loss",
        }
    }
}

/// The parity rule's answer and the figures behind it.
///
/// ```
/// use rtcompare_judge::stats::{ParityInputs, Spread, parity_verdict};
/// use rtcompare::Outcome;
/// let baseline = [100.0, 101.0, 99.0, 100.5, 100.2];
/// let candidate = [100.5, 100.0, 99.5, 100.0, 100.1];
/// let inputs = ParityInputs {
///     candidate: &candidate, baseline: &baseline, parity: 0.04,
///     spread: Spread::RoundMedian, candidate_floor: 0.0, baseline_floor: 0.0, process_spread: None,
///     process_rounds: &[],
/// };
/// let v = parity_verdict(&inputs);
/// assert!(v.ratio > 0.99 && v.ratio < 1.01 && v.tolerance >= 0.04);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParityVerdict {
    /// Win, parity or loss by the rule alone.
    pub outcome: Outcome,
    /// `median(candidateᵢ / baselineᵢ)` over the paired rounds; below 1 means the candidate is
    /// ahead.
    pub ratio: f64,
    /// `fast_end(candidate) / fast_end(baseline)`, see [`fast_end`].
    pub best_ratio: f64,
    /// What `ratio` was judged against: `max(parity, noise, floor / median)`.
    pub tolerance: f64,
    /// What `best_ratio` was judged against: `max(parity, floor / fast end)`.
    pub best_tolerance: f64,
    /// The spread contained in `tolerance` (relative IQR, see [`Spread`]).
    pub noise: f64,
}

/// Applies the parity rule.
///
/// ```
/// use rtcompare_judge::stats::{ParityInputs, Spread, parity_verdict};
/// use rtcompare::Outcome;
/// let baseline = [100.0, 101.0, 99.0, 100.5, 100.2];
/// let candidate = [130.0, 131.0, 129.0, 130.5, 130.2];
/// let v = parity_verdict(&ParityInputs {
///     candidate: &candidate, baseline: &baseline, parity: 0.04,
///     spread: Spread::RoundMedian, candidate_floor: 0.0, baseline_floor: 0.0, process_spread: None,
///     process_rounds: &[],
/// });
/// assert_eq!(v.outcome, Outcome::Loss);
/// ```
pub fn parity_verdict(inputs: &ParityInputs<'_>) -> ParityVerdict {
    let candidate = Summary::of(inputs.candidate);
    let baseline = Summary::of(inputs.baseline);
    let noise = spread(inputs, &candidate, &baseline);
    let (candidate_fast, baseline_fast) = (fast_end(inputs.candidate), fast_end(inputs.baseline));
    // Each arm's floor relative to its own values; the larger share is what the rule can resolve.
    let floor_median = relative_floor(inputs.candidate_floor, candidate.median)
        .max(relative_floor(inputs.baseline_floor, baseline.median));
    let floor_fast = relative_floor(inputs.candidate_floor, candidate_fast)
        .max(relative_floor(inputs.baseline_floor, baseline_fast));
    let tolerance = inputs.parity.max(noise).max(floor_median);
    let best_tolerance = inputs.parity.max(floor_fast);
    let ratio = super::median(&super::paired_ratios(inputs.candidate, inputs.baseline));
    let best_ratio = per_process_best_ratio(inputs).unwrap_or_else(|| super::ratio(candidate_fast, baseline_fast));
    let outcome = match (side(ratio, tolerance), side(best_ratio, best_tolerance)) {
        (Outcome::Loss, Outcome::Loss) => Outcome::Loss,
        (Outcome::Win, Outcome::Win) => Outcome::Win,
        _ => Outcome::Parity,
    };
    ParityVerdict { outcome, ratio, best_ratio, tolerance, best_tolerance, noise }
}

/// An arm's fast end: its `⌊(n − 1) / 10⌋`-th smallest value (counting from 0). That is the
/// minimum for up to ten values — the seed rule's five runs a side — and about the 10th
/// percentile for hundreds of rounds, where the minimum is one lucky round (why:
/// `docs/statistics.md`, "Parity rule and verdict"). A fast mode that holds at least a tenth of each arm's rounds still
/// sets both fast ends.
///
/// ```
/// use rtcompare_judge::stats::fast_end;
/// assert_eq!(fast_end(&[5.0, 3.0, 4.0]), 3.0);
/// let hundred: Vec<f64> = (1..=100).map(f64::from).collect();
/// assert_eq!(fast_end(&hundred), 10.0);
/// ```
pub fn fast_end(values: &[f64]) -> f64 {
    let sorted = sorted_copy(values);
    sorted.get(values.len().saturating_sub(1) / 10).copied().unwrap_or(f64::NAN)
}

fn spread(inputs: &ParityInputs<'_>, candidate: &Summary, baseline: &Summary) -> f64 {
    let round_ratios = || {
        let ratios: Vec<f64> = inputs.candidate.iter().zip(inputs.baseline).map(|(c, b)| c / b).collect();
        // Relative to the median ratio, so a 2x slower candidate with the same jitter has the
        // same spread as an equal one.
        (Summary::of(&ratios).relative_iqr(), ratios.len())
    };
    match inputs.spread {
        Spread::RawSamples => candidate.relative_iqr().max(baseline.relative_iqr()),
        Spread::RoundRatios => round_ratios().0,
        Spread::RoundMedian => match inputs.process_spread {
            // How far the mean over k processes moves from one set of processes to the next: the
            // interquartile range of its sampling distribution, 1.349 standard errors (s / √k),
            // as the rule below is the median's for the rounds of one process.
            Some(spread) => NORMAL_IQR * spread / (inputs.process_rounds.len().max(1) as f64).sqrt(),
            None => {
                let (iqr, rounds) = round_ratios();
                // A sample median's standard error is √(π/2) σ/√n; the same factor carries the IQR.
                iqr * (std::f64::consts::PI / 2.0).sqrt() / (rounds.max(1) as f64).sqrt()
            }
        },
    }
}

/// The interquartile range of a standard normal distribution.
const NORMAL_IQR: f64 = 1.348_979_5;

fn relative_floor(floor: f64, reference: f64) -> f64 {
    if reference > 0.0 { floor / reference } else { 0.0 }
}

/// The median over pooled processes of each process's own ratio of fast ends; `None` for the
/// rounds of one process (or counts that do not add up to the rounds).
///
/// A process keeps its own speed — its allocator's state, its layout, the mode the machine was
/// in while it ran — and processes of one comparison have run 50 % apart. Each arm's fast end
/// over a mix of processes then comes from the fastest process alone, which pooling processes is
/// meant to avoid, or, when that process holds about a tenth of the rounds, from the sparse
/// values where one process ends and the next begins, a different place in each arm: on the
/// allocation workload of the detection fixture, eight fresh processes of a true 5 % slowdown
/// whose arms ran 5 % apart in every process gave a ratio of pooled fast ends of 0.998, and the
/// rule called the confirmation parity.
fn per_process_best_ratio(inputs: &ParityInputs<'_>) -> Option<f64> {
    let rounds = inputs.process_rounds;
    let total: usize = rounds.iter().sum();
    if rounds.len() < 2 || total != inputs.candidate.len() || total != inputs.baseline.len() {
        return None;
    }
    let mut start = 0;
    let ratios: Vec<f64> = rounds
        .iter()
        .filter_map(|&n| {
            let (c, b) = (&inputs.candidate[start..start + n], &inputs.baseline[start..start + n]);
            start += n;
            Some(super::ratio(fast_end(c), fast_end(b))).filter(|r| r.is_finite())
        })
        .collect();
    (!ratios.is_empty()).then(|| super::median(&ratios))
}

/// Which side of the tolerance a ratio falls on: a loss above `1 + tolerance`, a win below
/// `1 / (1 + tolerance)`. The same bounds as the interval check on `d = 1 − ratio` (a loss below
/// `−tolerance`, a win above [`win_margin`]), so the rule and the interval never disagree on sides.
fn side(ratio: f64, tolerance: f64) -> Outcome {
    if ratio > 1.0 + tolerance {
        Outcome::Loss
    } else if ratio * (1.0 + tolerance) < 1.0 {
        Outcome::Win
    } else {
        Outcome::Parity
    }
}

/// The difference `d = 1 − ratio` a win must exceed at `tolerance`: `1 − 1 / (1 + tolerance)`.
/// A loss must fall below `d = −tolerance`, a ratio of `1 + tolerance`; a win must reach the
/// ratio's mirror image on the log scale, `1 / (1 + tolerance)`, so that swapping the two arms
/// swaps win and loss and changes nothing else (a margin of `±tolerance` on `d` itself would call
/// a ratio of 1.04 a loss at 4 % and its swapped pair, 1/1.04 = 0.9615, parity).
///
/// ```
/// use rtcompare_judge::stats::win_margin;
/// assert!((win_margin(0.04) - 0.04 / 1.04).abs() < 1e-15);
/// assert!((1.0 - win_margin(0.04)) * 1.04 - 1.0 < 1e-15);
/// ```
pub fn win_margin(tolerance: f64) -> f64 {
    tolerance / (1.0 + tolerance)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule's inputs for one process at `parity = 0.04`, with no clock floor.
    fn inputs<'a>(candidate: &'a [f64], baseline: &'a [f64]) -> ParityInputs<'a> {
        ParityInputs {
            candidate,
            baseline,
            parity: 0.04,
            spread: Spread::RoundMedian,
            candidate_floor: 0.0,
            baseline_floor: 0.0,
            process_spread: None,
            process_rounds: &[],
        }
    }

    fn verdict(candidate: &[f64], baseline: &[f64], spread: Spread) -> ParityVerdict {
        parity_verdict(&ParityInputs { spread, ..inputs(candidate, baseline) })
    }

    /// A standard normal deviate (Box–Muller).
    fn normal(rng: &mut crate::Dprng) -> f64 {
        let u = 1.0 - rng.f64();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * rng.f64()).cos()
    }

    /// Log-normal values around `centre` with log-sd `sigma`.
    fn draws(rng: &mut crate::Dprng, n: usize, centre: f64, sigma: f64) -> Vec<f64> {
        (0..n).map(|_| centre * (sigma * normal(rng)).exp()).collect()
    }

    /// Two independent draws from one distribution (five runs a side, 1 % noise, as the seed's
    /// shapes) are parity under every spread, in every one of 1,000 data sets.
    #[test]
    fn draws_of_one_distribution_are_parity() {
        let mut rng = crate::Dprng::new(12);
        for spread in [Spread::RoundMedian, Spread::RoundRatios, Spread::RawSamples] {
            let signals = (0..1_000)
                .filter(|_| {
                    let (c, b) = (draws(&mut rng, 5, 10.0, 0.01), draws(&mut rng, 5, 10.0, 0.01));
                    verdict(&c, &b, spread).outcome != Outcome::Parity
                })
                .count();
            assert_eq!(signals, 0, "{spread:?}");
        }
    }

    #[test]
    fn a_clear_speedup_is_a_win() {
        let b = [10.0, 11.0, 10.5, 10.2, 10.1];
        let c: Vec<f64> = b.iter().map(|x| x / 3.0).collect();
        let v = verdict(&c, &b, Spread::RoundMedian);
        assert_eq!(v.outcome, Outcome::Win);
        assert!((v.ratio - 1.0 / 3.0).abs() < 1e-9);
    }

    /// The round-median spread says how far the median ratio moves from one run to the next: over
    /// 2,000 simulated runs of 200 rounds (2 % ratio noise) its average agrees with the measured
    /// IQR of the runs' median ratios within 10 % (the IQR of 2,000 medians is itself known to
    /// about ±3 %).
    #[test]
    fn the_round_median_spread_is_the_run_to_run_spread_of_the_median() {
        let mut rng = crate::Dprng::new(13);
        let runs = 2_000;
        let mut medians = Vec::with_capacity(runs);
        let mut predicted = 0.0;
        for _ in 0..runs {
            let b = draws(&mut rng, 200, 100.0, 0.01);
            let c: Vec<f64> = b.iter().map(|x| x * (0.02 * normal(&mut rng)).exp()).collect();
            let v = verdict(&c, &b, Spread::RoundMedian);
            let ratios: Vec<f64> = c.iter().zip(&b).map(|(c, b)| c / b).collect();
            medians.push(Summary::of(&ratios).median);
            predicted += v.noise / runs as f64;
        }
        let measured = Summary::of(&medians).relative_iqr();
        println!("round-median spread: predicted {predicted:.5}, measured {measured:.5}");
        assert!((predicted / measured - 1.0).abs() < 0.1, "predicted {predicted}, measured {measured}");
    }

    #[test]
    fn pooled_processes_take_the_spread_from_the_processes_error_not_the_rounds() {
        let b: Vec<f64> = (0..400).map(|i| 100.0 + f64::from(i % 7)).collect();
        let c: Vec<f64> = b.iter().rev().copied().collect();
        let judged = |process_spread| parity_verdict(&ParityInputs { process_spread, ..inputs(&c, &b) }).noise;
        assert!((judged(Some(0.01)) - 0.01349).abs() < 1e-5, "{}", judged(Some(0.01)));
        assert!(judged(None) > 0.0 && judged(None) != judged(Some(0.01)));
    }

    /// Three processes of one comparison at different speeds (1.0, 1.3 and 1.5), whose own
    /// slowdowns are 2 %, 6 % and 7 %: each arm's fast end over all their rounds comes from the
    /// fastest process alone, so one process would decide the rule. Each process's own ratio of
    /// fast ends, and their median, sees all three.
    #[test]
    fn pooled_processes_compare_fast_ends_within_each_process() {
        let mut rng = crate::Dprng::new(14);
        let (mut c, mut b) = (Vec::new(), Vec::new());
        for (speed, slowdown) in [(1.0, 1.02), (1.3, 1.06), (1.5, 1.07)] {
            let base = draws(&mut rng, 200, 100.0 * speed, 0.01);
            c.extend(base.iter().map(|x| x * slowdown * (0.005 * normal(&mut rng)).exp()));
            b.extend(base);
        }
        let judged = |process_rounds: &[usize]| {
            parity_verdict(&ParityInputs { process_spread: Some(0.002), process_rounds, ..inputs(&c, &b) })
        };
        let pooled = judged(&[200, 200, 200]);
        assert!((pooled.best_ratio - 1.06).abs() < 0.005, "{}", pooled.best_ratio);
        assert_eq!(pooled.outcome, Outcome::Loss);
        let mixed = judged(&[]);
        assert!((mixed.best_ratio - 1.02).abs() < 0.005, "the fastest process alone: {}", mixed.best_ratio);
        assert_eq!(mixed.outcome, Outcome::Parity);
        assert_eq!(judged(&[200, 200]).best_ratio, mixed.best_ratio, "counts that do not add up are not used");
    }

    #[test]
    fn fast_end_is_the_minimum_for_few_values_and_a_low_percentile_for_many() {
        assert_eq!(fast_end(&[3.0, 1.0, 2.0, 9.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0]), 1.0);
        let many: Vec<f64> = (0..1_000).rev().map(f64::from).collect();
        assert_eq!(fast_end(&many), 99.0);
        assert!(fast_end(&[]).is_nan());
    }

    #[test]
    fn one_lucky_round_does_not_move_the_fast_end() {
        let mut b: Vec<f64> = (0..300).map(|i| 100.0 + f64::from(i % 10)).collect();
        let c: Vec<f64> = b.iter().map(|x| x * 1.02).collect();
        b[17] = 80.0;
        let v = verdict(&c, &b, Spread::RoundMedian);
        assert!((v.best_ratio - 1.02).abs() < 0.001, "{}", v.best_ratio);
    }

    #[test]
    fn equal_minimums_hold_parity_even_when_medians_differ() {
        // Two timing modes in both arms, landed in different proportions.
        let candidate = [566.0, 571.0, 575.0, 716.0, 724.0];
        let baseline = [587.0, 712.0, 718.0, 722.0, 729.0];
        let v = verdict(&candidate, &baseline, Spread::RawSamples);
        assert!(Summary::of(&candidate).median / Summary::of(&baseline).median < 0.85);
        assert!(v.ratio < 0.97, "the paired median ratio: {}", v.ratio);
        assert_eq!(v.outcome, Outcome::Parity);
    }

    #[test]
    fn the_floor_widens_both_tolerances() {
        let b = [10.0, 10.0, 10.0];
        let c = [10.8, 10.8, 10.8];
        let inputs = ParityInputs {
            candidate: &c,
            baseline: &b,
            parity: 0.04,
            spread: Spread::RoundMedian,
            candidate_floor: 2.0,
            baseline_floor: 2.0,
            process_spread: None,
            process_rounds: &[],
        };
        let v = parity_verdict(&inputs);
        assert!((v.best_tolerance - 0.2).abs() < 1e-9);
        assert_eq!(v.outcome, Outcome::Parity);
    }

    #[test]
    fn sides_are_one_plus_the_tolerance_and_its_reciprocal() {
        assert_eq!(side(1.05, 0.04), Outcome::Loss);
        assert_eq!(side(0.95, 0.04), Outcome::Win);
        assert_eq!(side(0.97, 0.04), Outcome::Parity);
        assert_eq!(side(1.03, 0.04), Outcome::Parity);
        // Swapping the arms swaps the side at the margin itself.
        assert_eq!(side(1.0401, 0.04), Outcome::Loss);
        assert_eq!(side(1.0 / 1.0401, 0.04), Outcome::Win);
        assert_eq!(side(1.0399, 0.04), Outcome::Parity);
        assert_eq!(side(1.0 / 1.0399, 0.04), Outcome::Parity);
    }
}
