//! The name heading a postal block. An address is written under the name of whoever it
//! reaches, sometimes with their job or firm between ("Pertti Palander\n\n083 Favoritenstrasse
//! 36\nApt. 367", "Royale Moïse\nMGP Ingredients Inc.\nBécsi utca 53."): a line made only of a
//! name, at the head of the lines that hold an address finding, is that person. The model,
//! which reads sentences, often misses such a line; the layout says what it is.

use crate::entity::EntityType;
use crate::model::complete::{known_otherwise, name_shaped};
use crate::recognizers::Candidate;
use crate::{Detected, Source};
use llm_memory_encoder::lexicon::{HONORIFICS, PARTICLES};

/// How many lines above an address's first line its head may stand (blank lines not counted):
/// the name, a job title and a firm.
const HEAD_REACH: usize = 3;

/// How sure a heading line is a name: the layout and the name's shape, no cue word.
const SCORE: f32 = 0.85;

/// New PERSON candidates: for each address among `kept`, the name line heading its block, if
/// one does and no finding covers it yet.
pub(crate) fn recipients(text: &str, kept: &[Detected]) -> Vec<Detected> {
    let mut found: Vec<Detected> = Vec::new();
    for address in kept
        .iter()
        .filter(|d| d.candidate.kind == EntityType::Address)
    {
        let Some((start, end)) = head_line(text, address.candidate.start) else {
            continue;
        };
        let covered = |d: &Detected| d.candidate.start <= start && end <= d.candidate.end;
        if kept.iter().chain(&found).any(covered) {
            continue;
        }
        if let Some((a, b)) = name_in_line(&text[start..end]) {
            found.push(Detected {
                candidate: Candidate {
                    kind: EntityType::Person,
                    start: start + a,
                    end: start + b,
                    score: SCORE,
                },
                source: Source::Rule,
            });
        }
    }
    found
}

/// The byte range of the topmost line of the block above `at`'s line: up to [`HEAD_REACH`]
/// non-blank lines, stopping under a line that reads as prose (a question, a label ending in
/// ':', a long sentence) or holds digits or an `@` (another part of the same card).
fn head_line(text: &str, at: usize) -> Option<(usize, usize)> {
    let mut line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let mut head = None;
    let mut lines = 0;
    while line_start > 0 && lines < HEAD_REACH {
        let end = line_start - 1;
        let start = text[..end].rfind('\n').map_or(0, |n| n + 1);
        line_start = start;
        let line = text[start..end].trim();
        if line.is_empty() {
            continue;
        }
        let words = line.split_whitespace().count();
        let prose = line.ends_with(['?', '!', ':']) || words > 6;
        if prose || line.contains(|c: char| c.is_ascii_digit() || c == '@') {
            break;
        }
        head = Some((start, end));
        lines += 1;
    }
    head
}

/// The name a line is made of, as a range inside it: two to four name words (capitalised, or
/// all lower case when the whole line is), initials and particles between them, a title
/// before them; nothing else. None of the words may be one the person lists know as
/// something else (a firm's "Inc", a job's "worker").
fn name_in_line(line: &str) -> Option<(usize, usize)> {
    let start = line.len() - line.trim_start().len();
    let trimmed = line.trim();
    let lower_line = !trimmed.contains(char::is_uppercase);
    let mut names = 0;
    for (i, word) in trimmed.split_whitespace().enumerate() {
        let bare = word.trim_end_matches('.').to_lowercase();
        let initial = word.trim_end_matches('.').chars().count() == 1
            && word.starts_with(char::is_alphabetic);
        if (i == 0 && HONORIFICS.contains(&bare.as_str()))
            || initial
            || (i > 0 && PARTICLES.contains(&bare.as_str()))
        {
            continue;
        }
        let shaped = if lower_line {
            word.chars().all(char::is_alphabetic) && word.chars().count() >= 2
        } else {
            name_shaped(word)
        };
        if !shaped || known_otherwise(word) {
            return None;
        }
        names += 1;
    }
    (2..=4)
        .contains(&names)
        .then_some((start, start + trimmed.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(text: &str, value: &str) -> Detected {
        let start = text.find(value).unwrap();
        Detected {
            candidate: Candidate {
                kind: EntityType::Address,
                start,
                end: start + value.len(),
                score: 0.9,
            },
            source: Source::Model,
        }
    }

    fn heads(text: &str, value: &str) -> Vec<String> {
        recipients(text, &[address(text, value)])
            .iter()
            .map(|d| text[d.candidate.start..d.candidate.end].to_string())
            .collect()
    }

    #[test]
    fn the_name_line_heading_an_address_is_its_recipient() {
        let text = "Pertti Palander\n\n083 Favoritenstrasse 36\n Apt. 367\n KOPPELSTÄTT";
        assert_eq!(heads(text, "083 Favoritenstrasse 36"), ["Pertti Palander"]);
        let text = "Vittore Fiorentini\nFood preparation worker\nEnduro Royalty Trust\n35569 Árpád fejedelem útja 45.";
        assert_eq!(
            heads(text, "35569 Árpád fejedelem útja 45."),
            ["Vittore Fiorentini"]
        );
        let text = "Ship to:\nJames M. Sparks\n7972 Kankaanpääntie 40";
        assert_eq!(heads(text, "7972 Kankaanpääntie 40"), ["James M. Sparks"]);
        let text = "saber e. daviau\nmachine operator\n18489 p.o. box 259";
        assert_eq!(heads(text, "18489 p.o. box 259"), ["saber e. daviau"]);
    }

    #[test]
    fn a_firm_a_sentence_or_a_lone_word_heading_an_address_is_not() {
        for (text, value) in [
            (
                "Gallagher Security Corp.\n\nPSC 2543, Box 1074",
                "PSC 2543, Box 1074",
            ),
            ("Can you check this address?\n12 Elm Road", "12 Elm Road"),
            ("Reception\n12 Elm Road", "12 Elm Road"),
            ("My address is 12 Elm Road", "12 Elm Road"),
            ("Call 555 0134\n12 Elm Road", "12 Elm Road"),
        ] {
            assert!(heads(text, value).is_empty(), "{text:?}");
        }
    }
}
