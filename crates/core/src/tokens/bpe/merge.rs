//! Byte-pair merging over token ids with a precomputed rank table: `(left, right)` →
//! `(rank, merged)`. The order of merges is the `tokenizers` crate's: always the lowest rank
//! present, the leftmost on ties. Short pieces use an array scan; long ones a heap, so a
//! 50 000-byte piece stays O(n log n).

use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Pieces up to this many bytes merge with the array scan (quadratic, but tiny and cache-hot).
const SHORT: usize = 96;

pub struct MergeTable {
    /// `(left << 32) | right` → `(rank << 32) | merged`.
    pairs: FxHashMap<u64, u64>,
    /// The token of each single byte.
    pub byte_ids: [u32; 256],
}

impl MergeTable {
    pub fn new(byte_ids: [u32; 256], capacity: usize) -> Self {
        let mut pairs = FxHashMap::default();
        pairs.reserve(capacity);
        MergeTable { pairs, byte_ids }
    }

    /// Adds a merge; a later duplicate replaces an earlier one, as in the `tokenizers` crate.
    pub fn insert(&mut self, left: u32, right: u32, rank: u32, merged: u32) {
        self.pairs.insert(
            ((left as u64) << 32) | right as u64,
            ((rank as u64) << 32) | merged as u64,
        );
    }

    pub fn pair_count(&self) -> usize {
        self.pairs.len()
    }

    /// `(rank, merged)` of a pair, rank `u32::MAX` when the pair never merges.
    #[inline]
    fn get(&self, left: u32, right: u32) -> (u32, u32) {
        match self.pairs.get(&(((left as u64) << 32) | right as u64)) {
            Some(&v) => ((v >> 32) as u32, v as u32),
            None => (u32::MAX, 0),
        }
    }

    /// Every `(left, right, rank, merged)`, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u32, u32, u32)> + '_ {
        self.pairs
            .iter()
            .map(|(&k, &v)| ((k >> 32) as u32, k as u32, (v >> 32) as u32, v as u32))
    }

    /// Appends the tokens of `bytes` (non-empty) to `out`.
    pub fn encode(&self, bytes: &[u8], out: &mut Vec<u32>) {
        if bytes.len() == 1 {
            out.push(self.byte_ids[bytes[0] as usize]);
        } else if bytes.len() <= SHORT {
            let mut ids = [0u32; SHORT];
            for (k, &b) in bytes.iter().enumerate() {
                ids[k] = self.byte_ids[b as usize];
            }
            self.merge_short(ids, bytes.len(), out);
        } else {
            self.merge_long(
                bytes.iter().map(|&b| self.byte_ids[b as usize]).collect(),
                out,
            );
        }
    }

    /// Appends the tokens that the symbols `ids` merge into to `out`.
    pub fn merge(&self, ids: &[u32], out: &mut Vec<u32>) {
        if ids.len() <= 1 {
            out.extend_from_slice(ids);
        } else if ids.len() <= SHORT {
            let mut buf = [0u32; SHORT];
            buf[..ids.len()].copy_from_slice(ids);
            self.merge_short(buf, ids.len(), out);
        } else {
            self.merge_long(ids.to_vec(), out);
        }
    }

    fn merge_short(&self, mut ids: [u32; SHORT], mut n: usize, out: &mut Vec<u32>) {
        let mut ranks = [u32::MAX; SHORT];
        let mut merged = [0u32; SHORT];
        for k in 0..n - 1 {
            (ranks[k], merged[k]) = self.get(ids[k], ids[k + 1]);
        }
        loop {
            let mut best = u32::MAX;
            let mut at = 0;
            for (k, &r) in ranks[..n - 1].iter().enumerate() {
                if r < best {
                    best = r;
                    at = k;
                }
            }
            if best == u32::MAX {
                break;
            }
            ids[at] = merged[at];
            ids.copy_within(at + 2..n, at + 1);
            ranks.copy_within(at + 2..n, at + 1);
            merged.copy_within(at + 2..n, at + 1);
            n -= 1;
            if at + 1 < n {
                (ranks[at], merged[at]) = self.get(ids[at], ids[at + 1]);
            } else {
                ranks[at] = u32::MAX;
            }
            if at > 0 {
                (ranks[at - 1], merged[at - 1]) = self.get(ids[at - 1], ids[at]);
            }
            if n == 1 {
                break;
            }
        }
        out.extend_from_slice(&ids[..n]);
    }

    fn merge_long(&self, mut ids: Vec<u32>, out: &mut Vec<u32>) {
        let n = ids.len();
        // Linked list over symbol positions; `NONE` ends it. A merged-away symbol gets id NONE.
        const NONE: u32 = u32::MAX;
        let mut next: Vec<u32> = (1..=n as u32).collect();
        next[n - 1] = NONE;
        let mut prev: Vec<u32> = (0..n as u32).map(|k| k.wrapping_sub(1)).collect();
        // (rank, position, merged) with the lowest rank, then the leftmost position, first.
        let mut heap = BinaryHeap::with_capacity(n);
        for k in 0..n - 1 {
            let (r, m) = self.get(ids[k], ids[k + 1]);
            if r != u32::MAX {
                heap.push(Reverse((r, k as u32, m, ids[k + 1])));
            }
        }
        while let Some(Reverse((r, pos, m, right_id))) = heap.pop() {
            let p = pos as usize;
            if ids[p] == NONE || next[p] == NONE {
                continue;
            }
            let q = next[p] as usize;
            // A stale entry: the pair at `p` is no longer the one it was pushed for.
            if ids[q] != right_id || self.get(ids[p], ids[q]) != (r, m) {
                continue;
            }
            ids[p] = m;
            ids[q] = NONE;
            next[p] = next[q];
            if next[p] != NONE {
                prev[next[p] as usize] = pos;
            }
            if prev[p] != NONE {
                let a = prev[p] as usize;
                let (r2, m2) = self.get(ids[a], ids[p]);
                if r2 != u32::MAX {
                    heap.push(Reverse((r2, a as u32, m2, ids[p])));
                }
            }
            if next[p] != NONE {
                let b = next[p] as usize;
                let (r2, m2) = self.get(ids[p], ids[b]);
                if r2 != u32::MAX {
                    heap.push(Reverse((r2, pos, m2, ids[b])));
                }
            }
        }
        out.extend(ids.into_iter().filter(|&id| id != NONE));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bytes a=0.., merges: (a,a)->aa rank 0, (aa,a)->aaa rank 1, (aa,aa)->aaaa rank 2.
    fn table() -> MergeTable {
        let mut ids = [0u32; 256];
        for (k, id) in ids.iter_mut().enumerate() {
            *id = k as u32;
        }
        let mut t = MergeTable::new(ids, 4);
        t.insert(97, 97, 0, 300);
        t.insert(300, 97, 1, 301);
        t.insert(300, 300, 2, 302);
        t
    }

    #[test]
    fn short_and_long_paths_agree() {
        let t = table();
        for n in 1..400 {
            let s = vec![b'a'; n];
            let mut a = Vec::new();
            let mut b = Vec::new();
            let ids: Vec<u32> = s.iter().map(|&b| b as u32).collect();
            t.encode(&s, &mut a);
            if n >= 2 {
                t.merge_long(ids, &mut b);
            } else {
                t.merge(&ids, &mut b);
            }
            assert_eq!(a, b, "n = {n}");
        }
    }
}
