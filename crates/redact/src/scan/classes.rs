//! The byte classes the prescan needs, sixteen bytes at a time: one bit per byte for digits,
//! capitals, white space and non-ASCII bytes. Vector compares where the target has them (wasm
//! simd128, which the package is built with, and SSE2 on x86-64); a plain loop elsewhere.
//! One pass of these replaces eight-byte bit tricks that cost ~150 instructions per block.

/// Bit `i` stands for byte `i` of the block.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub(crate) struct Classes {
    pub digit: u16,
    pub upper: u16,
    /// Space, tab and line feed: what separates the prescan's long runs.
    pub seps: u16,
    /// ASCII white space: `seps`, carriage return, vertical tab and form feed.
    pub blank: u16,
    /// Bytes that start a non-ASCII character (two high bits set).
    pub lead: u16,
    /// Every non-ASCII byte.
    pub high: u16,
    /// ASCII letters, either case.
    pub alpha: u16,
    /// `_` and `-`: a word byte and a byte keywords start with ([`super::starts`]).
    pub under: u16,
    pub dash: u16,
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) fn classify(block: &[u8; 16]) -> Classes {
    use core::arch::wasm32::*;
    // SAFETY: reads 16 bytes from a 16-byte array.
    let x = unsafe { v128_load(block.as_ptr().cast()) };
    let between =
        |lo: u8, hi: u8| v128_and(u8x16_ge(x, u8x16_splat(lo)), u8x16_le(x, u8x16_splat(hi)));
    let is = |c: u8| u8x16_eq(x, u8x16_splat(c));
    let seps = v128_or(v128_or(is(b' '), is(b'\n')), is(b'\t'));
    Classes {
        digit: u8x16_bitmask(between(b'0', b'9')),
        upper: u8x16_bitmask(between(b'A', b'Z')),
        seps: u8x16_bitmask(seps),
        blank: u8x16_bitmask(v128_or(seps, v128_or(is(b'\r'), between(0x0b, 0x0c)))),
        lead: u8x16_bitmask(u8x16_ge(x, u8x16_splat(0xc0))),
        high: u8x16_bitmask(x),
        // Setting bit 0x20 lower-cases ASCII capitals and maps no other byte to a letter.
        alpha: u8x16_bitmask(u8x16_le(
            u8x16_sub(v128_or(x, u8x16_splat(0x20)), u8x16_splat(b'a')),
            u8x16_splat(25),
        )),
        under: u8x16_bitmask(is(b'_')),
        dash: u8x16_bitmask(is(b'-')),
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) fn classify(block: &[u8; 16]) -> Classes {
    use core::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86-64; the load reads 16 bytes from a 16-byte array.
    unsafe {
        let x = _mm_loadu_si128(block.as_ptr().cast());
        // Signed compares: bytes from 0x80 up are negative, below every ASCII bound.
        let between = |lo: u8, hi: u8| {
            _mm_and_si128(
                _mm_cmpgt_epi8(x, _mm_set1_epi8(lo as i8 - 1)),
                _mm_cmplt_epi8(x, _mm_set1_epi8(hi as i8 + 1)),
            )
        };
        let is = |c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
        let mask = |v: __m128i| _mm_movemask_epi8(v) as u16;
        let lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
        let seps = _mm_or_si128(_mm_or_si128(is(b' '), is(b'\n')), is(b'\t'));
        // 0xc0..=0xff are -64..=-1.
        let lead = _mm_and_si128(
            _mm_cmpgt_epi8(x, _mm_set1_epi8(-65)),
            _mm_cmplt_epi8(x, _mm_setzero_si128()),
        );
        Classes {
            digit: mask(between(b'0', b'9')),
            upper: mask(between(b'A', b'Z')),
            seps: mask(seps),
            blank: mask(_mm_or_si128(
                seps,
                _mm_or_si128(is(b'\r'), between(0x0b, 0x0c)),
            )),
            lead: mask(lead),
            high: mask(x),
            // Setting bit 0x20 lower-cases ASCII capitals and maps no other byte to a letter.
            alpha: mask(_mm_and_si128(
                _mm_cmpgt_epi8(lower, _mm_set1_epi8(b'a' as i8 - 1)),
                _mm_cmplt_epi8(lower, _mm_set1_epi8(b'z' as i8 + 1)),
            )),
            under: mask(is(b'_')),
            dash: mask(is(b'-')),
        }
    }
}

#[cfg(not(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    target_arch = "x86_64"
)))]
pub(crate) fn classify(block: &[u8; 16]) -> Classes {
    classify_bytes(block)
}

/// Byte by byte: the reference the vector versions are tested against
/// ([`super::byte_classes_agree`]).
pub(crate) fn classify_bytes(block: &[u8; 16]) -> Classes {
    let mut c = Classes::default();
    for (i, &b) in block.iter().enumerate() {
        let bit = 1u16 << i;
        let sep = matches!(b, b' ' | b'\n' | b'\t');
        c.digit |= bit * b.is_ascii_digit() as u16;
        c.upper |= bit * b.is_ascii_uppercase() as u16;
        c.seps |= bit * sep as u16;
        c.blank |= bit * (sep || matches!(b, b'\r' | 0x0b | 0x0c)) as u16;
        c.lead |= bit * (b >= 0xc0) as u16;
        c.high |= bit * (b >= 0x80) as u16;
        c.alpha |= bit * b.is_ascii_alphabetic() as u16;
        c.under |= bit * (b == b'_') as u16;
        c.dash |= bit * (b == b'-') as u16;
    }
    c
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_byte_in_every_lane() {
        assert!(super::super::byte_classes_agree());
    }
}
