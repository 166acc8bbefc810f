//! Small questions about the text around a match, shared by recognizers: what is just before
//! it, whether it is glued into a longer token or into code, whether a word starts at a place.
//! Kept here, in one file, so recognizers use these instead of writing their own copies.

/// A validated match: byte offsets into the scanned text and a confidence in 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    pub score: f32,
}

/// A candidate's surroundings, for checks that must see what is next to the match.
pub(crate) fn before(text: &str, start: usize) -> &[u8] {
    &text.as_bytes()[start.saturating_sub(24)..start]
}

/// True when the match is glued to a longer token (`ORD-2024-88123`, a UUID group, `v1.2.3`):
/// then the digits belong to an identifier, not to a phone number or an address.
pub(crate) fn embedded_in_token(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let left = |i: usize| (i > 0).then(|| b[i - 1]);
    match left(start) {
        Some(c) if c.is_ascii_alphanumeric() => return true,
        Some(c) if glue(c) && left(start - 1).is_some_and(|d| d.is_ascii_alphanumeric()) => {
            return true
        }
        _ => {}
    }
    glued_after(b, end)
}

/// Bytes that join a value to a longer token. `=` and `:` are left out: `ip=10.0.0.1` and
/// `tel:+1…` hold whole values.
fn glue(c: u8) -> bool {
    matches!(c, b'-' | b'.' | b'_' | b'/' | b'#')
}

/// Whether a match ending at `end` goes on into a token (the right half of
/// [`embedded_in_token`]).
pub(crate) fn glued_after(b: &[u8], end: usize) -> bool {
    match b.get(end) {
        Some(c) if c.is_ascii_alphanumeric() => true,
        Some(&c) if glue(c) => b.get(end + 1).is_some_and(u8::is_ascii_alphanumeric),
        _ => false,
    }
}

/// A hit with this span and score: what a check returns when it accepts a match.
pub(crate) fn hit(start: usize, end: usize, score: f32) -> Option<Hit> {
    Some(Hit { start, end, score })
}

/// Whether `text[at..]` starts with `word` (lower-case ASCII), ignoring ASCII case.
pub(crate) fn starts_ci(text: &str, at: usize, word: &str) -> bool {
    let b = text.as_bytes();
    b.len() - at >= word.len() && b[at..at + word.len()].eq_ignore_ascii_case(word.as_bytes())
}

/// Whether a word is glued into code: a type or a field (`` `Uri` ``, `From<Uri>`, `Uri::new`,
/// `cfg.Andy`, `Uri.parse`, `Uri_builder`, `Option<String>`, `Token![=]`), not a person
/// named in prose.
pub(crate) fn glued_into_code(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let before = start.checked_sub(1).map(|i| b[i]);
    let after = b.get(end).copied();
    let next = b.get(end + 1).copied();
    // Not `_` around a word (Markdown emphasis: `_Markus Scherer_`), nor `<` after (markup:
    // `<b>Larry</b>`): both hold names.
    matches!(before, Some(b'`' | b'<' | b'.' | b':' | b'$' | b'\\'))
        || matches!(after, Some(b'`' | b'>' | b'(' | b'['))
        || (after == Some(b'_') && next.is_some_and(|c| c.is_ascii_alphanumeric()))
        // A generic (`Option<String>`, not `<b>` markup) or a macro (`Token![=]`).
        || (after == Some(b'<') && next.is_some_and(|c| c.is_ascii_uppercase() || c == b'&'))
        || (after == Some(b'!') && next == Some(b'['))
        || (after == Some(b':') && next == Some(b':'))
        || (after == Some(b'.') && next.is_some_and(|c| c.is_ascii_alphabetic()))
}

/// Whether a value is a placeholder someone fills in later, not a value: a filler character
/// repeated (`xxxxxxxx`, `AKIAXXXXXXXXXXXXXXXX` past its prefix, `********`), or words that say
/// so (`your_api_key_here`, `change-this-in-production`, `REPLACE_ME`, `<password>`).
pub(crate) fn placeholder(value: &str) -> bool {
    const SAYS_SO: [&str; 16] = [
        "your",
        "yours",
        "here",
        "changeme",
        "change",
        "replace",
        "placeholder",
        "dummy",
        "insert",
        "fill",
        "todo",
        "fixme",
        "sample",
        "example",
        "setme",
        "redacted",
    ];
    let v = value.trim_matches(|c: char| matches!(c, '"' | '\'' | '`'));
    if v.starts_with(['<', '{', '$', '%', '[']) {
        return true;
    }
    let tail: Vec<u8> = v.bytes().rev().take(16).collect();
    let mut distinct = tail.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if tail.len() >= 6 && distinct.len() <= 2 && tail.iter().all(|c| b"xX*0._-".contains(c)) {
        return true;
    }
    v.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| SAYS_SO.iter().any(|s| w.eq_ignore_ascii_case(s)))
}

#[cfg(test)]
mod tests {
    use super::placeholder;

    #[test]
    fn placeholders_say_they_are_ones() {
        for p in [
            "your_api_key_here",
            "REPLACE_ME",
            "change-this-in-production",
            "<password>",
            "sk_test_xxxxxxxxxxxxxxxxxxxxxxxx",
            "AKIAXXXXXXXXXXXXXXXX",
            "********",
            "${DB_PASS}",
        ] {
            assert!(placeholder(p), "{p}");
        }
        for v in [
            "hunter2-Zq8",
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "AKIAIOSFODNN7EXAMPL3",
            "correct-horse-battery",
        ] {
            assert!(!placeholder(v), "{v}");
        }
    }
}
