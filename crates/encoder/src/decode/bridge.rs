//! Words the model leaves untagged (or calls something else) that still belong to a span,
//! recognised by closed classes of words that postal and naming conventions share across
//! languages, not by lists of examples:
//!
//! - **Unit lines.** A secondary unit designator and its number (`Suite 704`, `Apt. 542`,
//!   `Wohnung 3`; USPS Publication 28's designators and their common European forms) next to
//!   an address. The model often tags the street and the city and leaves the unit line out,
//!   which cuts one address into two partial spans.
//! - **Short gaps inside an address.** Up to two words between two address parts that look
//!   like parts themselves (a number, a state code, a capitalised city or country, `and`
//!   between two streets): `Dallas United States 31174`, `drachten, fr 90160`.
//! - **Numbers inside an address line** that the model labels as an ID (`Apt. 542` as a
//!   licence number): short, and joined to the address without a comma or line break.
//! - **Initials and particles inside a name.** `Juan G. Lopez`, `Hanna J. Ukkonen`,
//!   `Gijsbrecht van Hecke`, `Niamh Ní Dhomhnaill`.
//! - **Titles and post-nominals around a name** (`Mrs. Gracie Marsh MD`): redacting them
//!   with the name hides nothing a reader needs and keeps the name whole.
//! - **Where an address starts:** a unit line or a bare number just before the street
//!   (`Apt. 918 61990 Violvägen 64`), and `(the) corner of` before an intersection.
//!
//! Each function looks a fixed number of words ahead or behind, so decoding stays linear.

use super::word_classes::{
    COUNTRIES, HONORIFICS, PARTICLES, POST_NOMINALS, STREET_ABBREVIATIONS, UNIT_DESIGNATORS,
};
use super::{joins, Anchor, Building, Meaning, Word};

/// Most words to bridge between two parts of one address.
const ADDRESS_GAP_WORDS: usize = 2;
/// Most particles between two parts of one name (`de la`, `van der`).
const NAME_PARTICLES: usize = 3;
/// Most letters and digits of a unit or building number taken without the model's label.
const UNIT_NUMBER_ALNUM: usize = 6;

fn word_text<'t>(text: &'t str, w: &Word) -> &'t str {
    &text[w.start..w.end]
}

fn is_one_of(word: &str, list: &[&str]) -> bool {
    let lower = word.to_lowercase();
    list.iter().any(|&x| x == lower)
}

/// A word of punctuation only: the tokenizer makes `.` and `,` words of their own.
fn is_punctuation(word: &str) -> bool {
    !word.chars().any(char::is_alphanumeric)
}

fn alnum(word: &str) -> usize {
    word.chars().filter(|c| c.is_alphanumeric()).count()
}

/// A unit or building number: a short token with a digit (`3b`, `542`), or one letter (`B`).
fn is_unit_number(word: &str) -> bool {
    let n = alnum(word);
    let digit = word.chars().any(|c| c.is_ascii_digit());
    (digit && n <= UNIT_NUMBER_ALNUM) || (n == 1 && word.chars().all(char::is_alphabetic))
}

/// One capital letter: an initial (`J`, as the tokenizer splits `J.`).
fn is_initial(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_uppercase) && chars.next().is_none()
}

fn is_capitalised(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase) && word.chars().all(char::is_alphabetic)
}

/// The next word at or after `i` that is not punctuation joined by `meaning`'s separators,
/// as long as the text from `end` to it joins.
fn next_word(text: &str, words: &[Word], mut i: usize, end: usize, m: Meaning) -> Option<usize> {
    while let Some(w) = words.get(i) {
        if is_punctuation(word_text(text, w)) && joins(&text[end..w.end], m) {
            i += 1;
            continue;
        }
        return joins(&text[end..w.start], m).then_some(i);
    }
    None
}

/// Whether word `i` is tagged as a part of `m` at the continuation threshold.
fn tagged_as(words: &[Word], i: usize, m: Meaning, weak: f32) -> bool {
    words
        .get(i)
        .is_some_and(|w| w.prob >= weak && w.part.is_some_and(|p| p.meaning == m))
}

/// A unit line starting at word `i` (`Suite 704`, `Apt. 3b`): one past its last word.
fn unit_line(text: &str, words: &[Word], i: usize) -> Option<usize> {
    let w = words.get(i)?;
    if !is_one_of(word_text(text, w), &UNIT_DESIGNATORS) {
        return None;
    }
    let n = next_word(text, words, i + 1, w.end, Meaning::Address)?;
    let gap = &text[w.end..words[n].start];
    (!gap.contains('\n') && is_unit_number(word_text(text, &words[n]))).then_some(n + 1)
}

/// Untagged word `i` after the open span `b`: when it belongs to the span, takes it (and
/// what joins it) and returns the index of the next word to read.
pub(super) fn across(
    text: &str,
    words: &[Word],
    i: usize,
    b: &mut Building,
    weak: f32,
) -> Option<usize> {
    let m = b.meaning();
    let first = next_word(text, words, i, b.end, m)?;
    match m {
        Meaning::Address => {
            if let Some(end) = unit_line(text, words, first) {
                b.take(words, end, Anchor::Street);
                return Some(end);
            }
            // The number after a capitalised street name (`Laukaantie 80`, not `error 51`),
            // on the same line.
            let word = word_text(text, &words[first]);
            let same_line = !text[b.end..words[first].start].contains('\n');
            let street = word_text(text, &words[b.last_word]);
            if b.last_anchor == Anchor::Street
                && street.starts_with(char::is_uppercase)
                && same_line
                && word.starts_with(|c: char| c.is_ascii_digit())
                && is_unit_number(word)
            {
                b.take(words, first + 1, Anchor::Locator);
                return Some(first + 1);
            }
            let mut at = first;
            for _ in 0..ADDRESS_GAP_WORDS {
                let word = word_text(text, &words[at]);
                let intersection = b.has_street && (word == "and" || word == "&");
                let part_like = is_unit_number(word)
                    || alnum(word) <= 3
                    || is_capitalised(word)
                    || intersection;
                if !part_like {
                    return None;
                }
                let next = next_word(text, words, at + 1, words[at].end, m)?;
                if tagged_as(words, next, m, weak) {
                    b.take(words, next, Anchor::None);
                    return Some(next);
                }
                // `and` joins two streets, not a street and whatever follows two words on.
                if intersection {
                    return None;
                }
                at = next;
            }
            None
        }
        Meaning::Person => {
            let word = word_text(text, &words[first]);
            if is_initial(word) {
                let next = next_word(text, words, first + 1, words[first].end, m)?;
                if tagged_as(words, next, m, weak) {
                    b.take(words, next, Anchor::None);
                    return Some(next);
                }
                // `Hanna J. Ukkonen`: a given name, an initial, and a surname the model
                // missed.
                let surname = word_text(text, &words[next]);
                if b.last_anchor == Anchor::Given
                    && is_capitalised(surname)
                    && surname.chars().count() >= 2
                {
                    b.take(words, next + 1, Anchor::None);
                    return Some(next + 1);
                }
                return None;
            }
            let mut at = first;
            for _ in 0..NAME_PARTICLES {
                if !is_one_of(word_text(text, &words[at]), &PARTICLES) {
                    return None;
                }
                let next = next_word(text, words, at + 1, words[at].end, m)?;
                if tagged_as(words, next, m, weak) {
                    b.take(words, next, Anchor::None);
                    return Some(next);
                }
                at = next;
            }
            None
        }
        _ => None,
    }
}

/// Word `i`, tagged as a number, after an open address: takes it and the number words
/// after it when together they are a short number joined to the address within its line
/// (`Apt. 542`), and returns the index of the next word to read.
pub(super) fn number_in_address(
    text: &str,
    words: &[Word],
    i: usize,
    b: &mut Building,
) -> Option<usize> {
    let within_line = |gap: &str| gap.chars().all(|c| " \t\u{a0}.#-/".contains(c));
    let mut end = i;
    let mut at = b.end;
    let mut total = 0;
    while let Some(w) = words.get(end) {
        let is_number = w.part.is_some_and(|p| p.meaning.is_number());
        if !is_number || !within_line(&text[at..w.start]) {
            break;
        }
        total += alnum(word_text(text, w));
        at = w.end;
        end += 1;
    }
    let digits = end > i && text[words[i].start..at].chars().any(|c| c.is_ascii_digit());
    (digits && total <= UNIT_NUMBER_ALNUM).then(|| {
        b.take(words, end, Anchor::Locator);
        end
    })
}

/// A person span's bounds widened over a title before it and a post-nominal after it.
pub(super) fn widen_person(text: &str, words: &[Word], b: &Building) -> (usize, usize) {
    let (mut start, mut end) = (b.start, b.end);
    let mut i = b.first_word;
    // Skip a period after the title (`Mrs.`), then read the title.
    if i > 0
        && word_text(text, &words[i - 1]) == "."
        && joins(&text[words[i - 1].end..start], Meaning::Person)
    {
        i -= 1;
    }
    if i > 0 {
        let w = &words[i - 1];
        let gap = &text[w.end..words[i].start];
        if is_one_of(word_text(text, w), &HONORIFICS) && joins(gap, Meaning::Person) {
            start = w.start;
        } else if is_initial(word_text(text, w)) && joins(gap, Meaning::Person) {
            // `M. de Vries`, and `James M. Sparks` when the model found only the surname.
            start = w.start;
            if let Some(given) = i.checked_sub(2).map(|k| &words[k]) {
                let name = word_text(text, given);
                if is_capitalised(name)
                    && name.chars().count() >= 2
                    && !is_one_of(name, &HONORIFICS)
                    && text[given.end..w.start].chars().all(|c| c == ' ')
                {
                    start = given.start;
                }
            }
        }
    }
    // `Harold B.`: a given name and the initial of the surname, with its period.
    let j = b.last_word + 1;
    if b.last_anchor == Anchor::Given {
        if let (Some(w), Some(dot)) = (words.get(j), words.get(j + 1)) {
            let spaced =
                text[end..w.start].chars().all(|c| c == ' ') && !text[end..w.start].is_empty();
            if spaced
                && is_initial(word_text(text, w))
                && word_text(text, dot) == "."
                && dot.start == w.end
            {
                return (start, dot.end);
            }
        }
    }
    // `, MD`, ` Jr.`, ` III`.
    let mut j = b.last_word + 1;
    if words.get(j).is_some_and(|w| word_text(text, w) == ",") {
        j += 1;
    }
    if let Some(w) = words.get(j) {
        let gap = &text[end..w.start];
        let fits = gap.chars().all(|c| c == ',' || c == ' ');
        if fits && POST_NOMINALS.contains(&word_text(text, w)) {
            end = w.end;
        }
    }
    (start, end)
}

/// Where an address span starts once a unit line, a bare number or `(the) corner of` just
/// before it is taken in.
pub(super) fn widen_address_start(text: &str, words: &[Word], b: &Building) -> usize {
    let mut start = b.start;
    let mut first = b.first_word;
    let line_gap =
        |from: usize, to: usize| text[from..to].chars().all(|c| " \t\u{a0}.#,".contains(c));
    for _ in 0..3 {
        // The word before, skipping one period (`Apt. 918`).
        let Some(mut k) = first.checked_sub(1) else {
            break;
        };
        if word_text(text, &words[k]) == "." {
            let Some(before) = k.checked_sub(1) else {
                break;
            };
            k = before;
        }
        let w = &words[k];
        let word = word_text(text, w);
        if !line_gap(w.end, start) {
            break;
        }
        if is_one_of(word, STREET_ABBREVIATIONS) && text[w.end..start].starts_with(['.', '/']) {
            // `ul. Zakrzowska`, `C/ Eras`: the kind of street, abbreviated before its name.
        } else if is_one_of(word, &UNIT_DESIGNATORS) {
            // A designator before the span's own number (`Apt. 918 61990 …`): only when the
            // span starts with a number.
            if !word_text(text, &words[first])
                .chars()
                .any(|c| c.is_ascii_digit())
            {
                break;
            }
        } else if word.chars().all(|c| c.is_ascii_digit()) && alnum(word) <= UNIT_NUMBER_ALNUM {
            // A bare number before the street (`36231 23 Rue …`), within the line.
            if text[w.end..start].contains(',') {
                break;
            }
        } else {
            break;
        }
        start = w.start;
        first = k;
    }
    // `the corner of 48 rue Descartes and …`: the intersection is the address.
    let before = text[..start].trim_end_matches([' ', '\t']);
    for cue in ["corner of", "intersection of"] {
        if let Some(at) = ends_with_ci(before, cue) {
            let head = text[..at].trim_end_matches(' ');
            start = match ends_with_ci(head, "the") {
                Some(the) if !head[..the].ends_with(char::is_alphanumeric) => the,
                _ => at,
            };
            break;
        }
    }
    start
}

/// Where `suffix` (ASCII) starts when `s` ends with it, ignoring ASCII case.
fn ends_with_ci(s: &str, suffix: &str) -> Option<usize> {
    let at = s.len().checked_sub(suffix.len())?;
    (s.is_char_boundary(at) && s[at..].eq_ignore_ascii_case(suffix)).then_some(at)
}

/// Where an address span ends once a country after it is taken in, with up to two
/// capitalised words before the country (a city the model left out): `… Suite 119
/// Terrugem Portugal`, `…, Oxnard, United States`.
pub(super) fn widen_address_end(text: &str, b: &Building) -> usize {
    let separators = |s: &str| joins(s, Meaning::Address);
    let mut at = b.end;
    for _ in 0..3 {
        let rest = &text[at..];
        let word_at = rest
            .char_indices()
            .find(|&(_, c)| c.is_alphanumeric())
            .map_or(rest.len(), |(i, _)| i);
        if word_at == 0 || !separators(&rest[..word_at]) {
            break;
        }
        let from = at + word_at;
        if let Some(len) = country_at(&text[from..]) {
            return from + len;
        }
        // A capitalised word before the country, then try again after it.
        let word_len = text[from..]
            .char_indices()
            .find(|&(_, c)| !c.is_alphabetic())
            .map_or(text.len() - from, |(i, _)| i);
        if !is_capitalised(&text[from..from + word_len]) {
            break;
        }
        at = from + word_len;
    }
    b.end
}

/// The length of the country name `s` starts with, as a whole word.
fn country_at(s: &str) -> Option<usize> {
    COUNTRIES.iter().find_map(|&c| {
        let head = s.get(..c.len())?;
        let whole = !s[c.len()..].starts_with(|ch: char| ch.is_alphanumeric());
        (head.eq_ignore_ascii_case(c) && whole && head.starts_with(char::is_uppercase))
            .then_some(c.len())
    })
}
