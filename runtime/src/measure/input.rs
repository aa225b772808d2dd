//! Inputs built outside the timed region by a `setup = path` function.
//!
//! A setup function may or may not take the seeded generator, and takes the size when the
//! attribute has `args = [...]`. The generated code calls [`Setup::build`] or
//! [`SizedSetup::build`]; the marker type parameter lets the compiler pick the one form a
//! function has. With `keep_input`, a batch loop takes its one shared input from [`Kept`]
//! instead of building one per batch.

use rtcompare_judge::Dprng;
use std::any::{Any, TypeId};
use std::sync::{Mutex, PoisonError};

/// The seed a kept input is built from: one for every process and both arms, so that the arms
/// get equal inputs whichever batch of theirs comes first.
pub const KEPT_SEED: u64 = 0x6b65_7074_5f69_6e70;

/// The inputs a `keep_input` batch loop keeps for the whole process: built at its first batch,
/// one per type and size, and never dropped, so that what an input fills in lazily (a regex's
/// caches, a map's growth) stays filled from one batch to the next. Each loop has its own, so
/// each arm (and its twin) warms its own input.
///
/// ```
/// use rtcompare_runtime::__private::Kept;
/// static KEPT: Kept = Kept::new();
/// let first: &Vec<u32> = KEPT.get(10, || vec![1; 10]);
/// let again: &Vec<u32> = KEPT.get(10, || unreachable!("built once per size"));
/// assert!(std::ptr::eq(first, again));
/// assert_eq!(KEPT.get(3, || vec![2; 3]).len(), 3, "another size, another input");
/// ```
#[derive(Debug)]
pub struct Kept(Mutex<Vec<(TypeId, u64, &'static (dyn Any + Send + Sync))>>);

impl Kept {
    /// No input kept yet.
    #[allow(clippy::new_without_default)] // a `static`'s initializer, never defaulted
    pub const fn new() -> Kept {
        Kept(Mutex::new(Vec::new()))
    }

    /// The input of `size` (0 without `args`), built by `build` the first time it is asked for.
    pub fn get<I: Any + Send + Sync>(&self, size: u64, build: impl FnOnce() -> I) -> &'static I {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let found = kept.iter().find(|(ty, of, _)| *ty == TypeId::of::<I>() && *of == size);
        if let Some(input) = found.and_then(|(_, _, input)| input.downcast_ref::<I>()) {
            return input;
        }
        let input: &'static I = Box::leak(Box::new(build()));
        kept.push((TypeId::of::<I>(), size, input));
        input
    }
}

/// Marker: a setup function that does not take the generator.
#[derive(Debug)]
pub struct WithoutRng;

/// Marker: a setup function that takes `&mut Dprng`.
#[derive(Debug)]
pub struct WithRng;

/// A setup function for a comparison without `args`: `fn() -> I` or `fn(&mut Dprng) -> I`.
///
/// ```
/// use rtcompare::Dprng;
/// use rtcompare_runtime::__private::Setup;
/// fn numbers(rng: &mut Dprng) -> Vec<u32> { (0..4).map(|_| rng.u32()).collect() }
/// let input = Setup::build(&numbers, &mut Dprng::new(1));
/// assert_eq!(input.len(), 4);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a setup function for a comparison without `args`",
    label = "a setup function is `fn() -> I` or `fn(&mut rtcompare::Dprng) -> I`",
    note = "with `args = [...]`, setup also takes the size: `fn(usize) -> I` or `fn(&mut Dprng, usize) -> I`"
)]
pub trait Setup<I, Form> {
    /// Builds one input.
    fn build(&self, rng: &mut Dprng) -> I;
}

impl<I, F: Fn() -> I> Setup<I, WithoutRng> for F {
    fn build(&self, _rng: &mut Dprng) -> I {
        self()
    }
}

impl<I, F: Fn(&mut Dprng) -> I> Setup<I, WithRng> for F {
    fn build(&self, rng: &mut Dprng) -> I {
        self(rng)
    }
}

/// A setup function for a comparison with `args = [...]`: `fn(usize) -> I` or
/// `fn(&mut Dprng, usize) -> I`, called with each size in turn.
///
/// ```
/// use rtcompare::Dprng;
/// use rtcompare_runtime::__private::SizedSetup;
/// fn zeros(size: usize) -> Vec<u8> { vec![0; size] }
/// assert_eq!(SizedSetup::build(&zeros, &mut Dprng::new(1), 10).len(), 10);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a setup function for a comparison with `args`",
    label = "with `args`, a setup function is `fn(usize) -> I` or `fn(&mut rtcompare::Dprng, usize) -> I`",
    note = "each value of `args` is passed to setup as the size"
)]
pub trait SizedSetup<I, Form> {
    /// Builds one input of the given size.
    fn build(&self, rng: &mut Dprng, size: usize) -> I;
}

impl<I, F: Fn(usize) -> I> SizedSetup<I, WithoutRng> for F {
    fn build(&self, _rng: &mut Dprng, size: usize) -> I {
        self(size)
    }
}

impl<I, F: Fn(&mut Dprng, usize) -> I> SizedSetup<I, WithRng> for F {
    fn build(&self, rng: &mut Dprng, size: usize) -> I {
        self(rng, size)
    }
}
