//! rtcompare's own showcase: comparisons a Rust engineer meets every week, each with an answer
//! worth knowing. Run with `cargo test --release --test perf`.
//!
//! | pair | expected |
//! | --- | --- |
//! | binary search vs linear scan of 4,096 sorted keys | win (`expect = "win"`) |
//! | sort + dedup of a copy vs collecting into a `BTreeSet` (2,000 values, 500 distinct) | win |
//! | `String` with `write!` into one buffer vs `format!` + `join` | win |
//! | `HashMap` with a multiply-shift hasher vs the default SipHash | win |
//! | `iter().sum()` vs an index loop over the same slice | parity |

use rtcompare::compare;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;
use std::hash::{BuildHasherDefault, Hasher};
use std::hint::black_box;
use std::sync::OnceLock;

/// 4,096 sorted keys from a fixed pseudo-random sequence, built once outside every timed batch.
fn sorted_keys() -> &'static [u32] {
    static KEYS: OnceLock<Vec<u32>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys: Vec<u32> = pseudo_random(4_096).collect();
        keys.sort_unstable();
        keys
    })
}

/// A fixed xorshift sequence: the same input on every run.
fn pseudo_random(count: usize) -> impl Iterator<Item = u32> {
    let mut state = 0x2545_F491_u32;
    std::iter::repeat_with(move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    })
    .take(count)
}

// --- search: 64 look-ups per call --------------------------------------------------------------

fn probes() -> impl Iterator<Item = u32> {
    sorted_keys().iter().step_by(64).copied()
}

fn linear_search() -> usize {
    let keys = black_box(sorted_keys());
    probes().map(|probe| keys.iter().position(|&k| k == probe).unwrap_or(usize::MAX)).sum()
}

#[compare(baseline = linear_search, expect = "win", thresholds = [0.5, 0.9])]
fn binary_search() -> usize {
    let keys = black_box(sorted_keys());
    probes().map(|probe| keys.binary_search(&probe).unwrap_or(usize::MAX)).sum()
}

// --- distinct values: sort and dedup a copy vs collect into a BTreeSet ------------------------

fn shuffled() -> &'static [u32] {
    static INPUT: OnceLock<Vec<u32>> = OnceLock::new();
    INPUT.get_or_init(|| pseudo_random(2_000).map(|x| x % 500).collect())
}

fn distinct_by_btree_set() -> usize {
    black_box(shuffled()).iter().copied().collect::<BTreeSet<u32>>().len()
}

#[compare(baseline = distinct_by_btree_set)]
fn distinct_by_sort_dedup() -> usize {
    let mut v = black_box(shuffled()).to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

// --- string building -----------------------------------------------------------------------------

fn join_with_format() -> String {
    (0..black_box(256u32)).map(|i| format!("{i}")).collect::<Vec<_>>().join(",")
}

#[compare(baseline = join_with_format)]
fn join_with_write() -> String {
    let n = black_box(256u32);
    let mut out = String::with_capacity(n as usize * 4);
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{i}");
    }
    out
}

// --- hashing: building and querying a map of 1,024 integer keys ----------------------------------

/// A multiply-shift hasher for integer keys (the idea behind FxHash): no protection against
/// adversarial keys, far less work per key than SipHash.
#[derive(Default)]
struct MultiplyShift(u64);

impl Hasher for MultiplyShift {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

fn count_keys<S: std::hash::BuildHasher + Default>() -> usize {
    let keys = black_box(sorted_keys());
    let mut map: HashMap<u32, u32, S> = HashMap::with_capacity_and_hasher(1_024, S::default());
    for &k in &keys[..1_024] {
        *map.entry(k).or_default() += 1;
    }
    keys.iter().filter(|k| map.contains_key(k)).count()
}

fn sip_hash_map() -> usize {
    count_keys::<std::collections::hash_map::RandomState>()
}

#[compare(baseline = sip_hash_map)]
fn multiply_shift_map() -> usize {
    count_keys::<BuildHasherDefault<MultiplyShift>>()
}

// --- parity: two spellings the optimiser turns into the same loop --------------------------------

#[allow(clippy::needless_range_loop)] // the index loop is the point of the comparison
fn sum_by_index() -> u64 {
    let keys = black_box(sorted_keys());
    let mut total = 0u64;
    for i in 0..keys.len() {
        total += u64::from(keys[i]);
    }
    total
}

#[compare(baseline = sum_by_index)]
fn sum_by_iterator() -> u64 {
    black_box(sorted_keys()).iter().map(|&k| u64::from(k)).sum()
}

rtcompare::main!();
