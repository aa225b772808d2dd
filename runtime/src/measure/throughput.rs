//! What one call processes, declared by `throughput = bytes(N)` or `elements(N)`, and the rate
//! it gives an arm. A rate is the declared amount over the time per call: a report's figures
//! with another unit, never an input to the verdict (a ratio of times is a ratio of rates).

use rtcompare_judge::measure::{ThroughputUnit, Work};

/// How much one call processes, as the attribute declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    /// A number: `bytes(4096)`.
    Fixed(u64),
    /// The size from `args`: `bytes(arg)`.
    Size,
}

/// `throughput = bytes(N)` or `elements(N)`: what one call of either arm processes.
///
/// ```
/// use rtcompare_runtime::__private::{Amount, Throughput, ThroughputUnit};
/// let declared = Throughput { unit: ThroughputUnit::Elements, amount: Amount::Fixed(64) };
/// assert_eq!(declared.unit.as_str(), "elements");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Throughput {
    /// What is counted.
    pub unit: ThroughputUnit,
    /// How much per call.
    pub amount: Amount,
}

impl Throughput {
    /// The work of one call in a test of size `size` (from `args`); `None` for `bytes(arg)`
    /// without a size, which the attribute rejects at compile time.
    pub(crate) fn per_call(self, size: Option<u64>) -> Option<Work> {
        let amount = match self.amount {
            Amount::Fixed(amount) => amount,
            Amount::Size => size?,
        };
        Some(Work { unit: self.unit, per_call: amount })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_throughput_resolves_its_work_per_call() {
        let declared = Throughput { unit: ThroughputUnit::Bytes, amount: Amount::Size };
        let work = declared.per_call(Some(1024)).unwrap();
        assert_eq!(work.per_second(1_000.0), 1024.0 * 1e6);
        assert_eq!(declared.per_call(None), None);
    }
}
