//! The phone-number check: what separates a phone number from the other digit groups of a
//! text (dates, clock times, versions, IPs, amounts, postal codes, decimals).

use super::phone_plans::{alone_in_contact_block, dialable_run, listed_with_other_numbers};
use super::{Hit, Spec};
use crate::entity::EntityType;
use crate::scan::gate::{ByteSet, Gate, RunShape};
use crate::scan::text::{embedded_in_token, hit};

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
        // "415-555-0132, ext. 12": the comma belongs to neither.
        Some(i) => m[..i].trim_end_matches([' ', ',']),
        None => m,
    };
    let shape = Shape::of(main);
    let digits = shape.digits;
    // Six digits only in three pairs, a local number of the smallest plans ("87 47 98"),
    // and then only with a context word (scored below the minimum without one).
    let pairs = digits == 6 && shape.groups == 3 && shape.first == [2, 2, 2];
    if !((7..=15).contains(&digits) || pairs) || embedded_in_token(text, s, e) {
        return None;
    }
    // "QQ 12 34 56 C": the pairs of a national insurance number, between its letters.
    let b = text.as_bytes();
    let capitals_before = text[..s]
        .trim_end_matches(' ')
        .rsplit(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .is_some_and(|w| (1..=2).contains(&w.len()) && w.bytes().all(|c| c.is_ascii_uppercase()));
    if pairs
        && (capitals_before
            || (b.get(e) == Some(&b' ')
                && b.get(e + 1).is_some_and(u8::is_ascii_uppercase)
                && !b.get(e + 2).is_some_and(u8::is_ascii_alphanumeric)))
    {
        return None;
    }
    // Only zeros: padding or a hex dump (`<Buffer 00 00 00 00 00>`), never a number to call.
    if main.bytes().all(|c| !c.is_ascii_digit() || c == b'0') {
        return None;
    }
    // A form's input mask: the subscriber's seven digits all zero ("+1 (555) 000-0000",
    // "+44 20 0000 0000"). No plan gives out such a number.
    if main
        .bytes()
        .filter(u8::is_ascii_digit)
        .rev()
        .take(7)
        .all(|c| c == b'0')
    {
        return None;
    }
    // "00" is an exit code only before a whole international number (a country code and at
    // least seven digits): "00802-600" is a Brazilian postal code.
    let international = m.starts_with('+') || (m.starts_with("00") && digits >= 10);
    // Dates (2024-01-15, 15.01.2024, 01/15/2024) and clock times are the classic false positive.
    if !international && shape.groups == 3 {
        let l = shape.first;
        // Two-digit parts read as a day and a month ("12 05 24"), not "87 47 98".
        let parts: Vec<u32> = main
            .split(|c: char| !c.is_ascii_digit())
            .filter(|g| !g.is_empty())
            .take(2)
            .map(|g| g.parse().unwrap_or(0))
            .collect();
        let day_month = parts.len() == 2
            && parts.iter().all(|&p| p <= 31)
            && parts.iter().any(|&p| (1..=12).contains(&p));
        if l == [4, 2, 2] || (l[0] <= 2 && l[1] <= 2 && (l[2] == 4 || (l[2] == 2 && day_month))) {
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
    if text[..s]
        .chars()
        .rev()
        .take(3)
        .any(|c| "$£€¥₹₽₺₩¢".contains(c))
    {
        return None;
    }
    // Part of a longer run of digit groups (a card-like number, an ISBN): not a phone.
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
    // A count with its unit ("539 891 823 bytes", "419 4405 packets"), an HTTP status and
    // response size after a request line (`"GET / HTTP/1.1" 200 5123`), a number labeled as an
    // identifier ("ref 4009-6504-42").
    if !international
        && (unit_after(b, e)
            || http_status(b, s, &shape)
            || label_before(b, s)
            || draw(text, s, main, &shape))
    {
        return None;
    }
    // Without a country code, every national numbering plan we know of dials nine digits or
    // more; shorter numbers (a local "555 0199") are as often sizes and counts in a log
    // ("200 5123", "12 345 678"), so they need a context word or an extension.
    let extension = main.len() < m.len();
    let complete = (international || paren || extension || digits >= 9) && !thousands(&shape);
    let score = if pairs {
        0.3
    } else if international && digits >= 8 {
        0.75
    } else if alone_in_contact_block(text, s, e) {
        0.6
    } else if shape.seps == 0
        && !paren
        && dialable_run(main.trim())
        && !listed_with_other_numbers(text, s, e)
    {
        0.55
    } else if french(main, &shape) {
        0.6
    } else if shape.seps == 0 && !paren {
        0.3
    } else if shape.groups >= 2 && shape.long_group && complete {
        0.6
    } else {
        0.35
    };
    hit(s, e, score)
}

/// Words that, before a number on its line, say it is a phone number.
pub(super) const PHONE_CONTEXT: &[&str] = &[
    "phone",
    "call",
    "tel",
    "mobile",
    "cell",
    "number",
    "whatsapp",
    "text me",
    "sms",
    "fax",
    "telefon",
    "handy",
    "téléphone",
    "portable",
    "teléfono",
    "móvil",
    "telefono",
    "cellulare",
    "contact",
    "reach",
    "ring",
    // "Mon numéro", "meine Nummer", "mi número", "appelle-moi", "chiamami", "ligue para".
    "numéro",
    "numero",
    "número",
    "nummer",
    "appel",
    "chiama",
    "llámame",
    "ligue",
    "contato",
    // "Tél.", "Tlf", "mob", "ph:", "GSM", "me joindre au", "joignable au".
    "tél",
    "tlf",
    "mob",
    "ph:",
    "ph.",
    "ph ",
    "gsm",
    "joindre",
    "joignable",
    "contacto",
    // "answering at", "messages to", "text at …", "mój numer", "Kontakt", messengers. Not
    // "text" or "signal" alone: `let text = "123 456 789"`, `__NR_signalfd: u32 = 1073742106`.
    "answering",
    "messages",
    "text at",
    "text on",
    "text to",
    "texting",
    "numer",
    "kontakt",
    "telegram",
    "viber",
    "imessage",
    // Form and signature labels: "Desk: …", "Direct: …", "Work: …"; "my registered …".
    "desk",
    "direct",
    "work:",
    "home:",
    "office:",
    "registered",
    // The rest of the contact vocabulary: "dial 1-800-…", "landline", "hotline", "leave a
    // voicemail at", "call-back number", "get me at", signature labels "T:", "M:", "P:", "C:",
    // "F:", and "ruf mich an", "bel me op", "zadzwoń", "llame al".
    "dial",
    "landline",
    "hotline",
    "helpline",
    "voicemail",
    "call-back",
    "callback",
    "pager",
    "txt",
    "me at",
    "us at",
    "p:",
    "m:",
    "t:",
    "c:",
    "f:",
    "ruf",
    "anruf",
    "bel me",
    "bellen",
    "zadzwo",
    "llame",
    "llama al",
];

/// Whether a national number is grouped like a count in thousands ("796 080 921", "1.234.567"):
/// a first group of one to three digits, not starting with 0, then groups of exactly three,
/// all after the same separator. Tables and logs are full of them; some plans dial them too
/// (Spanish mobiles "612 345 678"), so they stay phones only with a context word.
fn thousands(shape: &Shape) -> bool {
    shape.thousands && shape.groups >= 3 && shape.first[0] <= 3
}

/// A French number: ten digits in five pairs, the first 01–09, one separator throughout
/// ("01 42 68 53 00", "06.12.34.56.78"). Nothing else in a text is written so, so it needs no
/// context word (a signature line under a name has none).
fn french(main: &str, shape: &Shape) -> bool {
    let m = main.trim().as_bytes();
    shape.groups == 5
        && shape.digits == 10
        && shape.seps == 4
        && !shape.one_digit_group
        && !shape.long_group
        && m[0] == b'0'
        && m[1] != b'0'
        && m.iter().all(|&c| c.is_ascii_digit() || c == shape.first_sep)
        // A counted row ("01 02 03 04 05") is a table's header, not a number.
        && {
            let pair = |k: usize| (m[3 * k] - b'0') * 10 + (m[3 * k + 1] - b'0');
            !(1..5).all(|k| pair(k) == pair(k - 1) + 1)
        }
}

/// Units a count is followed by, in logs and tables: then the digits are a quantity.
const UNITS: &[&str] = &[
    "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "bytes", "ms", "sec", "secs", "seconds",
    "rows", "events", "errors", "files", "requests", "packets", "items", "records", "lines",
    "users", "tokens", "times", "views", "units", "%",
];

/// Whether the word after `end` (past one space) is a unit of [`UNITS`].
fn unit_after(b: &[u8], end: usize) -> bool {
    let mut i = end;
    if b.get(i) == Some(&b' ') {
        i += 1;
    }
    let word_end = (i..b.len())
        .find(|&k| !(b[k].is_ascii_alphabetic() || b[k] == b'%'))
        .unwrap_or(b.len());
    let word = &b[i..word_end];
    !word.is_empty()
        && word.len() <= 8
        && UNITS
            .iter()
            .any(|u| word.eq_ignore_ascii_case(u.as_bytes()))
}

/// Labels of numbers that are identifiers: "ref 4009-6504-42", "Order #555-123-4567", "numer
/// zamówienia 09390333837" ("numer" alone is a contact word), parts, products, shipments,
/// cases, bookings and the numbers of machines ("timestamp 1764547200").
const ID_LABELS: &str = "
ref reference order invoice inv ticket id commande facture bestellung rechnung pedido ordine
sku po build version serial tracking isbn pid port zamówienia zamowienia partia faktury przesyłki auftrag kundennummer
bestellnummer lote part item model article catalog catalogue fru upc ean gtin asin mpn rev
fedex ups usps dhl waybill awb parcel shipment gls hermes dpd postnl sendungsnummer
paketnummer suivi colis case claim transaction booking confirmation rma bytes timestamp
epoch millis unix nanoseconds container job
";

/// Whether one of the three words before `start` on its line is one of [`ID_LABELS`], with
/// no contact word after it ("Order number 100045873", "FedEx ground number 0614 2345 6789
/// 012", "part 70-4412-018"); earlier numbers of a list count as the label's too ("SKU
/// 100-445-2231, 100-445-2232 and 100-445-2240").
fn label_before(b: &[u8], start: usize) -> bool {
    let mut i = start;
    // Past the earlier numbers of a list and the separators between them.
    loop {
        let mut j = i;
        while j > 0 && start - j < 80 && matches!(b[j - 1], b' ' | b',' | b';' | b'/' | b'&') {
            j -= 1;
        }
        for conj in [b"and".as_slice(), b"or", b"und", b"et", b"y"] {
            if j > conj.len()
                && b[j - conj.len()..j].eq_ignore_ascii_case(conj)
                && b[j - conj.len() - 1] == b' '
            {
                j -= conj.len() + 1;
                break;
            }
        }
        let k = j;
        while j > 0 && start - j < 80 && (b[j - 1].is_ascii_digit() || b[j - 1] == b'-') {
            j -= 1;
        }
        if j == k || j == i || !b[k - 1].is_ascii_digit() {
            break;
        }
        i = j;
    }
    for _ in 0..3 {
        while i > 0 && start - i < 48 && matches!(b[i - 1], b' ' | b':' | b'#' | b'.' | b'=') {
            i -= 1;
        }
        // "Commande n° 01 42 68 53 00": the label is the word before.
        if let Some(abbr) = ["n°".as_bytes(), "nº".as_bytes()]
            .into_iter()
            .find(|a| i >= a.len() && &b[i - a.len()..i] == *a)
        {
            i -= abbr.len();
            continue;
        }
        let end = i;
        // Letters of any script: "zamówienia" is no "wienia".
        while i > 0 && end - i <= 16 && (b[i - 1].is_ascii_alphabetic() || b[i - 1] >= 0x80) {
            i -= 1;
        }
        let word = &b[i..end];
        if word.is_empty() || (i > 0 && b[i - 1].is_ascii_alphanumeric()) {
            return false;
        }
        if is_id_label(word) {
            return true;
        }
        // A contact word between the label and the number makes it a phone again.
        if CONTACT_WORDS
            .iter()
            .any(|l| word.eq_ignore_ascii_case(l.as_bytes()))
        {
            return false;
        }
    }
    false
}

/// Whether `word` (ASCII case ignored) is one of [`ID_LABELS`]: a hashed look-up, since every
/// phone-shaped number asks about up to three words before it.
fn is_id_label(word: &[u8]) -> bool {
    static LABELS: std::sync::OnceLock<rustc_hash::FxHashSet<&'static [u8]>> =
        std::sync::OnceLock::new();
    let labels = LABELS.get_or_init(|| ID_LABELS.split_whitespace().map(str::as_bytes).collect());
    let mut buf = [0u8; 32];
    if word.is_empty() || word.len() > buf.len() {
        return false;
    }
    let lower = &mut buf[..word.len()];
    lower.copy_from_slice(word);
    lower.make_ascii_lowercase();
    labels.contains(&*lower)
}

/// Words that, between an identifier's label and a number, say the number is one to call.
const CONTACT_WORDS: &[&str] = &[
    "call", "phone", "tel", "mobile", "cell", "text", "sms", "whatsapp", "fax", "reach", "at",
    "me", "us",
];

/// A lotto draw, a bingo row or a set of picks: five groups or more of one or two digits,
/// rising ("4 8 15 16 23 42", "03 09 14 27 33 41"), or any such groups after a game word on
/// the line. A French number (five pairs from 01–09) rises only by chance and needs the word.
fn draw(text: &str, s: usize, main: &str, shape: &Shape) -> bool {
    let values: Vec<u32> = main
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .map(|g| g.parse().unwrap_or(0))
        .collect();
    if values.len() < 5
        || main
            .split(|c: char| !c.is_ascii_digit())
            .any(|g| g.len() > 2)
    {
        return false;
    }
    let rising = values.windows(2).all(|w| w[0] < w[1]);
    let lo = s.saturating_sub(80);
    let line = memchr::memrchr(b'\n', &text.as_bytes()[lo..s]).map_or(lo, |i| lo + i + 1);
    let before = String::from_utf8_lossy(&text.as_bytes()[line..s]).to_lowercase();
    const GAMES: [&str; 16] = [
        "lotto",
        "lottery",
        "powerball",
        "mega",
        "euromillions",
        "eurojackpot",
        "draw",
        "ticket",
        "numbers",
        "bingo",
        "keno",
        "jackpot",
        "ziehung",
        "estrazione",
        "primitiva",
        "wyniki",
    ];
    (rising && !(shape.groups == 5 && shape.digits == 10))
        || GAMES.iter().any(|g| before.contains(g))
}

/// Whether a two-group number starts with an HTTP status code right after a quoted request
/// line: `"GET /x HTTP/1.1" 200 5123`.
fn http_status(b: &[u8], start: usize, shape: &Shape) -> bool {
    shape.groups == 2
        && shape.first[0] == 3
        && (b'1'..=b'5').contains(&b[start])
        && start >= 2
        && b[start - 1] == b' '
        && b[start - 2] == b'"'
}

/// What [`phone`] asks of a candidate's number part, read in one pass without allocating.
#[derive(Default)]
struct Shape {
    digits: usize,
    /// Runs of digits, and the lengths of the first three.
    groups: usize,
    first: [usize; 3],
    /// A group of one digit, other than a `+` country code ("+1.415.555.0132", "+7 …"):
    /// versions have them, phone numbers rarely.
    one_digit_group: bool,
    /// A group of three digits or more.
    long_group: bool,
    /// Separators (space, `.`, `-`, `/`) between the number's first and last non-space
    /// character; the first of them; whether one is a dot.
    seps: usize,
    first_sep: u8,
    dot: bool,
    /// Digits and one kind of separator (space or dot) only, one between each two groups,
    /// no leading 0, every group after the first three digits long.
    thousands: bool,
}

impl Shape {
    fn of(main: &str) -> Shape {
        let trimmed = main.trim().as_bytes();
        let plus = trimmed.first() == Some(&b'+');
        let mut shape = Shape {
            thousands: trimmed.first().is_some_and(|c| (b'1'..=b'9').contains(c)),
            ..Shape::default()
        };
        let mut run = 0;
        let close = |shape: &mut Shape, run: usize| {
            if let Some(slot) = shape.first.get_mut(shape.groups) {
                *slot = run;
            }
            shape.thousands &= shape.groups == 0 || run == 3;
            shape.groups += 1;
            shape.digits += run;
            shape.one_digit_group |= run == 1 && !(plus && shape.groups == 1);
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
        for c in trimmed
            .iter()
            .copied()
            .filter(|c| matches!(c, b' ' | b'.' | b'-' | b'/'))
        {
            if shape.seps == 0 {
                shape.first_sep = c;
            }
            shape.seps += 1;
            shape.dot |= c == b'.';
        }
        shape.thousands &= matches!(shape.first_sep, b' ' | b'.')
            && shape.seps + 1 == shape.groups
            && trimmed
                .iter()
                .all(|&c| c.is_ascii_digit() || c == shape.first_sep);
        shape
    }
}

/// The specs, in the order their candidates are listed.
pub(super) fn specs() -> Vec<Spec> {
    use EntityType::*;
    vec![
        Spec::new(Phone, r"(?:\+|\b00)[0-9][0-9]{0,3}(?:[ .\-/]?(?:\([0-9]{1,4}\)|[0-9]{1,6})){1,7}(?:(?:,\s*(?i-u:ext\.?|extension)|\s*(?:(?i-u:x|ext\.?|extension)|#))\s*[0-9]{1,6}\b)?", phone)
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["0-9", "+ .-/()"]), seeds: &["0-9"], min_seeds: 7, min_len: 7 }).containing(&["+", "00"]).with_tail(&["0-9", "xetnsioXETNSIO.#,"]))
            .context(PHONE_CONTEXT)
            .context_before_only(40)
            .context_on_its_line(),
        Spec::new(Phone, r"(?:\(\d{1,5}\)[ .\-]?|\b\d{1,5}(?: / |[ .\-/])?)(?:\d{1,5}[ .\-/]?){1,4}\d{2,5}(?:(?:,\s*(?i-u:ext\.?|extension)|\s*(?i-u:x|ext\.?|extension))\s*\d{1,6}\b|\b)", phone)
            // The number itself is digits and separators only (the check wants 6 digits there);
            // an extension (" ext. 12", ", Ext 3", "x459") may follow.
            .gate(Gate::runs(RunShape { alphabet: ByteSet::of(&["0-9", " .-/()"]), seeds: &["0-9"], min_seeds: 6, min_len: 6 }).with_tail(&["0-9", "xetnsioXETNSIO.,"]))
            .context(PHONE_CONTEXT)
            .context_before_only(40)
            .context_on_its_line(),
    ]
}
