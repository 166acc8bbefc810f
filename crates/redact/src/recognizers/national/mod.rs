//! National identifiers, tax numbers and licences (Presidio's country recognizers): NHS and
//! National Insurance numbers, DNI/NIE, codice fiscale, PESEL, NRIC, TFN/ABN/ACN/Medicare,
//! PAN/Aadhaar, the Finnish, Korean and Thai identity codes, ITINs, passports, driver's
//! licences, bank accounts and DEA numbers.
//!
//! Every one of them holds a digit, so one walk over the text's digit groups finds them all:
//! at each word start next to a digit group, each enabled [`Format`] reads its shape, then its
//! checksum ([`checksums`]). No regex and no pass per type: 21 types
//! cost about one look per digit group. Numbers that are only digits pass a checksum one time in
//! 10 or 11, so on their own they score below the default minimum and need a cue word nearby
//! ("NHS number", "PESEL", "TFN") or a table column named so; the shapes with letters (NINO,
//! NIE, codice fiscale, NRIC, PAN, DEA) and national groupings (a Korean or Thai id, a dashed
//! ITIN) are rare enough to count alone.

use crate::entity::EntityType;
pub mod checksums;
mod formats;
mod shape;

use super::{Candidate, Recognizer};
use crate::scan::prescan::{Needs, Prescan};
use crate::scan::text::{embedded_in_token, glued_after};
pub(crate) use formats::formats;
use formats::{with_cue, CueStarts};
use regex_automata::Span;
use shape::Admitting;
use shape::{chars_of, class, groups, match_runs, read, Group, Runs, DIGIT, MAX};
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
    /// The cues' first two bytes, for the cheap look before the exact one ([`with_cue`]).
    pub starts: OnceLock<CueStarts>,
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

/// The national identifier recognizer: the formats a redactor enables.
struct National(Enabled);

/// The registry's maker (see [`super::registry`]).
pub(crate) fn recognizer(enabled: &dyn Fn(&EntityType) -> bool) -> Option<Box<dyn Recognizer>> {
    let formats = Enabled::new(enabled);
    let none = formats.digit_first.entries.is_empty() && formats.letter_first.entries.is_empty();
    (!none).then(|| Box::new(National(formats)) as Box<dyn Recognizer>)
}

impl Recognizer for National {
    fn kinds(&self) -> Vec<EntityType> {
        let entries = self.0.digit_first.entries.iter();
        let mut kinds: Vec<EntityType> = Vec::new();
        for e in entries.chain(&self.0.letter_first.entries) {
            if !kinds.contains(&e.format.kind) {
                kinds.push(e.format.kind.clone());
            }
        }
        kinds
    }

    /// Only the digit groups, which every prescan finds.
    fn needs(&self) -> Needs {
        Needs::NONE
    }

    fn scan(&self, text: &str, pre: &Prescan, out: &mut Vec<Candidate>) {
        scan(text, &pre.groups, &self.0, out);
    }
}

/// Formats scoring this low alone are only numbers with a label (passports, licences, bank
/// accounts): their label comes first ("passport no. 123456789"), and a label after the
/// number belongs to the next one ("account 2017631 and my driver's license …").
pub(crate) const LABEL_ONLY: f32 = 0.1;

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
            score = with_cue(text, at, end, f, score);
        }
        out.push(Candidate {
            kind: f.kind.clone(),
            start: at,
            end,
            score,
        });
    }
}

/// How many letters an identifier has before its first digit (a codice fiscale's six).
const LEAD: usize = 6;

/// The candidates of the enabled `formats` in `text`, whose digit groups are `groups`.
// Out of line for the same reason as `try_at` (measured with callgrind).
#[inline(never)]
fn scan(text: &str, groups: &[Span], formats: &Enabled, out: &mut Vec<Candidate>) {
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

#[cfg(test)]
mod tests {
    use super::shape::LETTER;
    use super::*;

    /// Whether `format` reads its shape at the start of `b` and no letter or digit follows it,
    /// as the scan needs.
    fn reads(format: &Format, b: &[u8]) -> bool {
        let end = match groups(format.shape) {
            Some(groups) => match_runs(&groups, &mut Runs::at(b, 0), format.seps).map(|m| m.0),
            None => read(b, 0, format, &mut [0; MAX]).map(|m| m.0),
        };
        end.is_some_and(|end| b.get(end).is_none_or(|&c| class(c) == 0))
    }

    /// A pseudo-random pick below `n`.
    fn pick(seed: &mut u64, n: usize) -> usize {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) as usize % n
    }

    /// The shape written out with random characters and separators, then garbled a little.
    fn instance(format: &Format, seed: &mut u64) -> Vec<u8> {
        const ANY: &[u8] = b"0123456789abcXYZ -.+:/,";
        let from = |s: &[u8], seed: &mut u64| s[pick(seed, s.len())];
        let mut out = Vec::new();
        let shape = format.shape.as_bytes();
        for (i, &c) in shape.iter().enumerate() {
            let repeat = shape.get(i + 1) == Some(&b'+');
            for _ in 0..if repeat { 1 + pick(seed, 18) } else { 1 } {
                match c {
                    b'9' => out.push(from(b"0123456789", seed)),
                    b'A' => out.push(from(b"ABCDXYZabz", seed)),
                    b'@' => out.push(from(b"07LMVAZ", seed)),
                    b'C' => out.push(from(b"+-AFUYx", seed)),
                    b'.' => out.push(from(b"...-", seed)),
                    b' ' => match pick(seed, 4) {
                        0 => {}
                        1 => out.push(from(b" -.", seed)),
                        _ => out.push(from(format.seps.get(..1).unwrap_or(b" "), seed)),
                    },
                    _ => {}
                }
            }
        }
        for _ in 0..pick(seed, 3) {
            let i = pick(seed, out.len() + 1);
            match pick(seed, 3) {
                0 if i < out.len() => {
                    out.remove(i);
                }
                _ => out.insert(i, from(ANY, seed)),
            }
        }
        for _ in 0..pick(seed, 4) {
            out.push(from(ANY, seed));
        }
        out
    }

    /// The table only saves work: every shape a format reads at a start, it admits.
    #[test]
    fn admitting_keeps_every_start_a_format_reads() {
        let mut seed = 7;
        // Digits alone ("9+") are read as the run itself, which their validity bounds.
        for format in formats().iter().filter(|f| f.shape != "9+") {
            let mut admitting = Admitting::default();
            admitting.add(0, format);
            let first = if format.shape.starts_with('9') {
                DIGIT
            } else {
                LETTER
            };
            let mut read = 0;
            for _ in 0..20_000 {
                let b = instance(format, &mut seed);
                if b.first().is_none_or(|&c| class(c) != first) || !reads(format, &b) {
                    continue;
                }
                read += 1;
                let run = b
                    .iter()
                    .take(31)
                    .take_while(|&&c| class(c) == first)
                    .count();
                assert_eq!(
                    admitting.get(&b, 0, run),
                    1,
                    "{} rules out {:?}",
                    format.shape,
                    String::from_utf8_lossy(&b)
                );
            }
            assert!(read > 1000, "{}: {read} instances read", format.shape);
        }
    }

    fn matched(shape: &str, seps: &[u8], text: &str) -> Option<(usize, Option<u8>)> {
        match_runs(
            &groups(shape).unwrap(),
            &mut Runs::at(text.as_bytes(), 0),
            seps,
        )
    }

    #[test]
    fn groups_match_with_and_without_separators() {
        assert_eq!(
            matched("999 999 9999", b" -", "943 476 5919"),
            Some((12, Some(b' ')))
        );
        assert_eq!(
            matched("999 999 9999", b" -", "9434765919 x"),
            Some((10, None))
        );
        assert_eq!(
            matched("999 999 9999", b" -", "943-476 5919"),
            None,
            "two kinds"
        );
        assert_eq!(
            matched("999 999 9999", b" -", "943 476 59190"),
            None,
            "too long"
        );
        assert_eq!(
            matched("999 999 9999", b" -", "943 4765 919"),
            None,
            "regrouped"
        );
        assert_eq!(
            matched("AA 99 99 99 A", b" ", "AB 12 34 56 C"),
            Some((13, Some(b' ')))
        );
        assert_eq!(matched("AA 99 99 99 A", b" ", "AB123456C"), Some((9, None)));
        assert_eq!(
            matched("A 9999999 A", b"-", "X-1234567-L"),
            Some((11, Some(b'-')))
        );
        assert_eq!(
            matched("99999999 A", b"-", "12345678 Z"),
            None,
            "space is no NIF separator"
        );
        assert_eq!(matched("99999999 A", b"-", "12345678Z"), Some((9, None)));
    }
}
