//! Every seed rtcompare derives from another, in one place, each named by what it is for. A run
//! has one seed (`RTCOMPARE_SEED`); a pair, its processes, its rounds' placement copies and
//! layouts, its confirmation and its A/A validations each draw from a stream of their own, so
//! no two share random numbers and every run with the same seed repeats.
//!
//! The derivations are fixed: every seeded figure in the docs and tests rests on them.

/// What a derived seed is for, where it is one fixed stream per seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The seeds of a comparison's confirmation processes (then one per process, [`nth`]).
    Confirmation,
    /// A round's layout draw, independent of the round's inputs.
    Layout,
    /// The bootstrap of the candidate's A/A validation.
    CandidateValidation,
    /// The bootstrap of the baseline's A/A validation.
    BaselineValidation,
}

impl Purpose {
    /// The salt mixed into the seed for this purpose.
    const fn salt(self) -> u64 {
        match self {
            Purpose::Confirmation => 0xC04F_143D,
            Purpose::Layout => 0x1A70_u64 << 48 | 0x5EED,
            Purpose::CandidateValidation => 0xA1,
            Purpose::BaselineValidation => 0xB2,
        }
    }
}

/// The seed of `seed`'s stream for `purpose`.
pub fn for_purpose(seed: u64, purpose: Purpose) -> u64 {
    seed ^ purpose.salt()
}

/// The seed of the `n`th of a series drawn from `seed`: worker process `n` of a run, placement
/// copy `n` of a round. The golden-ratio step keeps neighbours far apart.
pub fn nth(seed: u64, n: usize) -> u64 {
    seed.wrapping_add((n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The seed of the test named `name` in a run seeded with `seed`: a stream per test, so tests do
/// not share one, yet every run repeats.
pub fn named(seed: u64, name: &str) -> u64 {
    // FNV-1a over the name, then mixed with the run seed.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    hash ^ seed.rotate_left(17)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derivations every seeded figure rests on, pinned.
    #[test]
    fn the_derivations_are_fixed() {
        assert_eq!(for_purpose(0, Purpose::Confirmation), 0xC04F_143D);
        assert_eq!(for_purpose(1, Purpose::Layout), 0x1A70_0000_0000_5EEC);
        assert_eq!(for_purpose(0xFF, Purpose::CandidateValidation), 0x5E);
        assert_eq!(for_purpose(0xFF, Purpose::BaselineValidation), 0x4D);
        assert_eq!(nth(5, 0), 5);
        assert_eq!(nth(0, 2), 0x3C6E_F372_FE94_F82A);
        assert_eq!(named(0, ""), 0xcbf2_9ce4_8422_2325);
        assert_ne!(named(1, "a::b"), named(1, "a::c"));
    }
}
