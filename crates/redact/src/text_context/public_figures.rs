//! A deny list of public figures, as Presidio's recognizers take deny and allow lists: people
//! (and fictional characters) so widely known that a message naming them is about history,
//! culture, sport or politics, not personal data. The model tags "Napoleon Bonaparte" as a
//! person, rightly; this list is what says such a person is not the user's private business.
//!
//! It is a list, with a list's limits: short on purpose (the most-discussed names of history,
//! science, the arts, politics and sport, plus the best-known fictional characters), written
//! from general knowledge, matched as whole words ignoring ASCII case. A private person who
//! shares a listed full name is not redacted, whichever finder saw them (the suppression
//! stage asks [`crate::text_context::TextContext`]). Mononyms are listed only where the
//! single word is the person (`Mozart`), never a common given name.
//! The placeholder names of forms and test data (`John Doe`, `Max Mustermann`, `Lorem ipsum`)
//! are listed with them: they are nobody.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use llm_memory_encoder::lexicon::entries;
use std::sync::OnceLock;

/// The list, one name per line with its sections' comments.
const NAMES: &str = include_str!("public-figures.txt");

fn matcher() -> &'static AhoCorasick {
    static MATCHER: OnceLock<AhoCorasick> = OnceLock::new();
    MATCHER.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostLongest)
            .build(entries(NAMES))
            .expect("the public-figure list builds")
    })
}

/// The byte ranges in `text` that name a listed public figure as whole words.
pub fn mentions(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let word_char = |i: usize| {
        text[i..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric())
    };
    matcher()
        .find_iter(text)
        .filter(|m| {
            let before = m.start() > 0 && {
                let c = text[..m.start()].chars().next_back().unwrap_or(' ');
                c.is_alphanumeric()
            };
            let after = m.end() < b.len() && word_char(m.end());
            !before && !after
        })
        .map(|m| (m.start(), m.end()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_names_are_found_as_whole_words_in_any_case() {
        let text = "Was napoleon bonaparte short? Ask Napoleonic scholars, not Mozartkugel fans.";
        let found: Vec<&str> = mentions(text).iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(found, ["napoleon bonaparte"]);
        assert!(mentions("my neighbour Maria Gonzalez").is_empty());
    }

    #[test]
    fn every_listed_name_is_found_in_a_sentence() {
        for name in entries(NAMES) {
            let text = format!("Tell me about {name}'s life.");
            assert!(!mentions(&text).is_empty(), "{name}");
        }
    }
}
