//! The dispatch from a `Routine::batch` call to its timed loop: one of eight monomorphised copies,
//! four placements of the primary loop and four of its A/A twin.
//!
//! Each timed loop is an `#[inline(never)]` method generic over `const COPY: usize` and
//! `const TWIN: bool` that begins with `place::<COPY>()` (which shifts the code after it by a
//! different amount in each copy) and `black_box(TWIN)` (so the compiler cannot merge a loop with
//! its twin, which would otherwise be byte-identical): the engine measures every copy, so a verdict
//! does not hang on where one copy of the loop happened to land.

/// Calls `$this.$method::<COPY, TWIN>($args)` for the copy and twin given at run time.
macro_rules! placed {
    ($copy:expr, $twin:expr, $this:ident . $method:ident ( $($arg:expr),* $(,)? )) => {
        match ($copy, $twin) {
            (0, false) => $this.$method::<0, false>($($arg),*),
            (1, false) => $this.$method::<1, false>($($arg),*),
            (2, false) => $this.$method::<2, false>($($arg),*),
            (3, false) => $this.$method::<3, false>($($arg),*),
            (0, true) => $this.$method::<0, true>($($arg),*),
            (1, true) => $this.$method::<1, true>($($arg),*),
            (2, true) => $this.$method::<2, true>($($arg),*),
            (3, true) => $this.$method::<3, true>($($arg),*),
            (copy, _) => $crate::placement::no_such_copy(copy),
        }
    };
}
pub(crate) use placed;

/// How many placement copies each loop has: `Routine::batch`'s `copy` is below this.
pub(crate) const COPIES: usize = 4;

/// A `copy` outside `0..COPIES`: the engine broke `Routine::batch`'s contract.
#[cold]
pub(crate) fn no_such_copy(copy: usize) -> ! {
    panic!("rtcompare-criterion: placement copy {copy} asked for, but there are {COPIES} (0..{COPIES})")
}

/// The start of every timed loop: this copy's placement, and a trace of `TWIN` in the code so
/// a loop and its twin stay two functions.
#[inline(always)]
pub(crate) fn enter<const COPY: usize, const TWIN: bool>() {
    rtcompare::__private::place::<COPY>();
    std::hint::black_box(TWIN);
}
