//! Context words: a word near a match ("call", "born", "SSN") that raises its score, as
//! Presidio's context enhancement does. [`cued`] is the cheap pre-check over a whole gate
//! window; [`has_context`] the exact test around one match.

/// Whether one of the context `words` may occur in `text[lo..hi]`: ASCII case-insensitively,
/// a non-ASCII letter standing for itself in any case. A superset of what [`has_context`] finds
/// in any window inside the range.
pub(crate) fn cued(text: &str, lo: usize, hi: usize, words: &[&str], pairs: &Pairs) -> bool {
    let span = &text.as_bytes()[lo..hi.min(text.len())];
    // One pass over the window; only the first two bytes of a context word are looked at
    // before the word itself ("a", "b", "d", "n" start half the words of a text; "ag", "bi",
    // "do", "na" far fewer).
    (0..span.len().saturating_sub(1)).any(|i| {
        // Most bytes start no context word: one look-up (by the byte as written) rules them
        // out.
        let follow = pairs.0[span[i] as usize];
        let c = span[i].to_ascii_lowercase();
        follow != 0
            && follow & pair_bit(span[i + 1]) != 0
            && words.iter().any(|w| {
                if w.as_bytes()[0] != c {
                    return false;
                }
                let ascii = w.find(|c: char| !c.is_ascii()).unwrap_or(w.len());
                let (head, rest) = w.as_bytes().split_at(ascii);
                span.len() - i >= head.len()
                    && span[i..i + head.len()].eq_ignore_ascii_case(head)
                    && (rest.is_empty() || span.get(i + head.len()).is_some_and(|&b| b >= 0x80))
            })
    })
}

/// For each first byte of a context word, in either ASCII case, the bits ([`pair_bit`]) of the
/// bytes that can follow it.
pub(crate) struct Pairs(Box<[u32; 256]>);

impl Pairs {
    pub(crate) fn of(words: &[&str]) -> Pairs {
        let mut first = Box::new([0u32; 256]);
        for w in words {
            let w = w.as_bytes();
            let follow = pair_bit(w.get(1).copied().unwrap_or(b' '));
            first[w[0].to_ascii_lowercase() as usize] |= follow;
            first[w[0].to_ascii_uppercase() as usize] |= follow;
        }
        Pairs(first)
    }
}

/// A bit per ASCII letter (either case); every other byte shares the last bit.
pub(crate) fn pair_bit(b: u8) -> u32 {
    match b.to_ascii_lowercase() {
        c @ b'a'..=b'z' => 1 << (c - b'a'),
        _ => 1 << 26,
    }
}

/// A context window narrowed to the line of `text[start..end]`.
pub(crate) fn line_window(
    text: &str,
    start: usize,
    end: usize,
    (before, after): (usize, usize),
) -> (usize, usize) {
    let b = text.as_bytes();
    let lo = start.saturating_sub(before);
    let newline = memchr::memrchr(b'\n', &b[lo..start]).map(|i| lo + i);
    let mut cut = newline.map_or(before, |n| start - (n + 1));
    // A label alone on the line above a value that opens its line ("Phone:\n439 4166") is
    // the value's own label.
    if let Some(line) = newline
        .map(|n| n + 1)
        .filter(|&line| line > lo && b[line..start].iter().all(|c| matches!(c, b' ' | b'\t')))
    {
        let above = &b[lo..line - 1];
        let label = above.strip_suffix(b"\r").unwrap_or(above);
        let label_end = label.iter().rposition(|c| !matches!(c, b' ' | b'\t'));
        if label_end.is_some_and(|i| label[i] == b':') {
            cut = memchr::memrchr(b'\n', above).map_or(before, |i| start - (lo + i + 1));
        }
    }
    let before = cut;
    let hi = (end + after).min(b.len());
    let after = memchr::memchr(b'\n', &b[end..hi]).map_or(after, |i| i);
    (before, after)
}

/// Whether one of `words` occurs, starting a word, within the context window around a match.
pub(crate) fn has_context(
    text: &str,
    start: usize,
    end: usize,
    (before, after): (usize, usize),
    words: &[&str],
) -> bool {
    if words.is_empty() {
        return false;
    }
    let mut lo = start.saturating_sub(before);
    while !text.is_char_boundary(lo) {
        lo += 1;
    }
    // A word the window's edge cuts does not start there ("ring" in "around_wring").
    if text[..lo]
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric)
    {
        lo += text[lo..start]
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(start - lo);
    }
    let mut hi = (end + after).min(text.len());
    while !text.is_char_boundary(hi) {
        hi -= 1;
    }
    let (left, right) = (&text[lo..start], &text[end..hi]);
    let found = |window: &[u8]| {
        // Windows are short: a memchr for each word's first byte beats building a substring
        // searcher per word and window.
        words.iter().any(|w| {
            let w = w.as_bytes();
            let at = memchr::memchr_iter(w[0], window).filter(|&i| window[i..].starts_with(w));
            at.into_iter().any(|i| {
                // The character before the word, decoded alone.
                let mut k = i.saturating_sub(1);
                while k > 0 && window[k] & 0xc0 == 0x80 {
                    k -= 1;
                }
                let before = std::str::from_utf8(&window[k..i]).unwrap_or_default();
                !before.chars().next().is_some_and(char::is_alphanumeric)
            })
        })
    };
    // Most windows are short ASCII: lower-case them on the stack.
    let mut buf = [0u8; 128];
    if left.is_ascii() && right.is_ascii() && left.len() + right.len() < buf.len() {
        let n = left.len() + 1 + right.len();
        buf[..left.len()].copy_from_slice(left.as_bytes());
        buf[left.len()] = b' ';
        buf[left.len() + 1..n].copy_from_slice(right.as_bytes());
        buf[..n].make_ascii_lowercase();
        return found(&buf[..n]);
    }
    found(format!("{left} {right}").to_lowercase().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::{has_context, line_window};

    #[test]
    fn a_label_line_above_a_value_is_its_context() {
        let text = "Name: Ana\nPhone:\n439 4166\nMail:";
        let at = text.find("439").unwrap();
        let (before, _) = line_window(text, at, at + 8, (40, 0));
        assert_eq!(&text[at - before..at], "Phone:\n");
        let text = "Hello\n439 4166";
        let at = text.find("439").unwrap();
        assert_eq!(line_window(text, at, at + 8, (40, 0)).0, 0);
    }

    #[test]
    fn context_words_cut_by_the_window_edge_do_not_count() {
        // "ring" is a phone context word; here the window's first bytes are the end of "wring".
        let text = "xxxxxxxxxxxxxxxxxxx around_wring.py ends 739 9804";
        let at = text.find("739").unwrap();
        let lo = text.find("ring").unwrap();
        assert!(!has_context(text, at, at + 8, (at - lo, 0), &["ring"]));
        assert!(has_context(text, at, at + 8, (at - lo + 1, 0), &["wring"]));
        let text = "give me a ring: 739 9804";
        let at = text.find("739").unwrap();
        assert!(has_context(text, at, at + 8, (at - 10, 0), &["ring"]));
    }
}
