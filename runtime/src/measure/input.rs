//! Inputs built outside the timed region by a `setup = path` function.
//!
//! A setup function may or may not take the seeded generator, and takes the size when the
//! attribute has `args = [...]`. The generated code calls [`Setup::build`] or
//! [`SizedSetup::build`]; the marker type parameter lets the compiler pick the one form a
//! function has.

use crate::Dprng;

/// Marker: a setup function that does not take the generator.
#[derive(Debug)]
pub struct WithoutRng;

/// Marker: a setup function that takes `&mut Dprng`.
#[derive(Debug)]
pub struct WithRng;

/// A setup function for a comparison without `args`: `fn() -> I` or `fn(&mut Dprng) -> I`.
///
/// ```
/// use rtcompare_runtime::Dprng;
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
/// use rtcompare_runtime::Dprng;
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
