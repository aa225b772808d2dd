//! Workloads for the detection benchmark (`bench/detection`), shared by its rtcompare fixture
//! (`tests/detection.rs`) and by the criterion side-by-side crate (`bench/criterion-compare`).
//!
//! Every workload takes an iteration count and costs time proportional to it. The injected
//! difference is exact and chosen at run time: a candidate runs [`iterations`]`(n, true)`, which
//! is `n` scaled by `1 + k/100` with `k` read once from `DETECTION_K`, while its baseline runs
//! [`iterations`]`(n, false)` = `n` through the same code. The same binary therefore serves
//! every `k` without a rebuild, and at `k = 0` the pair is identical code (an A/A comparison).

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The environment variable holding the injected difference in percent (an integer, may be
/// negative, above −100).
pub const K_VARIABLE: &str = "DETECTION_K";

/// Iterations of the ~100 ns CPU-bound loop at `k = 0` (a multiple of 100, so every integer
/// `k` scales it exactly).
pub const CPU_SMALL: u64 = 100;
/// Iterations of the ~10 µs CPU-bound loop.
pub const CPU_LARGE: u64 = 8_400;
/// Steps of the ~10 µs pointer chase.
pub const WALK_STEPS: u64 = 200;
/// Rounds of small allocations in the ~10 µs allocation workload.
pub const ALLOC_ROUNDS: u64 = 600;
/// Keys built and queried in the ~10 µs `HashMap` workload.
pub const MAP_KEYS: u64 = 400;

/// Capacity of the `HashMap` workload's map, the same at every k: with the map sized to its keys,
/// a larger k would also raise the load factor and with it the cost of every probe (seen: k = 10
/// costing 30 % more), so the injected difference would no longer be the one applied.
pub const MAP_CAPACITY: usize = 1_024;

/// Entries of the table the set-up workload shuffles before its first call: a full Sattolo
/// shuffle of 3 Mi entries costs about 0.1 s, what a benchmark that loads or builds its data pays
/// in every process.
pub const SETUP_ENTRIES: usize = 3 << 20;

/// The standard deviation of an arm's per-process factor in the spread workload: each process
/// draws one factor per arm, so the ratio of the arms varies by about √2 × 0.7 % ≈ 1 point from
/// process to process, as a hash seed or a layout that moves each arm on its own does.
pub const ARM_SPREAD: f64 = 0.007;

/// Entries of the pointer-chasing buffer: 8 Mi `u32` = 32 MiB, 64× a core's 512 KiB L2 and as
/// large as the whole L3 of the machine the figures come from.
pub const WALK_LEN: usize = 8 << 20;

/// `u32` entries per 64-byte cache line: the walk visits one entry per line.
pub const LINE_ENTRIES: usize = 16;

/// Parses a value of [`K_VARIABLE`]; `None` when it is unset.
///
/// # Errors
/// A message naming the variable when the value is not an integer above −100.
pub fn parse_k(value: Option<&str>) -> Result<i64, String> {
    let Some(text) = value else { return Ok(0) };
    match text.trim().parse::<i64>() {
        Ok(k) if k > -100 => Ok(k),
        _ => Err(format!("{K_VARIABLE}={text:?} is not an integer above -100 (example: {K_VARIABLE}=-5)")),
    }
}

/// The injected difference in percent, read once per process from [`K_VARIABLE`] (0 when unset).
/// A malformed value stops the process with a message: measuring with a wrong `k` would publish
/// wrong figures.
pub fn k() -> i64 {
    static K: OnceLock<i64> = OnceLock::new();
    *K.get_or_init(|| {
        let value = std::env::var(K_VARIABLE).ok();
        parse_k(value.as_deref()).unwrap_or_else(|message| {
            eprintln!("{message}");
            std::process::exit(2)
        })
    })
}

/// `n` scaled by `1 + k/100` when `scaled`, else `n`. Both arms run the same instructions: both
/// read `k` (a baseline that skipped the read ran measurably faster at ~100 ns, −0.6 % to −1 %
/// in an "A/A" pair) and the flag, through `black_box`, only decides whether it is applied.
pub fn iterations(n: u64, scaled: bool) -> u64 {
    let k = k() * i64::from(black_box(scaled));
    scale(n, k)
}

/// `n · (100 + k) / 100`, exact when `n` is a multiple of 100.
pub fn scale(n: u64, k: i64) -> u64 {
    let scaled = i128::from(n) * i128::from(100 + k) / 100;
    u64::try_from(scaled.max(0)).unwrap_or(u64::MAX)
}

/// A dependent chain of `rounds` multiply-xorshift steps: linear in `rounds`, and neither
/// vectorisable nor foldable.
pub fn spin(rounds: u64) -> u64 {
    let mut state = black_box(0x9E37_79B9_7F4A_7C15_u64);
    for _ in 0..rounds {
        state ^= state >> 29;
        state = state.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    }
    state
}

/// The pointer-chasing buffer: one random cycle through all its cache lines, built once per
/// process. The first entry of each 64-byte line holds the index of the next line's first
/// entry, so every step of a walk lands on an unpredictable line that has not been touched for
/// a lap of the whole buffer.
///
/// A cycle over lines rather than over all 8 Mi entries: it touches the memory the same way,
/// and builds in a few tens of milliseconds instead of ~0.36 s, which every fresh process paid
/// and the detection benchmark charged to the verdict's wall time.
pub fn walk_buffer() -> &'static [u32] {
    static BUFFER: OnceLock<Vec<u32>> = OnceLock::new();
    BUFFER.get_or_init(|| line_cycle(WALK_LEN, 0x2545_F491_4F6C_DD1D))
}

/// A buffer of `len` entries whose line starts (every [`LINE_ENTRIES`]th entry) link into one
/// random cycle over all of them.
pub fn line_cycle(len: usize, seed: u64) -> Vec<u32> {
    let lines = sattolo_cycle(len / LINE_ENTRIES, seed);
    let mut buffer = vec![0u32; len];
    for (line, &next) in lines.iter().enumerate() {
        buffer[line * LINE_ENTRIES] = next * LINE_ENTRIES as u32;
    }
    buffer
}

/// A single cycle over `0..len` as a successor table, from a fixed xorshift seed (the layout is
/// the same in every process).
pub fn sattolo_cycle(len: usize, seed: u64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..len).map(|i| u32::try_from(i).unwrap_or(u32::MAX)).collect();
    let mut state = seed | 1;
    for i in (1..len).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // Sattolo: j < i (strictly), which makes one cycle instead of any permutation.
        let j = usize::try_from(state % i as u64).unwrap_or(0);
        order.swap(i, j);
    }
    let mut next = vec![0u32; len];
    for w in 0..len {
        next[order[w] as usize] = order[(w + 1) % len];
    }
    next
}

/// The set-up workload's walk buffer: the memory walk's own, built after a full shuffle of
/// [`SETUP_ENTRIES`] entries that stands for loading data. The walk reads only the buffer, so
/// the measured calls are the memory walk's; what differs is what each process pays before its
/// first call (about 0.1 s more).
pub fn costly_walk_buffer() -> &'static [u32] {
    static BUFFER: OnceLock<Vec<u32>> = OnceLock::new();
    BUFFER.get_or_init(|| {
        black_box(sattolo_cycle(SETUP_ENTRIES, 0x9E37_79B9_7F4A_7C15));
        line_cycle(WALK_LEN, 0x2545_F491_4F6C_DD1D)
    })
}

/// `n` scaled by this process's factor for `arm` (`1 + ARM_SPREAD · z`, `z` a standard normal
/// drawn once per process and arm from the process's random hash keys): the spread workload's
/// per-process effect, symmetric, shared by an arm and its twin, and independent between the
/// arms.
pub fn spread(n: u64, arm: u64) -> u64 {
    static FACTORS: OnceLock<[f64; 2]> = OnceLock::new();
    let factors = FACTORS.get_or_init(|| {
        use std::hash::BuildHasher;
        let keys = std::collections::hash_map::RandomState::new();
        let uniform = |salt: u64| (keys.hash_one(salt) >> 11) as f64 / (1u64 << 53) as f64;
        let normal = |salt: u64| {
            // Box–Muller from two uniforms in (0, 1].
            let (u, v) = (1.0 - uniform(2 * salt), uniform(2 * salt + 1));
            (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        [1.0 + ARM_SPREAD * normal(0), 1.0 + ARM_SPREAD * normal(1)]
    });
    let factor = factors[usize::from(black_box(arm) != 0)];
    (n as f64 * factor).round() as u64
}

/// The walk buffer as an input: `setup` hands it to the measured functions so the first call
/// does not build it inside the timer (building 32 MiB made calibration think the first arm
/// cost 100 ms a call).
#[derive(Debug, Clone, Copy)]
pub struct Chase(&'static [u32]);

impl Chase {
    /// The process's buffer, built on first use.
    pub fn get() -> Chase {
        Chase(walk_buffer())
    }

    /// The set-up workload's buffer ([`costly_walk_buffer`]), built on first use.
    pub fn costly() -> Chase {
        Chase(costly_walk_buffer())
    }

    /// Follows `steps` links from where the previous walk (of any arm) stopped.
    ///
    /// One cursor for the whole process, rather than a start per call drawn by `setup`:
    /// rtcompare gives all four loops of a round the same inputs, so the second loop to walk
    /// from the same starts would find those lines in L2, and the arms' order within a round
    /// would decide their cost. Continuing one long cycle reaches lines not touched for a lap of
    /// the whole 32 MiB instead.
    pub fn walk(&self, steps: u64) -> usize {
        static CURSOR: AtomicUsize = AtomicUsize::new(0);
        // A line start, whatever the cursor holds.
        let mut at = CURSOR.load(Ordering::Relaxed) % self.0.len() / LINE_ENTRIES * LINE_ENTRIES;
        for _ in 0..steps {
            at = self.0[at] as usize;
        }
        CURSOR.store(at, Ordering::Relaxed);
        at
    }
}

/// `rounds` rounds of small allocations: a `String` and a `Vec` built and dropped each round.
pub fn allocate(rounds: u64) -> usize {
    let mut total = 0;
    for i in 0..rounds {
        let mut text = String::with_capacity(16);
        text.push_str("rtcompare");
        text.push(char::from(b'a' + (i % 26) as u8));
        let mut numbers: Vec<u64> = Vec::with_capacity(4);
        numbers.extend([i, i + 1, i + 2]);
        total += black_box(&text).len() + black_box(&numbers).len();
    }
    total
}

/// Builds a `HashMap` of `keys` entries with the default (per-process random) hasher, then
/// queries every key and as many absent ones. The capacity is fixed ([`MAP_CAPACITY`]) so the
/// cost per key does not depend on how many keys there are.
pub fn hash_map(keys: u64) -> u64 {
    let mut map = HashMap::with_capacity(MAP_CAPACITY);
    for key in 0..keys {
        map.insert(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), key);
    }
    let mut found = 0;
    for key in 0..2 * keys {
        if let Some(value) = map.get(&black_box(key.wrapping_mul(0x9E37_79B9_7F4A_7C15))) {
            found += value;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_parses_and_rejects() {
        assert_eq!(parse_k(None), Ok(0));
        assert_eq!(parse_k(Some("-5")), Ok(-5));
        assert_eq!(parse_k(Some(" 20 ")), Ok(20));
        assert!(parse_k(Some("-100")).is_err());
        assert!(parse_k(Some("2.5")).is_err());
    }

    #[test]
    fn scaling_is_exact_on_multiples_of_100() {
        assert_eq!(scale(6_000, 1), 6_060);
        assert_eq!(scale(6_000, -20), 4_800);
        assert_eq!(scale(100, 2), 102);
        assert_eq!(scale(300, 0), 300);
    }

    #[test]
    fn sattolo_makes_one_cycle() {
        let next = sattolo_cycle(1_000, 7);
        let (mut at, mut steps) = (0usize, 0);
        loop {
            at = next[at] as usize;
            steps += 1;
            if at == 0 {
                break;
            }
        }
        assert_eq!(steps, 1_000);
    }

    #[test]
    fn the_walk_visits_every_line_once_per_lap() {
        let buffer = line_cycle(64 * LINE_ENTRIES, 7);
        let mut seen = [false; 64];
        let mut at = 0usize;
        for _ in 0..64 {
            at = buffer[at] as usize;
            assert_eq!(at % LINE_ENTRIES, 0, "links point at line starts");
            assert!(!seen[at / LINE_ENTRIES], "line {} visited twice in a lap", at / LINE_ENTRIES);
            seen[at / LINE_ENTRIES] = true;
        }
        assert_eq!(at, 0, "one lap returns to the start");
    }

    #[test]
    fn workloads_do_their_work() {
        assert_eq!(allocate(10), 10 * (10 + 3));
        assert_eq!(hash_map(10), (0..10).sum());
        assert_ne!(spin(10), spin(11));
    }
}
