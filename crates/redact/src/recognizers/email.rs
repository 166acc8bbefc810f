//! The checks behind the email patterns: an ASCII address, an internationalized one
//! (`иван@mail.ru`, `王伟@例子.中国`) that must not take the words of a script written without
//! spaces around it, and one spelled out against scrapers ("john [at] example [dot] com").

use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::code::in_code_near;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::hit;

/// An address with no `..` or trailing dot in its mailbox and no `..` in its domain.
pub(super) fn email(text: &str, s: usize, e: usize) -> Option<Hit> {
    let m = &text[s..e];
    let (local, domain) = m.split_once('@')?;
    if local.contains("..") || local.ends_with('.') || domain.contains("..") {
        return None;
    }
    // `git@github.com:acme/app.git`, `deploy@db.internal:5432`: a login at a host, with the
    // path or port after a colon, not a mailbox.
    let b = text.as_bytes();
    if b.get(e) == Some(&b':') && b.get(e + 1).is_some_and(|c| !c.is_ascii_whitespace()) {
        return None;
    }
    // Sample data in code: `email: "test@example.com"`, a fixture in a fenced block. The
    // reserved domains (RFC 2606) deliver to no one; in prose they still stand for someone.
    if reserved_domain(domain) && in_code_near(text, s, e) {
        return None;
    }
    hit(s, e, 1.0)
}

/// `example.com`, `.net`, `.org` and their subdomains, and the reserved top-level domains.
fn reserved_domain(domain: &str) -> bool {
    let d = domain.to_ascii_lowercase();
    let d = d.trim_end_matches('.');
    ["example.com", "example.net", "example.org"]
        .iter()
        .any(|r| d == *r || d.ends_with(&format!(".{r}")))
        || [".example", ".test", ".invalid", ".localhost"]
            .iter()
            .any(|t| d.ends_with(t))
}

/// An address with a non-ASCII letter (ASCII ones are the other pattern's), standing alone:
/// no letter or digit right before or after it, except the words of a script written without
/// spaces, which an address runs straight into ("メールはtaro@example.jpです").
pub(super) fn unicode_email(text: &str, s: usize, e: usize) -> Option<Hit> {
    let (s, e) = without_unspaced_words(text, s, e);
    let word = |c: char| (c.is_alphanumeric() || c == '_') && !unspaced_script(c);
    if text[s..e].is_ascii()
        || text[..s].chars().next_back().is_some_and(word)
        || text[e..].chars().next().is_some_and(word)
    {
        return None;
    }
    email(text, s, e)
}

/// Letters of scripts written without spaces between words: Thai, Hangul, kana and CJK
/// ideographs (Korean spaces words but glues particles to them: "kim@naver.com입니다").
fn unspaced_script(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0E7F | 0x1100..=0x11FF | 0x3040..=0x30FF | 0x3130..=0x318F
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF
        | 0x20000..=0x2FFFF)
}

/// The match `s..e` without the words of an unspaced script glued to an ASCII address: a
/// mailbox that switches from such a script to an ASCII run starts at that run
/// ("我的邮箱是zhang.wei@…"), and a domain ends where such a script follows an ASCII letter
/// ("…@example.co.jpです"). All-CJK addresses ("王伟@例子.中国") keep both ends.
fn without_unspaced_words(text: &str, s: usize, e: usize) -> (usize, usize) {
    let Some(at) = text[s..e].find('@').map(|i| s + i) else {
        return (s, e);
    };
    let mut start = s;
    if let Some((i, c)) = text[s..at]
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_ascii())
    {
        if unspaced_script(c) {
            // The ASCII run starts with a letter or digit, not a separator.
            let run = s + i + c.len_utf8();
            start = text[run..at]
                .find(|c: char| c.is_ascii_alphanumeric())
                .map_or(start, |j| run + j);
        }
    }
    let mut end = e;
    let mut prev_ascii_letter = false;
    for (i, c) in text[at + 1..e].char_indices() {
        if prev_ascii_letter && unspaced_script(c) {
            end = at + 1 + i;
            break;
        }
        prev_ascii_letter = c.is_ascii_alphabetic();
    }
    (start, end)
}

/// Whether `[at]`, `(at)`, `{at}` or `<at>` (any case) has its `at` at `at`: every address
/// spelled out against scrapers has one. The word "at" alone is everywhere.
pub(super) fn spelled_at(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let pair = |open: u8| match open {
        b'[' => Some(b']'),
        b'(' => Some(b')'),
        b'{' => Some(b'}'),
        b'<' => Some(b'>'),
        _ => None,
    };
    at > 0
        && b.len() > at + 2
        && b[at..at + 2].eq_ignore_ascii_case(b"at")
        && pair(b[at - 1]) == Some(b[at + 2])
}

// What a gate run (or seed) must look like to hold a match, looking only at its bytes
// (see `Runs::accepting` and `Runs::seeded_where` in `scan/gate.rs`).

/// Holds a non-ASCII byte (a letter of an internationalized e-mail address, say).
fn non_ascii(run: &[u8]) -> bool {
    !run.is_ascii()
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(Email, r"\b[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}\b", email)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "._%+-@"]), seeds: &["@"], min_seeds: 1, min_len: 3 })),
        // Internationalized addresses (`иван@пример.рф`, `user@bücher.de`): only runs holding a
        // non-ASCII byte are searched, so ASCII text pays nothing for the Unicode classes.
        Spec::new(Email, r"[\p{L}\p{N}][\p{L}\p{N}._%+-]{0,63}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,24}", unicode_email)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["A-Z", "a-z", "0-9", "._%+-@", "non-ascii"]), seeds: &["@"], min_seeds: 1, min_len: 3 }).accepting(non_ascii)),
        // Spelled out against scrapers: "john [at] example [dot] com". A bracketed `at`
        // between a mailbox and a domain is written for no other reason.
        Spec::new(Email, r"\b[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}[^\S\n]?(?i:\[at\]|\(at\)|\{at\}|<at>)[^\S\n]?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?[^\S\n]?(?i:\[dot\]|\(dot\)|\{dot\}|<dot>|\.)[^\S\n]?)+[A-Za-z]{2,24}\b", |_, s, e| hit(s, e, 0.9))
            .gate(Gate::Near { words: &["at"], back: 1, ahead: 10, test: Some(spelled_at) }),
    ]
}
