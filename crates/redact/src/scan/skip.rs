//! Skipping white space and words (Unicode `\s`, as the regexes read it), forwards and
//! backwards: the keyword gates and the value readers walk words with these.

/// Whether ASCII byte `c` is white space (Unicode `\s`: `char::is_whitespace`).
#[inline]
fn ascii_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The end of the white space (Unicode `\s`) starting at `i`. ASCII bytes are read as bytes:
/// decoding each as a char cost more than the keyword gates' other work.
pub(crate) fn skip_space(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    loop {
        match b.get(i) {
            Some(&c) if c < 0x80 => {
                if !ascii_space(c) {
                    return i;
                }
                i += 1;
            }
            _ => match text.get(i..).and_then(|t| t.chars().next()) {
                Some(c) if c.is_whitespace() => i += c.len_utf8(),
                _ => return i,
            },
        }
    }
}

/// The start of the white space (Unicode `\s`) ending at `i`.
pub(crate) fn skip_space_back(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    loop {
        match i.checked_sub(1).map(|j| b[j]) {
            None => return i,
            Some(c) if c < 0x80 => {
                if !ascii_space(c) {
                    return i;
                }
                i -= 1;
            }
            _ => match text[..i].chars().next_back() {
                Some(c) if c.is_whitespace() => i -= c.len_utf8(),
                _ => return i,
            },
        }
    }
}

/// The end of the run of non-white-space characters starting at `i`.
pub(crate) fn skip_word(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    loop {
        match b.get(i) {
            Some(&c) if c < 0x80 => {
                if ascii_space(c) {
                    return i;
                }
                i += 1;
            }
            _ => match text.get(i..).and_then(|t| t.chars().next()) {
                Some(c) if !c.is_whitespace() => i += c.len_utf8(),
                _ => return i,
            },
        }
    }
}

/// The start of the run of non-white-space characters ending at `i`.
pub(crate) fn skip_word_back(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    loop {
        match i.checked_sub(1).map(|j| b[j]) {
            None => return i,
            Some(c) if c < 0x80 => {
                if ascii_space(c) {
                    return i;
                }
                i -= 1;
            }
            _ => match text[..i].chars().next_back() {
                Some(c) if !c.is_whitespace() => i -= c.len_utf8(),
                _ => return i,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_space_skips() {
        for c in 0..0x80u8 {
            assert_eq!(ascii_space(c), (c as char).is_whitespace(), "{c:#x}");
        }
        let t = "ab \u{a0}\u{2003}cd";
        assert_eq!(skip_space(t, 2), 8);
        assert_eq!(skip_space_back(t, 8), 2);
        assert_eq!(skip_word(t, 8), t.len());
        assert_eq!(skip_word_back(t, 2), 0);
    }
}
