//! memchr's searches on 64 KiB of lowercase text, against a baseline revision.
use rtcompare::{Dprng, compare};
use std::hint::black_box;

fn text(rng: &mut Dprng) -> Vec<u8> {
    (0..64 * 1024).map(|_| b'a' + (rng.u64() % 25) as u8).collect()
}

#[compare(setup = text)]
fn memchr_absent(haystack: &Vec<u8>) -> Option<usize> {
    memchr::memchr(b'z', black_box(haystack))
}

#[compare(setup = text)]
fn memrchr_absent(haystack: &Vec<u8>) -> Option<usize> {
    memchr::memrchr(b'z', black_box(haystack))
}

#[compare(setup = text)]
fn memchr3_absent(haystack: &Vec<u8>) -> Option<usize> {
    memchr::memchr3(b'z', b'Z', b'0', black_box(haystack))
}

#[compare(setup = text)]
fn memmem_absent(haystack: &Vec<u8>) -> Option<usize> {
    memchr::memmem::find(black_box(haystack), b"zebra")
}

#[compare(setup = text)]
fn count_e(haystack: &Vec<u8>) -> usize {
    memchr::memchr_iter(b'e', black_box(haystack)).count()
}

rtcompare::main!();
