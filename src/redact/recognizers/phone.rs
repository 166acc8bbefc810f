//! The phone-number check: what separates a phone number from the other digit groups of a
//! text (dates, clock times, versions, IPs, amounts, postal codes, decimals).

use super::patterns::{before, embedded_in_token, hit};
use super::Hit;

/// Phone numbers: 7–15 digits (E.164), not a date, a version, an IP or an amount, and not part
/// of a longer identifier. An explicit `+` country code is strong evidence; national formats
/// need separators or a context word.
pub(super) fn phone(text: &str, s: usize, mut e: usize) -> Option<Hit> {
    // Trailing separators are not part of the number.
    while e > s && matches!(text.as_bytes()[e - 1], b' ' | b'.' | b'-' | b'/') {
        e -= 1;
    }
    let m = &text[s..e];
    let main = match m.find(|c: char| c.is_ascii_alphabetic() || c == '#') {
        Some(i) => &m[..i],
        None => m,
    };
    let shape = Shape::of(main);
    let digits = shape.digits;
    if !(7..=15).contains(&digits) || embedded_in_token(text, s, e) {
        return None;
    }
    let international = m.starts_with('+') || m.starts_with("00");
    // Dates (2024-01-15, 15.01.2024, 01/15/2024) and clock times are the classic false positive.
    if !international && shape.groups == 3 {
        let l = shape.first;
        if l == [4, 2, 2] || (l[0] <= 2 && l[1] <= 2 && (l[2] == 4 || l[2] == 2)) {
            return None;
        }
    }
    // Followed by the rest of a clock time: a date and an hour ("2024-01-15 10:30:00" in a
    // log line).
    if text.as_bytes().get(e) == Some(&b':')
        && text.as_bytes().get(e + 1).is_some_and(u8::is_ascii_digit)
    {
        return None;
    }
    // One dot between two groups is a decimal point: coordinates, measurements (48.858844).
    if !international && shape.seps == 1 && shape.first_sep == b'.' && shape.groups == 2 {
        return None;
    }
    // US ZIP+4 (12345-6789) and Brazilian CEP (12345-678) are postal codes.
    if !international
        && shape.seps == 1
        && shape.first_sep == b'-'
        && shape.groups == 2
        && shape.first[0] == 5
        && shape.first[1] <= 4
    {
        return None;
    }
    // Versions and IPs are dot-separated with 1-digit groups or parse as an address.
    if shape.dot && (shape.one_digit_group || main.trim().parse::<std::net::Ipv4Addr>().is_ok()) {
        return None;
    }
    // Amounts grouped by thousands next to a currency.
    let prev = before(text, s);
    if prev
        .iter()
        .rev()
        .take(3)
        .any(|c| matches!(c, b'$' | b'\xe2' | b'\xc2'))
    {
        return None;
    }
    // Part of a longer run of digit groups (a card-like number, an ISBN): not a phone.
    let b = text.as_bytes();
    let sep = |c: u8| matches!(c, b' ' | b'-' | b'.');
    if (s >= 2 && sep(b[s - 1]) && b[s - 2].is_ascii_digit())
        || (e + 1 < b.len() && sep(b[e]) && b[e + 1].is_ascii_digit())
    {
        return None;
    }
    // Bare digit runs shorter than nine are order numbers and ids far more often than phones.
    let paren = main.contains('(');
    if shape.seps == 0 && !international && !paren && digits < 9 {
        return None;
    }
    let score = if international && digits >= 8 {
        0.75
    } else if shape.seps == 0 && !paren {
        0.3
    } else if shape.groups >= 2 && shape.long_group {
        0.6
    } else {
        0.35
    };
    hit(s, e, score)
}

/// What [`phone`] asks of a candidate's number part, read in one pass without allocating.
#[derive(Default)]
struct Shape {
    digits: usize,
    /// Runs of digits, and the lengths of the first three.
    groups: usize,
    first: [usize; 3],
    one_digit_group: bool,
    /// A group of three digits or more.
    long_group: bool,
    /// Separators (space, `.`, `-`, `/`) between the number's first and last non-space
    /// character; the first of them; whether one is a dot.
    seps: usize,
    first_sep: u8,
    dot: bool,
}

impl Shape {
    fn of(main: &str) -> Shape {
        let mut shape = Shape::default();
        let mut run = 0;
        let close = |shape: &mut Shape, run: usize| {
            if let Some(slot) = shape.first.get_mut(shape.groups) {
                *slot = run;
            }
            shape.groups += 1;
            shape.digits += run;
            shape.one_digit_group |= run == 1;
            shape.long_group |= run >= 3;
        };
        for &c in main.as_bytes() {
            if c.is_ascii_digit() {
                run += 1;
            } else if run > 0 {
                close(&mut shape, run);
                run = 0;
            }
        }
        if run > 0 {
            close(&mut shape, run);
        }
        for c in main
            .trim()
            .bytes()
            .filter(|c| matches!(c, b' ' | b'.' | b'-' | b'/'))
        {
            if shape.seps == 0 {
                shape.first_sep = c;
            }
            shape.seps += 1;
            shape.dot |= c == b'.';
        }
        shape
    }
}
