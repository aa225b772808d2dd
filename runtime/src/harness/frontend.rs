//! Tests a front-end declares as it runs: rtcompare-criterion's benchmarks, each found by running
//! the user's benchmark functions, not registered by an attribute.

use super::registry::{AttributeSettings, Batches, Registration};
use crate::measure::{Meter, Throughput};
use std::time::Duration;

/// One benchmark of a front-end: a test that compares it with another benchmark of the binary,
/// its `baseline`, where it has one, else with itself at the git revision `RTCOMPARE_BASELINE`
/// names or, where the run names none, measures it alone (its median time per iteration with an
/// interval, and it passes); its loops entered in the processes that measure it
/// ([`Enter`](super::process::server::Enter)).
///
/// ```
/// use rtcompare::__private::FrontEndBenchmark;
/// let fib = FrontEndBenchmark::new("fib/20", "benches/fib.rs", 12);
/// assert_eq!(fib.name, "fib/20");
/// let mut fast = FrontEndBenchmark::new("fast/20", "benches/fib.rs", 14);
/// fast.baseline = Some("fib/20".to_owned());
/// assert_eq!(fast.baseline.as_deref(), Some("fib/20"));
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
    /// The benchmark of this binary it is compared with (criterion's "comparing functions": its
    /// group's baseline function), in place of itself at a git revision.
    pub baseline: Option<String>,
}

impl FrontEndBenchmark {
    /// A benchmark named `name`, declared at `file:line`, with the run's settings.
    pub fn new(name: impl Into<String>, file: &'static str, line: u32) -> FrontEndBenchmark {
        FrontEndBenchmark { name: name.into(), file, line, throughput: None, time: None, parity: None, baseline: None }
    }

    /// The registration the harness runs it as. It lives as long as the process, as a
    /// registration `#[compare]` generates does.
    pub(crate) fn registration(self) -> &'static Registration {
        let name: &'static str = Box::leak(self.name.into_boxed_str());
        let against_revision = self.baseline.is_none();
        let baseline: &'static str = self.baseline.map_or(name, |baseline| Box::leak(baseline.into_boxed_str()));
        let settings = AttributeSettings {
            name: Some(name),
            revision: against_revision,
            front_end: true,
            time: self.time,
            parity: self.parity,
            throughput: self.throughput,
            ..AttributeSettings::default()
        };
        Box::leak(Box::new(Registration {
            module_path: "",
            candidate: name,
            baseline,
            baseline_name: baseline,
            batches: Batches::uniform(entered_only),
            settings,
            file: self.file,
            line: self.line,
        }))
    }
}

/// A front-end benchmark's loops exist only where the user's function runs, which a child enters;
/// the harness never calls a front-end's registration's own loops.
fn entered_only(_: u64, _: u64, _: u64, _: Meter) -> u64 {
    unreachable!("a front-end's benchmark is measured only inside the processes that enter it")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::registry::Against;

    #[test]
    fn a_benchmark_is_a_test_against_a_revision_named_as_it_is() {
        let mut benchmark = FrontEndBenchmark::new("group/function/10", "benches/b.rs", 7);
        benchmark.parity = Some(0.05);
        let registration = benchmark.registration();
        assert_eq!(registration.test_name(), "group/function/10");
        assert!(registration.settings.revision && registration.settings.front_end);
        assert_eq!(registration.against(), Against::Revision);
        assert_eq!(registration.settings.parity, Some(0.05));
        assert_eq!((registration.file, registration.line), ("benches/b.rs", 7));
    }

    #[test]
    fn a_benchmark_with_a_baseline_is_a_test_against_that_benchmark() {
        let mut benchmark = FrontEndBenchmark::new("group/new/10", "benches/b.rs", 9);
        benchmark.baseline = Some("group/old/10".to_owned());
        let registration = benchmark.registration();
        assert_eq!(registration.test_name(), "group/new/10");
        assert_eq!(registration.against(), Against::Test("group/old/10"));
        assert_eq!((registration.candidate, registration.baseline), ("group/new/10", "group/old/10"));
        assert!(!registration.settings.revision && registration.settings.front_end);
    }
}
