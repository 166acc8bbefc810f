//! Where the secret sits inside a password match, found by reading the match instead of asking
//! the regex for its capture group. The regexes bound their values (`{4,200}`), which makes
//! their NFAs large; resolving a group meant a backtracking search whose bookkeeping was
//! cleared per match, and that cost more than every other recognizer's regex search together.
//!
//! Each function follows its pattern's leftmost-first choices and returns the group's span, or
//! `None` when the match is not of the expected shape; the caller then asks the regex, so a
//! mistake here can cost time but never change a result. A test compares both on the corpus
//! and on generated text.

use crate::scan::prescan::{skip_space, skip_space_back};

/// `\b(?i-u:bearer)\s+([A-Za-z0-9._~+/=-]{16,})`: the token after the white space.
pub(crate) fn bearer(text: &str, s: usize, e: usize) -> Option<(usize, usize)> {
    let g = skip_space(text, s + "bearer".len());
    (g > s + "bearer".len() && g < e).then_some((g, e))
}

/// `… (?:is|was|=|:)\s+([^\s,;]{4,100})`: the value after the last white space of the match.
pub(crate) fn stated(text: &str, s: usize, e: usize) -> Option<(usize, usize)> {
    let (at, c) = text[s..e]
        .char_indices()
        .rfind(|(_, c)| c.is_whitespace())?;
    let g = s + at + c.len_utf8();
    (g < e).then_some((g, e))
}

/// `KEYWORD["']?\s*(?:[:=]|:=|=>)\s*(?:"(v)"|'(v)'|`(v)`|(bare))`, the `password=…`
/// pattern, found without its regex: every match has its operator at a `:` or `=` with a
/// keyword in front, so each operator is a candidate, taken in text order as the regex's
/// leftmost-first search takes them. Pushes each match's value span.
pub(crate) fn assignments(text: &str, keywords: &[&str], out: &mut Vec<(usize, usize)>) {
    let b = text.as_bytes();
    // The bytes keywords end with (either case): most operators follow none of them (times,
    // URLs, JSON), and are passed over with one look-up.
    let mut ends = [false; 256];
    for k in keywords {
        let last = k.as_bytes()[k.len() - 1];
        ends[last.to_ascii_lowercase() as usize] = true;
        ends[last.to_ascii_uppercase() as usize] = true;
    }
    // The keywords by their last byte (lower case), as bits of their indices: an operator is
    // compared only with the keywords that can end before it.
    let mut by_last = [0u64; 256];
    for (n, k) in keywords.iter().enumerate() {
        let bit = 1u64.checked_shl(n as u32).unwrap_or(0);
        by_last[k.as_bytes()[k.len() - 1].to_ascii_lowercase() as usize] |= bit;
    }
    // Past 64 keywords (none so far) the bits run out: those are compared with every operator.
    let rest = keywords.get(64..).unwrap_or_default();
    let mut searched_to = 0;
    for op in memchr::memchr2_iter(b':', b'=', b) {
        if op < searched_to || (op > 0 && !ends[b[op - 1] as usize] && !quote_or_space(b[op - 1])) {
            continue;
        }
        // When the value does not fit, the regex goes on after the keyword's start; every
        // shorter keyword ending at the same place has the same operator and value, so the
        // next candidate is the next operator.
        if !keyword_before(text, op, (keywords, &by_last, rest), searched_to) {
            continue;
        }
        if let Some((gs, ge, end)) = assignment_at(text, op) {
            out.push((gs, ge));
            searched_to = end;
        }
    }
}

/// What may stand between a keyword and its operator ([`keyword_before`]): white space (any
/// byte of a non-ASCII space too) and a quote.
fn quote_or_space(c: u8) -> bool {
    matches!(c, b'"' | b'\'') || c.is_ascii_whitespace() || c == 0x0b || c >= 0x80
}

/// Whether a keyword (ASCII case-insensitive) starting at `from` or later ends just before
/// `op`, with white space and one quote allowed in between.
fn keyword_before(
    text: &str,
    op: usize,
    (keywords, by_last, rest): (&[&str], &[u64; 256], &[&str]),
    from: usize,
) -> bool {
    let b = text.as_bytes();
    let mut end = skip_space_back(text, op);
    if end > 0 && matches!(b[end - 1], b'"' | b'\'') {
        end -= 1;
    }
    let Some(last) = end.checked_sub(1).map(|i| b[i].to_ascii_lowercase()) else {
        return false;
    };
    let mut bits = by_last[last as usize];
    let ending = std::iter::from_fn(|| {
        let n = bits.trailing_zeros() as usize;
        bits &= bits.wrapping_sub(1);
        keywords.get(n).filter(|_| n < 64)
    });
    ending.chain(rest).any(|k| {
        k.as_bytes()[k.len() - 1] == last
            && end >= from + k.len()
            && b[end - k.len()..end].eq_ignore_ascii_case(k.as_bytes())
    })
}

/// The value after the operator at `op`: its three spellings are tried in the regex's order,
/// and the first value that fits wins. Returns the value and the end of the match.
fn assignment_at(text: &str, op: usize) -> Option<(usize, usize, usize)> {
    let b = text.as_bytes();
    let two = b[op..].starts_with(b":=") || b[op..].starts_with(b"=>");
    [Some(op + 1), two.then_some(op + 2)]
        .into_iter()
        .flatten()
        .find_map(|after| value_at(text, skip_space(text, after)))
}

/// The value of a match of the `password=…` pattern found by its regex (the operator is the
/// first `:` or `=`: keywords hold neither).
#[cfg(test)]
pub(crate) fn assigned(text: &str, s: usize, e: usize) -> Option<(usize, usize)> {
    let op = s + memchr::memchr2(b':', b'=', &text.as_bytes()[s..e])?;
    assignment_at(text, op).and_then(|(gs, ge, end)| (end == e).then_some((gs, ge)))
}

/// A value starting at `g`: quoted (4–200 characters, one line) or bare (4–200 characters of
/// `[^\s"'`,;]`, as many as there are). Returns the group and the end of the match.
fn value_at(text: &str, g: usize) -> Option<(usize, usize, usize)> {
    let rest = text.get(g..)?;
    let first = rest.chars().next()?;
    if matches!(first, '"' | '\'' | '`') {
        for (count, (i, c)) in rest[1..].char_indices().enumerate() {
            if c == first {
                let inner = g + 1 + i;
                return (4..=200)
                    .contains(&count)
                    .then_some((g + 1, inner, inner + 1));
            }
            if c == '\n' || count == 200 {
                return None;
            }
        }
        return None;
    }
    let mut end = g;
    let mut count = 0;
    for c in rest.chars() {
        if count == 200 || c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ',' | ';') {
            break;
        }
        end += c.len_utf8();
        count += 1;
    }
    (count >= 4).then_some((g, end, end))
}

#[cfg(test)]
mod tests {
    use super::assigned;
    use crate::recognizers::registry::built_in;
    use crate::scan::gate_texts::gate_texts;
    use proptest::prelude::*;
    use regex_automata::{Anchored, Input};

    type Span = Option<(usize, usize)>;

    /// For every match of every pattern that has a value reader or a finder: what the reader
    /// (or the finder) says, what the capture group is, and whether the reader answered.
    fn compare(text: &str) -> Vec<(Span, Span, bool)> {
        let mut out = Vec::new();
        for c in built_in() {
            let reader = match (c.spec.value, c.spec.finder) {
                (Some(value), _) => value,
                (None, Some(_)) => assigned,
                (None, None) => continue,
            };
            let mut caps = c.regex.create_captures();
            let mut groups = Vec::new();
            for m in c.regex.find_iter(text) {
                let (s, e) = (m.start(), m.end());
                let input = Input::new(text).span(s..e).anchored(Anchored::Yes);
                c.regex.search_captures(&input, &mut caps);
                let group = (c.spec.group..caps.group_len())
                    .find_map(|g| caps.get_group(g))
                    .map(|g| (g.start, g.end));
                let read = reader(text, s, e);
                out.push((read.or(group), group, read.is_some()));
                groups.extend(group);
            }
            if let Some(finder) = c.spec.finder {
                let mut found = Vec::new();
                finder(text, &mut found);
                assert_eq!(found, groups, "finder on {text:?}");
            }
        }
        out
    }

    #[test]
    fn readers_find_the_capture_group() {
        let mut answered = 0;
        let mut total = 0;
        for text in gate_texts() {
            for (read, group, some) in compare(&text) {
                assert_eq!(read, group, "{text:?}");
                answered += some as usize;
                total += 1;
            }
        }
        // They must also be worth having: the regex is the exception.
        assert!(total > 500 && answered == total, "{answered} of {total}");
    }

    proptest! {
        #[test]
        fn readers_agree_on_generated_assignments(
            parts in proptest::collection::vec(prop_oneof![
                Just("password"), Just("Token"), Just("client_secret"), Just("bearer"),
                Just("client_"), Just("secret"), Just("pwd"),
                Just("my password is"), Just("pin : "), Just("\""), Just("'"), Just("`"),
                Just(":"), Just("="), Just(":="), Just("=>"), Just(" "), Just("\u{a0}"),
                Just("\n"), Just(","), Just(";"), Just("abcd"), Just("x"), Just("é"),
                Just("0123456789abcdef"),
            ], 0..24)
        ) {
            let text = parts.concat();
            for (read, group, _) in compare(&text) {
                prop_assert_eq!(read, group, "{:?}", text);
            }
        }
    }
}
