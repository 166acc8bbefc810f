//! Offsets for JavaScript: findings are reported in UTF-16 code units, the unit of a JS
//! string's indices, counted from the UTF-8 bytes the Rust side works in.

/// Converts increasing byte offsets to UTF-16 offsets in one forward pass.
pub(crate) struct Utf16Cursor<'a> {
    text: &'a str,
    byte: usize,
    unit: usize,
}

impl<'a> Utf16Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Utf16Cursor {
            text,
            byte: 0,
            unit: 0,
        }
    }

    pub(crate) fn at(&mut self, byte: usize) -> usize {
        self.unit += utf16_len(&self.text.as_bytes()[self.byte..byte]);
        self.byte = byte;
        self.unit
    }
}

/// The UTF-16 length of whole UTF-8 characters: one unit per byte that starts a character,
/// two for the four-byte ones (counted without decoding).
pub fn utf16_len(utf8: &[u8]) -> usize {
    let count = |bytes: &[u8]| -> usize {
        bytes
            .iter()
            .map(|&b| (b & 0xc0 != 0x80) as usize + (b >= 0xf0) as usize)
            .sum()
    };
    // Eight ASCII bytes are eight units: most text is counted a word at a time.
    let chunks = utf8.chunks_exact(8);
    let mut n = count(chunks.remainder());
    for chunk in chunks {
        let word = u64::from_ne_bytes(chunk.try_into().unwrap_or_default());
        n += if word & 0x8080_8080_8080_8080 == 0 {
            8
        } else {
            count(chunk)
        };
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_lengths_at_every_alignment() {
        let text = "plain ascii text, then é ü 😀 ẞ and more ascii after it 😀😀 x";
        for from in 0..text.len() {
            for to in from..=text.len() {
                if let Some(part) = text.get(from..to) {
                    assert_eq!(
                        utf16_len(part.as_bytes()),
                        part.encode_utf16().count(),
                        "{part:?}"
                    );
                }
            }
        }
    }
}
