//! The integer core of the 4-bit matrix products: activations rounded to i16 with one scale per
//! 32 values of a row, weights unpacked from nibbles to i16 once per 8-column panel, and products summed in i32
//! by pairs (`i32x4_dot_i16x8` in wasm simd128, `pmaddwd` on x86: 8 multiply-adds per
//! instruction, twice the f32 rate at half the instructions). Each 32-value block's i32 sums are
//! exact; they are scaled by the block's f32 weight scales and summed in f32, then by the row's
//! scale. Rounding the activations to 16 bits changes a product by about 2⁻¹⁶ of the row's
//! largest value times the weights' magnitude, far below what the 4-bit weights already change.
//!
//! The integer lanes exist twice: `native` (wasm simd128 / SSE2, the build's path) and
//! `portable` (plain arrays: other targets, and the tests' reference for the native lanes).

use super::simd::F32x4;

/// Values per quantization block.
pub const BLOCK: usize = 32;
/// Columns of a panel.
pub const NR: usize = 8;
/// i16 weights of one panel per block: 16 pairs of inputs × 8 columns.
pub const PANEL_BLOCK: usize = BLOCK * NR;

/// Plain-array integer lanes: the reference the native lanes are tested against, and the code
/// on targets with neither wasm simd128 nor SSE2.
#[cfg_attr(any(target_arch = "wasm32", target_arch = "x86_64"), allow(dead_code))]
pub mod portable {
    #[derive(Clone, Copy)]
    pub struct I16x8([i16; 8]);
    #[derive(Clone, Copy)]
    pub struct I32x4([i32; 4]);

    impl I16x8 {
        #[inline(always)]
        pub fn load(s: &[i16]) -> Self {
            I16x8(s[..8].try_into().expect("8 lanes"))
        }

        /// Two i16 values (packed little-endian in `pair`) repeated four times.
        #[inline(always)]
        pub fn splat_pair(pair: u32) -> Self {
            let (lo, hi) = (pair as u16 as i16, (pair >> 16) as u16 as i16);
            I16x8(std::array::from_fn(|i| if i % 2 == 0 { lo } else { hi }))
        }

        /// Lane `i` of the result: `a[2i]·b[2i] + a[2i+1]·b[2i+1]`.
        #[inline(always)]
        pub fn dot_pairs(self, b: Self) -> I32x4 {
            I32x4(std::array::from_fn(|i| {
                self.0[2 * i] as i32 * b.0[2 * i] as i32
                    + self.0[2 * i + 1] as i32 * b.0[2 * i + 1] as i32
            }))
        }
    }

    impl I32x4 {
        #[inline(always)]
        pub fn zero() -> Self {
            I32x4([0; 4])
        }

        #[inline(always)]
        pub fn add(self, o: Self) -> Self {
            I32x4(std::array::from_fn(|i| self.0[i].wrapping_add(o.0[i])))
        }

        #[inline(always)]
        pub fn to_f32(self) -> super::F32x4 {
            super::F32x4::load(&self.0.map(|v| v as f32))
        }
    }

    /// Eight values times `inv`, rounded to the nearest i16 (ties to even, saturating), as four
    /// little-endian pairs.
    #[inline(always)]
    pub fn round_pairs(x: &[f32], inv: f32, out: &mut [u32]) {
        let q = |v: f32| (v * inv).round_ties_even().clamp(-32768.0, 32767.0) as i16 as u16 as u32;
        for (o, p) in out[..4].iter_mut().zip(x[..8].chunks_exact(2)) {
            *o = q(p[0]) | (q(p[1]) << 16);
        }
    }

    /// The 32 nibbles of 16 bytes minus 8, as i16: low nibbles of bytes 0..16, then high ones.
    #[inline(always)]
    pub fn unpack_nibbles(bytes: &[u8], out: &mut [i16]) {
        let (bytes, out) = (&bytes[..16], &mut out[..32]);
        for (i, &b) in bytes.iter().enumerate() {
            out[i] = (b & 15) as i16 - 8;
            out[16 + i] = (b >> 4) as i16 - 8;
        }
    }
}

/// The build's integer lanes: wasm simd128 or SSE2.
#[cfg(any(target_arch = "wasm32", target_arch = "x86_64"))]
pub mod native {
    #[cfg(target_arch = "wasm32")]
    use core::arch::wasm32 as arch;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64 as arch;

    #[cfg(target_arch = "wasm32")]
    type V = arch::v128;
    #[cfg(target_arch = "x86_64")]
    type V = arch::__m128i;

    #[derive(Clone, Copy)]
    pub struct I16x8(V);
    #[derive(Clone, Copy)]
    pub struct I32x4(V);

    impl I16x8 {
        #[inline(always)]
        pub fn load(s: &[i16]) -> Self {
            let s = &s[..8];
            // SAFETY: `s` has 8 i16s (16 bytes); neither load requires alignment.
            #[cfg(target_arch = "wasm32")]
            return I16x8(unsafe { arch::v128_load(s.as_ptr() as *const V) });
            #[cfg(target_arch = "x86_64")]
            return I16x8(unsafe { arch::_mm_loadu_si128(s.as_ptr() as *const V) });
        }

        #[inline(always)]
        pub fn splat_pair(pair: u32) -> Self {
            #[cfg(target_arch = "wasm32")]
            return I16x8(arch::u32x4_splat(pair));
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86_64 baseline.
            return I16x8(unsafe { arch::_mm_set1_epi32(pair as i32) });
        }

        #[inline(always)]
        pub fn dot_pairs(self, b: Self) -> I32x4 {
            #[cfg(target_arch = "wasm32")]
            return I32x4(arch::i32x4_dot_i16x8(self.0, b.0));
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86_64 baseline.
            return I32x4(unsafe { arch::_mm_madd_epi16(self.0, b.0) });
        }
    }

    impl I32x4 {
        #[inline(always)]
        pub fn zero() -> Self {
            #[cfg(target_arch = "wasm32")]
            return I32x4(arch::i32x4_splat(0));
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86_64 baseline.
            return I32x4(unsafe { arch::_mm_setzero_si128() });
        }

        #[inline(always)]
        pub fn add(self, o: Self) -> Self {
            #[cfg(target_arch = "wasm32")]
            return I32x4(arch::i32x4_add(self.0, o.0));
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86_64 baseline.
            return I32x4(unsafe { arch::_mm_add_epi32(self.0, o.0) });
        }

        #[inline(always)]
        pub fn to_f32(self) -> super::F32x4 {
            let mut lanes = [0f32; 4];
            #[cfg(target_arch = "wasm32")]
            // SAFETY: `lanes` has room for 16 bytes; v128_store requires no alignment.
            unsafe {
                arch::v128_store(
                    lanes.as_mut_ptr() as *mut V,
                    arch::f32x4_convert_i32x4(self.0),
                )
            };
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 baseline; `lanes` has room for four f32s.
            unsafe {
                arch::_mm_storeu_ps(lanes.as_mut_ptr(), arch::_mm_cvtepi32_ps(self.0))
            };
            super::F32x4::load(&lanes)
        }
    }

    #[inline(always)]
    pub fn round_pairs(x: &[f32], inv: f32, out: &mut [u32]) {
        let (x, out) = (&x[..8], &mut out[..4]);
        #[cfg(target_arch = "wasm32")]
        // SAFETY: 32 bytes read, 16 written, all in bounds; no alignment required.
        unsafe {
            use arch::*;
            let s = f32x4_splat(inv);
            let p = x.as_ptr() as *const V;
            let round = |v: V| i32x4_trunc_sat_f32x4(f32x4_nearest(f32x4_mul(v, s)));
            let (a, b) = (round(v128_load(p)), round(v128_load(p.add(1))));
            v128_store(out.as_mut_ptr() as *mut V, i16x8_narrow_i32x4(a, b));
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 baseline; 32 bytes read, 16 written, all in bounds. The conversion
        // rounds to nearest even (the default MXCSR mode, which Rust code never changes).
        unsafe {
            use arch::*;
            let s = _mm_set1_ps(inv);
            let a = _mm_cvtps_epi32(_mm_mul_ps(_mm_loadu_ps(x.as_ptr()), s));
            let b = _mm_cvtps_epi32(_mm_mul_ps(_mm_loadu_ps(x.as_ptr().add(4)), s));
            _mm_storeu_si128(out.as_mut_ptr() as *mut V, _mm_packs_epi32(a, b));
        }
    }

    #[inline(always)]
    pub fn unpack_nibbles(bytes: &[u8], out: &mut [i16]) {
        let (bytes, out) = (&bytes[..16], &mut out[..32]);
        #[cfg(target_arch = "wasm32")]
        // SAFETY: 16 bytes read, 64 bytes written, all in bounds; no alignment required.
        unsafe {
            use arch::*;
            let v = v128_load(bytes.as_ptr() as *const V);
            let eight = i16x8_splat(8);
            let halves = [v128_and(v, u8x16_splat(15)), u8x16_shr(v, 4)];
            let dst = out.as_mut_ptr() as *mut V;
            for (h, n) in halves.into_iter().enumerate() {
                let lo = i16x8_sub(u16x8_extend_low_u8x16(n), eight);
                let hi = i16x8_sub(u16x8_extend_high_u8x16(n), eight);
                v128_store(dst.add(2 * h), lo);
                v128_store(dst.add(2 * h + 1), hi);
            }
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 baseline; 16 bytes read, 64 bytes written, all in bounds.
        unsafe {
            use arch::*;
            let v = _mm_loadu_si128(bytes.as_ptr() as *const V);
            let mask = _mm_set1_epi8(15);
            let (zero, eight) = (_mm_setzero_si128(), _mm_set1_epi16(8));
            let halves = [
                _mm_and_si128(v, mask),
                _mm_and_si128(_mm_srli_epi16(v, 4), mask),
            ];
            let dst = out.as_mut_ptr() as *mut V;
            for (h, n) in halves.into_iter().enumerate() {
                let lo = _mm_sub_epi16(_mm_unpacklo_epi8(n, zero), eight);
                let hi = _mm_sub_epi16(_mm_unpackhi_epi8(n, zero), eight);
                _mm_storeu_si128(dst.add(2 * h), lo);
                _mm_storeu_si128(dst.add(2 * h + 1), hi);
            }
        }
    }
}

/// Rounds a block of 32 input values to i16 with one scale (`value ≈ q·scale`, the largest
/// magnitude to ±32767) and writes it as 16 pairs packed into u32s (input `2i` low, `2i + 1`
/// high), the form `splat_pair` takes. Returns the scale. A scale per block rather than per row
/// keeps a row's few large values from coarsening the steps of all its others.
pub fn quantize_block(x: &[f32], out: &mut [u32]) -> f32 {
    let (x, out) = (&x[..BLOCK], &mut out[..BLOCK / 2]);
    let max = x.iter().fold(0f32, |m, v| m.max(v.abs()));
    if max == 0.0 || !max.is_finite() {
        out.fill(0);
        return if max == 0.0 { 0.0 } else { f32::NAN };
    }
    let inv = 32767.0 / max;
    for (o, v) in out.chunks_exact_mut(4).zip(x.chunks_exact(8)) {
        fast::round_pairs(v, inv, o);
    }
    max / 32767.0
}

/// Expands the kernels on the integer lanes the enclosing module imports as `lanes`.
macro_rules! kernels {
    () => {
        pub mod kernels {
            use super::lanes::{unpack_nibbles, I16x8, I32x4};
            use crate::qgemm::{BLOCK, PANEL_BLOCK};
            use crate::simd::F32x4;

            /// Unpacks the 4-bit blocks of one panel (`blocks × 128` bytes) to i16 weights
            /// (`blocks × 256`: per pair of inputs, 2 × 8 values, see `Q4Matrix`).
            pub fn unpack_panel(packed: &[u8], out: &mut [i16]) {
                for (chunk, dst) in packed.chunks_exact(16).zip(out.chunks_exact_mut(32)) {
                    unpack_nibbles(chunk, dst);
                }
            }

            /// Four quantized rows (pairs of i16, `k/2` each, one after another, with their
            /// block scales `xs`, `k/32` each) times an unpacked panel with its block scales:
            /// per row, 8 sums Σ_b xs_b·s_b·Σ x·q.
            #[inline(never)]
            pub fn tile_4x8(
                x: &[u32],
                xs: &[f32],
                k: usize,
                w: &[i16],
                scales: &[f32],
            ) -> [[F32x4; 2]; 4] {
                let blocks = k / BLOCK;
                let half = k / 2;
                let (x0, rest) = x.split_at(half);
                let (x1, rest) = rest.split_at(half);
                let (x2, x3) = rest.split_at(half);
                let mut acc = [[F32x4::splat(0.0); 2]; 4];
                let pairs = BLOCK / 2;
                for (b, wb) in w.chunks_exact(PANEL_BLOCK).enumerate().take(k / BLOCK) {
                    let z = I32x4::zero();
                    let (mut a00, mut a01, mut a10, mut a11) = (z, z, z, z);
                    let (mut a20, mut a21, mut a30, mut a31) = (z, z, z, z);
                    let at = b * pairs;
                    let (x0, x1) = (&x0[at..at + pairs], &x1[at..at + pairs]);
                    let (x2, x3) = (&x2[at..at + pairs], &x3[at..at + pairs]);
                    for (p, wp) in wb.chunks_exact(16).enumerate() {
                        let (w0, w1) = (I16x8::load(&wp[..8]), I16x8::load(&wp[8..]));
                        let v = I16x8::splat_pair(x0[p]);
                        a00 = a00.add(v.dot_pairs(w0));
                        a01 = a01.add(v.dot_pairs(w1));
                        let v = I16x8::splat_pair(x1[p]);
                        a10 = a10.add(v.dot_pairs(w0));
                        a11 = a11.add(v.dot_pairs(w1));
                        let v = I16x8::splat_pair(x2[p]);
                        a20 = a20.add(v.dot_pairs(w0));
                        a21 = a21.add(v.dot_pairs(w1));
                        let v = I16x8::splat_pair(x3[p]);
                        a30 = a30.add(v.dot_pairs(w0));
                        a31 = a31.add(v.dot_pairs(w1));
                    }
                    let s = &scales[b * 8..][..8];
                    let (s0, s1) = (F32x4::load(&s[..4]), F32x4::load(&s[4..]));
                    for (r, (row, (lo, hi))) in acc
                        .iter_mut()
                        .zip([(a00, a01), (a10, a11), (a20, a21), (a30, a31)])
                        .enumerate()
                    {
                        let x_scale = F32x4::splat(xs[r * blocks + b]);
                        row[0] = lo.to_f32().mul_add(s0.mul(x_scale), row[0]);
                        row[1] = hi.to_f32().mul_add(s1.mul(x_scale), row[1]);
                    }
                }
                acc
            }

            /// One quantized row times an unpacked panel: 8 sums, as `tile_4x8`.
            pub fn tile_1x8(
                x: &[u32],
                xs: &[f32],
                k: usize,
                w: &[i16],
                scales: &[f32],
            ) -> [F32x4; 2] {
                let mut acc = [F32x4::splat(0.0); 2];
                let pairs = BLOCK / 2;
                for (b, wb) in w.chunks_exact(PANEL_BLOCK).enumerate().take(k / BLOCK) {
                    let (mut a0, mut a1) = (I32x4::zero(), I32x4::zero());
                    for (&xp, wp) in x[b * pairs..][..pairs].iter().zip(wb.chunks_exact(16)) {
                        let v = I16x8::splat_pair(xp);
                        a0 = a0.add(v.dot_pairs(I16x8::load(&wp[..8])));
                        a1 = a1.add(v.dot_pairs(I16x8::load(&wp[8..])));
                    }
                    let s = &scales[b * 8..][..8];
                    let x_scale = F32x4::splat(xs[b]);
                    acc[0] = a0
                        .to_f32()
                        .mul_add(F32x4::load(&s[..4]).mul(x_scale), acc[0]);
                    acc[1] = a1
                        .to_f32()
                        .mul_add(F32x4::load(&s[4..]).mul(x_scale), acc[1]);
                }
                acc
            }
        }
    };
}

/// Kernels on the build's lanes.
pub mod fast {
    #[cfg(any(target_arch = "wasm32", target_arch = "x86_64"))]
    use super::native as lanes;
    #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
    use super::portable as lanes;
    pub use lanes::round_pairs;
    kernels!();
}

/// The same kernels on plain arrays (compiled only where they run: other targets, and tests).
#[cfg(any(test, not(any(target_arch = "wasm32", target_arch = "x86_64"))))]
#[allow(dead_code)]
pub mod plain {
    use super::portable as lanes;
    kernels!();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u32 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as u32
    }

    fn lanes(v: [F32x4; 2]) -> [f32; 8] {
        let mut out = [0f32; 8];
        v[0].store(&mut out[..4]);
        v[1].store(&mut out[4..]);
        out
    }

    #[test]
    fn native_kernels_match_the_plain_array_kernels_bit_for_bit() {
        let mut seed = 11;
        for k in [32, 96, 384] {
            let packed: Vec<u8> = (0..k / BLOCK * 128).map(|_| lcg(&mut seed) as u8).collect();
            let scales: Vec<f32> = (0..k / BLOCK * NR)
                .map(|_| lcg(&mut seed) as f32 / u32::MAX as f32)
                .collect();
            // Extreme pairs included: ±32767 times −8 must not overflow the pair sums.
            let mut x: Vec<u32> = (0..2 * k).map(|_| lcg(&mut seed)).collect();
            x[0] = 0x8001_8001;
            x[1] = 0x7fff_7fff;
            let (mut fast_w, mut plain_w) = (vec![0i16; k * NR], vec![1i16; k * NR]);
            fast::kernels::unpack_panel(&packed, &mut fast_w);
            plain::kernels::unpack_panel(&packed, &mut plain_w);
            assert_eq!(fast_w, plain_w);
            assert!(plain_w.iter().all(|&q| (-8..8).contains(&q)));
            let xs: Vec<f32> = (0..4 * k / BLOCK).map(|i| 0.25 + i as f32).collect();
            let fast = fast::kernels::tile_4x8(&x, &xs, k, &fast_w, &scales);
            let plain = plain::kernels::tile_4x8(&x, &xs, k, &plain_w, &scales);
            for r in 0..4 {
                assert_eq!(lanes(fast[r]), lanes(plain[r]), "k {k} row {r}");
                let one = fast::kernels::tile_1x8(
                    &x[r * k / 2..],
                    &xs[r * k / BLOCK..],
                    k,
                    &fast_w,
                    &scales,
                );
                assert_eq!(lanes(one), lanes(plain[r]), "k {k} row {r}, single");
            }
        }
    }

    #[test]
    fn native_rounding_matches_the_plain_rounding() {
        let x = [0.5, 1.5, 2.5, -0.5, -1.5, 32767.4, -32767.6, 1e9];
        let (mut fast_q, mut plain_q) = ([0u32; 4], [1u32; 4]);
        fast::round_pairs(&x, 1.0, &mut fast_q);
        portable::round_pairs(&x, 1.0, &mut plain_q);
        assert_eq!(fast_q, plain_q);
        let values: Vec<i16> = plain_q
            .iter()
            .flat_map(|&p| [p as u16 as i16, (p >> 16) as u16 as i16])
            .collect();
        assert_eq!(values, [0, 2, 2, 0, -2, 32767, -32768, 32767]);
    }

    #[test]
    fn plain_tile_is_the_scaled_sum_of_integer_products() {
        let mut seed = 5;
        let k = 64;
        let w: Vec<i16> = (0..k * NR)
            .map(|_| (lcg(&mut seed) % 16) as i16 - 8)
            .collect();
        let x: Vec<i16> = (0..k).map(|_| lcg(&mut seed) as i16).collect();
        let pairs: Vec<u32> = x
            .chunks(2)
            .map(|p| p[0] as u16 as u32 | (p[1] as u16 as u32) << 16)
            .collect();
        let scales: Vec<f32> = (0..k / BLOCK * NR).map(|i| 0.5 + i as f32).collect();
        let xs = [0.75f32, 3.0];
        let got = lanes(plain::kernels::tile_1x8(&pairs, &xs, k, &w, &scales));
        for (col, &g) in got.iter().enumerate() {
            let mut expected = 0f64;
            for b in 0..k / BLOCK {
                let block: i64 = (0..BLOCK)
                    .map(|t| {
                        let kk = b * BLOCK + t;
                        // Pair kk/2 holds 8 columns × 2 inputs, column-major within the pair.
                        let q = w[b * PANEL_BLOCK + (t / 2) * 16 + col * 2 + kk % 2];
                        x[kk] as i64 * q as i64
                    })
                    .sum();
                expected += block as f64 * scales[b * NR + col] as f64 * xs[b] as f64;
            }
            assert!(
                (g as f64 - expected).abs() <= expected.abs() * 1e-6,
                "{col}"
            );
        }
    }

    #[test]
    fn quantized_blocks_round_to_the_nearest_step_of_the_largest_value() {
        let x: Vec<f32> = [0.5, -2.0, 1.0, 0.001, 0.0, 2.0, 0.25, -0.125]
            .into_iter()
            .cycle()
            .take(BLOCK)
            .collect();
        let mut q = [0u32; BLOCK / 2];
        let scale = quantize_block(&x, &mut q);
        assert_eq!(scale, 2.0 / 32767.0);
        let values: Vec<i16> = q
            .iter()
            .flat_map(|&p| [p as u16 as i16, (p >> 16) as u16 as i16])
            .collect();
        for (&v, &xi) in values.iter().zip(&x) {
            assert!((v as f32 * scale - xi).abs() <= scale / 2.0 * 1.001, "{xi}");
        }
        assert_eq!(values[1], -32767);
        let mut zeros = [7u32; BLOCK / 2];
        assert_eq!(quantize_block(&[0.0; BLOCK], &mut zeros), 0.0);
        assert_eq!(zeros, [0; BLOCK / 2]);
    }
}
