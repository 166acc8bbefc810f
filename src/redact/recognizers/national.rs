//! National identifiers, tax numbers and licences (Presidio's country recognizers): NHS and
//! National Insurance numbers, DNI/NIE, codice fiscale, PESEL, NRIC, TFN/ABN/ACN/Medicare,
//! PAN/Aadhaar, the Finnish, Korean and Thai identity codes, ITINs, passports, driver's
//! licences, bank accounts and DEA numbers.
//!
//! Every one of them holds a digit, so one walk over the text's digit groups finds them all:
//! at each word start next to a digit group, each enabled [`Format`] reads its shape, then its
//! checksum ([`crate::redact::validate::national`]). No regex and no pass per type: 21 types
//! cost about one look per digit group. Numbers that are only digits pass a checksum one time in
//! 10 or 11, so on their own they score below the default minimum and need a cue word nearby
//! ("NHS number", "PESEL", "TFN") or a table column named so; the shapes with letters (NINO,
//! NIE, codice fiscale, NRIC, PAN, DEA) and national groupings (a Korean or Thai id, a dashed
//! ITIN) are rare enough to count alone.

use super::super::entity::EntityType;
use super::context::{cued, has_context, line_window, Pairs};
pub(crate) use super::national_formats::formats;
use super::national_formats::Admitting;
use super::national_shape::{chars_of, class, groups, match_runs, read, Group, Runs, DIGIT, MAX};
use super::patterns::{embedded_in_token, glued_after};
use super::Candidate;
use regex_automata::Span;
use std::sync::OnceLock;

/// One way an identifier is written.
pub(crate) struct Format {
    pub kind: EntityType,
    /// `9` a digit, `A` an ASCII letter, `@` either, `C` a Finnish century sign; `+` after a class
    /// repeats it; a space is an optional separator, one of `seps`, the same one each time; a
    /// `.` is a dot that must be there.
    pub shape: &'static str,
    pub seps: &'static [u8],
    /// The checksum and structural rules, given the characters with letters upper-cased.
    pub valid: fn(&[u8]) -> bool,
    /// The score of a valid number with no cue word, written without and with separators. An
    /// `alone` of 0 reads only the number written with a separator (another format of the
    /// same kind reads it without).
    pub alone: f32,
    pub separated: f32,
    /// The score with one of `cues` nearby.
    pub cued: f32,
    pub cues: &'static [&'static str],
    /// The cues' first two bytes, for the cheap look before the exact one ([`cued`]).
    pub pairs: OnceLock<Pairs>,
}

/// The enabled formats, by their first character's class, with the table of the starts each
/// can begin ([`Admitting`]): most digit groups are a short number before `:`, `.` or `/`, or a
/// number before a word, which the table rules out for every format at once.
#[derive(Default)]
pub(crate) struct Enabled {
    digit_first: Table,
    letter_first: Table,
}

#[derive(Default)]
struct Table {
    entries: Vec<Entry>,
    admitting: Admitting,
}

impl Table {
    fn push(&mut self, entry: Entry) {
        self.admitting.add(self.entries.len(), entry.format);
        self.entries.push(entry);
    }
}

struct Entry {
    /// The shape's groups when it is a simple one (see [`groups`]).
    groups: Option<Vec<Group>>,
    format: &'static Format,
}

impl Enabled {
    pub(crate) fn new(enabled: impl Fn(&EntityType) -> bool) -> Enabled {
        let mut out = Enabled::default();
        for f in formats().iter().filter(|f| enabled(&f.kind)) {
            let entry = Entry {
                groups: groups(f.shape),
                format: f,
            };
            if f.shape.starts_with('9') {
                out.digit_first.push(entry);
            } else {
                out.letter_first.push(entry);
            }
        }
        out
    }
}

/// Formats scoring this low alone are only numbers with a label (passports, licences, bank
/// accounts): their label comes first ("passport no. 123456789"), and a label after the
/// number belongs to the next one ("account 2017631 and my driver's license …").
pub(crate) const LABEL_ONLY: f32 = 0.1;

/// Context words count this far before (a Thai cue word and its particles take 80 bytes) and
/// after, on the identifier's line: a form or a table gives each number its own label.
const WINDOW: (usize, usize) = (96, 24);

/// Whether the number goes on past `s..e` in the same grouping (`+44 943 476 5919` holds no NHS
/// number; `12-943-476-5919` neither).
fn continues(b: &[u8], s: usize, e: usize, sep: u8) -> bool {
    let before = s >= 2 && b[s - 1] == sep && b[s - 2].is_ascii_digit();
    let after = b.get(e) == Some(&sep) && b.get(e + 1).is_some_and(u8::is_ascii_digit);
    before || after
}

/// Below the default minimum: a number scoring this needs a cue.
const HEX: f32 = 0.4;

/// Whether the identifier holds a word of lower-case hex digits, letters and digits mixed
/// (`bc899650c`, or the `503748d` of `As 503748d`).
fn hex_like(s: &[u8]) -> bool {
    s.split(|c| !c.is_ascii_alphanumeric()).any(|w| {
        w.iter().any(u8::is_ascii_digit)
            && w.iter().any(u8::is_ascii_lowercase)
            && w.iter()
                .all(|&c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    })
}

/// Whether the number at `at` is glued by `#` or `.` to a label in front of it: one of `cues`
/// (`NHS#9434765919`, `Acct#…`) or a number sign (`No.`, `nr.`, `#` after "no"), which is no
/// token the number is part of (`ORD#123`, `v1.2`).
fn glued_label(b: &[u8], at: usize, cues: &[&str]) -> bool {
    let Some(&glue @ (b'#' | b'.')) = at.checked_sub(1).map(|i| &b[i]) else {
        return false;
    };
    let end = at - 1;
    let mut start = end;
    while start > 0 && end - start < 32 && b[start - 1].is_ascii_alphabetic() {
        start -= 1;
    }
    if start == end || (start > 0 && b[start - 1].is_ascii_alphanumeric()) {
        return false;
    }
    let word = &b[start..end];
    let sign = ["no", "nr", "num"]
        .iter()
        .any(|w| w.as_bytes().eq_ignore_ascii_case(word));
    sign || (glue == b'#'
        && cues.iter().any(|c| {
            c.trim_end_matches(['#', ' '])
                .as_bytes()
                .eq_ignore_ascii_case(word)
        }))
}

/// The enabled formats a start at `at` can begin: the table of its class, the length of its
/// run of that class (`run` when the caller knows it) and the formats as bits of the table's
/// entries. Most starts begin none: two looks in the table, no call to [`try_at`].
#[inline(always)]
fn admitted<'a>(
    b: &[u8],
    at: usize,
    run: Option<usize>,
    enabled: &'a Enabled,
) -> (&'a Table, usize, u32) {
    let first = class(b[at]);
    let table = if first == DIGIT {
        &enabled.digit_first
    } else {
        &enabled.letter_first
    };
    let run = run.unwrap_or_else(|| {
        b[at..]
            .iter()
            .take(31)
            .take_while(|&&c| class(c) == first)
            .count()
    });
    (table, run, table.admitting.get(b, at, run))
}

/// Every format of `admitting` (bits of `formats`' entries) that reads an identifier at `at`,
/// where a run of `run` bytes of their first class begins.
// Out of line: inlined into the loop over groups it costs more instructions, not fewer.
#[inline(never)]
fn try_at(
    text: &str,
    at: usize,
    formats: &Table,
    run: usize,
    mut admitting: u32,
    out: &mut Vec<Candidate>,
) {
    let b = text.as_bytes();
    let first = class(b[at]);
    let mut chars = [0u8; MAX];
    let mut runs = None;
    while admitting != 0 {
        // In the formats' order, which is the candidates' order.
        let entry = &formats.entries[admitting.trailing_zeros() as usize];
        admitting &= admitting - 1;
        let f = entry.format;
        let read = if f.shape == "9+" {
            // Digits alone: the run already read (`admits` bounds it below MAX).
            chars[..run].copy_from_slice(&b[at..at + run]);
            Some((at + run, run, None))
        } else if let Some(groups) = &entry.groups {
            let runs = runs.get_or_insert_with(|| Runs::after(b, at, first, run));
            match_runs(groups, runs, f.seps)
                .map(|(len, sep)| (at + len, chars_of(b, at, at + len, &mut chars), sep))
        } else {
            read(b, at, f, &mut chars)
        };
        let Some((end, n, sep)) = read else {
            continue;
        };
        if sep.is_none() && f.alone <= 0.0 {
            continue;
        }
        let embedded = if glued_label(b, at, f.cues) {
            glued_after(b, end)
        } else {
            embedded_in_token(text, at, end)
        };
        if b.get(end).is_some_and(u8::is_ascii_alphanumeric)
            || embedded
            || sep.is_some_and(|c| continues(b, at, end, c))
        {
            continue;
        }
        if !(f.valid)(&chars[..n]) {
            continue;
        }
        let mut score = if sep.is_some() { f.separated } else { f.alone };
        if hex_like(&b[at..end]) {
            // Lower-case hex (`bc899650c`, `cacae4329f`) is an abbreviated commit or a hash far
            // more often than a NINO, PAN or DEA number typed in lower case: only a cue counts.
            score = score.min(HEX);
        }
        if score < f.cued {
            // A cue in front outweighs one after, and a nearer one a farther one: of two
            // labels on a line ("acn": "…", "tfn": "…") each number takes its own.
            let after = score > LABEL_ONLY;
            let (before, ahead) =
                line_window(text, at, end, (WINDOW.0, if after { WINDOW.1 } else { 0 }));
            let pairs = f.pairs.get_or_init(|| Pairs::of(f.cues));
            let near = cued(text, at.saturating_sub(before), end + ahead, f.cues, pairs);
            if let Some(d) = near
                .then(|| cue_distance(text, at, end, f.cues, after))
                .flatten()
            {
                score = f.cued - 0.0001 * d as f32;
            } else if header_names(text, at, f.cues) || label_above(text, at, f.cues) {
                score = f.cued - 0.0001 * (WINDOW.0 + WINDOW.1) as f32;
            }
        }
        out.push(Candidate {
            kind: f.kind.clone(),
            start: at,
            end,
            score,
        });
    }
}

/// How far from the identifier at `at..end` the nearest of `cues` starts a word on its line:
/// the bytes before it, or (with `after`) the window before plus the bytes after. ASCII case is
/// ignored.
fn cue_distance(text: &str, at: usize, end: usize, cues: &[&str], after: bool) -> Option<usize> {
    let (before, ahead) = line_window(text, at, end, (WINDOW.0, if after { WINDOW.1 } else { 0 }));
    let mut lo = at.saturating_sub(before);
    while !text.is_char_boundary(lo) {
        lo += 1;
    }
    let mut hi = (end + ahead).min(text.len());
    while !text.is_char_boundary(hi) {
        hi -= 1;
    }
    let starts_word = |w: &[u8], i: usize| i == 0 || !w[i - 1].is_ascii_alphanumeric();
    // Short cues must be whole words: "tin" is no cue in "tiny", nor "pan" in "panel", "dea"
    // in "deal". Longer ones may begin a word ("aadhaar" in "aadhaarno").
    let whole = |w: &[u8], i: usize, cue: &[u8]| {
        starts_word(w, i)
            && (cue.len() > 4
                || !cue[cue.len() - 1].is_ascii_alphabetic()
                || !w.get(i + cue.len()).is_some_and(u8::is_ascii_alphabetic))
    };
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

/// How many letters an identifier has before its first digit (a codice fiscale's six).
const LEAD: usize = 6;

/// The candidates of the enabled `formats` in `text`, whose digit groups are `groups`.
// Out of line for the same reason as `try_at` (measured with callgrind).
#[inline(never)]
pub(super) fn scan(text: &str, groups: &[Span], formats: &Enabled, out: &mut Vec<Candidate>) {
    if formats.digit_first.entries.is_empty() && formats.letter_first.entries.is_empty() {
        return;
    }
    let b = text.as_bytes();
    let mut tried = None;
    for g in groups {
        // The word holding the group, if it starts at most LEAD letters before it.
        let (mut word, lowest) = (g.start, g.start.saturating_sub(LEAD + 1));
        while word > lowest && class(b[word - 1]) != 0 {
            word -= 1;
        }
        if g.start - word > LEAD {
            continue;
        }
        // A one- or two-letter prefix before a separator ("AB 12 34 56 C", "X-1234567-L").
        let mut prefix = None;
        if word >= 2 && matches!(b[word - 1], b' ' | b'-') {
            let mut p = word - 1;
            while p > 0 && word - 1 - p < 2 && b[p - 1].is_ascii_alphabetic() {
                p -= 1;
            }
            if p < word - 1 && (p == 0 || !b[p - 1].is_ascii_alphanumeric()) {
                prefix = Some(p);
            }
        }
        // At the group itself the run is the group (a look at most 31 bytes long, as in
        // `admitted`).
        let group = (word == g.start).then(|| (g.end - g.start).min(31));
        for (at, run) in [(prefix, None), (Some(word), group)] {
            let Some(at) = at.filter(|&at| tried.is_none_or(|t| at > t)) else {
                continue;
            };
            tried = Some(at);
            let (table, run, admitting) = admitted(b, at, run, formats);
            if admitting != 0 {
                try_at(text, at, table, run, admitting, out);
            }
        }
    }
}
