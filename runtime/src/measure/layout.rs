//! Memory layout as a variable the measurement samples, not a draw it suffers.
//!
//! Where a process's stack and heap objects land changes the speed of identical code: an
//! environment variable a few bytes longer moves the stack and shifts timings (Mytkowicz et al.,
//! "Producing wrong data without doing anything obviously wrong", ASPLOS 2009), and Stabilizer
//! (Curtsinger & Berger, ASPLOS 2013) re-randomises the layout while a program runs so that its
//! effect becomes variance a test can see instead of a bias it cannot. One process draws one
//! layout and keeps it, so the rounds of one process cannot average it.
//!
//! With [`Layout::Random`] the collection therefore draws, for every round, from a generator
//! seeded by the round's seed (so runs repeat):
//!
//! - a **stack depth**: the round's four batches run below a frame padded by 0 to 4,080 bytes in
//!   16-byte steps (the stack's alignment), which covers every cache-line offset and every offset
//!   within a 4 KiB page of the batch loop's locals;
//! - a **heap pattern**: before the round, 0 to 7 blocks of each small size class (16-byte steps
//!   up to 528-byte chunks) and one block of 0 to 4,080 bytes are allocated and held; after the
//!   round they are freed in a shuffled order. Holding a random-sized block alone moves nothing a
//!   workload allocates again and again: glibc's malloc serves each small size from its own
//!   last-in-first-out list (tcache, then fastbins), so a same-size allocation lands on whichever
//!   chunk heads its class's list. Taking a random number of chunks from every class, and
//!   returning them in a random order, changes which chunk that is.
//!
//! The four batches of a round share its draw, as they share its input seed: the layout's effect
//! on both arms then cancels in each round's ratio, and what remains averages over the rounds.
//! Everything here happens between batches, outside the metered region.

use rtcompare_judge::Dprng;
use rtcompare_judge::seeds::{self, Purpose};
use std::hint::black_box;
use std::mem::MaybeUninit;

/// Whether the stack and heap layout is re-drawn for every round (`RTCOMPARE_LAYOUT`).
///
/// The default is [`Layout::Fixed`]; [`Layout::Random`] costs a layout draw per round, outside
/// every timed region. What it was measured to change: `bench/evidence/README.md`, "Layout
/// randomisation inside a process".
///
/// ```
/// use rtcompare::{Layout, Options};
/// let options = Options { layout: Layout::Random, ..Options::default() };
/// assert_eq!(options.layout.as_str(), "random");
/// assert_eq!(Options::default().layout, Layout::Fixed);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// Batches run where they fall: one layout for the whole process.
    #[default]
    Fixed,
    /// Every round runs at a random stack depth over a randomly perturbed heap.
    Random,
}

impl Layout {
    /// The setting's value: `fixed` or `random`.
    ///
    /// ```
    /// assert_eq!(rtcompare::Layout::Fixed.as_str(), "fixed");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Layout::Fixed => "fixed",
            Layout::Random => "random",
        }
    }

    /// Reads `fixed` or `random` (surrounding spaces ignored).
    pub(crate) fn parse(value: &str) -> Option<Layout> {
        match value.trim() {
            "fixed" => Some(Layout::Fixed),
            "random" => Some(Layout::Random),
            _ => None,
        }
    }
}

/// Granularity of the stack shift in bytes: the stack's alignment on x86-64 and AArch64.
pub(crate) const STACK_STEP: usize = 16;
/// Distinct stack shifts: 0 to 4,080 bytes, every 16-byte offset within a 4 KiB page.
pub(crate) const STACK_SHIFTS: usize = COARSE_SHIFTS * FINE_SHIFTS;
/// Small size classes perturbed: chunks of 32 to 528 bytes in 16-byte steps.
pub(crate) const HEAP_CLASSES: usize = 32;
/// Most blocks held per size class (glibc's tcache keeps 7 per class).
pub(crate) const MAX_BLOCKS: usize = 7;

const COARSE_STEP: usize = 64;
const COARSE_SHIFTS: usize = 64;
const FINE_SHIFTS: usize = COARSE_STEP / STACK_STEP;

/// One round's layout: how deep its batches run and which blocks are held around them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Draw {
    /// `None` for [`Layout::Fixed`]: batches are called directly.
    stack: Option<usize>,
    /// Blocks held per size class; class `k` requests `16k + 24` bytes (a `16k + 32`-byte chunk
    /// in glibc).
    blocks: [u8; HEAP_CLASSES],
    /// Size of the one extra block (0: none), shifting where fresh memory is carved from.
    spacer: usize,
    /// Seed of the order the held blocks are freed in.
    free_order: u64,
}

impl Draw {
    /// The draw of a round with input seed `round_seed`.
    pub(crate) fn new(layout: Layout, round_seed: u64) -> Draw {
        let mut draw = Draw { stack: None, blocks: [0; HEAP_CLASSES], spacer: 0, free_order: 0 };
        if layout == Layout::Random {
            let mut rng = Dprng::new(seeds::for_purpose(round_seed, Purpose::Layout));
            draw.stack = Some(rng.below(STACK_SHIFTS) * STACK_STEP);
            for count in &mut draw.blocks {
                *count = rng.below(MAX_BLOCKS + 1) as u8;
            }
            draw.spacer = rng.below(STACK_SHIFTS) * STACK_STEP;
            draw.free_order = rng.u64();
        }
        draw
    }

    /// The stack shift in bytes (`None` when the layout is fixed).
    #[cfg(test)]
    pub(crate) fn stack(&self) -> Option<usize> {
        self.stack
    }

    /// Runs `f` at this draw's stack depth: below frames holding `stack` bytes of padding.
    pub(crate) fn at_depth<R>(&self, f: impl FnOnce() -> R) -> R {
        let Some(shift) = self.stack else { return f() };
        let mut f = Some(f);
        let mut result = None;
        let mut call = || {
            if let Some(f) = f.take() {
                result = Some(f());
            }
        };
        let shift = shift.min(STACK_SHIFTS * STACK_STEP - STACK_STEP);
        COARSE[shift / COARSE_STEP]((shift % COARSE_STEP) / STACK_STEP, &mut call);
        match result {
            Some(result) => result,
            // The padded frames always call `call`, which takes `f` and sets `result`; were one
            // ever to skip it, the batch still runs, at the current depth.
            None => match f {
                Some(f) => f(),
                None => unreachable_call(),
            },
        }
    }
}

#[cold]
fn unreachable_call() -> ! {
    unreachable!("the padded frames always call the batch")
}

/// The blocks a round holds: allocated before its first batch, freed after its last.
#[derive(Debug, Default)]
pub(crate) struct Heap {
    held: Vec<Vec<u8>>,
}

impl Heap {
    /// Room for the most blocks any draw holds, so holding them never grows this list.
    pub(crate) fn new() -> Heap {
        Heap { held: Vec::with_capacity(HEAP_CLASSES * MAX_BLOCKS + 1) }
    }

    /// Allocates and holds the draw's blocks (none for a fixed layout).
    pub(crate) fn hold(&mut self, draw: &Draw) {
        for (class, &count) in draw.blocks.iter().enumerate() {
            for _ in 0..count {
                self.held.push(black_box(Vec::with_capacity(16 * class + 24)));
            }
        }
        if draw.spacer > 0 {
            self.held.push(black_box(Vec::with_capacity(draw.spacer)));
        }
    }

    /// Frees every held block, in the draw's shuffled order.
    pub(crate) fn release(&mut self, draw: &Draw) {
        if self.held.len() > 1 {
            Dprng::new(draw.free_order).shuffle(&mut self.held);
        }
        self.held.clear();
    }

    /// Blocks currently held.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.held.len()
    }
}

type Call<'a> = &'a mut dyn FnMut();

/// A frame holding `N × 64` bytes of stack, calling on through a frame of `fine × 16` more.
#[inline(never)]
fn coarse<const N: usize>(fine: usize, call: Call<'_>) {
    let pad = MaybeUninit::<[[u8; COARSE_STEP]; N]>::uninit();
    black_box(&pad);
    FINE[fine.min(FINE_SHIFTS - 1)](call);
    // Keeps the padding alive across the call, so the call cannot become a tail call that
    // releases this frame first.
    black_box(&pad);
}

/// A frame holding `N × 16` bytes of stack, calling `call` below it.
#[inline(never)]
fn fine<const N: usize>(call: Call<'_>) {
    let pad = MaybeUninit::<[[u8; STACK_STEP]; N]>::uninit();
    black_box(&pad);
    call();
    black_box(&pad);
}

macro_rules! frames {
    ($frame:ident as $ty:ty; $($n:literal)*) => { [$($frame::<$n> as $ty),*] };
}

const FINE: [fn(Call<'_>); FINE_SHIFTS] = frames!(fine as fn(Call<'_>); 0 1 2 3);

const COARSE: [fn(usize, Call<'_>); COARSE_SHIFTS] = frames!(coarse as fn(usize, Call<'_>);
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
    32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);

#[cfg(test)]
mod tests {
    use super::*;

    fn draws(layout: Layout, seeds: std::ops::Range<u64>) -> Vec<Draw> {
        seeds.map(|seed| Draw::new(layout, seed)).collect()
    }

    #[test]
    fn the_same_seed_gives_the_same_draw_and_another_seed_another() {
        assert_eq!(draws(Layout::Random, 0..100), draws(Layout::Random, 0..100));
        let (a, b) = (Draw::new(Layout::Random, 1), Draw::new(Layout::Random, 2));
        assert_ne!(a, b);
    }

    #[test]
    fn a_fixed_layout_shifts_and_holds_nothing() {
        for draw in draws(Layout::Fixed, 0..50) {
            assert_eq!(draw.stack(), None);
            let mut heap = Heap::new();
            heap.hold(&draw);
            assert_eq!(heap.held(), 0);
        }
    }

    #[test]
    fn stack_shifts_cover_every_16_byte_step_up_to_4_kib() {
        let mut seen = vec![false; STACK_SHIFTS];
        for draw in draws(Layout::Random, 0..20_000) {
            let shift = draw.stack().unwrap_or(usize::MAX);
            assert_eq!(shift % STACK_STEP, 0, "{shift}");
            seen[shift / STACK_STEP] = true;
        }
        let missing: Vec<usize> = (0..STACK_SHIFTS).filter(|&i| !seen[i]).collect();
        assert!(missing.is_empty(), "shifts never drawn (in steps): {missing:?}");
    }

    #[test]
    fn block_counts_cover_zero_to_the_maximum_in_every_class() {
        let all = draws(Layout::Random, 0..2_000);
        for class in 0..HEAP_CLASSES {
            let mut seen = [false; MAX_BLOCKS + 1];
            for draw in &all {
                seen[usize::from(draw.blocks[class])] = true;
            }
            assert!(seen.iter().all(|&s| s), "class {class}: {seen:?}");
        }
    }

    #[test]
    fn held_blocks_are_all_freed_after_the_round() {
        let mut heap = Heap::new();
        for draw in draws(Layout::Random, 0..50) {
            heap.hold(&draw);
            let expected = draw.blocks.iter().map(|&n| usize::from(n)).sum::<usize>() + usize::from(draw.spacer > 0);
            assert_eq!(heap.held(), expected);
            assert!(heap.held() <= heap.held.capacity());
            heap.release(&draw);
            assert_eq!(heap.held(), 0);
        }
    }

    /// Where the detection benchmark's allocation workload puts its `String` and `Vec` (16 and
    /// 32 bytes, freed every iteration) after a round's blocks are held.
    fn workload_addresses(layout: Layout, rounds: u64) -> Vec<(usize, usize)> {
        let mut heap = Heap::new();
        (0..rounds)
            .map(|seed| {
                let draw = Draw::new(layout, seed);
                heap.hold(&draw);
                let mut last = (0, 0);
                for i in 0..100u64 {
                    let text = black_box(String::with_capacity(16));
                    let numbers: Vec<u64> = black_box(Vec::with_capacity(4));
                    last = (text.as_ptr() as usize, numbers.as_ptr() as usize);
                    black_box((text, numbers, i));
                }
                heap.release(&draw);
                last
            })
            .collect()
    }

    #[test]
    fn held_blocks_move_where_repeated_small_allocations_land() {
        // Seen with glibc 2.x: 31 distinct pairs of addresses in 40 rounds, against 1 with a fixed
        // layout (bench/evidence/README.md).
        let random = workload_addresses(Layout::Random, 40);
        let distinct = random.iter().collect::<std::collections::BTreeSet<_>>().len();
        assert!(distinct >= 8, "{distinct} distinct: {random:x?}");
    }

    #[inline(never)]
    fn local_address() -> usize {
        let local = 0u8;
        black_box(&local) as *const u8 as usize
    }

    #[test]
    fn the_batch_runs_deeper_by_the_drawn_shift() {
        let at = |shift: usize| {
            let draw = Draw { stack: Some(shift), ..Draw::new(Layout::Fixed, 0) };
            draw.at_depth(local_address)
        };
        let top = at(0);
        for shift in [16, 48, 64, 1_040, 4_080] {
            // The stack grows down: a deeper call has a lower address, by the padding (plus
            // whatever the two padded frames hold besides it, the same for every shift).
            let depth = top - at(shift);
            assert_eq!(depth, shift, "shift {shift}");
        }
    }

    #[test]
    fn the_batch_result_is_returned_through_the_padded_frames() {
        let draw = Draw::new(Layout::Random, 9);
        assert_eq!(draw.at_depth(|| 41 + 1), 42);
        assert_eq!(Draw::new(Layout::Fixed, 9).at_depth(|| "direct"), "direct");
    }

    #[test]
    fn a_layout_reads_and_names_its_setting() {
        assert_eq!(Layout::parse("fixed"), Some(Layout::Fixed));
        assert_eq!(Layout::Random.as_str(), "random");
        assert_eq!(Layout::parse("sometimes"), None);
    }
}
