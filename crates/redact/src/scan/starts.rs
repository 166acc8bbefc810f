//! Where the words of a text start, grouped by their first letter, found once per text in the
//! prescan. Keyword gates ([`super::gate::Gate::Near`]) read only the starts of the letters
//! their words begin with: one `memchr2` pass over the whole text per letter and gate cost more
//! than the rest of the password recognizers together ("p", "s", "c" are frequent inside words
//! and each hit stopped the search).

/// A word start: a byte at the text's start or after a byte other than an ASCII letter, digit
/// or `_`. Only starts with an ASCII letter or `-` are kept, under the letter lower-cased.
#[derive(Default)]
pub(crate) struct WordStarts {
    /// The starts, by letter (`a`..=`z`, then `-`), each letter's in text order.
    at: Vec<usize>,
    /// The starts in text order.
    all: Vec<usize>,
    /// Letter `k`'s starts are `at[bounds[k]..bounds[k + 1]]`.
    bounds: [usize; LETTERS + 1],
}

const LETTERS: usize = 27;

/// The bucket of a start's first byte, if it has one.
#[inline]
fn letter(c: u8) -> Option<usize> {
    let k = BUCKET[c as usize];
    (k != NONE).then_some(k as usize)
}

const NONE: u8 = u8::MAX;

/// [`letter`] as a table: a look-up costs less than the case fold and the range tests, and
/// every word start of a text takes two.
static BUCKET: [u8; 256] = {
    let mut t = [NONE; 256];
    let mut c = 0;
    while c < 26 {
        t[(b'a' + c) as usize] = c;
        t[(b'A' + c) as usize] = c;
        c += 1;
    }
    t[b'-' as usize] = 26;
    t
};

impl WordStarts {
    /// Groups `starts` (in text order, each at a letter or `-` of `b`) by first letter.
    pub(crate) fn of(b: &[u8], starts: Vec<usize>) -> WordStarts {
        let mut counts = [0usize; LETTERS + 1];
        for &p in &starts {
            if let Some(k) = letter(b[p]) {
                counts[k + 1] += 1;
            }
        }
        for k in 0..LETTERS {
            counts[k + 1] += counts[k];
        }
        let bounds = counts;
        let mut next = counts;
        let mut at = vec![0; bounds[LETTERS]];
        for &p in &starts {
            if let Some(k) = letter(b[p]) {
                at[next[k]] = p;
                next[k] += 1;
            }
        }
        WordStarts {
            at,
            all: starts,
            bounds,
        }
    }

    /// Every word start, in text order.
    pub(crate) fn all(&self) -> &[usize] {
        &self.all
    }

    /// The word starts whose first byte is `first` in either ASCII case, in text order; `None`
    /// when `first` is neither an ASCII letter nor `-` (such starts are not kept).
    pub(crate) fn of_letter(&self, first: u8) -> Option<&[usize]> {
        let k = letter(first)?;
        self.at.get(self.bounds[k]..self.bounds[k + 1])
    }
}

/// Adds the word starts of a sixteen-byte block at `at` (bits of [`super::classes::Classes`])
/// to `out`. `word_before` carries whether the byte before the block is a word byte (an ASCII
/// letter, digit or `_`) from block to block; it starts `false`, as the text's start is a word
/// start.
#[inline]
pub(crate) fn push_starts(
    c: &super::classes::Classes,
    at: usize,
    word_before: &mut bool,
    out: &mut Vec<usize>,
) {
    let word = c.alpha | c.digit | c.under;
    let after_word = (word << 1) | *word_before as u16;
    *word_before = word & 0x8000 != 0;
    let mut mask = (c.alpha | c.dash) & !after_word;
    while mask != 0 {
        out.push(at + mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::prescan::Prescan;

    /// Every word start of every letter, byte by byte, at any alignment.
    #[test]
    fn starts_by_letter() {
        let text = "Pass-pin _pw x-u --User a9b é-k PIN\tpass,Bearer 12abc KENNWORT_ß wx";
        for pad in 0..17 {
            let t = format!("{}{text}", "q".repeat(pad));
            let b = t.as_bytes();
            let pre = Prescan::new(&t);
            let starts = pre.starts.as_ref().unwrap();
            for first in (b'a'..=b'z').chain([b'-']) {
                let want: Vec<usize> = (0..b.len())
                    .filter(|&i| b[i].to_ascii_lowercase() == first)
                    .filter(|&i| i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
                    .collect();
                assert_eq!(starts.of_letter(first).unwrap(), want, "{t:?} {first}");
            }
            assert!(starts.of_letter(b'_').is_none());
        }
    }
}
