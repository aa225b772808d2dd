//! `criterion_group!` and `criterion_main!`: the benchmark binary's groups and its `main`.

/// Defines a group of benchmark functions: `pub fn name()`, which builds a
/// [`Criterion`](crate::Criterion) from `config` (`Criterion::default()` in the short form) and
/// calls each target with it. Both of criterion's forms, trailing commas included.
///
/// Short form:
///
/// ```
/// use rtcompare_criterion::{Criterion, criterion_group};
///
/// fn bench_method1(c: &mut Criterion) {}
/// fn bench_method2(c: &mut Criterion) {}
///
/// criterion_group!(benches, bench_method1, bench_method2);
/// # fn main() {}
/// ```
///
/// Full form:
///
/// ```
/// use rtcompare_criterion::{Criterion, criterion_group};
/// use std::time::Duration;
///
/// fn bench_method1(c: &mut Criterion) {}
/// fn bench_method2(c: &mut Criterion) {}
///
/// criterion_group! {
///     name = benches;
///     config = Criterion::default().measurement_time(Duration::from_secs(2));
///     targets = bench_method1, bench_method2,
/// }
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! criterion_group {
    (name = $name:ident; config = $config:expr; targets = $($target:path),+ $(,)*) => {
        #[doc = "Runs this group's benchmark functions (defined by `criterion_group!`)."]
        pub fn $name() {
            let mut criterion: $crate::Criterion<_> = $config.configure_from_args();
            $(
                $target(&mut criterion);
            )+
        }
    };
    ($name:ident, $($target:path),+ $(,)*) => {
        $crate::criterion_group! {
            name = $name;
            config = $crate::Criterion::default();
            targets = $($target),+
        }
    };
}

/// The benchmark binary's `main`: runs the groups named (each defined by
/// [`criterion_group!`]) under rtcompare's harness, which measures each benchmark, judges it
/// against the baseline revision, and sets the exit status.
///
/// As with criterion, the bench target needs `harness = false` in `Cargo.toml`:
///
/// ```toml
/// [[bench]]
/// name = "my_bench"
/// harness = false
/// ```
///
/// ```no_run
/// use rtcompare_criterion::{Criterion, criterion_group, criterion_main};
///
/// fn bench_method1(c: &mut Criterion) {}
/// fn bench_method2(c: &mut Criterion) {}
///
/// criterion_group!(benches, bench_method1, bench_method2);
/// criterion_main!(benches);
/// ```
#[macro_export]
macro_rules! criterion_main {
    ($($group:path),+ $(,)*) => {
        #[doc(hidden)]
        fn __rtcompare_criterion_run(
            build: $crate::__private::rtcompare::__private::BuildInfo,
        ) -> ::std::process::ExitCode {
            $crate::__private::run(build, &[$($group),+])
        }

        $crate::__private::rtcompare::main!(crate = $crate::__private::rtcompare, run = __rtcompare_criterion_run);
    };
}

#[cfg(test)]
mod tests {
    use crate::Criterion;
    use std::cell::Cell;
    use std::time::Duration;

    thread_local! {
        static CALLS: Cell<u32> = const { Cell::new(0) };
    }

    fn first(c: &mut Criterion) {
        let _ = c;
        CALLS.with(|calls| calls.set(calls.get() + 1));
    }

    fn second(c: &mut Criterion) {
        let _ = c;
        CALLS.with(|calls| calls.set(calls.get() + 10));
    }

    criterion_group!(short, first, second);
    criterion_group!(short_with_comma, first, second,);
    criterion_group! {
        name = full;
        config = Criterion::default().measurement_time(Duration::from_secs(2)).sample_size(10);
        targets = first, second
    }
    criterion_group! {
        name = full_with_comma;
        config = Criterion::default();
        targets = second,
    }

    fn calls_of(group: fn()) -> u32 {
        CALLS.with(|calls| calls.set(0));
        group();
        CALLS.with(Cell::get)
    }

    #[test]
    fn both_forms_call_every_target_once() {
        assert_eq!(calls_of(short), 11);
        assert_eq!(calls_of(short_with_comma), 11);
        assert_eq!(calls_of(full), 11);
        assert_eq!(calls_of(full_with_comma), 10);
    }
}
