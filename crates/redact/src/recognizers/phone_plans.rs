//! Numbers that read as phone numbers with no word around them. Chats give numbers bare ("I put
//! 7529170342 on the form") and sign off with contact blocks whose number line has no label;
//! what these checks accept is shaped so that little else in a chat shares the shape.

/// A number written as one run of digits in a national plan's own shape: ten digits of the
/// North American plan (area code and exchange both start 2–9, so Unix timestamps, which start
/// with 1 until 2033, never match), with or without its leading 1; or ten or eleven digits
/// after a trunk 0 (UK, German, French, Dutch, Australian numbers: "07700 900123" typed
/// together). Counting runs ("0123456789") and one repeated digit are test data.
pub(super) fn dialable_run(run: &str) -> bool {
    let d = run.as_bytes();
    if !d.iter().all(u8::is_ascii_digit) || counting(d) {
        return false;
    }
    let nanp =
        |n: &[u8]| n.len() == 10 && n[0] >= b'2' && n[3] >= b'2' && !(n[1] == b'1' && n[2] == b'1');
    match d.len() {
        10 => nanp(d) || (d[0] == b'0' && d[1] != b'0'),
        11 => (d[0] == b'1' && nanp(&d[1..])) || (d[0] == b'0' && d[1] != b'0'),
        _ => false,
    }
}

/// Whether another long digit run (six digits or more) stands within 40 bytes on the same
/// line, or the line is a table's row: "wiper blades 3397007297 and 3397118932" lists part
/// numbers, "| 2023-04-21 | 6192177525 | failed |" is a log; a bare phone number is given
/// alone.
pub(super) fn listed_with_other_numbers(text: &str, s: usize, e: usize) -> bool {
    let b = text.as_bytes();
    let lo = text[..s]
        .rfind('\n')
        .map_or(0, |i| i + 1)
        .max(s.saturating_sub(40));
    let hi = text[e..]
        .find('\n')
        .map_or(text.len(), |i| e + i)
        .min(e + 40);
    let long_run = |range: &[u8]| {
        range
            .split(|c| !c.is_ascii_digit())
            .any(|run| run.len() >= 6)
    };
    long_run(&b[lo..s])
        || long_run(&b[e..hi])
        || table_row(&text[line_start(text, s)..line_end(text, e)])
}

/// A row of a table (two cells or more, split by `|` or tabs): its numbers are figures and
/// ids, and a phone column has a header the cue words would not see anyway.
fn table_row(line: &str) -> bool {
    line.matches('|').count() >= 2 || line.matches('\t').count() >= 2
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i)
}

/// Whether the digits count up or down by one, or repeat one digit: keyboard filler.
fn counting(d: &[u8]) -> bool {
    let steps: Vec<i16> = d.windows(2).map(|w| w[1] as i16 - w[0] as i16).collect();
    steps.iter().all(|&s| s == 0)
        || steps.iter().all(|&s| s == 1 || s == -9)
        || steps.iter().all(|&s| s == -1 || s == 9)
}

/// Whether the number `s..e` stands alone on its line in a contact block: the line holds
/// nothing else, and a line next to it (two at most, either side) holds an e-mail address. A
/// signature ("Jane Miller / 961 52 200 / jane@example.org") labels nothing, but the address
/// beside the number says what it is; a column of figures in a table has no such neighbour.
pub(super) fn alone_in_contact_block(text: &str, s: usize, e: usize) -> bool {
    let (line_start, line_end) = (line_start(text, s), line_end(text, e));
    let rest = |t: &str| {
        t.trim_matches(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .is_empty()
    };
    if !rest(&text[line_start..s]) || !rest(&text[e..line_end]) {
        return false;
    }
    let above = text[..line_start].lines().rev().take(2);
    let below = text[line_end..].lines().skip(1).take(2);
    above.chain(below).any(holds_email)
}

/// A word with one `@`, a local part and a dotted domain: enough to tell a signature's e-mail
/// line from prose, not a validator (the e-mail recognizer is that).
fn holds_email(line: &str) -> bool {
    line.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| "<>()[],;:\"'".contains(c));
        match w.split_once('@') {
            Some((local, domain)) => {
                !local.is_empty()
                    && !domain.contains('@')
                    && domain.contains('.')
                    && !domain.starts_with('.')
                    && !domain.ends_with('.')
            }
            None => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_in_a_national_plan_shape() {
        for run in [
            "7529170342",
            "17529170342",
            "07700777741",
            "04072247045",
            "0612345678",
        ] {
            assert!(dialable_run(run), "{run}");
        }
        // A Unix time, an area code of 1, an exchange of 1, N11, filler, zero padding, 9 digits.
        for run in [
            "1419314170",
            "1529170342",
            "7521170342",
            "4115550132",
            "0123456789",
            "9876543210",
            "5555555555",
            "0004567890",
            "752917034",
        ] {
            assert!(!dialable_run(run), "{run}");
        }
    }

    #[test]
    fn a_number_alone_beside_an_email_line() {
        let sig = "Thanks,\nJane Miller\n961 52 200\njane@example.org";
        let s = sig.find("961").unwrap();
        assert!(alone_in_contact_block(sig, s, s + 10));
        let table = "id | count\n961 52 200\n44 12 900";
        let s = table.find("961").unwrap();
        assert!(!alone_in_contact_block(table, s, s + 10));
        let prose = "Room 961 52 200 seats\njane@example.org";
        let s = prose.find("961").unwrap();
        assert!(!alone_in_contact_block(prose, s, s + 10));
    }

    #[test]
    fn part_numbers_come_in_lists() {
        let text = "The wiper blades 3397007297 and 3397118932, which fits?";
        let s = text.find("3397007297").unwrap();
        assert!(listed_with_other_numbers(text, s, s + 10));
        let text = "| 2023-04-21 | 6192177525 | failed |";
        let s = text.find("6192177525").unwrap();
        assert!(listed_with_other_numbers(text, s, s + 10));
        let text = "I put 7529170342 on the form, ticket 12 is closed";
        let s = text.find("7529170342").unwrap();
        assert!(!listed_with_other_numbers(text, s, s + 10));
    }
}
