//! Values the vault already holds, found again wherever they reappear. A name given once with a
//! cue ("My name is Mason Cole") comes back without one ("Mason Cole called again", "mason cole
//! is me"); a phone number read once in a sentence comes back bare. The recognizers may not see
//! those on their own; the vault knows them, so they are redacted too.
//!
//! Matching is ASCII-case-insensitive (the vault keeps the exact bytes of each sighting as a form
//! of its own, which shares the person's placeholder: see `people`), except for one-word names,
//! which must match exactly: "Mark" known as a name says nothing about "mark this done".
//! A match must not run into letters or digits on a side where the value itself starts or ends
//! with one. Only types whose recognizers need a cue or context are indexed (names, addresses,
//! phones, dates of birth, SSNs, passwords, custom patterns): an e-mail, a card or a key is found
//! by its shape wherever it is. The scan tests each token start against a bitmap of the values'
//! first two bytes and looks up their first four or eight bytes only where that hits, so a
//! growing vault costs little per turn.

use super::VaultEntry;
use crate::recognizers::classify;
use rustc_hash::FxHashMap;

/// Values shorter than this are not searched for: too many ordinary words and numbers.
const MIN_LEN: usize = 4;

/// Values of at least this many bytes are keyed by that many first bytes, shorter ones by
/// `MIN_LEN`.
const LONG: usize = 8;

/// Types found by their shape alone, so not searched for again.
const BY_SHAPE: [&str; 10] = [
    "EMAIL",
    "CREDIT_CARD",
    "IBAN",
    "IP_ADDRESS",
    "MAC_ADDRESS",
    "URL",
    "CRYPTO",
    "API_KEY",
    "JWT",
    "PRIVATE_KEY",
];

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownValues {
    /// One bit per first byte (ASCII letters lower-cased) of an indexed value: most positions
    /// of a text fail this one test.
    first: [u64; 4],
    /// One bit per hash of an indexed value's first `MIN_LEN` bytes (lower-cased); empty until a
    /// value is indexed. Most token starts of a text miss it and cost no look-up.
    starts: Vec<u64>,
    /// First `MIN_LEN` bytes of values shorter than `LONG` → entry indexes.
    short: FxHashMap<u64, Vec<usize>>,
    /// First `LONG` bytes of longer values → entry indexes.
    long: FxHashMap<u64, Vec<usize>>,
    /// Whether a value starts with a byte that is no word byte ([`is_word`]): only then can
    /// one start elsewhere than at a word start.
    nonword_first: bool,
}

const START_BITS: u32 = 16;

/// Up to eight bytes, ASCII letters lower-cased, packed little-endian (eight at a time, SWAR).
fn key(b: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word[..b.len()].copy_from_slice(b);
    let x = u64::from_le_bytes(word);
    let low7 = x & 0x7f7f_7f7f_7f7f_7f7f;
    // High bit of each byte that is 'A'..='Z': at least 'A' and not above 'Z', and ASCII.
    let upper = (low7 + 0x3f3f_3f3f_3f3f_3f3f) & !(low7 + 0x2525_2525_2525_2525) & !x;
    x | ((upper & 0x8080_8080_8080_8080) >> 2)
}

fn start_bit(k: u64) -> usize {
    ((k as u32).wrapping_mul(0x9E37_79B1) >> (32 - START_BITS)) as usize
}

/// Letters, digits and any byte of a non-ASCII character.
fn is_word(b: u8) -> bool {
    WORD[b as usize]
}

/// [`is_word`] by table: the scan asks it of every byte.
static WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_alphanumeric() || b >= 0x80;
        b += 1;
    }
    t
};

/// Whether `entry` must match with the same case.
fn exact_case(entry: &VaultEntry) -> bool {
    entry.kind == "PERSON" && !entry.value.contains(' ')
}

impl KnownValues {
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Whether any indexed value occurs in `text`.
    pub fn occurs_in(&self, text: &str, entries: &[VaultEntry]) -> bool {
        let mut found = Vec::new();
        self.find(text, entries, &mut found);
        !found.is_empty()
    }

    /// Indexes the vault entry `i`.
    pub fn add(&mut self, i: usize, entry: &VaultEntry) {
        let v = entry.value.as_bytes();
        if v.len() < MIN_LEN || BY_SHAPE.contains(&entry.kind.as_str()) {
            return;
        }
        if self.starts.is_empty() {
            self.starts = vec![0; 1 << (START_BITS - 6)];
        }
        let bit = start_bit(key(&v[..MIN_LEN]));
        self.starts[bit >> 6] |= 1 << (bit & 63);
        self.nonword_first |= !is_word(v[0]);
        for c in [v[0].to_ascii_lowercase(), v[0].to_ascii_uppercase()] {
            self.first[c as usize >> 6] |= 1 << (c & 63);
        }
        if v.len() >= LONG {
            self.long.entry(key(&v[..LONG])).or_default().push(i);
        } else {
            self.short.entry(key(&v[..MIN_LEN])).or_default().push(i);
        }
    }

    /// Every sighting of an indexed value in `text`: (start, end, entry index), byte offsets.
    pub fn find(&self, text: &str, entries: &[VaultEntry], out: &mut Vec<(usize, usize, usize)>) {
        let b = text.as_bytes();
        if self.starts.is_empty() || b.len() < MIN_LEN {
            return;
        }
        let last = b.len() - MIN_LEN;
        // Sixteen bytes at a time (the prescan's byte classes): inside a word no value that
        // starts with a letter or digit can begin, and most positions are inside one. Byte by
        // byte, this test cost more than the look-ups it spares.
        let mut prev_word = false;
        for at in (0..=last).step_by(16) {
            let block: [u8; 16] = match b[at..].first_chunk::<16>() {
                Some(full) => *full,
                None => {
                    // Padded with spaces, which are no word bytes.
                    let mut block = [b' '; 16];
                    block[..b.len() - at].copy_from_slice(&b[at..]);
                    block
                }
            };
            let c = classify(&block);
            let word = c.alpha | c.digit | c.high;
            let after_word = (word << 1) | prev_word as u16;
            prev_word = word & 0x8000 != 0;
            let mut maybe = if self.nonword_first {
                !(word & after_word)
            } else {
                word & !after_word
            };
            if last - at < 15 {
                maybe &= (1u16 << (last - at + 1)) - 1;
            }
            while maybe != 0 {
                let i = at + maybe.trailing_zeros() as usize;
                maybe &= maybe - 1;
                self.find_at(text, i, entries, out);
            }
        }
    }

    /// The sightings of indexed values starting at `i`.
    fn find_at(
        &self,
        text: &str,
        i: usize,
        entries: &[VaultEntry],
        out: &mut Vec<(usize, usize, usize)>,
    ) {
        let b = text.as_bytes();
        let c = b[i];
        if self.first[c as usize >> 6] & (1 << (c & 63)) == 0 {
            return;
        }
        let k4 = key(&b[i..i + MIN_LEN]);
        let bit = start_bit(k4);
        if self.starts[bit >> 6] & (1 << (bit & 63)) == 0 {
            return;
        }
        let short = self.short.get(&k4);
        let long = b.get(i..i + LONG).and_then(|w| self.long.get(&key(w)));
        for &k in short.into_iter().chain(long).flatten() {
            let e = &entries[k];
            let v = e.value.as_bytes();
            let end = i + v.len();
            let Some(seen) = b.get(i..end) else {
                continue;
            };
            let same = if exact_case(e) {
                seen == v
            } else {
                seen.eq_ignore_ascii_case(v)
            };
            let glued_after = is_word(v[v.len() - 1]) && b.get(end).is_some_and(|&c| is_word(c));
            let glued_before = i > 0 && is_word(v[0]) && is_word(b[i - 1]);
            if same && !glued_after && !glued_before && text.is_char_boundary(end) {
                out.push((i, end, k));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: &str, value: &str) -> VaultEntry {
        VaultEntry {
            placeholder: format!("[{kind}_1]"),
            kind: kind.into(),
            value: value.into(),
        }
    }

    fn found(entries: &[VaultEntry], text: &str) -> Vec<String> {
        let mut k = KnownValues::default();
        for (i, e) in entries.iter().enumerate() {
            k.add(i, e);
        }
        let mut out = Vec::new();
        k.find(text, entries, &mut out);
        out.iter()
            .map(|&(s, e, _)| text[s..e].to_string())
            .collect()
    }

    #[test]
    fn finds_values_again_in_any_case_but_one_word_names_exactly() {
        let entries = [entry("PERSON", "Mason Cole"), entry("PERSON", "Mark")];
        assert_eq!(
            found(&entries, "Mason Cole called; mason cole is me. MASON COLE!"),
            ["Mason Cole", "mason cole", "MASON COLE"]
        );
        assert_eq!(found(&entries, "Mark said: mark this done"), ["Mark"]);
    }

    #[test]
    fn never_inside_a_longer_word_or_number() {
        let entries = [
            entry("PHONE", "01 42 68 53 00"),
            entry("PERSON", "Anna Berg"),
        ];
        assert_eq!(
            found(&entries, "call 01 42 68 53 00 ok"),
            ["01 42 68 53 00"]
        );
        assert!(found(&entries, "901 42 68 53 001").is_empty());
        assert!(found(&entries, "Hanna Bergström").is_empty());
        assert_eq!(found(&entries, "(Anna Berg)"), ["Anna Berg"]);
    }

    #[test]
    fn values_found_by_their_shape_are_left_to_their_recognizers() {
        let entries = [
            entry("EMAIL", "ann@example.com"),
            entry("PASSWORD", "Hunter2024!"),
        ];
        assert_eq!(
            found(&entries, "ann@example.com Hunter2024!"),
            ["Hunter2024!"]
        );
    }

    #[test]
    fn the_packed_key_lower_cases_ascii_letters_only() {
        for b in 0..=255u8 {
            let want = b.to_ascii_lowercase() as u64;
            assert_eq!(key(&[b]), want, "byte {b:#x}");
            assert_eq!(
                key(&[b'x', b, 0xC3, b'Z']) >> 8 & 0xff,
                want,
                "byte {b:#x} in a word"
            );
        }
    }

    /// The block scan looks where a byte-by-byte scan looks, at every alignment, with values
    /// that start with a word byte only and with one that does not.
    #[test]
    fn block_scan_equals_byte_scan() {
        let words = [entry("PERSON", "Anna Berg"), entry("PHONE", "555 0100")];
        let punct = [entry("PHONE", "(555) 0100"), entry("PERSON", "anna")];
        for entries in [&words[..], &punct[..]] {
            let mut k = KnownValues::default();
            for (i, e) in entries.iter().enumerate() {
                k.add(i, e);
            }
            for pad in 0..20 {
                let text = format!(
                    "{} Anna Berg,(555) 0100 x555 0100 é555 0100 ANNA anna",
                    "a".repeat(pad)
                );
                let b = text.as_bytes();
                let mut want = Vec::new();
                for i in 0..=b.len() - MIN_LEN {
                    if i == 0 || !(is_word(b[i - 1]) && is_word(b[i])) {
                        k.find_at(&text, i, entries, &mut want);
                    }
                }
                let mut got = Vec::new();
                k.find(&text, entries, &mut got);
                assert_eq!(got, want, "{text:?}");
                assert!(!got.is_empty());
            }
        }
    }

    #[test]
    fn short_values_are_not_searched() {
        assert!(found(&[entry("PERSON", "Al")], "Al and Al").is_empty());
    }
}
