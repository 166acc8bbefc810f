//! Exact cosine search over the app's embeddings. Vectors are normalized once on insert, so a
//! query is one dot product per stored vector, done four lanes at a time with wasm `simd128`
//! when the build enables it (plain loops elsewhere). An optional int8 pass scores every vector
//! approximately first and re-scores only the best candidates exactly.

use super::bm25::top_k;

/// Candidates the int8 pass keeps per requested result before the exact re-score.
const RESCORE_FACTOR: usize = 10;
const MIN_RESCORE: usize = 100;

#[derive(Debug, Clone, Default)]
pub struct VectorIndex {
    dim: usize,
    /// Row-major normalized vectors; `slots[i]` is the item number of row `i`.
    data: Vec<f32>,
    slots: Vec<u32>,
    alive: Vec<bool>,
    live: usize,
    row_of: std::collections::HashMap<u32, usize>,
    /// Optional int8 copy (one scale per row) for the approximate pass.
    quantized: Option<Quantized>,
}

#[derive(Debug, Clone, Default)]
struct Quantized {
    data: Vec<i8>,
    scale: Vec<f32>,
}

impl VectorIndex {
    pub fn new(quantize: bool) -> Self {
        VectorIndex {
            quantized: quantize.then(Quantized::default),
            ..Default::default()
        }
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    pub fn len(&self) -> usize {
        self.live
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn rows(&self) -> usize {
        self.slots.len()
    }

    /// Stores `v` for item `slot`. The first vector fixes the dimension; a vector of another
    /// length, or with no direction (all zeros, NaN), is refused with a message.
    pub fn insert(&mut self, slot: u32, v: &[f32]) -> Result<(), String> {
        if v.is_empty() {
            return Err("an embedding must have at least one number".into());
        }
        if self.dim == 0 {
            self.dim = v.len();
        } else if v.len() != self.dim {
            return Err(format!(
                "embedding has {} numbers but earlier ones have {}: use one embedding model",
                v.len(),
                self.dim
            ));
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if !(norm.is_finite() && norm > 0.0) {
            return Err("an embedding must be finite and not all zeros".into());
        }
        self.data.extend(v.iter().map(|x| x / norm));
        if let Some(q) = &mut self.quantized {
            let row = &self.data[self.data.len() - self.dim..];
            let max = row
                .iter()
                .fold(0f32, |m, x| m.max(x.abs()))
                .max(f32::MIN_POSITIVE);
            let s = 127.0 / max;
            q.data.extend(row.iter().map(|x| (x * s).round() as i8));
            q.scale.push(1.0 / s);
        }
        self.remove(slot);
        self.row_of.insert(slot, self.slots.len());
        self.slots.push(slot);
        self.alive.push(true);
        self.live += 1;
        Ok(())
    }

    /// Removes the vector of `slot`. Its row is zeroed, not only marked: a forgotten turn's
    /// embedding says much about its text.
    pub fn remove(&mut self, slot: u32) {
        if let Some(row) = self.row_of.remove(&slot) {
            self.alive[row] = false;
            self.live -= 1;
            self.data[row * self.dim..(row + 1) * self.dim].fill(0.0);
            if let Some(q) = &mut self.quantized {
                q.data[row * self.dim..(row + 1) * self.dim].fill(0);
            }
        }
    }

    pub fn clear(&mut self) {
        let quantize = self.quantized.is_some();
        *self = VectorIndex::new(quantize);
    }

    /// The `k` most similar live items passing `keep`, best first, with their cosine.
    pub fn search(&self, query: &[f32], k: usize, keep: impl Fn(u32) -> bool) -> Vec<(u32, f32)> {
        if k == 0 || query.len() != self.dim || self.dim == 0 {
            return Vec::new();
        }
        let norm = query.iter().map(|x| x * x).sum::<f32>().sqrt();
        if !(norm.is_finite() && norm > 0.0) {
            return Vec::new();
        }
        let q: Vec<f32> = query.iter().map(|x| x / norm).collect();
        let rows = self.slots.len();
        let want = |i: usize| self.alive[i] && keep(self.slots[i]);
        let mut hits: Vec<(u32, f32)> = match &self.quantized {
            Some(quant) if rows > MIN_RESCORE => {
                let scale = 127.0
                    / q.iter()
                        .fold(0f32, |m, x| m.max(x.abs()))
                        .max(f32::MIN_POSITIVE);
                let qi: Vec<i8> = q.iter().map(|x| (x * scale).round() as i8).collect();
                let mut best = Best::new((k * RESCORE_FACTOR).max(MIN_RESCORE));
                for i in 0..rows {
                    if want(i) {
                        let row = &quant.data[i * self.dim..(i + 1) * self.dim];
                        best.offer(i as u32, dot_i8(row, &qi) as f32 * quant.scale[i]);
                    }
                }
                best.into_vec()
                    .into_iter()
                    .map(|(i, _)| (i, dot(self.row(i as usize), &q)))
                    .collect()
            }
            _ => {
                let mut best = Best::new(k);
                for i in 0..rows {
                    if want(i) {
                        best.offer(i as u32, dot(self.row(i), &q));
                    }
                }
                best.into_vec()
            }
        };
        top_k(&mut hits, k);
        for h in &mut hits {
            h.0 = self.slots[h.0 as usize];
        }
        hits
    }

    /// The cosine between two items' vectors; `None` unless both have one.
    pub fn pair_cosine(&self, a: u32, b: u32) -> Option<f32> {
        let (ra, rb) = (*self.row_of.get(&a)?, *self.row_of.get(&b)?);
        Some(dot(self.row(ra), self.row(rb)))
    }

    /// The cosine of item `slot`'s vector with `query`; `None` when it has none.
    pub fn cosine(&self, slot: u32, query: &[f32]) -> Option<f32> {
        let row = *self.row_of.get(&slot)?;
        let norm = query.iter().map(|x| x * x).sum::<f32>().sqrt();
        let usable = query.len() == self.dim && norm.is_finite() && norm > 0.0;
        usable.then(|| dot(self.row(row), query) / norm)
    }

    fn row(&self, i: usize) -> &[f32] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }
}

/// Keeps the `k` best scores seen without holding every score: a buffer of 2k that is cut
/// back to k (with a rising threshold) when full.
struct Best {
    k: usize,
    buf: Vec<(u32, f32)>,
    floor: f32,
}

impl Best {
    fn new(k: usize) -> Best {
        Best {
            k,
            buf: Vec::with_capacity(2 * k),
            floor: f32::NEG_INFINITY,
        }
    }

    #[inline]
    fn offer(&mut self, i: u32, s: f32) {
        if s < self.floor {
            return;
        }
        self.buf.push((i, s));
        if self.buf.len() == 2 * self.k {
            top_k(&mut self.buf, self.k);
            self.floor = self.buf.last().map_or(f32::NEG_INFINITY, |h| h.1);
        }
    }

    fn into_vec(mut self) -> Vec<(u32, f32)> {
        top_k(&mut self.buf, self.k);
        self.buf
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len());
    let chunks = n / 8;
    let mut acc0 = f32x4_splat(0.0);
    let mut acc1 = f32x4_splat(0.0);
    for c in 0..chunks {
        let i = c * 8;
        // SAFETY: i + 8 <= n, so both 16-byte loads stay inside the slices; v128_load has no
        // alignment requirement.
        unsafe {
            let a0 = v128_load(a.as_ptr().add(i) as *const v128);
            let b0 = v128_load(b.as_ptr().add(i) as *const v128);
            let a1 = v128_load(a.as_ptr().add(i + 4) as *const v128);
            let b1 = v128_load(b.as_ptr().add(i + 4) as *const v128);
            acc0 = f32x4_add(acc0, f32x4_mul(a0, b0));
            acc1 = f32x4_add(acc1, f32x4_mul(a1, b1));
        }
    }
    let acc = f32x4_add(acc0, acc1);
    let mut s = f32x4_extract_lane::<0>(acc)
        + f32x4_extract_lane::<1>(acc)
        + f32x4_extract_lane::<2>(acc)
        + f32x4_extract_lane::<3>(acc);
    for i in chunks * 8..n {
        s += a[i] * b[i];
    }
    s
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Four independent sums let the compiler vectorize and keep the result order-stable.
    let mut acc = [0f32; 4];
    let chunks = a.len().min(b.len()) / 4;
    for c in 0..chunks {
        for l in 0..4 {
            acc[l] += a[c * 4 + l] * b[c * 4 + l];
        }
    }
    let mut s = acc[0] + acc[1] + acc[2] + acc[3];
    for i in chunks * 4..a.len().min(b.len()) {
        s += a[i] * b[i];
    }
    s
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len());
    let chunks = n / 16;
    let mut acc = i32x4_splat(0);
    for c in 0..chunks {
        let i = c * 16;
        // SAFETY: i + 16 <= n: the 16-byte loads stay inside both slices.
        unsafe {
            let va = v128_load(a.as_ptr().add(i) as *const v128);
            let vb = v128_load(b.as_ptr().add(i) as *const v128);
            let lo = i32x4_dot_i16x8(i16x8_extend_low_i8x16(va), i16x8_extend_low_i8x16(vb));
            let hi = i32x4_dot_i16x8(i16x8_extend_high_i8x16(va), i16x8_extend_high_i8x16(vb));
            acc = i32x4_add(acc, i32x4_add(lo, hi));
        }
    }
    let mut s = i32x4_extract_lane::<0>(acc)
        + i32x4_extract_lane::<1>(acc)
        + i32x4_extract_lane::<2>(acc)
        + i32x4_extract_lane::<3>(acc);
    for i in chunks * 16..n {
        s += i32::from(a[i]) * i32::from(b[i]);
    }
    s
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| i32::from(*x) * i32::from(*y))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A deterministic pseudo-random vector (xorshift), so tests need no RNG crate.
    fn vector(seed: u64, dim: usize) -> Vec<f32> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..dim)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 2000) as f32 / 1000.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn finds_the_nearest_and_refuses_bad_vectors() {
        let mut ix = VectorIndex::new(false);
        ix.insert(7, &[1.0, 0.0]).unwrap();
        ix.insert(8, &[0.0, 1.0]).unwrap();
        assert!(ix.insert(9, &[1.0, 0.0, 0.0]).is_err());
        assert!(ix.insert(9, &[0.0, 0.0]).is_err());
        let hits = ix.search(&[0.9, 0.1], 1, |_| true);
        assert_eq!(hits[0].0, 7);
        ix.remove(7);
        assert_eq!(ix.search(&[0.9, 0.1], 1, |_| true)[0].0, 8);
    }

    #[test]
    fn int8_pass_keeps_recall_at_10() {
        let dim = 64;
        let mut exact = VectorIndex::new(false);
        let mut quant = VectorIndex::new(true);
        for i in 0..3000u32 {
            let v = vector(u64::from(i) + 1, dim);
            exact.insert(i, &v).unwrap();
            quant.insert(i, &v).unwrap();
        }
        let mut found = 0;
        for q in 0..20 {
            let v = vector(100_000 + q, dim);
            let a: Vec<u32> = exact.search(&v, 10, |_| true).iter().map(|h| h.0).collect();
            let b: Vec<u32> = quant.search(&v, 10, |_| true).iter().map(|h| h.0).collect();
            found += b.iter().filter(|x| a.contains(x)).count();
        }
        assert!(found >= 198, "recall@10 {found}/200");
    }

    proptest! {
        #[test]
        fn dot_matches_naive(a in prop::collection::vec(-1.0f32..1.0, 0..40)) {
            let b: Vec<f32> = a.iter().rev().copied().collect();
            let naive: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            prop_assert!((dot(&a, &b) - naive).abs() < 1e-4);
        }
    }
}
