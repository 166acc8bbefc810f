//! The national identifier formats, their cue words, and where a cue counts (see
//! [`super`]): before the number on its line, in its table column's header, or on
//! the label line above it.

use super::checksums as v;
use super::shape::class;
use super::{Format, LABEL_ONLY};
use crate::entity::EntityType::{self, *};
use crate::scan::context::{has_context, line_window};
use std::sync::OnceLock;

const NHS: &[&str] = &[
    "nhs",
    "national health",
    "health service",
    "health and care number",
];
const NINO: &[&str] = &[
    "national insurance",
    "national_insurance",
    "ni number",
    "ni no",
    "nino",
    "insurance number",
];
const DNI: &[&str] = &[
    "dni",
    "nif",
    "d.n.i",
    "n.i.f",
    "documento nacional",
    "identidad",
    "id",
];
const NIE: &[&str] = &["nie", "extranjero", "tie", "identidad", "id"];
const FISCAL: &[&str] = &[
    "codice fiscale",
    "codice_fiscale",
    "cod. fiscale",
    "cf",
    "c.f.",
    "fiscal code",
    "tax code",
];
const PESEL: &[&str] = &["pesel"];
const NRIC: &[&str] = &["nric", "fin", "ic number", "ic no", "identity card"];
const TFN: &[&str] = &["tfn", "tax file"];
const ABN: &[&str] = &["abn", "australian business number", "business number"];
const ACN: &[&str] = &["acn", "australian company number", "company number"];
const MEDICARE: &[&str] = &["medicare"];
const PAN: &[&str] = &["pan", "permanent account", "income tax"];
const AADHAAR: &[&str] = &["aadhaar", "aadhar", "uidai", "uid", "आधार"];
const HETU: &[&str] = &[
    "henkilötunnus",
    "hetu",
    "personal identity",
    "identity code",
    "sotu",
];
const RRN: &[&str] = &[
    "rrn",
    "resident registration",
    "주민등록번호",
    "주민번호",
    "외국인등록번호",
];
const TNIN: &[&str] = &[
    "เลขประจำตัวประชาชน",
    "บัตรประชาชน",
    "เลขบัตรประชาชน",
    "thai id",
    "national id",
    "national_id",
    "id card",
    "citizen id",
    "tnin",
];
const ITIN: &[&str] = &["itin", "taxpayer", "tin"];
const PASSPORT: &[&str] = &["passport"];
// Labels as written in prose, forms and JSON keys (`"drivers_license": "…"`).
const LICENSE: &[&str] = &[
    "driver's license",
    "driver’s license",
    "drivers license",
    "driver license",
    // Abbreviated ("Driver's Lic. D1234567").
    "driver's lic",
    "driver’s lic",
    "drivers lic",
    "driver lic",
    "driver's licence",
    "driving licence",
    "driving license",
    "drivers_license",
    "driver_license",
    "driving_licence",
    "dl#",
    "dl #",
    "dl:",
    // "CA DL D1234567"; the space keeps "dll" and "dlopen" out.
    "dl ",
    "dl no",
    "dl number",
    "dln",
    "license number",
    "licence number",
    "license no",
    "licence no",
    "license #",
    "license_number",
    "licence_number",
    // Keys in camelCase or PascalCase (`driverLicense`, `<DriversLicense>`).
    "driverlicense",
    "driverslicense",
    "driverlicence",
    "driverslicence",
    "drivinglicence",
    "drivinglicense",
    "licensenumber",
];
const BANK: &[&str] = &[
    "account number",
    "account no",
    "account #",
    "acct",
    "bank account",
    "checking account",
    "savings account",
    "account_number",
    "account_no",
    "bank_account",
    // Keys in camelCase or PascalCase (`accountNumber`, `<BankAccount>`).
    "accountnumber",
    "accountno",
    "bankaccount",
    "routing",
    "aba",
    "a/c",
    "kontonummer",
];
const DEA: &[&str] = &[
    "dea",
    "medical license",
    "prescriber",
    "prescription",
    "pharmacy",
    "pharmacist",
];

#[allow(clippy::too_many_arguments)]
const fn format(
    kind: EntityType,
    shape: &'static str,
    seps: &'static [u8],
    valid: fn(&[u8]) -> bool,
    alone: f32,
    separated: f32,
    cued: f32,
    cues: &'static [&'static str],
) -> Format {
    Format {
        kind,
        shape,
        seps,
        valid,
        alone,
        separated,
        cued,
        cues,
        starts: OnceLock::new(),
    }
}

/// A number that is only a label's value: any digits but one repeated.
fn labeled(s: &[u8]) -> bool {
    s.iter().any(|&c| c != s[s.len() - 1])
}

/// Every format, in the order they are tried. Scores: 0.4 for digits a checksum confirms (one
/// number in ten passes by chance: a cue word must confirm), 0.55–0.95 for shapes with letters
/// or national groupings, which are rare in other text.
#[rustfmt::skip]
static FORMATS: [Format; 27] = [
    // 3-2-4 is no phone grouping: a dashed ITIN outscores a phone cued by "number".
    format(UsItin, "999 99 9999", b"- ", v::us_itin, 0.3, 0.96, 1.0, ITIN),
    format(UkNhs, "999 999 9999", b" -", v::uk_nhs, 0.4, 0.4, 1.0, NHS),
    format(UkNino, "AA 99 99 99 A", b" ", v::uk_nino, 0.6, 0.6, 1.0, NINO),
    format(EsNif, "99999999 A", b"-", v::es_nif, 0.6, 0.6, 1.0, DNI),
    // In thousands, as printed on forms ("D.N.I. 12.345.678-Z"): a count followed by a
    // one-letter word ("12.345.678 a …") passes one time in 23, so only a cue counts.
    format(EsNif, "99.999.999 A", b"- ", v::es_nif, 0.4, 0.4, 1.0, DNI),
    // A space before the letter ("DNI 12345678 Z", "NIE X 1234567 L"), or between the halves of
    // a Korean number: with a cue only ("de 10000000 a 20000000", two counts in a row).
    format(EsNif, "99999999 A", b" ", v::es_nif, 0.0, 0.4, 1.0, DNI),
    format(EsNie, "A 9999999 A", b"-", v::es_nie, 0.8, 0.8, 1.0, NIE),
    format(EsNie, "A 9999999 A", b" ", v::es_nie, 0.0, 0.4, 1.0, NIE),
    format(ItFiscalCode, "AAAAAA@@A@@A@@@A", b"", v::it_fiscal_code, 0.95, 0.95, 1.0, FISCAL),
    format(PlPesel, "99999999999", b"", v::pl_pesel, 0.4, 0.4, 1.0, PESEL),
    format(SgNricFin, "A9999999A", b"", v::sg_nric_fin, 0.85, 0.85, 1.0, NRIC),
    format(AuTfn, "999 999 999", b" -", v::au_tfn, 0.4, 0.4, 1.0, TFN),
    format(AuAbn, "99 999 999 999", b" ", v::au_abn, 0.4, 0.4, 1.0, ABN),
    format(AuAcn, "999 999 999", b" ", v::au_acn, 0.4, 0.4, 1.0, ACN),
    format(AuMedicare, "9999 99999 9", b" ", v::au_medicare, 0.4, 0.4, 1.0, MEDICARE),
    format(InPan, "AAAAA9999A", b"", v::in_pan, 0.6, 0.6, 1.0, PAN),
    format(InAadhaar, "9999 9999 9999", b" -", v::in_aadhaar, 0.4, 0.4, 1.0, AADHAAR),
    format(FiPersonalIdentityCode, "999999C999@", b"", v::fi_personal_identity_code, 0.85, 0.85, 1.0, HETU),
    format(KrRrn, "999999 9999999", b"-", v::kr_rrn, 0.4, 0.96, 1.0, RRN),
    format(KrRrn, "999999 9999999", b" ", v::kr_rrn, 0.0, 0.4, 1.0, RRN),
    format(ThTnin, "9 9999 99999 99 9", b"- ", v::th_tnin, 0.4, 0.85, 1.0, TNIN),
    format(UsPassport, "999999999", b"", labeled, LABEL_ONLY, LABEL_ONLY, 0.95, PASSPORT),
    format(UsPassport, "A99999999", b"", labeled, LABEL_ONLY, LABEL_ONLY, 0.95, PASSPORT),
    format(UsDriverLicense, "A9+", b"", |s| (6..=15).contains(&s.len()) && labeled(s), LABEL_ONLY, LABEL_ONLY, 0.95, LICENSE),
    format(UsDriverLicense, "9+", b"", |s| (7..=12).contains(&s.len()) && labeled(s), LABEL_ONLY, LABEL_ONLY, 0.95, LICENSE),
    format(UsBankNumber, "9+", b"", |s| (8..=17).contains(&s.len()) && labeled(s), LABEL_ONLY, LABEL_ONLY, 0.95, BANK),
    // A registrant letter, an initial and a check digit: found alone, as Presidio does.
    format(MedicalLicense, "A@9999999", b"", v::dea_number, 0.55, 0.55, 1.0, DEA),
];

pub(crate) fn formats() -> &'static [Format] {
    &FORMATS
}

/// Context words count this far before (a Thai cue word and its particles take 80 bytes) and
/// after, on the identifier's line: a form or a table gives each number its own label.
const WINDOW: (usize, usize) = (96, 24);

/// The score of the identifier `f` reads at `at..end`, scoring `score` alone, with its cues:
/// nearby on its line, naming its table column, or on the label line above it. A cue in front
/// outweighs one after, and a nearer one a farther one: of two labels on a line ("acn": "…",
/// "tfn": "…") each number takes its own.
pub(super) fn with_cue(text: &str, at: usize, end: usize, f: &Format, score: f32) -> f32 {
    let window = cue_window(text, at, end, score > LABEL_ONLY);
    let starts = f.starts.get_or_init(|| CueStarts::of(f.cues));
    let near = cue_near(text.as_bytes(), window, at, end, f.cues, starts);
    if let Some(d) = near
        .then(|| cue_distance(text, window, at, end, f.cues))
        .flatten()
    {
        f.cued - 0.0001 * d as f32
    } else if header_names(text, at, f.cues) || label_above(text, at, f.cues) {
        f.cued - 0.0001 * (WINDOW.0 + WINDOW.1) as f32
    } else {
        score
    }
}

/// The window of context of the identifier at `at..end`, on its line, within whole
/// characters: the bytes before it and, with `after`, those after it.
fn cue_window(text: &str, at: usize, end: usize, after: bool) -> (usize, usize) {
    let (before, ahead) = line_window(text, at, end, (WINDOW.0, if after { WINDOW.1 } else { 0 }));
    let mut lo = at.saturating_sub(before);
    while !text.is_char_boundary(lo) {
        lo += 1;
    }
    let mut hi = (end + ahead).min(text.len());
    while !text.is_char_boundary(hi) {
        hi -= 1;
    }
    (lo, hi)
}

/// Whether `cue` (in lower case), found at `i` in the window `w`, counts there: it starts a word
/// and, if short, ends one: "tin" is no cue in "tiny", nor "pan" in "panel", "dea" in "deal".
/// Longer ones may also go on into a word for number ("aadhaarno", "passportNumber"), but no
/// other word: "accountno" is no cue in "accountNotes".
fn whole(w: &[u8], i: usize, cue: &[u8]) -> bool {
    let rest = &w[(i + cue.len()).min(w.len())..];
    let letters = rest.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    (i == 0 || !w[i - 1].is_ascii_alphanumeric())
        && (letters == 0
            || !cue[cue.len() - 1].is_ascii_alphabetic()
            || (cue.len() > 4
                && NUMBER_WORDS
                    .iter()
                    .any(|n| rest[..letters].eq_ignore_ascii_case(n.as_bytes()))))
}

/// Words for "number" that a long cue may run into ("aadhaarno", "passportNumber").
const NUMBER_WORDS: [&str; 6] = ["no", "nr", "num", "number", "id", "s"];

/// For each byte a cue starts with, in either ASCII case, a bit per byte that can follow it
/// ([`follow_bit`]).
pub(crate) struct CueStarts([u32; 256]);

impl CueStarts {
    fn of(cues: &[&str]) -> CueStarts {
        let mut out = [0; 256];
        for cue in cues.iter().map(|c| c.as_bytes()) {
            let follow = follow_bit(cue.get(1).copied().unwrap_or(b' '));
            out[cue[0].to_ascii_lowercase() as usize] |= follow;
            out[cue[0].to_ascii_uppercase() as usize] |= follow;
        }
        CueStarts(out)
    }
}

/// A bit per ASCII letter, either case; every other byte shares the last.
fn follow_bit(c: u8) -> u32 {
    match c.to_ascii_lowercase() {
        c @ b'a'..=b'z' => 1 << (c - b'a'),
        _ => 1 << 26,
    }
}

/// Whether [`cue_distance`] can find one of `cues` in the `window` around `at..end`: whether
/// one starts a word there, ASCII case ignored. Most numbers have no cue: one look per byte at
/// the word starts answers, where `cue_distance` copies the window and searches it per cue.
fn cue_near(
    b: &[u8],
    (lo, hi): (usize, usize),
    at: usize,
    end: usize,
    cues: &[&str],
    starts: &CueStarts,
) -> bool {
    [&b[lo..at], &b[end..hi]].into_iter().any(|w| {
        let mut word_start = true;
        (0..w.len().saturating_sub(1)).any(|i| {
            let found = word_start
                && starts.0[w[i] as usize] & follow_bit(w[i + 1]) != 0
                && cues.iter().map(|c| c.as_bytes()).any(|cue| {
                    w.len() - i >= cue.len()
                        && w[i..i + cue.len()].eq_ignore_ascii_case(cue)
                        && whole(w, i, cue)
                });
            word_start = class(w[i]) == 0;
            found
        })
    })
}

/// How far from the identifier at `at..end` the nearest of `cues` starts a word in its
/// `window` ([`whole`]): the bytes before it, or the window before plus the bytes after. ASCII
/// case is ignored.
fn cue_distance(
    text: &str,
    (lo, hi): (usize, usize),
    at: usize,
    end: usize,
    cues: &[&str],
) -> Option<usize> {
    let left = text[lo..at].to_ascii_lowercase();
    let right = text[end..hi].to_ascii_lowercase();
    let (l, r) = (left.as_bytes(), right.as_bytes());
    cues.iter()
        .filter_map(|cue| {
            let cue = cue.as_bytes();
            // The last occurrence in front that starts a word, else the first one after.
            let mut stop = l.len();
            while let Some(i) = memchr::memmem::rfind(&l[..stop], cue) {
                if whole(l, i, cue) {
                    return Some(l.len() - i);
                }
                stop = i + cue.len() - 1;
            }
            memchr::memmem::find_iter(r, cue)
                .find(|&i| whole(r, i, cue))
                .map(|i| WINDOW.0 + i)
        })
        .min()
}

/// Whether `at` lies in a Markdown table cell whose column header holds a cue
/// (`| Name | DEA number |` over `| … | AB1234563 |`), or in a CSV or TSV field so named
/// ([`csv_header_names`]).
fn header_names(text: &str, at: usize, cues: &[&str]) -> bool {
    let b = text.as_bytes();
    let line_start = |i: usize| row_start(b, i);
    let Some(row) = line_start(at).filter(|&r| r > 0) else {
        return false;
    };
    if b[row] != b'|' {
        return csv_header_names(text, at, row, cues);
    }
    let column = memchr::memchr_iter(b'|', &b[row..at]).count();
    // Up the rows to the table's first line, its header; a table longer than this has its
    // header out of sight anyway (and a walk per row would make a long table quadratic).
    let mut header = row;
    for _ in 0..64 {
        if header == 0 {
            break;
        }
        match line_start(header - 1) {
            Some(above) if b[above] == b'|' => header = above,
            _ => break,
        }
    }
    if header == row {
        return false;
    }
    let line_end = memchr::memchr(b'\n', &b[header..]).map_or(b.len(), |n| header + n);
    let Some(cell) = text[header..line_end].split('|').nth(column) else {
        return false;
    };
    // The cell as the text before an empty match at its end.
    let end = cell.as_ptr() as usize - text.as_ptr() as usize + cell.len();
    has_context(text, end, end, (cell.len(), 0), cues)
}

/// Table rows and headers are shorter than this; longer lines are read as no table at all, so
/// a megabyte-long line full of numbers costs no walk to its ends per number.
const ROW_MAX: usize = 1024;

/// The start of the line holding `i`, if it begins at most [`ROW_MAX`] bytes before `i`.
fn row_start(b: &[u8], i: usize) -> Option<usize> {
    let lo = i.saturating_sub(ROW_MAX);
    match memchr::memrchr(b'\n', &b[lo..i]) {
        Some(n) => Some(lo + n + 1),
        None => (lo == 0).then_some(0),
    }
}

/// The delimiter of a CSV or TSV row (tab, then `;`, then `,`), if the row holds one.
fn delimiter(row: &[u8]) -> Option<u8> {
    [b'\t', b';', b',']
        .into_iter()
        .find(|d| memchr::memchr(*d, row).is_some())
}

/// Whether `at` lies in a CSV or TSV field whose column header, the first line of the block of
/// lines with as many delimiters as its row, holds a cue (`Name,NHS Number` over
/// `Alice,9434765919`). A header names columns and holds no digit: a first line with one is a
/// row of values, or code (`const __NR_acct: u32 = 1073741987;` over more such lines). A quoted
/// delimiter shifts the columns: then no header is found.
fn csv_header_names(text: &str, at: usize, row: usize, cues: &[&str]) -> bool {
    let b = text.as_bytes();
    let hi = (row + ROW_MAX).min(b.len()).max(at);
    let Some(row_end) = memchr::memchr(b'\n', &b[at..hi])
        .map(|n| at + n)
        .or((hi == b.len()).then_some(hi))
    else {
        return false;
    };
    let Some(d) = delimiter(&b[row..row_end]) else {
        return false;
    };
    let fields = memchr::memchr_iter(d, &b[row..row_end]).count();
    let column = memchr::memchr_iter(d, &b[row..at]).count();
    // Up the rows of the same width, 64 of them or 8 KiB at most (a long file's header is out
    // of sight anyway, and a walk per row would make it quadratic).
    let mut header = row;
    for _ in 0..64 {
        if header == 0 || row - header > 8192 {
            break;
        }
        let Some(above) = row_start(b, header - 1) else {
            break;
        };
        if memchr::memchr_iter(d, &b[above..header - 1]).count() != fields {
            break;
        }
        header = above;
    }
    let line_end = memchr::memchr(b'\n', &b[header..]).map_or(b.len(), |n| header + n);
    if header == row || b[header..line_end].iter().any(u8::is_ascii_digit) {
        return false;
    }
    let Some(cell) = text[header..line_end].split(d as char).nth(column) else {
        return false;
    };
    let end = cell.as_ptr() as usize - text.as_ptr() as usize + cell.len();
    has_context(text, end, end, (cell.len(), 0), cues)
}

/// Whether the number at `at` starts its line (after blanks and quotes) under a label line: a
/// short one holding a cue and no digit, that ends as a label does, with `:`, `#`, a cue or a
/// word for number (a form's `Passport number:` over `123456789`). A line with a digit holds
/// its own value; one ending otherwise is a sentence.
fn label_above(text: &str, at: usize, cues: &[&str]) -> bool {
    let b = text.as_bytes();
    let Some(row) = row_start(b, at) else {
        return false;
    };
    if row == 0
        || !b[row..at]
            .iter()
            .all(|c| matches!(c, b' ' | b'\t' | b'\r' | b'"' | b'\''))
    {
        return false;
    }
    let Some(above) = row_start(b, row - 1) else {
        return false;
    };
    let label = &b[above..row - 1];
    let trimmed = label.trim_ascii_end();
    let ends = |w: &str| {
        trimmed.len() >= w.len()
            && trimmed[trimmed.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes())
    };
    // Sixty-four bytes: a label, not a sentence that happens to name one.
    label.len() <= 64
        && !label.iter().any(u8::is_ascii_digit)
        && (trimmed.ends_with(b":")
            || trimmed.ends_with(b"#")
            || ["number", "no", "nr", "num"]
                .iter()
                .chain(cues)
                .any(|w| ends(w.trim_end())))
        && has_context(text, row - 1, row - 1, (label.len(), 0), cues)
}
