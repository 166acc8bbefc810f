//! A name found once stands for its person wherever its parts stand again in the same text:
//! "arranged and sung by Lukáš Ryška in 2003 … Ryška was influenced by", "directed by Rosetta
//! Loggia and starring Loggia", "Daisy Buchanan … Daisy said". The finders judge each place on
//! its own words, and a surname alone after "starring" or before "was" has no cue; redacting
//! the full name and sending the surname would still say who it is. Across messages the vault
//! does the same for the names it holds.

use crate::entity::EntityType;
use crate::model::complete::known_otherwise;
use crate::recognizers::person::names::listed;
use crate::recognizers::Candidate;
use crate::Detected;
use aho_corasick::{AhoCorasickBuilder, MatchKind};
use llm_memory_encoder::lexicon::PARTICLES;
use rustc_hash::FxHashSet;

/// Fewest characters a part needs to be looked for alone: an initial ("R.") is no one.
const MIN_PART_CHARS: usize = 2;

/// New PERSON candidates: every further whole-word occurrence, in `text`, of a name among
/// `kept` (two or more words) or of one of its given names or surnames, written as it was
/// written there, that no finding covers yet. Each carries the score and the source of the
/// name it repeats. One pass over the text whatever the number of names (a pasted list of
/// thousands must not rescan it per name).
pub(crate) fn repeated_parts(text: &str, kept: &[Detected]) -> Vec<Detected> {
    // What to look for: each whole name and each part once, with the first name it came from
    // (its score and source) and whether it is a part.
    let mut wanted: Vec<(&str, bool, &Detected)> = Vec::new();
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    for name in kept
        .iter()
        .filter(|d| d.candidate.kind == EntityType::Person)
    {
        let c = &name.candidate;
        // A name that ran on into a word the lists know as something else ("Fernando Godoy
        // Servicio de Cirugía") is looked for up to that word.
        let mut parts = name_parts(&text[c.start..c.end]);
        if let Some(n) = parts.iter().skip(1).position(|p| known_otherwise(p)) {
            parts.truncate(n + 1);
        }
        if parts.len() < 2 {
            continue;
        }
        let cased = parts.iter().any(|p| p.starts_with(char::is_uppercase));
        let whole = std::iter::once((&text[c.start..c.end], false));
        let alone = parts.into_iter().filter(|p| may_stand_alone(p, cased));
        for (words, is_part) in whole.chain(alone.map(|p| (p, true))) {
            if seen.insert(words) {
                wanted.push((words, is_part, name));
            }
        }
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    // Leftmost-longest: where a whole name stands again it is one finding, not one per part.
    let Ok(matcher) = AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostLongest)
        .build(wanted.iter().map(|(w, _, _)| w))
    else {
        return Vec::new();
    };
    let mut covered = vec![false; text.len()];
    for d in kept {
        covered[d.candidate.start..d.candidate.end].fill(true);
    }
    let mut found = Vec::new();
    for m in matcher.find_iter(text) {
        let (at, end) = (m.start(), m.end());
        let (words, is_part, name) = wanted[m.pattern().as_usize()];
        if !whole_word(text, at, end) || covered[at..end].contains(&true) {
            continue;
        }
        if is_part && at_sentence_start(text, at) && is_everyday(words) {
            continue;
        }
        found.push(Detected {
            candidate: Candidate {
                kind: EntityType::Person,
                start: at,
                end,
                score: name.candidate.score,
            },
            source: name.source,
        });
    }
    found
}

/// The words of a name, without a possessive or punctuation at their ends.
fn name_parts(name: &str) -> Vec<&str> {
    name.split_whitespace()
        .map(|w| {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            w.strip_suffix("'s")
                .or_else(|| w.strip_suffix("’s"))
                .unwrap_or(w)
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether a part, alone, still names its person: letters only (a hyphen or an apostrophe
/// inside), not an initial or an abbreviation ("MD", "Jr"), not a particle ("de", "van"), on
/// none of the person scan's lists of words that are not names ([`known_otherwise`]: honorifics,
/// common words, roles, places), and written as names are: capitalized in a name that is (`cased`); in a
/// lower-case name only a listed given name, since a lower-case surname ("long", "rice") is as
/// often a word.
fn may_stand_alone(part: &str, cased: bool) -> bool {
    let Some(first) = part.chars().next() else {
        return false;
    };
    let lower = part.to_lowercase();
    let letters = part
        .chars()
        .all(|c| c.is_alphabetic() || c == '-' || c == '\'' || c == '’');
    let written_as_a_name = if cased {
        first.is_uppercase() && part.chars().skip(1).any(char::is_lowercase)
    } else {
        listed(&lower).given_name
    };
    part.chars().count() >= MIN_PART_CHARS
        && letters
        && written_as_a_name
        && !PARTICLES.contains(&lower.as_str())
        && !known_otherwise(part)
}

/// A part that is also an everyday word, by the lists the person scan keeps: at a sentence's
/// start its capital says nothing ("Will you…", "Long story short").
fn is_everyday(part: &str) -> bool {
    let l = listed(&part.to_lowercase());
    l.common || l.not_name || l.describes
}

/// Whether `start..end` is a word of its own: no letter, digit or joining mark (`@`, `.`, `/`,
/// `_`) of an address, a path or a handle touches it.
fn whole_word(text: &str, start: usize, end: usize) -> bool {
    let joins = |c: char| c.is_alphanumeric() || "@/_\\".contains(c);
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    let dotted = |c: Option<char>, next: Option<char>| {
        c == Some('.') && next.is_some_and(char::is_alphanumeric)
    };
    !before.is_some_and(joins)
        && !after.is_some_and(joins)
        && !dotted(before, text[..start].chars().rev().nth(1))
        && !dotted(after, text[end..].chars().nth(1))
}

/// Whether `at` opens the text, a line or a sentence.
fn at_sentence_start(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end_matches([' ', '\t', '"', '“', '(']);
    before.is_empty() || before.ends_with(['.', '!', '?', '\n', ':'])
}

#[cfg(test)]
mod tests {
    use super::repeated_parts;
    use crate::entity::EntityType;
    use crate::recognizers::Candidate;
    use crate::{Detected, Source};

    fn repeats(text: &str, name: &str) -> Vec<String> {
        let start = text.find(name).unwrap();
        let kept = [Detected {
            candidate: Candidate {
                kind: EntityType::Person,
                start,
                end: start + name.len(),
                score: 0.9,
            },
            source: Source::Model,
        }];
        // With the model's word lists, as the stage runs with the model ("dana" is on them).
        let lists = crate::WordLists::of_this_repository();
        crate::word_lists::using(&lists, || repeated_parts(text, &kept))
            .into_iter()
            .map(|d| text[d.candidate.start..d.candidate.end].to_string())
            .collect()
    }

    #[test]
    fn a_found_names_parts_are_found_where_they_stand_again() {
        assert_eq!(
            repeats(
                "It may be that Ryška was influenced by a song sung by Lukáš Ryška in 2003.",
                "Lukáš Ryška"
            ),
            ["Ryška"]
        );
        assert_eq!(
            repeats(
                "a film directed by Rosetta Loggia and starring Loggia",
                "Rosetta Loggia"
            ),
            ["Loggia"]
        );
        assert_eq!(
            repeats(
                "the verses from Maite Lemmens's tales. Lemmens wrote",
                "Maite Lemmens's"
            ),
            ["Lemmens"]
        );
        assert_eq!(
            repeats("dana boyle called, tell dana i'm out", "dana boyle"),
            ["dana"]
        );
        assert_eq!(
            repeats("Lukáš Ryška\nRyška's flat is on the left", "Lukáš Ryška"),
            ["Ryška"]
        );
        assert_eq!(
            repeats(
                "Médico:Pablo L. Guzmán  NºCol: 1.\nFirmado, Dr. Pablo L. Guzmán",
                "Pablo L. Guzmán"
            ),
            ["Pablo L. Guzmán"]
        );
    }

    #[test]
    fn other_words_that_share_a_part_are_not() {
        for (text, name) in [
            ("Will Smith called. Will you call him back?", "Will Smith"),
            (
                "Dana Long says hi. Long story short, she moved",
                "Dana Long",
            ),
            ("dana long says it took too long", "dana long"),
            (
                "Mail Dana Reyes at reyes@example.org or dana.reyes@x.io",
                "Dana Reyes",
            ),
            (
                "Dana Reyes is in /home/Reyes/docs and Reyes_2",
                "Dana Reyes",
            ),
            ("Dr. Dana Reyes, MD, saw Dr. Ortiz", "Dr. Dana Reyes, MD"),
            ("Reyes", "Reyes"),
            ("grace boyle called, tell boyle i'm out", "grace boyle"),
            (
                "Dra. María de la Fuente, del Servicio de Cirugía de la Paz",
                "María de la Fuente",
            ),
            (
                "Maret Akhtakhanov MD, MD of the board",
                "Maret Akhtakhanov MD",
            ),
            (
                "Dr. Godoy Herrera Servicio de Cirugía. Servicio de guardia: Cirugía",
                "Godoy Herrera Servicio de Cirugía",
            ),
        ] {
            assert_eq!(repeats(text, name), Vec::<String>::new(), "{text:?}");
        }
    }
}
