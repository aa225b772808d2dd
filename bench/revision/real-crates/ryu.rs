//! ryu's shortest round-trip formatting of floats, against a baseline revision.
use rtcompare::compare;
use std::hint::black_box;

#[compare]
fn format_f64_short() -> usize {
    let mut buffer = ryu::Buffer::new();
    black_box(buffer.format(black_box(0.3_f64))).len()
}

#[compare]
fn format_f64_long() -> usize {
    let mut buffer = ryu::Buffer::new();
    black_box(buffer.format(black_box(1.234_567_890_123_456_7e-300_f64))).len()
}

#[compare]
fn format_f32() -> usize {
    let mut buffer = ryu::Buffer::new();
    black_box(buffer.format(black_box(3.402_823_5e38_f32))).len()
}

rtcompare::main!();
