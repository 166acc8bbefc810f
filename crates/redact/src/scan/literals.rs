//! The literals the key gates need (`sk-`, `AKIA`, `ghp_`…), found in each long run of a text
//! in one pass over its bytes. Asked spec by spec, with a search per literal and run, the same
//! question cost one instruction in twenty of a whole redaction.

/// A set of literals, each with a bit.
pub(crate) struct Literals {
    words: Vec<&'static str>,
    /// For each byte, the bits of the literals that start with it.
    by_first: Box<[u64; 256]>,
    /// Each literal's second byte (its first for one-byte literals), compared inline before
    /// the whole literal: most bytes that start one are not followed by its second.
    second: Vec<u8>,
}

impl Literals {
    /// The first 64 distinct words get a bit; the rest are left out ([`Literals::mask`] then
    /// answers `None` for them).
    pub(crate) fn of(words: impl IntoIterator<Item = &'static str>) -> Literals {
        let mut set = Literals {
            words: Vec::new(),
            by_first: Box::new([0; 256]),
            second: Vec::new(),
        };
        for w in words {
            if w.is_empty() || set.words.contains(&w) || set.words.len() == 64 {
                continue;
            }
            let b = w.as_bytes();
            set.by_first[b[0] as usize] |= 1 << set.words.len();
            set.second.push(b[b.len().min(2) - 1]);
            set.words.push(w);
        }
        set
    }

    /// The bits of `words`, or `None` when one of them has no bit.
    pub(crate) fn mask(&self, words: &[&str]) -> Option<u64> {
        words.iter().try_fold(0, |mask, w| {
            let i = self.words.iter().position(|x| x == w)?;
            Some(mask | 1 << i)
        })
    }

    /// The bits of the literals that occur in `hay`.
    pub(crate) fn present(&self, hay: &[u8]) -> u64 {
        let mut found = 0u64;
        for (i, &c) in hay.iter().enumerate() {
            let mut maybe = self.by_first[c as usize] & !found;
            while maybe != 0 {
                let bit = maybe.trailing_zeros() as usize;
                let w = self.words[bit].as_bytes();
                if hay.get(i + w.len().min(2) - 1) == Some(&self.second[bit])
                    && hay[i..].starts_with(w)
                {
                    found |= 1 << bit;
                }
                maybe &= maybe - 1;
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_literal_once_wherever_it_is() {
        let set = Literals::of(["sk-", "sk-ant-", "AKIA", "1", "sk-"]);
        assert_eq!(set.mask(&["sk-ant-", "1"]), Some(0b1010));
        assert_eq!(set.mask(&["ghp_"]), None);
        assert_eq!(set.present(b"xx-sk-ant-1"), 0b1011);
        assert_eq!(set.present(b"sk_AKIx"), 0);
        assert_eq!(set.present(b"AKIAAKIA"), 0b0100);
        assert_eq!(set.present(b""), 0);
    }
}
