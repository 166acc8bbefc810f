//! What a model address must look like: words and a number, or a street named by its kind.
//! The model tags numbers with any word after them ("DIN 912 bolts", "jolly 33") and named
//! places without a number ("Trafalgar Square") as addresses.

use llm_memory_encoder::decode::Span;
use llm_memory_encoder::lexicon::{entries, UNIT_WORDS};

/// Words naming a kind of thoroughfare, the generic ones (not "square", "station", "center":
/// those name places). Compared lower-case.
const THOROUGHFARES: &[&str] = &[
    "street",
    "st",
    "road",
    "rd",
    "avenue",
    "ave",
    "lane",
    "ln",
    "drive",
    "dr",
    "boulevard",
    "blvd",
    "way",
    "court",
    "ct",
    "terrace",
    "crescent",
    "close",
    "highway",
    "hwy",
    "strasse",
    "straße",
    "gasse",
    "weg",
    "rue",
    "calle",
    "via",
    "ulica",
    "ul",
];

/// Post-box words the check reads besides the shared unit words
/// ([`llm_memory_encoder::lexicon::UNIT_WORDS`]).
const POST_BOXES: &str = include_str!("address_shape/post-boxes.txt");

/// Endings of the one-word street names of Germanic, Nordic, Finnish, Hungarian and Slavic
/// languages ("hermiankatu", "havnegade", "kungsgatan", "bahnhofstraße", "ulica").
const STREET_SUFFIXES: &[&str] = &[
    "straße", "strasse", "gasse", "weg", "straat", "laan", "gracht", "gade", "vej", "gatan",
    "gata", "vägen", "veien", "katu", "tie", "utca", "ulica", "cesta", "ceste", "iela", "gatve",
    "tänav", "allee", "platz", "plein", "torv", "torg",
];

/// An address has words, not only numbers (`225/45 R17`, `8 336 817`, `6.1.0-18-amd64` are a
/// tyre, a population, a kernel), and a number unless it names a street by its kind
/// (`Sille Ranch Street`): a named place without either (`Trafalgar Square`, `Victoria
/// Station`) is not where someone lives.
pub(super) fn address_shape(text: &str, s: &Span, value: &str) -> bool {
    let words = || {
        value
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
    };
    let has_word = words().any(|w| w.chars().count() >= 2 && w.chars().all(char::is_alphabetic));
    if !has_word {
        return false;
    }
    if value.chars().any(|c| c.is_ascii_digit()) {
        // "DIN 912 bolts", "jolly 33": a number and lower-case words, none of them a street
        // or a unit, is a quantity or a part; an address typed in lower case still names its
        // road, suite or box.
        let capital = words().any(|w| w.chars().next().is_some_and(char::is_uppercase));
        let lower_kind = |w: &str| {
            let w = w.to_lowercase();
            THOROUGHFARES.contains(&w.as_str())
                || UNIT_WORDS.contains(&w.as_str())
                || entries(POST_BOXES).any(|p| p == w)
                || STREET_SUFFIXES
                    .iter()
                    .any(|x| w.len() > x.len() + 2 && w.ends_with(x))
        };
        let numbers = words()
            .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
            .count();
        return capital || numbers >= 2 || words().any(lower_kind);
    }
    // The kind may follow the span (`Alexis Shoal St.`).
    let after: String = text[s.end..].chars().take(8).collect();
    let is_kind = |w: &str| {
        w.chars().next().is_some_and(char::is_uppercase)
            && THOROUGHFARES.contains(&w.to_lowercase().as_str())
    };
    words().any(is_kind)
        || after
            .split(|c: char| !c.is_alphanumeric())
            .take(2)
            .any(is_kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_spans::span;
    use llm_memory_encoder::decode::Meaning;

    fn shaped(text: &str, value: &str) -> bool {
        address_shape(text, &span(text, value, Meaning::Address, 0.9), value)
    }

    #[test]
    fn addresses_in_any_case_keep_their_street() {
        assert!(shaped(
            "send it to 09968 hermiankatu 23 please",
            "09968 hermiankatu 23"
        ));
        assert!(shaped(
            "i live at 51341 8 wressle road apt. 528",
            "51341 8 wressle road apt. 528"
        ));
        assert!(shaped("at 14 Elm Grove", "14 Elm Grove"));
        assert!(shaped("Alexis Shoal St. is closed", "Alexis Shoal"));
    }

    #[test]
    fn quantities_parts_and_named_places_are_not_addresses() {
        assert!(!shaped("Need 4x M6x20 DIN 912 bolts", "912 bolts"));
        assert!(!shaped("the jolly 33 came up", "jolly 33"));
        assert!(!shaped("meet at Trafalgar Square", "Trafalgar Square"));
        assert!(!shaped("population 8 336 817", "8 336 817"));
    }
}
