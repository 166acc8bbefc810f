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
use crate::redact::entity::EntityType::{self, *};
use crate::redact::scan::prescan::{Needs, Prescan};
use crate::redact::validate;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Input, MatchKind};
use regex_automata::Span;
use std::sync::OnceLock;

/// What follows a class's label.
#[derive(Clone, Copy, PartialEq)]
enum Value {
    /// An identifier of any format ([`identifier`]).
    Id,
    /// 12–19 digits passing Luhn ([`card`]).
    Card,
}

/// The cue words of each class, in lower case (ASCII case is ignored). A short all-letter cue
/// (an acronym: "ssn", "tin", "dni") counts in lower case only with a connector after it ("tin
/// 60/40" is solder); the cues that start with "id" only after an owner word or at the start
/// of a label ("order ID number: …" names no person's id; `id: 42` is a record's key).
const CUES: &[(EntityType, Value, &[&str])] = &[
    (
        UsSsn,
        Value::Id,
        &[
            "ssn",
            "social security",
            "social-security",
            "soc sec",
            "ss#",
        ],
    ),
    (
        UkNino,
        Value::Id,
        &["national insurance", "nino", "ni number", "ni no"],
    ),
    (UkNhs, Value::Id, &["nhs number", "nhs no"]),
    (
        EsNif,
        Value::Id,
        &["dni", "nif", "d.n.i", "documento nacional de identidad"],
    ),
    (EsNie, Value::Id, &["nie"]),
    (
        ItFiscalCode,
        Value::Id,
        &["codice fiscale", "cod. fiscale", "fiscal code"],
    ),
    (PlPesel, Value::Id, &["pesel"]),
    (AuTfn, Value::Id, &["tfn", "tax file number"]),
    (InAadhaar, Value::Id, &["aadhaar", "aadhar"]),
    (
        FiPersonalIdentityCode,
        Value::Id,
        &["henkilötunnus", "hetu"],
    ),
    (UsItin, Value::Id, &["itin"]),
    (
        UsPassport,
        Value::Id,
        &[
            "passport",
            "reisepass",
            "pasaporte",
            "passeport",
            "passaporto",
            "passaporte",
            "paspoort",
            "pass number",
            "passnummer",
        ],
    ),
    (
        UsDriverLicense,
        Value::Id,
        &[
            "driver's license",
            "driver’s license",
            "drivers license",
            "driver license",
            "driver's licence",
            "driving licence",
            "driving license",
            "führerschein",
            "fuhrerschein",
            "permis de conduire",
            "carnet de conducir",
            "licencia de conducir",
            "patente di guida",
            "patente",
            "carta de condução",
            "carteira de motorista",
            "rijbewijs",
            "körkort",
            "ajokortti",
        ],
    ),
    (
        IdNumber,
        Value::Id,
        &[
            // Tax numbers.
            "tax id",
            "tax identification",
            "taxpayer id",
            "tax number",
            "tin",
            "ein",
            "steuer-id",
            "steuerid",
            "steuernummer",
            "steueridentifikationsnummer",
            "numéro fiscal",
            "numero fiscal",
            "partita iva",
            "cpf",
            // Identity numbers and documents.
            "bsn",
            "burgerservicenummer",
            "sofinummer",
            "personalausweis",
            "ausweis",
            "ausweisnummer",
            "identity number",
            "identity card",
            "identification number",
            "national id",
            "national identity",
            "national identification",
            "personal id",
            "government id",
            "citizen id",
            "carte d'identité",
            "carte d’identité",
            "numéro d'identité",
            "carta d'identità",
            "carta d’identità",
            "documento de identidad",
            "cédula",
            "cedula",
            "identiteitskaart",
            "identiteitsbewijs",
            "personnummer",
            "personnr",
            "cpr",
            "cpr-nummer",
            "fødselsnummer",
            "dowód osobisty",
            "dowodu",
            "id number",
            "id no",
            "id card",
            "id-nummer",
            "id",
            "social insurance",
            "sin",
            "sozialversicherungsnummer",
            "versicherungsnummer",
            "numéro de sécurité sociale",
            "sécurité sociale",
            "seguridad social",
            "previdenza",
        ],
    ),
    (
        CreditCard,
        Value::Card,
        &[
            "card",
            "credit card",
            "debit card",
            "card number",
            "visa",
            "mastercard",
            "master card",
            "amex",
            "american express",
            "discover",
            "maestro",
            "unionpay",
            "union pay",
            "jcb",
            "diners",
            "cc",
            "cc#",
            "karte",
            "kreditkarte",
            "kartennummer",
            "tarjeta",
            "carte",
            "carte bancaire",
            "carta",
            "cartão",
            "kaart",
            "creditcard",
            "karta",
            "kortti",
            "kort",
        ],
    ),
];

/// How far before a run of digits a label can start: the longest cue, a word for number, a
/// connector and the blanks between them.
const LOOK_BACK: usize = 64;

/// The most bytes between a label's last word and its value.
const GAP: usize = 24;

struct Cues {
    automaton: AhoCorasick,
    /// Per pattern: its class's index in [`CUES`] and its text.
    patterns: Vec<(usize, &'static str)>,
}

fn cues() -> &'static Cues {
    static CUES_ONCE: OnceLock<Cues> = OnceLock::new();
    CUES_ONCE.get_or_init(|| {
        let patterns: Vec<(usize, &'static str)> = CUES
            .iter()
            .enumerate()
            .flat_map(|(i, (_, _, words))| words.iter().map(move |w| (i, *w)))
            .collect();
        let automaton = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostLongest)
            .build(patterns.iter().map(|p| p.1))
            // The cues are constants; a failure here is a bug caught by the unit tests.
            .expect("label cues");
        Cues {
            automaton,
            patterns,
        }
    })
}

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
    let (after, connector) = connector(text, at);
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

/// The identifier starting at `at`: groups of ASCII letters and digits joined by single
/// separators (`-`, `.`, `/`, a space), 5–20 letters and digits with at least two digits. A
/// group of letters alone is part of it only in capitals and short ("QQ 12 34 56 A", "12345678
/// Z"): "123456789 and" ends before "and". A space joins only a group holding a digit or a
/// single capital that is not followed by a word ("… 456 I think" ends before "I").
fn identifier(b: &[u8], at: usize) -> Option<(usize, usize)> {
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
            let capital = word.len() == 1
                && word[0].is_ascii_uppercase()
                && !(b.get(n) == Some(&b' ') && b.get(n + 1).is_some_and(u8::is_ascii_alphabetic));
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
fn card(b: &[u8], at: usize) -> Option<(usize, usize)> {
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

    #[test]
    fn every_cue_compiles_and_fits_the_look_back() {
        let cues = cues();
        assert!(cues.patterns.iter().all(|(_, c)| c.len() + 16 < LOOK_BACK));
        assert!(CUES.len() <= 32);
    }
}
