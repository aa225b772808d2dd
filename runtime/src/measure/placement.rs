//! Code placement as a variable the measurement samples, not a draw it suffers.
//!
//! Where the linker puts a hot loop can change its speed by a factor of two on some processors
//! (seen on AMD Zen 3: the same sum over 1,000 integers at 85 ns or 161 ns, depending only on
//! the loop's offset within a 64-byte block of code). The linker aligns a function to 16 bytes,
//! so a loop inlined into a batch routine sits at one of four offsets modulo 64, decided by the
//! names and sizes of everything linked before it — which change with the checkout folder.
//!
//! `#[compare]` therefore generates each batch routine [`PLACEMENTS`] times. Copy `k` starts with
//! [`place::<k>`](place): the code after it begins at a 64-byte boundary plus `k × 16` bytes, the
//! four offsets a 16-byte-aligned function can have. Every batch is spread over the four copies
//! (see [`super::Arm`]), so each arm's figure is its cost averaged over every placement the
//! linker could have produced, whatever folder the binary was built in.

/// How many copies of each batch routine, at different code offsets, the macro generates.
pub(crate) const PLACEMENTS: usize = 4;

/// Bytes between the code offsets of consecutive copies: the function alignment the linker
/// uses, so [`PLACEMENTS`] copies cover a 64-byte block.
pub(crate) const PLACEMENT_STEP: usize = 16;

/// Aligns the code that follows to a 64-byte boundary, then pads it by `COPY × 16` bytes of
/// no-ops. Called once at the top of a batch routine, before its timed loop, so the padding
/// runs once per batch (a few cycles), never per call.
///
/// The alignment directive also raises the alignment of the function's own section to 64 bytes,
/// so the offset holds in the linked binary, not only in the object file. On targets other than
/// x86 and x86-64 this does nothing, and placement is not sampled there.
///
/// ```
/// // Harmless to call anywhere: it only inserts padding into the instruction stream.
/// rtcompare_runtime::__private::place::<2>();
/// ```
#[inline(always)]
pub fn place<const COPY: usize>() {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    // SAFETY: the template holds only assembler directives that emit padding (multi-byte no-ops
    // from `.p2align`, single-byte `nop`s from `.fill`): no memory, stack or flag is touched and
    // no register changes, as the options declare.
    unsafe {
        core::arch::asm!(
            ".p2align 6",
            ".fill {pad}, 1, 0x90",
            pad = const COPY * PLACEMENT_STEP,
            options(nomem, nostack, preserves_flags),
        );
    }
}

/// Splits a batch of `iters` operations over `copies` copies: as evenly as possible, the
/// remainder going to the copies after `rotation` (so batches smaller than the number of copies
/// visit every copy over consecutive rounds).
pub(crate) fn split_batch(iters: u64, copies: usize, rotation: u64) -> [u64; PLACEMENTS] {
    let copies = copies.clamp(1, PLACEMENTS);
    let n = copies as u64;
    let mut split = [0; PLACEMENTS];
    for (k, share) in split.iter_mut().enumerate().take(copies) {
        // Copy k's position after the rotation's starting copy.
        let after_start = (k as u64 + n - rotation % n) % n;
        *share = iters / n + u64::from(after_start < iters % n);
    }
    split
}

/// The input seed of copy `k` in a round: distinct per copy, so a batch split over four copies
/// does not run the same inputs four times, and equal across arms and twins, so every routine of
/// a round still sees the same inputs.
pub(crate) fn copy_seed(round_seed: u64, copy: usize) -> u64 {
    rtcompare_judge::seeds::nth(round_seed, copy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_covers_the_batch_and_differs_by_at_most_one() {
        for iters in 0..40 {
            for rotation in 0..8 {
                let split = split_batch(iters, PLACEMENTS, rotation);
                assert_eq!(split.iter().sum::<u64>(), iters);
                let (min, max) = (split.iter().min().unwrap(), split.iter().max().unwrap());
                assert!(max - min <= 1, "{iters} {rotation}: {split:?}");
            }
        }
    }

    #[test]
    fn single_operations_visit_every_copy_over_four_rounds() {
        let visited: Vec<usize> =
            (0..4).map(|round| split_batch(1, PLACEMENTS, round).iter().position(|&n| n == 1).unwrap()).collect();
        assert_eq!(visited, [0, 1, 2, 3]);
    }

    #[test]
    fn copy_seeds_are_distinct_and_copy_zero_keeps_the_round_seed() {
        let seeds: Vec<u64> = (0..PLACEMENTS).map(|k| copy_seed(42, k)).collect();
        assert_eq!(seeds[0], 42);
        for (i, a) in seeds.iter().enumerate() {
            assert!(seeds[i + 1..].iter().all(|b| b != a));
        }
    }

    #[test]
    fn a_batch_is_split_evenly_from_the_rotation() {
        assert_eq!(split_batch(10, 4, 0), [3, 3, 2, 2]);
        assert_eq!(split_batch(1, 4, 2), [0, 0, 1, 0]);
        assert_eq!(split_batch(5, 1, 3), [5, 0, 0, 0]);
    }
}
