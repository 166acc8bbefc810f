//! Embeddings as stored records: packed 256 to a record (one record per vector made writing
//! 100 000 of them take seconds in IndexedDB; the chunk being filled is rewritten as it grows,
//! so it is kept small enough to rewrite often), as little-endian f32 in base64, each
//! with the id of its item and a hash of the text it embeds, so that a vector is only put back
//! on an item whose text has not changed since.

use serde::{Deserialize, Serialize};

/// Vectors per stored chunk (about 520 kB of base64 at 384 dimensions).
pub const CHUNK: usize = 256;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VectorChunk {
    pub dim: usize,
    pub ids: Vec<String>,
    /// FNV-1a of each embedded text, as 16 hex digits (JSON numbers lose 64-bit values).
    pub hashes: Vec<String>,
    /// `ids.len() * dim` little-endian f32, base64.
    pub data: String,
}

/// `chunk` without the embeddings of the items in `gone`, and how many were taken out.
pub fn without(chunk: &VectorChunk, gone: &rustc_hash::FxHashSet<String>) -> (VectorChunk, usize) {
    let flat = chunk.vectors().unwrap_or_default();
    let mut kept = VectorChunk {
        dim: chunk.dim,
        ids: Vec::new(),
        hashes: Vec::new(),
        data: String::new(),
    };
    let mut values = Vec::new();
    let mut dropped = 0;
    for (i, (id, hash)) in chunk.ids.iter().zip(&chunk.hashes).enumerate() {
        if gone.contains(id) {
            dropped += 1;
            continue;
        }
        kept.ids.push(id.clone());
        kept.hashes.push(hash.clone());
        if let Some(v) = flat.get(i * chunk.dim..(i + 1) * chunk.dim) {
            values.extend_from_slice(v);
        }
    }
    kept.data = encode(&values);
    (kept, dropped)
}

/// FNV-1a, 64-bit: stable across builds and platforms, unlike `DefaultHasher`.
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn encode(values: &[f32]) -> String {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(B64[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn decode(text: &str) -> Option<Vec<f32>> {
    let mut bytes = Vec::with_capacity(text.len() / 4 * 3);
    let digit = |c: u8| B64.iter().position(|&b| b == c).map(|p| p as u32);
    for quad in text.as_bytes().chunks(4) {
        if quad.len() != 4 {
            return None;
        }
        let pad = quad.iter().filter(|&&c| c == b'=').count();
        let mut n = 0u32;
        for &c in quad {
            n = (n << 6) | if c == b'=' { 0 } else { digit(c)? };
        }
        let three = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        bytes.extend_from_slice(&three[..3 - pad.min(2)]);
    }
    if bytes.len() % 4 != 0 {
        return None;
    }
    Some(
        bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

impl VectorChunk {
    pub fn new(dim: usize, items: &[(String, String, Vec<f32>)]) -> VectorChunk {
        let flat: Vec<f32> = items.iter().flat_map(|i| i.2.iter().copied()).collect();
        VectorChunk {
            dim,
            ids: items.iter().map(|i| i.0.clone()).collect(),
            hashes: items.iter().map(|i| i.1.clone()).collect(),
            data: encode(&flat),
        }
    }

    /// The vectors, flat (`ids.len() * dim` numbers); `None` for a damaged chunk.
    pub fn vectors(&self) -> Option<Vec<f32>> {
        let flat = decode(&self.data)?;
        let ok = self.dim > 0
            && flat.len() == self.ids.len() * self.dim
            && self.hashes.len() == self.ids.len();
        ok.then_some(flat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for n in 0..7 {
            let v: Vec<f32> = (0..n).map(|i| i as f32 * -1.25 + 0.1).collect();
            assert_eq!(decode(&encode(&v)).unwrap(), v);
        }
        assert!(decode("abc").is_none());
        assert_eq!(text_hash("hello"), "a430d84680aabd0b");
        let c = VectorChunk::new(2, &[("f1".into(), text_hash("a"), vec![1.0, 2.0])]);
        assert_eq!(c.vectors().unwrap(), vec![1.0, 2.0]);
        assert_eq!(c.ids, vec!["f1"]);
    }
}
