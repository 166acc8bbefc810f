//! A 4-lane f32 vector for the encoder's kernels, so they are written once: wasm `simd128` on
//! wasm32 (our build enables it, see .cargo/config.toml), SSE2 on x86_64 (part of its baseline),
//! plain arrays elsewhere. The release profile optimizes for size (`opt-level = "s"`), at which
//! LLVM neither unrolls nor vectorizes the kernels' loops by itself; explicit lanes make the
//! speed independent of that.

#[cfg(target_arch = "wasm32")]
use core::arch::wasm32 as arch;
#[cfg(all(target_arch = "x86_64", not(target_arch = "wasm32")))]
use core::arch::x86_64 as arch;

#[cfg(target_arch = "wasm32")]
type Lanes = arch::v128;
#[cfg(target_arch = "x86_64")]
type Lanes = arch::__m128;
#[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
type Lanes = [f32; 4];

#[derive(Clone, Copy)]
pub struct F32x4(Lanes);

/// 1.5·2²³: `(y + ROUND_MAGIC) - ROUND_MAGIC` rounds `|y| < 2²²` to the nearest integer, which
/// then sits in the low mantissa bits of `y + ROUND_MAGIC`.
pub const ROUND_MAGIC: f32 = 12_582_912.0;

impl F32x4 {
    #[inline(always)]
    pub fn splat(v: f32) -> Self {
        #[cfg(target_arch = "wasm32")]
        return F32x4(arch::f32x4_splat(v));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of the x86_64 baseline.
        return F32x4(unsafe { arch::_mm_set1_ps(v) });
        #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
        return F32x4([v; 4]);
    }

    /// The first four values of `s` (which must have at least four).
    #[inline(always)]
    pub fn load(s: &[f32]) -> Self {
        let s = &s[..4];
        #[cfg(target_arch = "wasm32")]
        // SAFETY: `s` has four f32s; v128_load has no alignment requirement.
        return F32x4(unsafe { arch::v128_load(s.as_ptr() as *const arch::v128) });
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `s` has four f32s; _mm_loadu_ps has no alignment requirement.
        return F32x4(unsafe { arch::_mm_loadu_ps(s.as_ptr()) });
        #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
        return F32x4([s[0], s[1], s[2], s[3]]);
    }

    /// Writes the four values to the start of `s` (which must have room for four).
    #[inline(always)]
    pub fn store(self, s: &mut [f32]) {
        let s = &mut s[..4];
        #[cfg(target_arch = "wasm32")]
        // SAFETY: `s` has room for four f32s; v128_store has no alignment requirement.
        unsafe {
            arch::v128_store(s.as_mut_ptr() as *mut arch::v128, self.0)
        };
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `s` has room for four f32s; _mm_storeu_ps has no alignment requirement.
        unsafe {
            arch::_mm_storeu_ps(s.as_mut_ptr(), self.0)
        };
        #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
        s.copy_from_slice(&self.0);
    }

    #[inline(always)]
    pub fn add(self, o: Self) -> Self {
        #[cfg(target_arch = "wasm32")]
        return F32x4(arch::f32x4_add(self.0, o.0));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of the x86_64 baseline.
        return F32x4(unsafe { arch::_mm_add_ps(self.0, o.0) });
        #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
        return F32x4(std::array::from_fn(|i| self.0[i] + o.0[i]));
    }

    #[inline(always)]
    pub fn mul(self, o: Self) -> Self {
        #[cfg(target_arch = "wasm32")]
        return F32x4(arch::f32x4_mul(self.0, o.0));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of the x86_64 baseline.
        return F32x4(unsafe { arch::_mm_mul_ps(self.0, o.0) });
        #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
        return F32x4(std::array::from_fn(|i| self.0[i] * o.0[i]));
    }

    #[inline(always)]
    pub fn div(self, o: Self) -> Self {
        #[cfg(target_arch = "wasm32")]
        return F32x4(arch::f32x4_div(self.0, o.0));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of the x86_64 baseline.
        return F32x4(unsafe { arch::_mm_div_ps(self.0, o.0) });
        #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
        return F32x4(std::array::from_fn(|i| self.0[i] / o.0[i]));
    }

    /// Each lane clamped to `[lo, hi]`.
    #[inline(always)]
    pub fn clamp(self, lo: f32, hi: f32) -> Self {
        #[cfg(target_arch = "wasm32")]
        return F32x4(arch::f32x4_pmax(
            arch::f32x4_pmin(self.0, arch::f32x4_splat(hi)),
            arch::f32x4_splat(lo),
        ));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE is part of the x86_64 baseline.
        return F32x4(unsafe {
            arch::_mm_max_ps(
                arch::_mm_min_ps(self.0, arch::_mm_set1_ps(hi)),
                arch::_mm_set1_ps(lo),
            )
        });
        #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
        return F32x4(self.0.map(|v| v.min(hi).max(lo)));
    }

    #[inline(always)]
    pub fn sub(self, o: Self) -> Self {
        self.add(o.mul(F32x4::splat(-1.0)))
    }

    /// `self · 2ⁿ` where `rounded = n + ROUND_MAGIC` holds the integer `n` in its low mantissa
    /// bits: adds `n` to the exponent field (the caller keeps the result a normal number).
    #[inline(always)]
    pub fn scale_by_pow2(self, rounded: Self) -> Self {
        const MAGIC_BITS: i32 = 0x4b40_0000; // ROUND_MAGIC.to_bits()
        #[cfg(target_arch = "wasm32")]
        return F32x4(arch::i32x4_add(
            self.0,
            arch::i32x4_shl(
                arch::i32x4_sub(rounded.0, arch::i32x4_splat(MAGIC_BITS)),
                23,
            ),
        ));
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of the x86_64 baseline.
        return F32x4(unsafe {
            use arch::*;
            let n = _mm_sub_epi32(_mm_castps_si128(rounded.0), _mm_set1_epi32(MAGIC_BITS));
            _mm_castsi128_ps(_mm_add_epi32(
                _mm_castps_si128(self.0),
                _mm_slli_epi32(n, 23),
            ))
        });
        #[cfg(not(any(target_arch = "wasm32", target_arch = "x86_64")))]
        return F32x4(std::array::from_fn(|i| {
            let n = (rounded.0[i].to_bits() as i32).wrapping_sub(MAGIC_BITS);
            f32::from_bits((self.0[i].to_bits() as i32).wrapping_add(n << 23) as u32)
        }));
    }

    /// `acc + self·b`, rounded twice (no fused multiply-add: the same result everywhere).
    #[inline(always)]
    pub fn mul_add(self, b: Self, acc: Self) -> Self {
        acc.add(self.mul(b))
    }

    /// The four lanes added as `(l0 + l1) + (l2 + l3)`.
    #[inline(always)]
    pub fn sum(self) -> f32 {
        let mut lanes = [0f32; 4];
        self.store(&mut lanes);
        (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_round_trip_and_add_up() {
        let v = F32x4::load(&[1.0, 2.0, 3.0, 4.0, 99.0]);
        let mut out = [0.0; 4];
        v.mul_add(F32x4::splat(2.0), F32x4::splat(0.5))
            .store(&mut out);
        assert_eq!(out, [2.5, 4.5, 6.5, 8.5]);
        assert_eq!(v.sum(), 10.0);
    }

    #[test]
    fn round_magic_bits_are_the_ones_scale_by_pow2_subtracts() {
        assert_eq!(ROUND_MAGIC.to_bits(), 0x4b40_0000);
        let mut out = [0.0; 4];
        F32x4::splat(1.5)
            .scale_by_pow2(F32x4::splat(ROUND_MAGIC - 3.0))
            .store(&mut out);
        assert_eq!(out, [0.1875; 4]);
    }
}
