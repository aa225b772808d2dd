//! Tests a front-end declares as it runs: rtcompare-criterion's benchmarks, each found by running
//! the user's benchmark functions, not registered by an attribute.

use super::registry::{AttributeSettings, Batches, Registration};
use crate::measure::{Meter, Throughput};
use std::time::Duration;

/// One benchmark of a front-end: a test that compares it with itself at the git revision
/// `RTCOMPARE_BASELINE` names or, where the run names none, measures it alone (its median time
/// per iteration with an interval, and it passes), its loops entered in the processes that
/// measure it ([`Enter`](super::process::server::Enter)).
///
/// ```
/// use rtcompare::__private::FrontEndBenchmark;
/// let fib = FrontEndBenchmark::new("fib/20", "benches/fib.rs", 12);
/// assert_eq!(fib.name, "fib/20");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct FrontEndBenchmark {
    /// The test's name, the benchmark's own (criterion's id).
    pub name: String,
    /// The source file that declares it.
    pub file: &'static str,
    /// The line that declares it.
    pub line: u32,
    /// What one call processes, shown as a rate.
    pub throughput: Option<Throughput>,
    /// Its measurement budget, in place of the run's.
    pub time: Option<Duration>,
    /// The smallest relative difference that counts, in place of the run's.
    pub parity: Option<f64>,
}

impl FrontEndBenchmark {
    /// A benchmark named `name`, declared at `file:line`, with the run's settings.
    pub fn new(name: impl Into<String>, file: &'static str, line: u32) -> FrontEndBenchmark {
        FrontEndBenchmark { name: name.into(), file, line, throughput: None, time: None, parity: None }
    }

    /// The registration the harness runs it as. It lives as long as the process, as a
    /// registration `#[compare]` generates does.
    pub(crate) fn registration(self) -> &'static Registration {
        let name: &'static str = Box::leak(self.name.into_boxed_str());
        let settings = AttributeSettings {
            name: Some(name),
            revision: true,
            alone_without_revision: true,
            time: self.time,
            parity: self.parity,
            throughput: self.throughput,
            ..AttributeSettings::default()
        };
        Box::leak(Box::new(Registration {
            module_path: "",
            candidate: name,
            baseline: name,
            baseline_name: name,
            batches: Batches::uniform(entered_only),
            settings,
            file: self.file,
            line: self.line,
        }))
    }
}

/// A front-end benchmark's loops exist only where the user's function runs, which a child enters;
/// the harness never calls a registration's own loops for a test against a revision.
fn entered_only(_: u64, _: u64, _: u64, _: Meter) -> u64 {
    unreachable!("a front-end's benchmark is measured only inside the processes that enter it")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_benchmark_is_a_test_against_a_revision_named_as_it_is() {
        let mut benchmark = FrontEndBenchmark::new("group/function/10", "benches/b.rs", 7);
        benchmark.parity = Some(0.05);
        let registration = benchmark.registration();
        assert_eq!(registration.test_name(), "group/function/10");
        assert!(registration.settings.revision && registration.settings.alone_without_revision);
        assert_eq!(registration.settings.parity, Some(0.05));
        assert_eq!((registration.file, registration.line), ("benches/b.rs", 7));
    }
}
