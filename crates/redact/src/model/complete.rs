//! Names the model found in part. Its probabilities fall off at a name's edge, so a given name
//! sometimes comes without the surname after it ("Nicklas" of "Nicklas Olsen"), a surname
//! without the given name before it ("Herzog" of "Kristian Herzog"), and a name without its
//! title ("Jason Meier" of "Mr. Jason Meier"). A person's name is written as one run of
//! capitalised words; a word of that run next to the span is part of the same name unless
//! it is a word the person lists know as something else.

use crate::recognizers::person::names::listed;
use llm_memory_encoder::decode::{Meaning, Span};
use llm_memory_encoder::lexicon::PARTICLES;

/// Widens each person span over the capitalised name words and the title right next to it.
pub(super) fn complete_names(text: &str, spans: &mut [Span]) {
    for i in 0..spans.len() {
        if spans[i].meaning != Meaning::Person {
            continue;
        }
        let limit_left = if i > 0 { spans[i - 1].end } else { 0 };
        let limit_right = spans.get(i + 1).map_or(text.len(), |s| s.start);
        let span = &mut spans[i];
        // A span of three name words or more is a full name already ("Victoria de Juan
        // Herráez"): the capitalised word after it starts something else ("Instituto").
        let full = text[span.start..span.end]
            .split_whitespace()
            .map(|w| w.trim_end_matches('.').to_lowercase())
            .filter(|w| !PARTICLES.contains(&w.as_str()) && !listed(w).honorific)
            .count()
            >= 3;
        if let Some(end) = name_word_after(text, span.end).filter(|&e| !full && e <= limit_right) {
            span.end = end;
        }
        if let Some(start) = name_word_before(text, span.start).filter(|&s| s >= limit_left) {
            span.start = start;
        } else if let Some(start) = initial_before(text, span.start)
            .and_then(|i| name_word_before(text, i))
            .filter(|&s| s >= limit_left)
        {
            // "James M. Sparks" found as "Sparks": the initial joins when a name word is
            // before it.
            span.start = start;
        }
        if let Some(start) = title_before(text, span.start).filter(|&s| s >= limit_left) {
            span.start = start;
        }
    }
}

/// A word written as a name: a capital, then at least one lower-case letter, letters,
/// hyphens and apostrophes only ("Olsen", "Horvatinčić", "O'Neill", "Smith-Jones"), and no
/// contraction or possessive ("I'm", "Dana's": the clitic after the apostrophe says so).
pub(crate) fn name_shaped(word: &str) -> bool {
    let mut chars = word.chars();
    let contraction = word
        .split(['\'', '’'])
        .skip(1)
        .any(llm_memory_encoder::decode::is_clitic);
    chars.next().is_some_and(char::is_uppercase)
        && word.chars().any(char::is_lowercase)
        && word.chars().all(|c| {
            // The ordinal indicators are letters to Unicode: "NºCol" is an abbreviation.
            (c.is_alphabetic() && !matches!(c, 'º' | 'ª')) || c == '-' || c == '\'' || c == '’'
        })
        && !contraction
}

/// Whether the person lists know `word` as something other than part of a name: a common
/// word, a role, a place, a description, a title.
pub(crate) fn known_otherwise(word: &str) -> bool {
    let l = listed(&word.to_lowercase());
    l.not_name || l.common || l.describes || l.ends_no_name || l.honorific || l.place || l.thing
}

/// The end of the name word right after `end` (one space between), if there is one.
fn name_word_after(text: &str, end: usize) -> Option<usize> {
    let rest = text[end..].strip_prefix(' ')?;
    let len = rest
        .find(|c: char| !(c.is_alphabetic() || c == '-' || c == '\'' || c == '’'))
        .unwrap_or(rest.len());
    let word = rest[..len]
        .trim_end_matches(['\'', '’'])
        .trim_end_matches("'s")
        .trim_end_matches("’s");
    (word.chars().count() >= 2 && name_shaped(word) && !known_otherwise(word))
        .then_some(end + 1 + word.len())
}

/// The start of the name word right before `start` (one space between), if there is one and
/// it does not open the sentence: there a capital says nothing.
fn name_word_before(text: &str, start: usize) -> Option<usize> {
    let before = text[..start].strip_suffix(' ')?;
    let from = before
        .rfind(|c: char| !(c.is_alphabetic() || c == '-' || c == '\'' || c == '’'))
        .map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
    let word = &before[from..];
    let opens = text[..from]
        .trim_end()
        .chars()
        .next_back()
        .is_none_or(|c| matches!(c, '.' | '!' | '?' | '\n' | ':' | '"' | '“'));
    let given = listed(&word.to_lowercase()).given_name;
    (word.chars().count() >= 2 && name_shaped(word) && !known_otherwise(word) && (given || !opens))
        .then_some(from)
}

/// Where the run of `in_word` characters that ends `text` starts (a char boundary).
fn last_word_start(text: &str, in_word: impl Fn(char) -> bool) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| !in_word(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// The start of a middle initial ("M." or "M") right before `start`, one space between.
fn initial_before(text: &str, start: usize) -> Option<usize> {
    let before = text[..start].strip_suffix(' ')?;
    let letters = before.strip_suffix('.').unwrap_or(before);
    let from = last_word_start(letters, char::is_alphabetic);
    let word = &letters[from..];
    (word.chars().count() == 1 && word.starts_with(char::is_uppercase)).then_some(from)
}

/// The start of a title ("Mr.", "Dr", "Frau") right before `start`, with one space between.
fn title_before(text: &str, start: usize) -> Option<usize> {
    let before = text[..start].strip_suffix(' ')?;
    let before_dot = before.strip_suffix('.').unwrap_or(before);
    let from = last_word_start(before_dot, char::is_alphabetic);
    let word = &before_dot[from..];
    // A whole word: the "m" of "I'm" is no "M." (Monsieur), the "s" of "Dana's" no title.
    let joined = before_dot[..from]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '\'' || c == '’');
    (!word.is_empty() && !joined && listed(&word.to_lowercase()).honorific).then_some(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn completed(text: &str, found: &str) -> String {
        let start = text.find(found).unwrap();
        let mut spans = [Span {
            meaning: Meaning::Person,
            start,
            end: start + found.len(),
            score: 0.9,
        }];
        complete_names(text, &mut spans);
        text[spans[0].start..spans[0].end].to_string()
    }

    #[test]
    fn surnames_given_names_and_titles_join_the_name() {
        assert_eq!(
            completed("You can tell he was a huge Nicklas Olsen fan.", "Nicklas"),
            "Nicklas Olsen"
        );
        assert_eq!(
            completed("The Kristian Herzog version recorded for LYX", "Herzog"),
            "Kristian Herzog"
        );
        assert_eq!(
            completed("shares, Mr. Jason Meier of SG Gold", "Jason Meier"),
            "Mr. Jason Meier"
        );
        assert_eq!(completed("Pál Pete's Cautionary Tales", "Pál"), "Pál Pete");
        assert_eq!(
            completed("Follow up with Saša Horvatinčić soon", "Saša"),
            "Saša Horvatinčić"
        );
    }

    #[test]
    fn other_capitalised_words_stay_out() {
        assert_eq!(
            completed("I met Anna Monday at the Street fair", "Anna"),
            "Anna"
        );
        assert_eq!(completed("Thanks Anna, see you", "Anna"), "Anna");
        assert_eq!(completed("Yesterday Herzog called", "Herzog"), "Herzog");
        assert_eq!(completed("Ask Maria Street about it", "Maria"), "Maria");
        assert_eq!(completed("Subject: Application —Anna", "Anna"), "Anna");
        assert_eq!(completed("Mr—Anna Lee", "Anna Lee"), "Anna Lee");
        assert_eq!(
            completed(
                "Dra. Victoria de Juan Herráez Instituto Universitario",
                "Victoria de Juan Herráez"
            ),
            "Victoria de Juan Herráez"
        );
        assert_eq!(
            completed("Médico: Eva Ruiz NºCol: 47 47", "Eva Ruiz"),
            "Eva Ruiz"
        );
    }

    #[test]
    fn a_contraction_or_a_possessive_before_a_name_stays_out() {
        assert_eq!(completed("Hi, I'm Dana Reyes.", "Dana Reyes"), "Dana Reyes");
        assert_eq!(completed("Hey, I’m Priya", "Priya"), "Priya");
        assert_eq!(completed("so Tom's Anna came", "Anna"), "Anna");
        assert_eq!(completed("ask D'Angelo Russo", "Russo"), "D'Angelo Russo");
    }
}
