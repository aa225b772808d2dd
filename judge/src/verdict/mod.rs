//! What a judgement says: the [`Report`] of one round of a comparison, its [`Verdict`] and
//! [`Caveat`]s, the [`Confirmation`] fresh processes gave it, the [`Judgement`] they make
//! together, and the options a round is judged with. Data only: [`crate::judging`] makes a report
//! and `decide::conclude` a judgement. Every type here is serialisable as it is, so the results
//! file and a comparison's record are these values.

mod caveat;
mod ending;
mod figures;
mod judgement;
mod options;
mod report;
mod seconds;

pub use caveat::{ArmRole, Caveat, DriftSeries, RoundFigures, WarningKind};
pub use ending::{Ending, Settle};
pub use figures::{DriftTests, ResamplingInfo, ThresholdConfidence, Validations, Verdict};
pub use judgement::{Confirmation, Judgement, ProcessMean};
pub use options::JudgeOptions;
pub use report::{CLEAR_BEYOND_TOLERANCE, Report};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every warning line names its kind and points to the HOWTO, so every kind needs its
    /// section there: `### `kind`` in `docs/howto.md`.
    #[test]
    fn every_warning_kind_has_its_section_in_the_howto() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/howto.md");
        let howto = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let missing: Vec<&str> = WarningKind::ALL
            .iter()
            .map(|kind| kind.as_str())
            .filter(|kind| !howto.lines().any(|line| line.trim() == format!("### `{kind}`")))
            .collect();
        assert!(missing.is_empty(), "warning kinds without a section in docs/howto.md: {missing:?}");
    }
}
