//! Callgrind's client requests, issued without a crate: valgrind recognises a fixed instruction
//! sequence that does nothing on a real CPU, reads the request from the block `rax` points to
//! and leaves its answer in `rdx`. The sequence and the request numbers are a stable ABI, defined
//! in `valgrind/valgrind.h` (the amd64 sequence, `RUNNING_ON_VALGRIND`) and
//! `valgrind/callgrind.h` (the tool's requests); valgrind 3.19's headers were read for these.
//!
//! On x86-64 Linux the requests are real; elsewhere every request is a no-op that answers "not
//! under valgrind", so the crate builds and runs everywhere and counting is simply unavailable.

use std::ffi::CStr;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Valgrind's core request "how many valgrinds am I running under?" (`0x1001`).
const RUNNING_ON_VALGRIND: u64 = 0x1001;

/// The first number of callgrind's own requests: `'C' << 24 | 'T' << 16`.
const CALLGRIND_BASE: u64 = (b'C' as u64) << 24 | (b'T' as u64) << 16;

/// Callgrind's requests, in the order of `Vg_CallgrindClientRequest` (`DUMP_STATS` is the base).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
enum Callgrind {
    ZeroStats = CALLGRIND_BASE + 1,
    ToggleCollect = CALLGRIND_BASE + 2,
    DumpStatsAt = CALLGRIND_BASE + 3,
    StartInstrumentation = CALLGRIND_BASE + 4,
    StopInstrumentation = CALLGRIND_BASE + 5,
}

/// How many valgrinds this process runs under: 0 natively (and on every platform without the
/// sequence), 1 under valgrind.
pub(crate) fn running_on_valgrind() -> u64 {
    request(0, RUNNING_ON_VALGRIND, 0)
}

/// Sets every cost counter to zero, so the next dump holds only what follows.
pub(crate) fn zero_stats() {
    request(0, Callgrind::ZeroStats as u64, 0);
}

/// Switches event collection on if it was off, off if it was on. Under
/// `--collect-atstart=no` the first toggle starts counting.
pub(crate) fn toggle_collect() {
    request(0, Callgrind::ToggleCollect as u64, 0);
}

/// How many metered regions are open: collection is on while at least one is, so that a batch
/// run on several threads (`threads = N`), each opening and closing its own region, switches it
/// on once and off once.
static OPEN_REGIONS: AtomicUsize = AtomicUsize::new(0);

/// Opens a counted region: the first one open switches collection on. Out of line and cold, so
/// that the timed loops the meter serves carry no more than a call to it.
#[cold]
#[inline(never)]
pub(crate) fn collect_on() {
    if OPEN_REGIONS.fetch_add(1, Ordering::SeqCst) == 0 {
        toggle_collect();
    }
}

/// Closes a counted region: the last one closed switches collection off.
#[cold]
#[inline(never)]
pub(crate) fn collect_off() {
    if OPEN_REGIONS.fetch_sub(1, Ordering::SeqCst) == 1 {
        toggle_collect();
    }
}

/// Closes every counted region still open (a batch that panicked inside one), switching
/// collection off if it was on.
pub(crate) fn close_regions() {
    if OPEN_REGIONS.swap(0, Ordering::SeqCst) > 0 {
        toggle_collect();
    }
}

/// Writes the costs collected so far to a new dump file whose `desc: Trigger:` line ends with
/// `label`, then zeroes them.
pub(crate) fn dump_stats_at(label: &CStr) {
    request(0, Callgrind::DumpStatsAt as u64, label.as_ptr() as u64);
}

/// Switches full instrumentation on (valgrind then simulates every instruction); a no-op if it
/// is on already.
pub(crate) fn start_instrumentation() {
    request(0, Callgrind::StartInstrumentation as u64, 0);
}

/// Switches instrumentation off, so the code that follows runs at valgrind's fastest speed
/// and is not counted.
pub(crate) fn stop_instrumentation() {
    request(0, Callgrind::StopInstrumentation as u64, 0);
}

/// Issues `number` with one argument (the others are zero) and returns valgrind's answer, or
/// `default` when not under valgrind.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn request(default: u64, number: u64, argument: u64) -> u64 {
    let block: [u64; 6] = [number, argument, 0, 0, 0, 0];
    let answer: u64;
    // SAFETY: on a real CPU the sequence only rotates `rdi` by 3 + 13 + 61 + 51 = 128 bits (two
    // full turns, so it keeps its value) and exchanges `rbx` with itself (which asm! may name in
    // the template as long as it keeps its value): no register or memory changes but the flags,
    // which asm! assumes clobbered unless told otherwise, and `rdx`, which is declared as the
    // output and starts as `default`. Valgrind recognises the sequence and
    // instead reads the six words `rax` points to (`block`, alive until the asm ends) and writes
    // its answer to `rdx`; a request may read memory an argument points to (`DUMP_STATS_AT`'s
    // label, a valid NUL-terminated string), so the asm is not `nomem`. It touches no stack.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") block.as_ptr(),
            inout("rdx") default => answer,
            options(nostack),
        );
    }
    answer
}

/// Where the sequence is not known, no request reaches valgrind: every answer is `default`.
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn request(default: u64, number: u64, argument: u64) -> u64 {
    no_request(default, number, argument)
}

/// What every request is on a platform without the sequence. Compiled on every platform, so the
/// fallback is type-checked and tested where the real requests are built too.
#[cfg_attr(all(target_arch = "x86_64", target_os = "linux"), allow(dead_code))]
fn no_request(default: u64, _number: u64, _argument: u64) -> u64 {
    default
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_numbers_are_those_of_callgrind_h() {
        // VG_USERREQ_TOOL_BASE('C','T') = 0x43540000, then DUMP_STATS, ZERO_STATS, TOGGLE_COLLECT,
        // DUMP_STATS_AT, START_INSTRUMENTATION, STOP_INSTRUMENTATION in that order.
        assert_eq!(CALLGRIND_BASE, 0x4354_0000);
        assert_eq!(Callgrind::ZeroStats as u64, 0x4354_0001);
        assert_eq!(Callgrind::ToggleCollect as u64, 0x4354_0002);
        assert_eq!(Callgrind::DumpStatsAt as u64, 0x4354_0003);
        assert_eq!(Callgrind::StartInstrumentation as u64, 0x4354_0004);
        assert_eq!(Callgrind::StopInstrumentation as u64, 0x4354_0005);
    }

    #[test]
    fn natively_every_request_is_harmless_and_answers_not_under_valgrind() {
        let kept = std::hint::black_box(0x0123_4567_89ab_cdef_u64);
        zero_stats();
        toggle_collect();
        toggle_collect();
        dump_stats_at(c"native");
        collect_on();
        collect_off();
        collect_on();
        close_regions();
        start_instrumentation();
        stop_instrumentation();
        assert_eq!(running_on_valgrind(), 0);
        assert_eq!(OPEN_REGIONS.load(Ordering::SeqCst), 0, "every region closed");
        assert_eq!(std::hint::black_box(kept), 0x0123_4567_89ab_cdef);
        assert_eq!(no_request(7, Callgrind::ZeroStats as u64, 0), 7, "the fallback answers the default");
    }
}
