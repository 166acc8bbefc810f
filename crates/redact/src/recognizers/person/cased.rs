//! Names whose case does not say they are names: "my name is john smith", "dear john,",
//! "MY NAME IS ROBERT JOHNSON", "PATIENT: JOHN DOE", "Regards,\nJOHN SMITH". The main scan
//! starts at capitalized words, so it never reads these; here only a strong cue opens such a
//! name, and its words must still look like one: a listed given name first, unless the cue
//! names its value outright ("my name is", a form label, a title), and no common word
//! ("i'm fine", "my name is on the list", "ROBERT JOHNSON AND I NEED HELP").
//!
//! The cues are found in one literal search over the text (aho-corasick, which the tokenizer
//! already links): the capitals the main scan walks are not there to find them.

use super::super::Candidate;
use super::cues::{given_among, record_follows};
use super::names::{is_particle, Listed};
use super::score::{cued_given_name, listed_word};
use super::words::word_end;
use crate::entity::EntityType;
use crate::scan::context::pair_bit;
use crate::scan::text::glued_into_code;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use cue_list::{Opens, CUES};
use std::sync::OnceLock;

mod cue_list;

fn cues() -> &'static AhoCorasick {
    static CUES_AC: OnceLock<AhoCorasick> = OnceLock::new();
    CUES_AC.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostLongest)
            .build(CUES.iter().map(|(c, _)| c))
            // The cues are constants; a failure is a bug the unit tests catch.
            .expect("name cues")
    })
}

/// How a name's words are written.
#[derive(Clone, Copy, PartialEq)]
enum Case {
    Lower,
    Upper,
}

/// The case of `word` when it is all lower case or all capitals (two letters at least); `None`
/// for a capitalized word, which the main scan reads.
fn case_of(word: &str) -> Option<Case> {
    let mut letters = word.chars().filter(|c| c.is_alphabetic());
    let first = letters.next()?;
    if first.is_lowercase() {
        word.chars()
            .all(|c| !c.is_uppercase())
            .then_some(Case::Lower)
    } else {
        let rest_upper = word.chars().skip(1).all(|c| !c.is_lowercase());
        (rest_upper && word.chars().count() >= 2).then_some(Case::Upper)
    }
}

/// A word that may be part of a name when a cue vouches for it: not a common word, and not
/// shaped like a verb or an adverb ("spelled", "going", "really"), which follow "my name is"
/// in complaints more often than a surname does.
fn may_be_a_name(word: &str, l: &Listed) -> bool {
    if l.given_name {
        return true;
    }
    let lower_suffix = |s: &str| {
        word.len() > s.len() + 2
            && word.as_bytes()[word.len() - s.len()..].eq_ignore_ascii_case(s.as_bytes())
    };
    !l.ends_an_uncased_name()
        && !word.contains('-')
        && !["ed", "ing", "ly"].iter().any(|s| lower_suffix(s))
}

/// The word one space after `end`: where it ends, and the word.
fn word_after_space(text: &str, end: usize) -> Option<(usize, &str)> {
    let start = end + 1;
    if text.as_bytes().get(end) != Some(&b' ') || !text[start..].starts_with(char::is_alphabetic) {
        return None;
    }
    let word_end = word_end(text, start);
    Some((word_end, &text[start..word_end]))
}

/// Whether a second word of the name follows the word ending at `end`: one of the same case,
/// or a listed given name after a comma ("WILLIAMS, SARAH").
fn two_words(text: &str, end: usize, case: Case) -> bool {
    let same_case = |w: &str| case_of(w) == Some(case);
    word_after_space(text, end)
        .is_some_and(|(_, w)| same_case(w) && may_be_a_name(w, &listed_word(w)))
        || (text[end..].starts_with(", ")
            && word_after_space(text, end + 1)
                .is_some_and(|(_, w)| same_case(w) && cued_given_name(w, &listed_word(w))))
}

/// Where the name after a cue ending at `at` may start, given what the cue lets follow.
fn name_start(text: &str, at: usize, opens: Opens) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = at;
    let skip = |i: &mut usize, set: &[u8]| {
        while b.get(*i).is_some_and(|c| set.contains(c)) {
            *i += 1;
        }
    };
    match opens {
        Opens::Sentence | Opens::Greeting => {
            if b.get(i) != Some(&b' ') {
                return None;
            }
            i += 1;
        }
        Opens::Label | Opens::Field | Opens::Role | Opens::NameField => {
            skip(&mut i, b" \t");
            if b.get(i) != Some(&b':') {
                return None;
            }
            i += 1;
            skip(&mut i, b" \t");
        }
        Opens::SignOff => {
            skip(&mut i, b",!. \t\r");
            let lines = b[i..]
                .iter()
                .take_while(|c| matches!(c, b'\n' | b'\r' | b' ' | b'\t'));
            let newlines = lines.clone().filter(|&&c| c == b'\n').count();
            if !(1..=2).contains(&newlines) {
                return None;
            }
            i += lines.count();
        }
    }
    Some(i)
}

/// Appends the names in lower case or in capitals that a strong cue opens. `starts`, the
/// text's word starts at an ASCII letter or `-` (from the prescan), spares the search over
/// every byte: only the cues at a word start are read.
pub(super) fn scan(text: &str, starts: Option<&[usize]>, out: &mut Vec<Candidate>) {
    match starts {
        Some(starts) if by_first().is_some() => scan_starts(text, starts, out),
        _ => {
            for m in cues().find_iter(text) {
                at_cue(text, m.start(), m.end(), m.pattern().as_usize(), out);
            }
        }
    }
}

/// What `cues().find_iter(text)` reports at word starts, from the word starts alone.
///
/// The search reports the longest cue at the leftmost position where one matches, then goes
/// on after it: a match hides the matches that start inside it. A cue at a word start `w` is
/// reported unless a match already reported covers `w`. One at a word start is tracked here
/// (`cursor`); one inside a word ("xi'my name is") is not, but to cover `w` it must hold the
/// byte before `w`, which starts no word: an inner word start of a cue ([`covers`]). Where
/// such a cue sits at `w`, the rest of the text goes through the search itself, from a point
/// where it is known to resume (the end of the last match, or the text's start).
fn scan_starts(text: &str, starts: &[usize], out: &mut Vec<Candidate>) {
    let Some(by_first) = by_first() else {
        return;
    };
    let b = text.as_bytes();
    let at = |p: usize, cue: usize| {
        let c = CUES[cue].0.as_bytes();
        b.len() - p >= c.len() && b[p..p + c.len()].eq_ignore_ascii_case(c)
    };
    let mut cursor = 0;
    // Whether the byte at `i` is one of `bits` ([`pair_bit`]).
    let one_of = |i: usize, bits: u32| b.get(i).is_some_and(|&c| bits & pair_bit(c) != 0);
    for &w in starts {
        // Most word starts start no cue: their first three bytes rule them out.
        let first = &by_first[b[w].to_ascii_lowercase() as usize];
        if w < cursor
            || !one_of(w + 1, first.seconds)
            || !one_of(w + 2, first.thirds[pair_index(b[w + 1])])
        {
            continue;
        }
        // The cues of this first letter, longest first: the search's choice at `w`.
        let Some(cue) = first.cues.iter().map(|&c| c as usize).find(|&c| at(w, c)) else {
            continue;
        };
        if covers()
            .iter()
            .any(|&(c, k)| w - cursor >= k && at(w - k, c))
        {
            let rest = aho_corasick::Input::new(text).span(cursor..text.len());
            for m in cues().find_iter(rest) {
                at_cue(text, m.start(), m.end(), m.pattern().as_usize(), out);
            }
            return;
        }
        let end = w + CUES[cue].0.len();
        at_cue(text, w, end, cue, out);
        cursor = end;
    }
}

/// The cues starting with one lower-case byte.
#[derive(Clone)]
struct FirstByte {
    /// Their indexes in [`CUES`], longest first.
    cues: Vec<u8>,
    /// The bits ([`pair_bit`]) of their second bytes.
    seconds: u32,
    /// The bits of their third bytes, by the index ([`pair_index`]) of the second.
    thirds: [u32; 27],
}

/// The bit of [`pair_bit`] that `b` sets, as an index.
fn pair_index(b: u8) -> usize {
    pair_bit(b).trailing_zeros() as usize
}

/// For each lower-case first byte, the cues starting with it; `None` if a cue starts with a
/// byte other than an ASCII letter (word starts are kept only at those) or is shorter than
/// three bytes.
fn by_first() -> Option<&'static [FirstByte]> {
    static BY_FIRST: OnceLock<Option<Vec<FirstByte>>> = OnceLock::new();
    BY_FIRST
        .get_or_init(|| {
            let none = FirstByte {
                cues: Vec::new(),
                seconds: 0,
                thirds: [0; 27],
            };
            let mut by_first = vec![none; 256];
            let mut order: Vec<usize> = (0..CUES.len()).collect();
            order.sort_by_key(|&c| std::cmp::Reverse(CUES[c].0.len()));
            for c in order {
                // The search needs three bytes of each cue, the first a letter, and an index
                // that fits a byte.
                let (&[first, second, third, ..], Ok(index)) =
                    (CUES[c].0.as_bytes(), u8::try_from(c))
                else {
                    return None;
                };
                if !first.is_ascii_alphabetic() {
                    return None;
                }
                let entry = &mut by_first[first.to_ascii_lowercase() as usize];
                entry.cues.push(index);
                entry.seconds |= pair_bit(second);
                entry.thirds[pair_index(second)] |= pair_bit(third);
            }
            Some(by_first)
        })
        .as_deref()
}

/// The cues with a word start inside them, and its offset: a letter after a byte other than
/// an ASCII letter, digit or `_` ("name" in "my name is", "m" in "i'm", "e" in "heiße").
fn covers() -> &'static [(usize, usize)] {
    static COVERS: OnceLock<Vec<(usize, usize)>> = OnceLock::new();
    COVERS.get_or_init(|| {
        let mut covers = Vec::new();
        for (c, (cue, _)) in CUES.iter().enumerate() {
            let cue = cue.as_bytes();
            for k in 1..cue.len() {
                let before = cue[k - 1];
                if cue[k].is_ascii_alphabetic()
                    && !(before.is_ascii_alphanumeric() || before == b'_')
                {
                    covers.push((c, k));
                }
            }
        }
        covers
    })
}

/// The name a cue found at `start..end` opens, if any.
fn at_cue(text: &str, cue_start: usize, cue_end: usize, cue: usize, out: &mut Vec<Candidate>) {
    let b = text.as_bytes();
    // The cue must start a word: "username:", "nominee:", "idear" are no cues.
    let starts_word = text[..cue_start]
        .chars()
        .next_back()
        .is_none_or(|c| !c.is_alphanumeric() && c != '_');
    if !starts_word {
        return;
    }
    let opens = CUES[cue].1;
    if opens == Opens::Role && !b[cue_start].is_ascii_uppercase() {
        return;
    }
    let Some(mut start) = name_start(text, cue_end, opens) else {
        return;
    };
    // A title vouches for the word after it: "FAO: MR. JOHN SMITH", "dear mr. smith".
    let mut titled = false;
    if b.get(start).is_some_and(|c| c.is_ascii_alphabetic()) {
        let end = word_end(text, start);
        if listed_word(&text[start..end]).honorific {
            let gap = if text[end..].starts_with(". ") { 2 } else { 1 };
            if b.get(end) == Some(&b' ') || gap == 2 {
                start = end + gap;
                titled = true;
            }
        }
    }
    if let Some(end) = name_at(text, start, opens, titled) {
        out.push(Candidate {
            kind: EntityType::Person,
            start,
            end,
            score: 0.85,
        });
    }
}

/// The end of the name in lower case or capitals starting at `start`, if its words read as
/// one after a cue of kind `opens`.
fn name_at(text: &str, start: usize, opens: Opens, titled: bool) -> Option<usize> {
    let first_char = text[start..].chars().next()?;
    if !first_char.is_alphabetic() {
        return None;
    }
    let first_end = word_end(text, start);
    let first = &text[start..first_end];
    let case = case_of(first)?;
    let first_listed = listed_word(first);
    let field = matches!(opens, Opens::Label | Opens::Field | Opens::Role);
    let needs_given = !titled
        && match opens {
            Opens::Sentence | Opens::NameField => false,
            Opens::Greeting => true,
            Opens::Label => case == Case::Lower,
            Opens::Field | Opens::Role => case == Case::Lower || !two_words(text, first_end, case),
            // "Regards,\nACME CORP LEGAL": companies sign in capitals too.
            Opens::SignOff => true,
        };
    if !may_be_a_name(first, &first_listed) {
        return None;
    }
    // In a field, the given name may come second ("okonkwo adebayo", "smith, john"): the
    // whole value is read before it is turned down.
    let given_later = needs_given && !cued_given_name(first, &first_listed);
    if given_later && !field {
        return None;
    }
    let mut end = first_end;
    let mut words = 1;
    while words < 4 {
        // The next word, one space on; particles ("van der") must lead to one more word.
        let mut at = end;
        let mut particles = 0;
        let next = loop {
            let Some(word) = word_after_space(text, at).filter(|w| case_of(w.1) == Some(case))
            else {
                break None;
            };
            if particles < 2 && is_particle(&word.1.to_lowercase()) {
                particles += 1;
                at = word.0;
                continue;
            }
            break Some(word);
        };
        match next {
            Some((next_end, word)) if may_be_a_name(word, &listed_word(word)) => {
                end = next_end;
                words += 1 + particles;
            }
            _ => break,
        }
    }
    // "WILLIAMS, SARAH" in a form: the surname first, then a listed given name.
    let mut surname_first = false;
    if words == 1 && field && text[end..].starts_with(", ") {
        if let Some((given_end, given)) = word_after_space(text, end + 1) {
            if case_of(given) == Some(case) && cued_given_name(given, &listed_word(given)) {
                end = given_end;
                surname_first = true;
            }
        }
    }
    // A field's value with no given name first is a name only as a surname before one, or as
    // two words or more that a list of a person's details goes on from ("Patient: okonkwo
    // adebayo, DOB 1985-03-02"): "Patient: stable condition" and "Client: mobile app" are
    // not.
    if given_later
        && !surname_first
        && !(opens != Opens::Label
            && words >= 2
            && (given_among(text, first_end, end) || record_follows(text, end)))
    {
        return None;
    }
    // `name: foo_bar`, `i'm john.doe@…`: part of an identifier or an address.
    let glued = matches!(
        text.as_bytes().get(end),
        Some(b'_' | b'@' | b'/' | b'\\' | b'0'..=b'9')
    ) || (text.as_bytes().get(end) == Some(&b'.')
        && text
            .as_bytes()
            .get(end + 1)
            .is_some_and(u8::is_ascii_alphanumeric));
    (!glued && !glued_into_code(text, start, end)).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        scan(text, None, &mut out);
        out.iter().map(|c| &text[c.start..c.end]).collect()
    }

    /// Every cue can be looked for from the word starts (a cue that cannot turns the fast
    /// search off for every text, and cost +9 % of a redaction).
    #[test]
    fn every_cue_is_found_from_word_starts() {
        assert!(by_first().is_some());
    }

    /// The search from word starts finds what the search over every byte finds, where cues
    /// overlap, hide one another, or sit inside words.
    #[test]
    fn word_starts_find_what_the_search_finds() {
        use crate::scan::prescan::Prescan;
        let texts = [
            "xi'my name is bob; i'my name is bob; i'mme llamo ana; i'm ana",
            "amy name is: john; my name is john; nom: ana; nominal name: jo",
            "ich heißename: jo; heisseich bin bob, saludosaludos\n\nANA DIAZ",
            "dear ana, mi nombre es jo, meu nome é ana; nome: x; regards,\nBOB",
            "i am ana. i’my name is x; je m'appelle luc; je m’appelle luc; PATIENT: JOHN DOE",
            "éname: jo; _name: jo; 9name: jo; name : jo; Name:\tjo; contact person: ana",
        ];
        for text in texts.iter().copied().chain(["i'm ".repeat(40).as_str()]) {
            let pre = Prescan::new(text);
            let starts = pre.starts.as_ref().unwrap().all();
            let (mut from_starts, mut searched) = (Vec::new(), Vec::new());
            scan(text, Some(starts), &mut from_starts);
            scan(text, None, &mut searched);
            assert_eq!(from_starts, searched, "{text:?}");
        }
        assert!(covers().contains(&(0, 3)));
    }

    #[test]
    fn finds_uncased_names_after_strong_cues_only() {
        assert_eq!(names("my name is john smith"), ["john smith"]);
        assert_eq!(names("dear mr. smith,"), ["smith"]);
        assert_eq!(names("hi, i'm jan van der berg"), ["jan van der berg"]);
        assert_eq!(names("Best regards,\n\nJOHN SMITH\nCEO"), ["JOHN SMITH"]);
        assert!(names("i'm going home; dear all; username: john").is_empty());
        assert!(names("- name: install rust\n  name: build").is_empty());
    }
}
