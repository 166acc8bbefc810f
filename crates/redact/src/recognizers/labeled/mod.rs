//! Values stated with their label: "my SSN is …", "passport no. …", "mi DNI es …",
//! "Personalausweisnummer: …", "card: …". The label says what the value is, so its format does
//! not have to: an SSN with an unissued prefix, a passport in another country's format or a
//! card of an issuer no prefix table knows is redacted all the same. Checksums still raise the
//! formats' own recognizers above these findings; here they are not required, except Luhn for
//! cards (a card number that fails it is a typo, and twelve or more digits after "card" with a
//! valid Luhn digit are rare otherwise).
//!
//! A label is a cue word of one class ([`CUES`]), then an optional word for number ("number",
//! "Nr.", "#", "Nummer"), an optional connector (`:`, `=`, "is", "ist", "es", "è", …) and the
//! value right after it on the same line. The value is the token that looks like an identifier
//! ([`identifier`]): letters and digits with single separators, 5–20 of them, digits among
//! them; never the rest of the sentence.
//!
//! Cost: values hold digits, so cues are only searched in the few dozen bytes before each run
//! of digits, with one Aho-Corasick automaton for every cue of every class.

use super::{Candidate, Recognizer};
use crate::entity::EntityType;
use crate::scan::prescan::{Needs, Prescan};
use aho_corasick::Input;
use cues::{cues, Value, CUES, GAP, LOOK_BACK};
use regex_automata::Span;
use values::{card, identifier};

mod cues;
mod values;

/// Which classes a redactor looks for: a bit per entry of [`CUES`].
#[derive(Clone, Copy, Default)]
struct Enabled(u32);

/// The recognizer of labeled values, for the classes whose type a redactor enables.
pub(crate) fn recognizer(enabled: &dyn Fn(&EntityType) -> bool) -> Option<Box<dyn Recognizer>> {
    let bits = CUES
        .iter()
        .enumerate()
        .filter(|(_, (kind, _, _))| enabled(kind))
        .fold(0, |bits, (i, _)| bits | 1 << i);
    (bits != 0).then(|| Box::new(Enabled(bits)) as Box<dyn Recognizer>)
}

impl Recognizer for Enabled {
    fn kinds(&self) -> Vec<EntityType> {
        let mut kinds: Vec<EntityType> = Vec::new();
        for (i, (kind, _, _)) in CUES.iter().enumerate() {
            if self.0 & 1 << i != 0 && !kinds.contains(kind) {
                kinds.push(kind.clone());
            }
        }
        kinds
    }

    /// Only the digit groups, which every prescan finds.
    fn needs(&self) -> Needs {
        Needs::NONE
    }

    fn scan(&self, text: &str, pre: &Prescan, out: &mut Vec<Candidate>) {
        scan(text, &pre.groups, *self, out);
    }
}

/// The labeled values in `text`, whose digit runs are `groups`.
fn scan(text: &str, groups: &[Span], enabled: Enabled, out: &mut Vec<Candidate>) {
    if enabled.0 == 0 || groups.is_empty() {
        return;
    }
    let cues = cues();
    let b = text.as_bytes();
    // Cues hold no digit, so none spans a digit run: the windows between runs can be searched
    // one after the other without missing one.
    let mut searched = 0;
    let mut last_value = 0;
    for g in groups {
        let lo = g.start.saturating_sub(LOOK_BACK).max(searched);
        searched = g.end;
        if lo >= g.start {
            continue;
        }
        let input = Input::new(b).span(lo..g.start);
        for m in cues.automaton.find_iter(input) {
            let (class, cue) = cues.patterns[m.pattern().as_usize()];
            let (kind, value, _) = &CUES[class];
            if enabled.0 & 1 << class == 0 || m.start() < last_value {
                continue;
            }
            if let Some(found) = labeled_value(text, m.start(), m.end(), cue, *value) {
                last_value = found.end;
                out.push(Candidate {
                    kind: kind.clone(),
                    start: found.start,
                    end: found.end,
                    score: found.score,
                });
                if *value == Value::Id {
                    if let Some((s, e)) = same_shape_after(b, found.start, found.end) {
                        last_value = e;
                        out.push(Candidate {
                            kind: kind.clone(),
                            start: s,
                            end: e,
                            score: found.score,
                        });
                    }
                }
            }
        }
    }
}

struct Found {
    start: usize,
    end: usize,
    score: f32,
}

/// Above a phone number with a context word (0.95), which "my social security number is …"
/// would otherwise give; below a format whose checksum and cue agree (1.0).
const LABELED: f32 = 0.97;

/// The value after the cue `cue` found at `start..end`, if the cue is a label there.
fn labeled_value(text: &str, start: usize, end: usize, cue: &str, value: Value) -> Option<Found> {
    let b = text.as_bytes();
    if start > 0 && b[start - 1].is_ascii_alphanumeric() {
        return None;
    }
    let mut at = number_word(b, end);
    if at == end && b.get(at).is_some_and(u8::is_ascii_alphanumeric) {
        // The cue goes on into another word ("tiny", "identity", "cards").
        return None;
    }
    let (after, connector) = match owned_answer(b, at) {
        Some(after) => (after, true),
        None => connector(text, at),
    };
    at = after;
    let acronym = cue.len() <= 4 && cue.bytes().all(|c| c.is_ascii_alphabetic());
    if value == Value::Id
        && acronym
        && !connector
        && !text[start..end].bytes().all(|c| c.is_ascii_uppercase())
    {
        return None;
    }
    // `id: 72295728` is a record's key: "id" alone needs an owner ("my ID is …"), its
    // longer forms ("ID number:", "ID card no.") an owner or the start of a label.
    if cue == "id" && !owner_before(b, start) {
        return None;
    }
    if (cue.starts_with("id ") || cue.starts_with("id-"))
        && !(owner_before(b, start) || (label_start(b, start) && connector))
    {
        return None;
    }
    // A blank or a quote opens the value, on the same line and near the label.
    let mut v = at;
    while v < b.len() && v - end <= GAP && matches!(b[v], b' ' | b'\t' | b'"' | b'\'' | b'`') {
        v += 1;
    }
    if v - end > GAP || v == end && !connector {
        return None;
    }
    let (s, e) = match value {
        Value::Id => identifier(b, v)?,
        Value::Card => card(b, v)?,
    };
    Some(Found {
        start: s,
        end: e,
        score: LABELED,
    })
}

/// Past a word for number after a cue at `at`, glued or after a blank or a hyphen
/// ("Personalausweisnummer", "passport no.", "SSN#", "card number"); `at` if there is none.
fn number_word(b: &[u8], at: usize) -> usize {
    const WORDS: [&str; 11] = [
        "number", "nummer", "numero", "número", "numéro", "num", "nr", "no", "n°", "nº", "#",
    ];
    let mut i = at;
    if matches!(b.get(i), Some(b' ' | b'-' | b'_')) {
        i += 1;
    }
    for w in WORDS {
        let w = w.as_bytes();
        if b.len() - i >= w.len() && b[i..i + w.len()].eq_ignore_ascii_case(w) {
            let mut e = i + w.len();
            if w[0].is_ascii_alphabetic() && b.get(e).is_some_and(u8::is_ascii_alphanumeric) {
                continue;
            }
            if b.get(e) == Some(&b'.') {
                e += 1;
            }
            return e;
        }
    }
    at
}

/// Past blanks, a closing quote and a connector (`:`, `=`, `#`, or a verb: "is", "ist", "es",
/// "è", …) at `at`, and whether there was one.
fn connector(text: &str, at: usize) -> (usize, bool) {
    const VERBS: [&str; 15] = [
        "is", "was", "ist", "war", "lautet", "es", "est", "era", "è", "é", "är", "er", "on",
        "jest", "are",
    ];
    let b = text.as_bytes();
    let mut i = at;
    if matches!(b.get(i), Some(b'"' | b'\'')) {
        i += 1;
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if matches!(b.get(i), Some(b':' | b'=' | b'#')) {
        return (i + 1, true);
    }
    for v in VERBS {
        let w = v.as_bytes();
        if i > at
            && b.len() - i >= w.len()
            && b[i..i + w.len()].eq_ignore_ascii_case(w)
            && matches!(b.get(i + w.len()), Some(b' ' | b'\t' | b':'))
        {
            let mut e = i + w.len();
            if b[e] == b':' {
                e += 1;
            }
            return (e, true);
        }
    }
    (at, false)
}

/// A second value of the first one's shape later in its sentence ("my BSN is 236518417 and
/// my partner's is 174903226"): the label holds for both. Same shape: digits, capitals and
/// separators in the same places.
fn same_shape_after(b: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let shape = |v: &[u8]| -> Vec<u8> {
        v.iter()
            .map(|&c| match c {
                b'0'..=b'9' => b'9',
                b'A'..=b'Z' | b'a'..=b'z' => b'A',
                other => other,
            })
            .collect()
    };
    let first = shape(&b[start..end]);
    let stop = (end..b.len().min(end + 80))
        .find(|&i| {
            matches!(b[i], b'\n' | b'?' | b'!')
                || (b[i] == b'.' && b.get(i + 1).is_none_or(|c| !c.is_ascii_alphanumeric()))
        })
        .unwrap_or(b.len().min(end + 80));
    let mut i = end;
    while i < stop {
        let token_start = !b[i - 1].is_ascii_alphanumeric();
        if token_start && b[i].is_ascii_alphanumeric() {
            if let Some((s, e)) = identifier(b, i) {
                if shape(&b[s..e]) == first {
                    return Some((s, e));
                }
                i = e;
                continue;
            }
        }
        i += 1;
    }
    None
}

/// Past a question or sentence about the label answered with the writer's own value at `at`:
/// "What's the format for a national insurance number? Mine is …", "… tax ID. Mine's …".
fn owned_answer(b: &[u8], at: usize) -> Option<usize> {
    const ANSWERS: [&str; 5] = ["mine is", "mine's", "mine:", "mine’s", "mine ="];
    if !matches!(b.get(at), Some(b'?' | b'.')) {
        return None;
    }
    let mut i = at + 1;
    while matches!(b.get(i), Some(b' ')) {
        i += 1;
    }
    ANSWERS
        .iter()
        .map(|a| a.as_bytes())
        .find(|a| b.len() - i >= a.len() && b[i..i + a.len()].eq_ignore_ascii_case(a))
        .map(|a| i + a.len())
}

/// Whether an owner word ends right before the cue at `start`: "my ID", "mi DNI", "mein …".
fn owner_before(b: &[u8], start: usize) -> bool {
    const OWNERS: [&str; 18] = [
        "my", "your", "his", "her", "their", "our", "mi", "su", "mein", "meine", "dein", "ma",
        "mon", "mio", "mia", "meu", "minha", "mijn",
    ];
    let mut e = start;
    while e > 0 && b[e - 1] == b' ' {
        e -= 1;
    }
    if e == start {
        return false;
    }
    let mut s = e;
    while s > 0 && b[s - 1].is_ascii_alphabetic() {
        s -= 1;
    }
    OWNERS
        .iter()
        .any(|o| b[s..e].eq_ignore_ascii_case(o.as_bytes()))
}

/// Whether the cue at `start` begins a label: at the start of a line (after blanks, a bullet
/// or a quote) or after `,` `;` `(` `|`.
fn label_start(b: &[u8], start: usize) -> bool {
    let mut i = start;
    while i > 0 && matches!(b[i - 1], b' ' | b'\t' | b'"' | b'\'' | b'-' | b'*') {
        i -= 1;
    }
    i == 0 || matches!(b[i - 1], b'\n' | b'\r' | b',' | b';' | b'(' | b'|' | b'{')
}
