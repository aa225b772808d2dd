//! A private module: its comparison must be found even though nothing here is public.

const DATA_LEN: usize = 4_096;

#[cfg_attr(not(any(test, feature = "perf")), allow(dead_code))]
fn data() -> [u8; DATA_LEN] {
    std::array::from_fn(|i| (i * 31 % 251) as u8)
}

/// Adler-style checksum, byte at a time.
pub fn checksum(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in bytes {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    (b << 16) | a
}

/// The same checksum, reducing modulo 65521 once per block instead of once per byte.
pub fn checksum_blocked(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for block in bytes.chunks(2_048) {
        for &byte in block {
            a += u32::from(byte);
            b += a;
        }
        a %= 65_521;
        b %= 65_521;
    }
    (b << 16) | a
}

#[cfg(feature = "perf")]
fn checksum_reference() -> u32 {
    checksum(&std::hint::black_box(data()))
}

#[cfg(feature = "perf")]
#[rtcompare::compare(baseline = checksum_reference)]
fn checksum_fast() -> u32 {
    checksum_blocked(&std::hint::black_box(data()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_checksums_agree() {
        let data = super::data();
        assert_eq!(super::checksum(&data), super::checksum_blocked(&data));
    }
}
