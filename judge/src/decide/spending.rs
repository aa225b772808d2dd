//! Error spending: how much of a test's error rate each look may use, so that looking several
//! times costs no more than looking once.
//!
//! A spending function `S(t)` rises from 0 at `t = 0` to 1 at `t = 1`, where `t` is the share of
//! the planned measurement taken so far (Lan & DeMets, 1983). A look at `t_j` may use
//! `α · (S(t_j) − S(t_{j−1}))` of the error rate `α`; the shares add up to `α` whatever looks are
//! taken, skipped or cut short, because a look that ends the test early simply spends what is
//! left. Each look's share is used as its own nominal level, so by Bonferroni's inequality the
//! chance that any look errs is at most `α`, for any correlation between the looks and any
//! distribution of the test statistic the looks' own levels hold for. (The exact group-sequential
//! boundaries, which use that correlation, would be a few percent narrower; Jennison & Turnbull,
//! *Group Sequential Methods*, 2000, chapter 7.)
//!
//! The family is Hwang, Shih & DeCani's (1990): `S(t) = (1 − e^{−γt}) / (1 − e^{−γ})`. A negative
//! `γ` keeps early looks strict and leaves most of `α` for the last one, as O'Brien–Fleming
//! boundaries do; `γ = 0` spends evenly.

/// The shape of the spending function both stages of the decision use: `γ = −2`, a little
/// spent early, most kept for the last look.
pub const GAMMA: f64 = -2.0;

/// The share of `α` spent by information time `t` (clamped to `[0, 1]`), Hwang–Shih–DeCani with
/// shape `gamma`.
pub fn spent_by(t: f64, gamma: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    if gamma.abs() < 1e-9 { t } else { (1.0 - (-gamma * t).exp()) / (1.0 - (-gamma).exp()) }
}

/// Keeps track of what a sequence of looks has spent of an error rate `alpha`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spender {
    alpha: f64,
    gamma: f64,
    spent: f64,
}

impl Spender {
    /// Nothing spent yet of `alpha`, with shape `gamma`.
    pub fn new(alpha: f64, gamma: f64) -> Spender {
        Spender { alpha, gamma, spent: 0.0 }
    }

    /// The error rate a look at information time `t` may use: what the function allows by `t`
    /// less what earlier looks used. A look at or before an earlier one gets nothing.
    pub fn look(&mut self, t: f64) -> f64 {
        let allowed = self.alpha * spent_by(t, self.gamma);
        let share = (allowed - self.spent).max(0.0);
        self.spent += share;
        share
    }

    /// Everything not yet spent: the share of a last look, wherever it falls.
    pub fn rest(&mut self) -> f64 {
        let share = (self.alpha - self.spent).max(0.0);
        self.spent = self.alpha;
        share
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_function_rises_from_nothing_to_everything() {
        for gamma in [-4.0, -2.0, 0.0, 1.0] {
            assert_eq!(spent_by(0.0, gamma), 0.0);
            assert!((spent_by(1.0, gamma) - 1.0).abs() < 1e-12);
            let mut last = 0.0;
            for step in 1..=100 {
                let now = spent_by(step as f64 / 100.0, gamma);
                assert!(now > last, "γ = {gamma} must rise at every step");
                last = now;
            }
        }
    }

    #[test]
    fn a_negative_shape_keeps_early_looks_strict() {
        // Values of the Hwang–Shih–DeCani function for γ = −2 and −4 at a quarter and a half.
        assert!((spent_by(0.25, -2.0) - 0.10153).abs() < 1e-5);
        assert!((spent_by(0.5, -2.0) - 0.26894).abs() < 1e-5);
        assert!((spent_by(0.5, -4.0) - 0.11920).abs() < 1e-5);
    }

    #[test]
    fn skipped_looks_leave_their_share_to_the_next() {
        let mut all = Spender::new(0.02, GAMMA);
        let shares: Vec<f64> = [0.25, 0.5, 0.75].iter().map(|&t| all.look(t)).collect();
        let mut skipping = Spender::new(0.02, GAMMA);
        let skipped = skipping.look(0.5);
        assert!((skipped - (shares[0] + shares[1])).abs() < 1e-15);
        assert!((skipping.rest() - (0.02 - skipped)).abs() < 1e-15);
        // A look that comes back to an earlier time spends nothing more.
        assert_eq!(skipping.look(0.25), 0.0);
    }

    #[test]
    fn spending_follows_the_hwang_shih_decani_shape() {
        assert_eq!(spent_by(1.0, -2.0), 1.0);
        assert!((spent_by(0.5, 0.0) - 0.5).abs() < 1e-12, "γ = 0 spends evenly");
        // γ = −2 at a third of the way: (1 − e^{2/3}) / (1 − e²) = 0.148.
        assert!((spent_by(1.0 / 3.0, -2.0) - 0.1484).abs() < 1e-4);
    }

    #[test]
    fn the_looks_spend_exactly_alpha() {
        let mut spender = Spender::new(0.05, -2.0);
        let first = spender.look(0.25);
        let second = spender.look(0.5);
        let last = spender.rest();
        assert!(first < second && second < last);
        assert!((first + second + last - 0.05).abs() < 1e-15, "the looks spend exactly alpha");
        assert_eq!(spender.rest(), 0.0);
    }
}
