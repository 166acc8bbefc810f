//! The cues around a capitalized word that the lazy scan and its reference both read: form
//! labels ("Customer:", "Prénom :"), mail headers ("From: Mason Cole <m@x.io>"), sign-offs with
//! or without a comma, in several languages, titles written in lower case ("dhr. Jansen"), and
//! "Surname, Given" after a cue. One copy, so the two scans cannot drift apart.

use super::names::is_honorific;
use super::score::{cued_given_name, listed_word};
use super::words::{is_capitalized, word_end};
use super::Token;
use crate::lexicon::RELATIONS;

/// Words above a name at the end of a letter.
pub(super) const SIGN_OFFS: &[&str] = &[
    "regards",
    "thanks",
    "cheers",
    "best",
    "sincerely",
    "wishes",
    "greetings",
    "gruß",
    "grüße",
    "grüßen",
    "gruss",
    "grüsse",
    "cordialement",
    "salutations",
    "saludos",
    "atentamente",
    "saluti",
    "cordiali",
    "abraços",
    "cumprimentos",
    "groeten",
    "groet",
    "hälsningar",
    "pozdrawiam",
    "pozdrowienia",
    "love",
    "yours",
];

/// Form fields that hold a person's name, before a colon: "Customer: Mason Cole", "Full name:
/// Wei Zhang", "Prénom : Julien", "Namn: Kent Danielsson".
const NAME_LABELS: &[&str] = &[
    "name",
    "patient",
    "customer",
    "person",
    "surname",
    "prénom",
    "nom",
    "vorname",
    "nachname",
    "nombre",
    "apellido",
    "apellidos",
    "nome",
    "cognome",
    "naam",
    "voornaam",
    "achternaam",
    "namn",
    "navn",
    "imię",
    "nazwisko",
];

/// Form fields that hold a person or something else: "Guest: Aroha Ngata" but "Guest: WiFi",
/// "Owner: Thandiwe Dlamini" but "Owner: Security", "Kunde: Jürgen Weiß" but "Kunde:
/// Neukunde". A name after one needs a listed given name or a second word.
const ROLE_LABELS: &[&str] = &[
    "client",
    "guest",
    "passenger",
    "employee",
    "applicant",
    "recipient",
    "sender",
    "owner",
    "holder",
    "cardholder",
    "beneficiary",
    "kin",
    "tenant",
    "guardian",
    "spouse",
    "requester",
    "reporter",
    "assignee",
    "kontakt",
    "kontaktperson",
    "ansprechpartner",
    "ansprechpartnerin",
    "empfänger",
    "absender",
    "kunde",
    "kundin",
    "patientin",
    "inhaber",
    "inhaberin",
    "destinataire",
    "expéditeur",
    "titulaire",
    "paciente",
    "destinatario",
    "destinataria",
    "cliente",
    "titular",
    "klant",
    "kund",
    "karteninhaber",
    "policyholder",
    "landlord",
    "witness",
    "borrower",
    "attention",
];

/// Mail and meeting headers: they hold names, but also lists, teams and companies, so a name
/// after one needs its address after it or the "Surname, Given" form.
const HEADER_LABELS: &[&str] = &[
    "from",
    "to",
    "cc",
    "bcc",
    "attendees",
    "participants",
    "organizer",
    "organiser",
];

/// Whether `prev` (lower-cased `prev_lower`), then `gap`, labels a form field holding a name.
/// A lower-case `name:` is mostly a key in a config file (`- name: Install Rust`) and counts
/// only before a known given name.
/// ("Full name: Wei Zhang" counts: its line starts with a capital.)
pub(super) fn labels_a_name(
    text: &str,
    prev: Token,
    prev_lower: &str,
    gap: &str,
    given: bool,
) -> bool {
    gap.trim() == ":" && NAME_LABELS.contains(&prev_lower) && in_a_form(text, prev, given)
}

/// Whether `prev` (lower-cased `prev_lower`), then `gap`, labels a field holding a person or
/// something else ([`ROLE_LABELS`]); the value must show it is a name.
pub(super) fn labels_a_role(
    text: &str,
    prev: Token,
    prev_lower: &str,
    gap: &str,
    given: bool,
) -> bool {
    gap.trim() == ":" && ROLE_LABELS.contains(&prev_lower) && in_a_form(text, prev, given)
}

/// Whether the label `prev` reads as a form's, not a config file's: capitalized, or on a line
/// that starts with a capital, or before a listed given name.
fn in_a_form(text: &str, prev: Token, given: bool) -> bool {
    let line_start = text[..prev.start].rfind('\n').map_or(0, |i| i + 1);
    given
        || text[prev.start..].starts_with(char::is_uppercase)
        || text[line_start..prev.start]
            .trim_start_matches([' ', '\t'])
            .starts_with(char::is_uppercase)
}

/// Whether a label's value is a phrase rather than a name: one unlisted word that the
/// sentence goes on from in lower case ("Customer: Premium plan", "Patient: Stable condition").
pub(super) fn label_holds_a_phrase(text: &str, given: bool, multi: bool, end: usize) -> bool {
    !given
        && !multi
        && text[end..]
            .strip_prefix(' ')
            .is_some_and(|rest| rest.starts_with(char::is_lowercase))
}

/// Verbs that attribute a quotation to its speaker, after it ("…," says Passon).
const SPEECH_VERBS: &[&str] = &[
    "says",
    "said",
    "asks",
    "asked",
    "adds",
    "added",
    "writes",
    "wrote",
    "explains",
    "explained",
];

/// Whether `prev` (lower-cased `prev_lower`) is a speech verb right after a closing quotation
/// mark and a space: the word after names who spoke ("“… direction,” says Hrafnsdóttir").
/// Without the quotation "says" reads anything ("it says Error").
pub(super) fn speaker_after_quote(text: &str, prev: Token, prev_lower: &str, gap: &str) -> bool {
    gap == " "
        && SPEECH_VERBS.contains(&prev_lower)
        && text[..prev.start]
            .strip_suffix(' ')
            .is_some_and(|b| b.ends_with(['"', '”', '»']))
}

/// Whether `prev_lower`, then `gap`, is a mail or meeting header.
pub(super) fn is_header(prev_lower: &str, gap: &str) -> bool {
    gap.trim() == ":" && HEADER_LABELS.contains(&prev_lower)
}

/// Whether a title precedes the word: a capitalized honorific ("Mr.", "Frau", "Pan"; "89ms"
/// is not "Ms"), or one that Dutch and Italian write in lower case ("dhr. Jansen", "mevrouw
/// Bakker", "Dott.ssa Bianchi").
pub(super) fn is_title(text: &str, prev: Token, prev_lower: &str, gap: &str) -> bool {
    let word = &text[prev.start..prev.end];
    let before = &text.as_bytes()[..prev.start];
    matches!(gap, " " | ". ")
        && ((is_honorific(prev_lower) && word.starts_with(char::is_uppercase))
            || matches!(prev_lower, "dhr" | "mevr" | "mevrouw" | "meneer")
            || (prev_lower == "ssa"
                && before.len() >= 5
                && before[before.len() - 5..].eq_ignore_ascii_case(b"dott.")))
}

/// Whether `prev_lower` above the word, then `gap`, signs off a letter: "Best regards,\nAnna",
/// "Kind regards\n\nMason Cole", "Viele Grüße\nJosy". Without a comma the sign-off must be a
/// short line of its own, as it is under a letter, and so must the name.
pub(super) fn signs_off(text: &str, prev: Token, prev_lower: &str, gap: &str) -> bool {
    let name_start = prev.end + gap.len();
    if !gap.contains('\n') || !SIGN_OFFS.contains(&prev_lower) {
        return false;
    }
    if gap.contains(',') {
        return true;
    }
    let newlines = gap.bytes().filter(|&c| c == b'\n').count();
    let blank = gap
        .bytes()
        .all(|c| matches!(c, b'\n' | b'\r' | b' ' | b'\t' | b'!' | b'.'));
    let line_start = text[..prev.start].rfind('\n').map_or(0, |i| i + 1);
    // And the name a line of its own, of capitalized words: "Best\nKind regards" is two
    // sign-offs.
    let name_line = text[name_start..].split('\n').next().unwrap_or_default();
    blank
        && newlines <= 2
        && prev.end - line_start <= 40
        && name_line.len() <= 60
        && name_line
            .split_whitespace()
            .all(|w| w.starts_with(char::is_uppercase))
}

/// Whether a mailbox in angle brackets follows `end` (after one space at most): the words
/// before it are its display name ("Mason Cole <m@x.io>", "Lars Eriksson <lars@telia.se>
/// wrote:").
pub(super) fn mailbox_follows(text: &str, end: usize) -> bool {
    let rest = &text[end..];
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    let Some(inner) = rest.strip_prefix('<') else {
        return false;
    };
    let b = inner.as_bytes();
    match b
        .iter()
        .take(120)
        .position(|&c| matches!(c, b'>' | b' ' | b'\n' | b'<'))
    {
        Some(i) => b[i] == b'>' && memchr::memchr(b'@', &b[..i]).is_some(),
        None => false,
    }
}

/// Whether a `<` is near enough after `start` to end a display name that starts there: only
/// then is [`mailbox_follows`] worth reading the run for.
pub(super) fn mailbox_near(text: &str, start: usize) -> bool {
    let b = text.as_bytes();
    let end = (start + 160).min(b.len());
    memchr::memchr(b'<', &b[start..end]).is_some()
}

/// The given name after "Surname, " at `end`: "Müller, Hans", "JANSSEN, Jens". Only a listed
/// given name counts: after a single word, a comma and a capitalized word are mostly a list.
pub(super) fn given_after_comma(text: &str, end: usize) -> Option<Token> {
    let start = end + 2;
    if !text[end..].starts_with(", ") || !text[start..].starts_with(char::is_uppercase) {
        return None;
    }
    let word_end = word_end(text, start);
    let word = &text[start..word_end];
    (is_capitalized(word) && listed_word(word).given_name).then_some(Token {
        start,
        end: word_end,
    })
}

/// The details of a person's record that follow a name in a form or a chart: "okonkwo
/// adebayo, DOB 1985-03-02", "li na; Geburtsdatum: 02.03.1985", "ngozi okafor (sister)".
const RECORD_FIELDS: &[&str] = &[
    "dob",
    "d.o.b",
    "date of birth",
    "born",
    "age",
    "aged",
    "sex",
    "gender",
    "mrn",
    "geb",
    "geboren",
    "geburtsdatum",
    "né",
    "née",
    "date de naissance",
    "nacido",
    "nacida",
    "fecha de nacimiento",
    "nato",
    "nata",
    "data di nascita",
    "data de nascimento",
    "geboortedatum",
    "urodzony",
    "urodzona",
    "data urodzenia",
];

/// Kin named in brackets after an emergency contact, besides the [`RELATIONS`].
const RELATIVES: &[&str] = &[
    "spouse",
    "parent",
    "guardian",
    "aunt",
    "uncle",
    "grandmother",
    "grandfather",
    "cousin",
    "niece",
    "nephew",
];

/// Whether the field value ending at `end` is followed by another detail of a person's record
/// ([`RECORD_FIELDS`] after a comma, a semicolon, a tab, a bar or a line break) or by their
/// relation in brackets ("(sister)"): then a value in lower case is that person's name.
pub(super) fn record_follows(text: &str, end: usize) -> bool {
    let rest = &text[end..];
    let starts_with_word = |rest: &str, word: &str| {
        rest.len() >= word.len()
            && rest.is_char_boundary(word.len())
            && rest[..word.len()].eq_ignore_ascii_case(word)
            && !rest[word.len()..].starts_with(char::is_alphanumeric)
    };
    if let Some(inner) = rest.strip_prefix(" (") {
        return RELATIVES
            .iter()
            .chain(RELATIONS.iter())
            .any(|r| starts_with_word(inner, r));
    }
    let sep = rest
        .bytes()
        .take(8)
        .take_while(|c| matches!(c, b',' | b';' | b'|' | b' ' | b'\t' | b'\r' | b'\n'))
        .count();
    let gap = &rest[..sep];
    let parted = gap.contains([',', ';', '|', '\t', '\n']) || gap.contains("  ");
    parted
        && gap.matches('\n').count() <= 1
        && RECORD_FIELDS
            .iter()
            .any(|f| starts_with_word(&rest[sep..], f))
}

/// Whether a listed given name is among the words from `from` to `end`: a value in a form
/// may put the surname first ("okonkwo adebayo", "nguyen thi lan").
pub(super) fn given_among(text: &str, from: usize, end: usize) -> bool {
    text[from..end]
        .split(' ')
        .any(|w| !w.is_empty() && cued_given_name(w, &listed_word(w)))
}
