//! How sure the person scan is that a run of capitalized words is a name: the cue before it
//! sets the score, and the words themselves can overrule the cue. A cue only says where a name
//! would be; "I'm Indian", "Dear Hiring Manager", "Dr. Pepper" or "from Charlotte" put other
//! words there.

use super::names::{is_accented_given_name, listed, Listed};
use super::things::means_something_else;
use super::words::{word_after_space, word_before};
use super::Token;
use crate::lexicon::is_month_en;
use crate::scan::text::glued_into_code;

/// What the scan found about a run of capitalized words.
pub(super) struct Evidence {
    /// A strong cue before it (a title, "my name is", "Name:") or a sign-off above it.
    pub strong: bool,
    /// A medium cue before it ("Hi", "Dear", "ask").
    pub medium: bool,
    /// Its first word is a listed given name.
    pub given: bool,
    /// More than one word.
    pub multi: bool,
    /// Its first word, alone, names a person rather than a tool or a language
    /// ([`super::names::Listed::thing`]).
    pub alone_a_name: bool,
    /// Right after a title ("Dr.", "Mr."), where any word may be a surname ("Mr. Young").
    pub titled: bool,
}

/// The score of the run from `first` to `end` (0: not a person).
pub(super) fn score(text: &str, first: Token, end: usize, e: Evidence) -> f32 {
    // `name: Option<String>` and `Shape::Named` are code, whatever cue comes before.
    if glued_into_code(text, first.start, first.end) || !reads_as_a_name(text, first, end, &e) {
        0.0
    } else if e.strong {
        0.85
    } else if e.medium && (e.given || e.multi || !gap_after_is_word(text, end)) {
        0.7
    } else if e.medium {
        0.6
    } else if e.given && e.multi && !means_something_else(text, first, end) {
        0.75
    } else if e.given
        && !e.multi
        && e.alone_a_name
        && !starts_sentence(text, first.start)
        && !in_date_or_path(text, first)
        && !means_something_else(text, first, end)
    {
        0.55
    } else {
        0.0
    }
}

/// Whether the run from `first` to `end`, which some evidence points at, still reads as a
/// name rather than a description of the writer ("I'm Indian", "I'm Senior Developer"), a
/// role or a group ("Dear Hiring Manager", "Head of Sales"), a place ("from Charlotte",
/// "Victoria Line", "São Paulo", "69003 Lyon") or a thing with a title ("Dr. Pepper").
fn reads_as_a_name(text: &str, first: Token, end: usize, e: &Evidence) -> bool {
    let first_word = listed_word(&text[first.start..first.end]);
    if e.titled {
        // After a title nearly any word is a surname; only famous title-named things are not
        // (listed figures, "Mr. Darcy", are dropped later with every finder's).
        return e.multi || !is_titled_thing(&text[first.start..first.end]);
    }
    // "I'm Christian" describes; "I'm Christian Müller", "my name is Christian" name.
    if first_word.describes && !(e.given && (e.multi || e.strong)) {
        return false;
    }
    let mut at = first.end;
    while let Some(next) = word_after_space(text, at).filter(|t| t.end <= end) {
        if listed_word(&text[next.start..next.end]).ends_no_name {
            return false;
        }
        at = next.end;
    }
    if e.strong {
        return true;
    }
    if in_a_place_name(text, first) {
        return false;
    }
    let cued = e.medium;
    !(e.given && !e.multi && !cued && (first_word.place || after_place_preposition(text, first)))
}

/// Things whose name starts with a title, said alone after it.
fn is_titled_thing(word: &str) -> bool {
    matches!(
        word,
        "Pepper" | "Robot" | "Strange" | "Bean" | "House" | "Seuss" | "Oetker" | "Am" | "Martens"
    )
}

/// The lists a word is on, lower-cased on the stack: this runs for every candidate run.
pub(super) fn listed_word(word: &str) -> Listed {
    let mut buf = [0u8; 32];
    match word.as_bytes() {
        w if w.is_ascii() && w.len() <= buf.len() => {
            let lower = &mut buf[..w.len()];
            lower.copy_from_slice(w);
            lower.make_ascii_lowercase();
            std::str::from_utf8(lower).map_or_else(|_| Listed::default(), listed)
        }
        _ => listed(&word.to_lowercase()),
    }
}

/// Whether `word` (as written) is a listed given name, with or without its accents: for names
/// that a cue already vouches for ([`super::cased`]).
pub(super) fn cued_given_name(word: &str, listed: &Listed) -> bool {
    listed.given_name || (!word.is_ascii() && is_accented_given_name(&word.to_lowercase()))
}

/// A given name after a place's first word ("São Paulo", "San Antonio", "St. Louis"), a
/// street word ("avenue Victor Hugo", "rue Victor Hugo") or a postcode ("69003 Lyon") is part
/// of a place's name.
fn in_a_place_name(text: &str, first: Token) -> bool {
    let Some(prev) = word_before(text, first.start) else {
        return false;
    };
    let gap = &text[prev.end..first.start];
    let b = text.as_bytes();
    // A postcode, one space before the word: four to six digits, or two groups joined by a
    // dash ("47579-694", "00-950"; a date has two dashes).
    let code = b[..first.start.saturating_sub(1)]
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_digit() || **c == b'-')
        .take(10);
    let (digits, dashes) = code.fold((0, 0), |(d, n), &c| {
        (d + (c != b'-') as usize, n + (c == b'-') as usize)
    });
    if first.start > 0 && b[first.start - 1] == b' ' && (4..=9).contains(&digits) && dashes <= 1 {
        return true;
    }
    matches!(gap, " " | ". ")
        && matches!(
            &text[prev.start..prev.end],
            "São"
                | "San"
                | "Santa"
                | "Santo"
                | "Saint"
                | "Sainte"
                | "St"
                | "Ste"
                | "Port"
                | "Fort"
                | "Mount"
                | "Cape"
                | "rue"
                | "Rue"
                | "avenue"
                | "Avenue"
                | "boulevard"
                | "Boulevard"
                | "bd"
                | "allée"
                | "chemin"
                | "quai"
                | "impasse"
                | "place"
                | "calle"
                | "Calle"
                | "avenida"
                | "Avenida"
                | "rua"
                | "Rua"
                | "travessa"
                | "praça"
                | "Praça"
                | "via"
                | "Via"
                | "viale"
                | "piazza"
                | "Piazza"
                | "corso"
                | "Corso"
                | "largo"
                | "Largo"
                | "paseo"
                | "Paseo"
                | "carrer"
                | "rambla"
                | "plaza"
                | "Plaza"
        )
}

/// A lone given name right after a preposition of place is the place: "in Georgia", "at
/// Victoria", "near Florence". ("from" and "to" also take people: "a note from Anna".)
fn after_place_preposition(text: &str, first: Token) -> bool {
    let Some(prev) = word_before(text, first.start) else {
        return false;
    };
    let prev_word = &text[prev.start..prev.end];
    text[prev.end..first.start] == *" "
        && ["in", "at", "near", "around", "outside", "across", "via", "into", "towards"]
            .iter()
            .any(|p| p.eq_ignore_ascii_case(prev_word))
        // "at Anna's" is at her place, not a place called Anna.
        && !text[first.end..].starts_with(['\'', '’'])
}

/// A word between slashes or glued to a digit is part of a date or a path ("15/Jan/2024",
/// "/home/anna"), not someone's name on its own; so is a month name one space from a number
/// ("Wed, 28 Jan 2026", "Jan 5"), given name or not.
fn in_date_or_path(text: &str, word: Token) -> bool {
    let b = text.as_bytes();
    let glue = |c: Option<&u8>| c.is_some_and(|&c| c == b'/' || c.is_ascii_digit());
    if glue(word.start.checked_sub(1).and_then(|i| b.get(i))) || glue(b.get(word.end)) {
        return true;
    }
    let spaced_digit = |space: Option<usize>, digit: Option<usize>| {
        space.and_then(|i| b.get(i)) == Some(&b' ')
            && digit.and_then(|i| b.get(i)).is_some_and(u8::is_ascii_digit)
    };
    let near_number = spaced_digit(word.start.checked_sub(1), word.start.checked_sub(2))
        || spaced_digit(Some(word.end), Some(word.end + 1));
    near_number && {
        let w = text[word.start..word.end].to_ascii_lowercase();
        is_month_en(&w)
    }
}

/// A lone given name opening a sentence is as likely a capitalized word ("Maxime" in Latin
/// filler, "Carmen" the song) as a person, so it needs a cue there.
fn starts_sentence(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end_matches([' ', '\t', '"', '(']);
    before.is_empty() || before.ends_with(['.', '!', '?', '\n', ':'])
}

/// Whether the word at `end` is followed by more of the sentence (a space and a word) rather
/// than punctuation: "Hi Anna," is an address, "Hi Ops team" is not.
fn gap_after_is_word(text: &str, end: usize) -> bool {
    let mut rest = text[end..].chars();
    rest.next() == Some(' ') && rest.next().is_some_and(char::is_alphabetic)
}
