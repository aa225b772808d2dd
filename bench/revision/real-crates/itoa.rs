//! itoa's integer formatting, against a baseline revision.
use rtcompare::compare;
use std::hint::black_box;

#[compare]
fn format_u64() -> usize {
    let mut buffer = itoa::Buffer::new();
    black_box(buffer.format(black_box(18_446_744_073_709_551_u64))).len()
}

#[compare]
fn format_i32() -> usize {
    let mut buffer = itoa::Buffer::new();
    black_box(buffer.format(black_box(-2_147_483_i32))).len()
}

#[compare]
fn format_u128() -> usize {
    let mut buffer = itoa::Buffer::new();
    black_box(buffer.format(black_box(340_282_366_920_938_463_463_374_607_431_768_211_455_u128))).len()
}

rtcompare::main!();
