//! The values after a label: an identifier of any format, or a card number passing Luhn.

use crate::validate;

/// The identifier starting at `at`: groups of ASCII letters and digits joined by single
/// separators (`-`, `.`, `/`, a space), 5–20 letters and digits with at least two digits. A
/// group of letters alone is part of it only in capitals and short ("QQ 12 34 56 A", "12345678
/// Z"): "123456789 and" ends before "and". A space joins only a group holding a digit or a
/// single capital, "I" and "A" only when no word follows ("… 456 I think" ends before "I";
/// "QQ 12 34 56 C but" keeps its "C").
pub(super) fn identifier(b: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut i = at;
    let mut end = at;
    let (mut alnum, mut digits) = (0, 0);
    loop {
        let g = i;
        while i < b.len() && b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let group = &b[g..i];
        let group_digits = group.iter().filter(|c| c.is_ascii_digit()).count();
        if group.is_empty()
            || (group_digits == 0
                && !(group.len() <= 3 && group.iter().all(u8::is_ascii_uppercase)))
        {
            break;
        }
        alnum += group.len();
        digits += group_digits;
        end = i;
        let Some(&sep) = b.get(i) else { break };
        if !matches!(sep, b'-' | b'.' | b'/' | b' ')
            || !b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric)
        {
            break;
        }
        if sep == b' ' {
            let next = i + 1;
            let mut n = next;
            while n < b.len() && b[n].is_ascii_alphanumeric() {
                n += 1;
            }
            let word = &b[next..n];
            let has_digit = word.iter().any(u8::is_ascii_digit);
            // Of the single capitals only "I" and "A" are English words ("… 456 I think").
            let capital = word.len() == 1
                && word[0].is_ascii_uppercase()
                && !(matches!(word[0], b'I' | b'A')
                    && b.get(n) == Some(&b' ')
                    && b.get(n + 1).is_some_and(u8::is_ascii_alphabetic));
            if !(has_digit || capital) || alnum == 0 {
                break;
            }
        }
        i += 1;
    }
    // A value that is letters alone at its start ("AB") and no digit after is no identifier.
    ((5..=20).contains(&alnum) && digits >= 2 && !glued_on(b, end)).then_some((at, end))
}

/// Whether the value ending at `end` goes on into a token the identifier did not take
/// (`123456789abc`, `12345@example`): then it is part of something else.
fn glued_on(b: &[u8], end: usize) -> bool {
    matches!(b.get(end), Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'@' | b'_'))
}

/// A card number at `at`: 12–19 digits in groups joined by one kind of separator (a space, `-`
/// or `.`), passing Luhn.
pub(super) fn card(b: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut i = at;
    let mut sep = None;
    let mut digits = Vec::with_capacity(19);
    loop {
        while i < b.len() && b[i].is_ascii_digit() {
            digits.push(b[i] - b'0');
            i += 1;
        }
        let end = i;
        match b.get(i) {
            Some(&c @ (b' ' | b'-' | b'.'))
                if sep.is_none_or(|s| s == c) && b.get(i + 1).is_some_and(u8::is_ascii_digit) =>
            {
                sep = Some(c);
                i += 1;
            }
            _ => {
                let ok = (12..=19).contains(&digits.len())
                    && luhn(&digits)
                    && !glued_on(b, end)
                    && !(b.get(end) == Some(&b'.')
                        && b.get(end + 1).is_some_and(u8::is_ascii_digit));
                return ok.then_some((at, end));
            }
        }
        if digits.len() > 19 {
            return None;
        }
    }
}

/// Luhn over digit values, and not one digit repeated ("0000 0000 0000 0000" passes Luhn).
fn luhn(digits: &[u8]) -> bool {
    validate::luhn(digits) && digits.iter().any(|&d| d != digits[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_end_where_the_sentence_goes_on() {
        fn id(t: &str) -> Option<&str> {
            identifier(t.as_bytes(), 0).map(|(s, e)| &t[s..e])
        }
        assert_eq!(id("666123456 and that"), Some("666123456"));
        assert_eq!(id("QQ 12 34 56 A."), Some("QQ 12 34 56 A"));
        assert_eq!(id("123456789 I think"), Some("123456789"));
        assert_eq!(id("QQ 12 34 56 C but"), Some("QQ 12 34 56 C"));
        assert_eq!(id("D123-4567-8901, ok"), Some("D123-4567-8901"));
        assert_eq!(id("C01X00T47"), Some("C01X00T47"));
        assert_eq!(id("expired"), None);
        assert_eq!(id("on file"), None);
        assert_eq!(id("1234"), None, "too short");
        assert_eq!(id("12345678901234567890123"), None, "too long");
    }

    #[test]
    fn cards_pass_luhn_in_one_grouping() {
        fn c(t: &str) -> Option<&str> {
            card(t.as_bytes(), 0).map(|(s, e)| &t[s..e])
        }
        assert_eq!(c("4111.1111.1111.1111 exp"), Some("4111.1111.1111.1111"));
        assert_eq!(c("6759649826438453"), Some("6759649826438453"));
        assert_eq!(c("4111 1111-1111-1111"), None, "two kinds of separator");
        assert_eq!(c("4111111111111112"), None, "Luhn");
    }
}
