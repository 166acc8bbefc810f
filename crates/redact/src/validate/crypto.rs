//! Checksums of cryptocurrency addresses: Base58Check (legacy Bitcoin P2PKH/P2SH) and
//! Bech32/Bech32m (SegWit). A random 26–35 character string almost never passes them, which is
//! what lets the recognizer tell a wallet from an identifier without context words.
//!
//! SHA-256 is written out here (≈60 lines) rather than pulled in as a crate: it runs on at most
//! a few dozen bytes per candidate and keeps the wasm small.

const BASE58: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// Decodes Base58 (Bitcoin alphabet). Quadratic in the length, so callers bound the input
/// (addresses are ≤ 35 characters).
pub fn base58_decode(s: &str) -> Option<Vec<u8>> {
    if s.len() > 64 {
        return None;
    }
    let mut bytes: Vec<u8> = Vec::with_capacity(s.len());
    for c in s.bytes() {
        let mut carry = BASE58.iter().position(|&a| a == c)? as u32;
        for b in bytes.iter_mut().rev() {
            carry += (*b as u32) * 58;
            *b = (carry & 0xff) as u8;
            carry >>= 8;
        }
        while carry > 0 {
            bytes.insert(0, (carry & 0xff) as u8);
            carry >>= 8;
        }
    }
    let zeros = s.bytes().take_while(|&c| c == b'1').count();
    let mut out = vec![0u8; zeros];
    out.extend(bytes.into_iter().skip_while(|&b| b == 0));
    Some(out)
}

/// A legacy Bitcoin address: 25 bytes (version, 20-byte hash, 4-byte checksum) whose checksum is
/// the first four bytes of SHA-256(SHA-256(version ‖ hash)).
pub fn base58check(s: &str) -> bool {
    let Some(raw) = base58_decode(s) else {
        return false;
    };
    if raw.len() < 5 {
        return false;
    }
    let (payload, check) = raw.split_at(raw.len() - 4);
    sha256(&sha256(payload))[..4] == *check
}

const BECH32_CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";

fn bech32_polymod(values: impl Iterator<Item = u8>) -> u32 {
    const GEN: [u32; 5] = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
    let mut chk: u32 = 1;
    for v in values {
        let top = chk >> 25;
        chk = ((chk & 0x1ff_ffff) << 5) ^ v as u32;
        for (i, g) in GEN.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    }
    chk
}

/// A Bech32 (BIP-173) or Bech32m (BIP-350) string with a valid checksum. Mixed case is invalid
/// by the spec.
pub fn bech32(s: &str) -> bool {
    if s.len() < 8 || s.len() > 90 {
        return false;
    }
    let has_lower = s.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = s.bytes().any(|b| b.is_ascii_uppercase());
    if has_lower && has_upper {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    let Some(sep) = lower.rfind('1') else {
        return false;
    };
    let (hrp, data) = (&lower[..sep], &lower[sep + 1..]);
    if hrp.is_empty() || data.len() < 6 {
        return false;
    }
    let mut values = Vec::with_capacity(data.len());
    for c in data.bytes() {
        match BECH32_CHARSET.iter().position(|&a| a == c) {
            Some(v) => values.push(v as u8),
            None => return false,
        }
    }
    let expanded = hrp
        .bytes()
        .map(|b| b >> 5)
        .chain(std::iter::once(0))
        .chain(hrp.bytes().map(|b| b & 31))
        .chain(values.iter().copied());
    let pm = bech32_polymod(expanded);
    pm == 1 || pm == 0x2bc8_30a3
}

/// SHA-256 (FIPS 180-4).
pub fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn sha256_known_vectors() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn bitcoin_addresses() {
        // The genesis block address and a well-known P2SH example.
        assert!(base58check("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"));
        assert!(base58check("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"));
        assert!(!base58check("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"));
        assert!(bech32("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"));
        assert!(bech32(
            "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297"
        ));
        assert!(!bech32("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdz"));
        assert!(!bech32("bc1Qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"));
    }
}
