//! Benchmark ids: [`BenchmarkId`], what a group's `bench_function` accepts as one
//! ([`IntoBenchmarkId`]), and the full id criterion gives a benchmark ([`full_id`]).

use std::fmt::Display;

/// The id of a benchmark in a group: a function name, a parameter, or both.
///
/// Its full id is criterion's: `group/function/parameter`, `group/function` or
/// `group/parameter`.
///
/// ```
/// use rtcompare_criterion::{BenchmarkId, Criterion};
///
/// fn fibonacci(c: &mut Criterion) {
///     let mut group = c.benchmark_group("Fibonacci");
///     for n in [20u64, 21] {
///         // Fibonacci/Recursive/20, Fibonacci/Recursive/21
///         group.bench_with_input(BenchmarkId::new("Recursive", n), &n, |b, &n| b.iter(|| n * 2));
///     }
///     group.finish();
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BenchmarkId {
    pub(crate) function: Option<String>,
    pub(crate) parameter: Option<String>,
}

impl BenchmarkId {
    /// An id of a function name and a parameter, the parameter formatted with `Display`:
    /// `BenchmarkId::new("Recursive", 20)` is `Recursive/20` within its group.
    pub fn new<S: Into<String>, P: Display>(function_name: S, parameter: P) -> BenchmarkId {
        BenchmarkId { function: Some(function_name.into()), parameter: Some(parameter.to_string()) }
    }

    /// An id of a parameter alone, for a group that benchmarks one function over several
    /// inputs: `BenchmarkId::from_parameter(1024)` in group `from_elem` is `from_elem/1024`.
    pub fn from_parameter<P: Display>(parameter: P) -> BenchmarkId {
        BenchmarkId { function: None, parameter: Some(parameter.to_string()) }
    }
}

mod private {
    /// Seals [`IntoBenchmarkId`](super::IntoBenchmarkId), as in criterion.
    pub trait Sealed {}
    impl Sealed for super::BenchmarkId {}
    impl<S: Into<String>> Sealed for S {}
}

/// What a group's `bench_function` and `bench_with_input` take as an id: a [`BenchmarkId`], or
/// a function name (`&str`, `String`). Sealed.
///
/// ```
/// use rtcompare_criterion::{BenchmarkId, IntoBenchmarkId};
///
/// assert_eq!("parse".into_benchmark_id(), String::from("parse").into_benchmark_id());
/// assert_ne!("parse".into_benchmark_id(), BenchmarkId::from_parameter("parse"));
/// ```
pub trait IntoBenchmarkId: private::Sealed {
    /// This id as a [`BenchmarkId`].
    ///
    /// # Panics
    ///
    /// On an empty function name, as criterion does.
    fn into_benchmark_id(self) -> BenchmarkId;
}

impl IntoBenchmarkId for BenchmarkId {
    fn into_benchmark_id(self) -> BenchmarkId {
        self
    }
}

impl<S: Into<String>> IntoBenchmarkId for S {
    fn into_benchmark_id(self) -> BenchmarkId {
        let function = self.into();
        assert!(!function.is_empty(), "Function name must not be empty.");
        BenchmarkId { function: Some(function), parameter: None }
    }
}

/// criterion's full id of a benchmark: the group, then the function and the parameter where
/// there are, joined by `/`. `Criterion::bench_function("fib 20", …)` is a group of that name
/// with neither, so its id is `fib 20`; `Criterion::bench_with_input(BenchmarkId::new("f", 5),
/// …)` is group `f` with parameter `5`, so `f/5`.
pub(crate) fn full_id(group: &str, function: Option<&str>, parameter: Option<&str>) -> String {
    [Some(group), function, parameter].into_iter().flatten().collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::{BenchmarkId, IntoBenchmarkId, full_id};

    fn id_in_group(group: &str, id: impl IntoBenchmarkId) -> String {
        let id = id.into_benchmark_id();
        full_id(group, id.function.as_deref(), id.parameter.as_deref())
    }

    // Each expected id is criterion's own: from its book's example report (`full_id` in
    // `html_report/Fibonacci*/…/benchmark.json`) and the examples of its user guide.
    #[test]
    fn ids_are_criterions() {
        assert_eq!(id_in_group("Fibonacci", "Iterative"), "Fibonacci/Iterative");
        assert_eq!(id_in_group("Fibonacci", String::from("Recursive")), "Fibonacci/Recursive");
        assert_eq!(id_in_group("Fibonacci2", BenchmarkId::new("Iterative", 21)), "Fibonacci2/Iterative/21");
        assert_eq!(id_in_group("Fibonacci2", BenchmarkId::new("Recursive", 20u64)), "Fibonacci2/Recursive/20");
        assert_eq!(id_in_group("from_elem", BenchmarkId::from_parameter(1024)), "from_elem/1024");
        assert_eq!(id_in_group("log_scale_example", BenchmarkId::from_parameter(1.5)), "log_scale_example/1.5");
        // `Criterion::bench_function("fib 20", …)`: a group with neither function nor parameter.
        assert_eq!(full_id("fib 20", None, None), "fib 20");
        // `Criterion::bench_with_input(BenchmarkId::new("input_example", 1024), …)`.
        assert_eq!(full_id("input_example", None, Some("1024")), "input_example/1024");
    }

    #[test]
    fn slashes_and_spaces_are_kept_as_written() {
        // criterion makes names safe only for its folders, never in the id.
        assert_eq!(id_in_group("a/b", BenchmarkId::new("c d", "e/f")), "a/b/c d/e/f");
    }

    #[test]
    #[should_panic(expected = "Function name must not be empty.")]
    fn an_empty_function_name_is_refused() {
        "".into_benchmark_id();
    }
}
