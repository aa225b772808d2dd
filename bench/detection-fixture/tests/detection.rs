//! The detection benchmark's pairs. Each workload is registered twice, at the default parity
//! (0.04, name suffix `p04`) and at `parity = 0.01` (`p01`); the candidate runs the baseline's
//! iteration count scaled by `1 + k/100`, `k` from `DETECTION_K`. `detection/empty/aa` is an
//! A/A pair of empty functions whose per-op median is the harness's own cost per call.
//!
//! A third registration of each workload, `truth`, has a parity of 0.5: the benchmark measures
//! the true difference with it, and with so wide a tolerance no difference it injects is ever
//! clear enough to end a run early, so every calibration run measures its whole budget.
//!
//! 178 more pairs (`suite`) are registered and never run by the benchmark: they make this a
//! binary of 200 comparisons, so every trial is confirmed at the level of a suite of 200 pairs,
//! `α = min(1 %, 5 % / 200)` a side, as issue 36's targets ask ("in a suite of at least 200
//! registered pairs"; the benchmark reads the count from `--list` and reports the level).

use rtcompare::compare;
use rtcompare_detection_fixture::{
    ALLOC_ROUNDS, CPU_LARGE, CPU_SMALL, Chase, MAP_KEYS, WALK_STEPS, allocate, hash_map, iterations, spin, spread,
};

fn cpu_100ns_base() -> u64 {
    spin(iterations(CPU_SMALL, false))
}

#[compare(baseline = cpu_100ns_base, name = "detection/cpu_100ns/p04")]
fn cpu_100ns() -> u64 {
    spin(iterations(CPU_SMALL, true))
}

#[compare(baseline = cpu_100ns_base, parity = 0.01, name = "detection/cpu_100ns/p01")]
fn cpu_100ns_p01() -> u64 {
    spin(iterations(CPU_SMALL, true))
}

#[compare(baseline = cpu_100ns_base, parity = 0.5, name = "detection/cpu_100ns/truth")]
fn cpu_100ns_truth() -> u64 {
    spin(iterations(CPU_SMALL, true))
}

fn cpu_10us_base() -> u64 {
    spin(iterations(CPU_LARGE, false))
}

#[compare(baseline = cpu_10us_base, name = "detection/cpu_10us/p04")]
fn cpu_10us() -> u64 {
    spin(iterations(CPU_LARGE, true))
}

#[compare(baseline = cpu_10us_base, parity = 0.01, name = "detection/cpu_10us/p01")]
fn cpu_10us_p01() -> u64 {
    spin(iterations(CPU_LARGE, true))
}

#[compare(baseline = cpu_10us_base, parity = 0.5, name = "detection/cpu_10us/truth")]
fn cpu_10us_truth() -> u64 {
    spin(iterations(CPU_LARGE, true))
}

/// The walk buffer, built outside the timer and shared by a whole batch.
fn chase() -> Chase {
    Chase::get()
}

fn memwalk_base(chase: &Chase) -> usize {
    chase.walk(iterations(WALK_STEPS, false))
}

#[compare(baseline = memwalk_base, setup = chase, name = "detection/memwalk_10us/p04")]
fn memwalk(chase: &Chase) -> usize {
    chase.walk(iterations(WALK_STEPS, true))
}

#[compare(baseline = memwalk_base, setup = chase, parity = 0.01, name = "detection/memwalk_10us/p01")]
fn memwalk_p01(chase: &Chase) -> usize {
    chase.walk(iterations(WALK_STEPS, true))
}

#[compare(baseline = memwalk_base, setup = chase, parity = 0.5, name = "detection/memwalk_10us/truth")]
fn memwalk_truth(chase: &Chase) -> usize {
    chase.walk(iterations(WALK_STEPS, true))
}

fn alloc_base() -> usize {
    allocate(iterations(ALLOC_ROUNDS, false))
}

#[compare(baseline = alloc_base, name = "detection/alloc_10us/p04")]
fn alloc() -> usize {
    allocate(iterations(ALLOC_ROUNDS, true))
}

#[compare(baseline = alloc_base, parity = 0.01, name = "detection/alloc_10us/p01")]
fn alloc_p01() -> usize {
    allocate(iterations(ALLOC_ROUNDS, true))
}

#[compare(baseline = alloc_base, parity = 0.5, name = "detection/alloc_10us/truth")]
fn alloc_truth() -> usize {
    allocate(iterations(ALLOC_ROUNDS, true))
}

fn hashmap_base() -> u64 {
    hash_map(iterations(MAP_KEYS, false))
}

#[compare(baseline = hashmap_base, name = "detection/hashmap_10us/p04")]
fn hashmap() -> u64 {
    hash_map(iterations(MAP_KEYS, true))
}

#[compare(baseline = hashmap_base, parity = 0.01, name = "detection/hashmap_10us/p01")]
fn hashmap_p01() -> u64 {
    hash_map(iterations(MAP_KEYS, true))
}

#[compare(baseline = hashmap_base, parity = 0.5, name = "detection/hashmap_10us/truth")]
fn hashmap_truth() -> u64 {
    hash_map(iterations(MAP_KEYS, true))
}

/// The memory walk's buffer after a set-up of about 0.1 s in every process, built outside the
/// timer: a workload whose processes cost more than their share of the budget.
fn costly_chase() -> Chase {
    Chase::costly()
}

fn setupwalk_base(chase: &Chase) -> usize {
    chase.walk(iterations(WALK_STEPS, false))
}

#[compare(baseline = setupwalk_base, setup = costly_chase, name = "detection/setupwalk_10us/p04")]
fn setupwalk(chase: &Chase) -> usize {
    chase.walk(iterations(WALK_STEPS, true))
}

#[compare(baseline = setupwalk_base, setup = costly_chase, parity = 0.01, name = "detection/setupwalk_10us/p01")]
fn setupwalk_p01(chase: &Chase) -> usize {
    chase.walk(iterations(WALK_STEPS, true))
}

#[compare(baseline = setupwalk_base, setup = costly_chase, parity = 0.5, name = "detection/setupwalk_10us/truth")]
fn setupwalk_truth(chase: &Chase) -> usize {
    chase.walk(iterations(WALK_STEPS, true))
}

/// The CPU chain with a per-process factor per arm (`spread`): about a point of spread between
/// processes in the ratio, symmetric, that no single process can see.
fn spread_base() -> u64 {
    spin(spread(iterations(CPU_LARGE, false), 0))
}

#[compare(baseline = spread_base, name = "detection/spread_10us/p04")]
fn spread_cpu() -> u64 {
    spin(spread(iterations(CPU_LARGE, true), 1))
}

#[compare(baseline = spread_base, parity = 0.01, name = "detection/spread_10us/p01")]
fn spread_cpu_p01() -> u64 {
    spin(spread(iterations(CPU_LARGE, true), 1))
}

/// Kept for reading one process's draw by hand: the benchmark takes this workload's truth from
/// the chain's (`cpu_10us`), the median of its processes, which no run of one process sees.
#[compare(baseline = spread_base, parity = 0.5, name = "detection/spread_10us/truth")]
fn spread_cpu_truth() -> u64 {
    spin(spread(iterations(CPU_LARGE, true), 1))
}

fn empty() {}

#[compare(baseline = empty, name = "detection/empty/aa")]
fn empty_again() {}

/// The suite's shared baseline: a short chain, identical to every candidate below.
fn suite_base() -> u64 {
    spin(iterations(CPU_SMALL, false))
}

/// Registers one identical-code pair per name: the candidate runs exactly the baseline's work.
macro_rules! suite {
    ($($name:ident)*) => {
        $(
            #[compare(baseline = suite_base)]
            fn $name() -> u64 {
                spin(iterations(CPU_SMALL, false))
            }
        )*
    };
}

suite! {
    suite_001 suite_002 suite_003 suite_004 suite_005 suite_006 suite_007 suite_008 suite_009 suite_010
    suite_011 suite_012 suite_013 suite_014 suite_015 suite_016 suite_017 suite_018 suite_019 suite_020
    suite_021 suite_022 suite_023 suite_024 suite_025 suite_026 suite_027 suite_028 suite_029 suite_030
    suite_031 suite_032 suite_033 suite_034 suite_035 suite_036 suite_037 suite_038 suite_039 suite_040
    suite_041 suite_042 suite_043 suite_044 suite_045 suite_046 suite_047 suite_048 suite_049 suite_050
    suite_051 suite_052 suite_053 suite_054 suite_055 suite_056 suite_057 suite_058 suite_059 suite_060
    suite_061 suite_062 suite_063 suite_064 suite_065 suite_066 suite_067 suite_068 suite_069 suite_070
    suite_071 suite_072 suite_073 suite_074 suite_075 suite_076 suite_077 suite_078 suite_079 suite_080
    suite_081 suite_082 suite_083 suite_084 suite_085 suite_086 suite_087 suite_088 suite_089 suite_090
    suite_091 suite_092 suite_093 suite_094 suite_095 suite_096 suite_097 suite_098 suite_099 suite_100
    suite_101 suite_102 suite_103 suite_104 suite_105 suite_106 suite_107 suite_108 suite_109 suite_110
    suite_111 suite_112 suite_113 suite_114 suite_115 suite_116 suite_117 suite_118 suite_119 suite_120
    suite_121 suite_122 suite_123 suite_124 suite_125 suite_126 suite_127 suite_128 suite_129 suite_130
    suite_131 suite_132 suite_133 suite_134 suite_135 suite_136 suite_137 suite_138 suite_139 suite_140
    suite_141 suite_142 suite_143 suite_144 suite_145 suite_146 suite_147 suite_148 suite_149 suite_150
    suite_151 suite_152 suite_153 suite_154 suite_155 suite_156 suite_157 suite_158 suite_159 suite_160
    suite_161 suite_162 suite_163 suite_164 suite_165 suite_166 suite_167 suite_168 suite_169 suite_170
    suite_171 suite_172 suite_173 suite_174 suite_175 suite_176 suite_177 suite_178
}

rtcompare::main!();
