//! A compact binary form of a loaded `FastBpe` (split pattern, byte ids, merge ranks, added
//! tokens), for warm loads: parsing it skips the JSON and the string lookups of the merges.
//! The caller stores it (IndexedDB in the browser) keyed by the tokenizer.json's hash.
//!
//! Layout, little-endian: `b"LLMBPE02"`, pattern u8 (0 cl100k, 1 o200k, 2 SentencePiece
//! style), digits u8 (for SentencePiece style: prepends `▁`), normalizer u8, has_whole u8,
//! 256 × u32 byte ids, u32 n + n × (left, right, rank, merged) u32, [u32 n + n × (u32 len,
//! bytes, u32 id) whole entries], [the SentencePiece symbols, see `Symbols::write`], u32 n +
//! n × (u32 id, u8 normalized, u32 len, bytes) added, then a u64 checksum of everything before it: a cached form with one byte changed (a damaged
//! IndexedDB entry) would otherwise load and count wrong, since most bytes are ids and ranks.

use super::bytes::{put, Reader};
use super::merge::MergeTable;
use super::metaspace::Symbols;
use super::pretok::Pattern;
use super::{AddedToken, FastBpe, Normalizer, Pieces};
use rustc_hash::FxHashMap;

const MAGIC: &[u8; 8] = b"LLMBPE02";

/// FNV-1a over 8-byte words (and the tail bytes): fast enough for megabytes at every warm
/// load, and any change of a byte changes it. Not a defence against deliberate forgery, which
/// would need write access to the app's own storage anyway.
fn checksum(data: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ data.len() as u64;
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        h = (h ^ u64::from_le_bytes(w.try_into().unwrap_or_default())).wrapping_mul(PRIME);
        h ^= h >> 29;
    }
    for &b in words.remainder() {
        h = (h ^ b as u64).wrapping_mul(PRIME);
    }
    h
}

impl FastBpe {
    /// The prepared form of this tokenizer.
    pub fn to_prepared(&self) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(16 * self.table.pair_count() + 4096);
        out.extend_from_slice(MAGIC);
        let (p, digits) = match self.pieces() {
            Pieces::ByteLevel(Pattern::Cl100k { digits }) => (0u8, *digits),
            Pieces::ByteLevel(Pattern::O200k) => (1u8, 3),
            Pieces::Metaspace(m) => (2u8, m.prepend as u8),
        };
        out.extend_from_slice(&[
            p,
            digits,
            (self.normalizer == Normalizer::Nfc) as u8,
            self.whole.is_some() as u8,
        ]);
        for id in self.table.byte_ids {
            put(&mut out, id);
        }
        let mut merges: Vec<_> = self.table.iter().collect();
        merges.sort_unstable_by_key(|m| m.2);
        put(&mut out, merges.len() as u32);
        for (l, r, rank, m) in merges {
            for v in [l, r, rank, m] {
                put(&mut out, v);
            }
        }
        if let Some(whole) = &self.whole {
            put(&mut out, whole.len() as u32);
            for (bytes, id) in whole {
                put(&mut out, bytes.len() as u32);
                out.extend_from_slice(bytes);
                put(&mut out, *id);
            }
        }
        if let Pieces::Metaspace(m) = self.pieces() {
            m.write(&mut out);
        }
        put(&mut out, self.added.len() as u32);
        for a in &self.added {
            put(&mut out, a.id);
            out.push(a.normalized as u8);
            put(&mut out, a.content.len() as u32);
            out.extend_from_slice(a.content.as_bytes());
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        Some(out)
    }

    /// Reads a prepared form; `None` when it is not one (or is truncated or from another version).
    pub fn from_prepared(data: &[u8]) -> Option<FastBpe> {
        let (data, sum) = data.split_at_checked(data.len().checked_sub(8)?)?;
        if checksum(data) != u64::from_le_bytes(sum.try_into().ok()?) {
            return None;
        }
        let mut r = Reader::new(data);
        if r.bytes(8)? != MAGIC {
            return None;
        }
        let head = r.bytes(4)?;
        let pattern = match (head[0], head[1]) {
            (0, d @ (1 | 3)) => Some(Pattern::Cl100k { digits: d }),
            (1, 3) => Some(Pattern::O200k),
            (2, 0 | 1) => None,
            _ => return None,
        };
        let normalizer = match head[2] {
            0 => Normalizer::None,
            1 => Normalizer::Nfc,
            _ => return None,
        };
        let mut byte_ids = [0u32; 256];
        for id in byte_ids.iter_mut() {
            *id = r.u32()?;
        }
        let n = r.u32()? as usize;
        if n > data.len() / 16 {
            return None;
        }
        let mut table = MergeTable::new(byte_ids, n);
        for _ in 0..n {
            let (a, b, rank, m) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
            table.insert(a, b, rank, m);
        }
        let whole = if head[3] == 1 {
            let n = r.u32()? as usize;
            if n > data.len() / 8 {
                return None;
            }
            let mut whole = FxHashMap::default();
            whole.reserve(n);
            for _ in 0..n {
                let len = r.u32()? as usize;
                let bytes = r.bytes(len)?.to_vec().into_boxed_slice();
                whole.insert(bytes, r.u32()?);
            }
            Some(whole)
        } else {
            None
        };
        let pieces = match pattern {
            Some(p) => Pieces::ByteLevel(p),
            None => Pieces::Metaspace(Box::new(Symbols::read(&mut r, head[1] == 1)?)),
        };
        let n = r.u32()? as usize;
        let mut added = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            let id = r.u32()?;
            let normalized = r.bytes(1)?[0] == 1;
            let len = r.u32()? as usize;
            // An empty added token would match everywhere; the JSON loader refuses it too.
            let content = String::from_utf8(r.bytes(len)?.to_vec())
                .ok()
                .filter(|c| !c.is_empty())?;
            added.push(AddedToken {
                id,
                content,
                normalized,
            });
        }
        if r.left() != 0 {
            return None;
        }
        Some(FastBpe::new(pieces, normalizer, table, whole, added))
    }
}
