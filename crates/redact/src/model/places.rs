//! Places in travel talk. The model reads a lone capitalised town ("Cody", "Hyannis",
//! "Philadelphia") as a first name when nothing says otherwise; a sentence about getting
//! somewhere says otherwise: a travel word, and the town after a preposition of place or
//! before "from"/"to" and another capitalised word. A street named without a number in a
//! question that ties it to no one ("Is Lombard Street really that crooked?") is asked about
//! as a place too.

use llm_memory_encoder::decode::Span;

/// Words that make a sentence about travel or distance. Compared lower-case, as word starts
/// ("train" covers "trains").
const TRAVEL_WORDS: &[&str] = &[
    "train",
    "flight",
    "fly",
    "flew",
    "flying",
    "drive",
    "drove",
    "driving",
    "road",
    "ferry",
    "bus",
    "coach",
    "miles",
    "km",
    "kilomet",
    "trip",
    "route",
    "distance",
    "how far",
    "travel",
    "airport",
    "layover",
    "itinerary",
    "visit",
    "tour",
    "hike",
    "cruise",
    "commute",
    "way to",
    "border",
    "map",
    "directions",
];

/// Prepositions before a place.
const PLACE_PREPOSITIONS: &[&str] = &[
    "from", "to", "through", "via", "near", "past", "towards", "toward", "between", "in", "around",
    "into", "outside",
];

/// Words before "from"/"to" that make what follows a person: messages, things sent, help.
const PASSED_BETWEEN_PEOPLE: &[&str] = &[
    "call",
    "message",
    "email",
    "e-mail",
    "text",
    "note",
    "letter",
    "gift",
    "word",
    "news",
    "help",
    "reply",
    "answer",
    "details",
    "it",
    "them",
    "this",
    "that",
    "back",
    "hi",
    "hello",
    "invite",
    "invitation",
    "card",
    "present",
    "request",
    "talk",
    "talked",
    "spoke",
    "speak",
    "said",
    "say",
    "wrote",
    "write",
    "sent",
    "send",
    "give",
    "gave",
    "introduce",
    "married",
];

/// Words that tie a street to someone: whose it is, who lives or stays on it, what is sent
/// there. Compared lower-case, as whole words.
const TIED_TO_SOMEONE: &[&str] = &[
    "my",
    "our",
    "his",
    "her",
    "their",
    "mine",
    "ours",
    "live",
    "lives",
    "living",
    "lived",
    "moved",
    "moving",
    "address",
    "home",
    "house",
    "flat",
    "apartment",
    "deliver",
    "delivery",
    "ship",
    "shipping",
    "send",
    "sent",
    "mail",
    "post",
];

/// Whether the address span `s` is a street asked about as a place: it has no house number
/// (nor the Spanish "s/n" that stands for one), its sentence is a question, and no word of
/// that sentence ties it to someone. "Is Lombard Street really that crooked?", "Best pubs near
/// Portobello Road?"; but "Is my flat on Mill Lane in the flood zone?" stays an address.
pub(super) fn asked_about_street(text: &str, s: &Span, value: &str) -> bool {
    if value.contains(|c: char| c.is_ascii_digit()) || value.to_lowercase().contains("s/n") {
        return false;
    }
    let (from, to) = sentence_bounds(text, s.start, s.end);
    if !text[to..].starts_with('?') {
        return false;
    }
    !text[from..to]
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| TIED_TO_SOMEONE.contains(&w))
}

/// Whether the one-word person span `s` is a place in a sentence about travel.
pub(super) fn travel_place(text: &str, s: &Span, value: &str) -> bool {
    if value.contains(char::is_whitespace) || !value.starts_with(char::is_uppercase) {
        return false;
    }
    let sentence = sentence_around(text, s.start, s.end).to_lowercase();
    if !TRAVEL_WORDS.iter().any(|w| starts_a_word(&sentence, w)) {
        return false;
    }
    after_a_place_preposition(text, s.start) || before_from_or_to(&text[s.end..])
}

/// The sentence holding `start..end`: back to the last `.`, `?`, `!` or line break, forward
/// to the next.
fn sentence_around(text: &str, start: usize, end: usize) -> &str {
    let (from, to) = sentence_bounds(text, start, end);
    &text[from..to]
}

/// Where the sentence holding `start..end` starts and ends (the mark that ends it is at `to`).
fn sentence_bounds(text: &str, start: usize, end: usize) -> (usize, usize) {
    let stop = |c: char| matches!(c, '.' | '?' | '!' | '\n');
    let from = text[..start].rfind(stop).map_or(0, |i| i + 1);
    let to = text[end..].find(stop).map_or(text.len(), |i| end + i);
    (from, to)
}

/// Whether `word` starts a word somewhere in `haystack`.
fn starts_a_word(haystack: &str, word: &str) -> bool {
    haystack.match_indices(word).any(|(i, _)| {
        !haystack[..i]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
    })
}

/// The word before `start` is a preposition of place, past any places listed before this one
/// ("through Cody and Sheridan", "from Leeds, York or Hull").
fn after_a_place_preposition(text: &str, start: usize) -> bool {
    let mut words = text[..start]
        .rsplit(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    for _ in 0..4 {
        let Some(word) = words.next() else {
            return false;
        };
        let lower = word.to_lowercase();
        if PLACE_PREPOSITIONS.contains(&lower.as_str()) {
            // "a call from Sarah", "send the details to Sarah": things pass between people.
            let before = words.next().unwrap_or("").to_lowercase();
            return !PASSED_BETWEEN_PEOPLE.iter().any(|w| before.starts_with(w));
        }
        if lower == "and" || lower == "or" {
            continue;
        }
        // Another place of the same list: capitalised; go on to what comes before it.
        if !word.starts_with(char::is_uppercase) {
            return false;
        }
    }
    false
}

/// "Sydney from Alice Springs", "Leeds to York": the span is the first place of a route.
fn before_from_or_to(rest: &str) -> bool {
    ["from ", "to "].iter().any(|p| {
        rest.strip_prefix(' ')
            .and_then(|r| r.strip_prefix(p))
            .is_some_and(|r| r.starts_with(char::is_uppercase))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_spans::span;
    use llm_memory_encoder::decode::Meaning;

    fn place(text: &str, value: &str) -> bool {
        travel_place(text, &span(text, value, Meaning::Person, 0.9), value)
    }

    #[test]
    fn towns_on_a_route() {
        assert!(place(
            "Are there direct trains from Lancaster to Philadelphia on Sundays?",
            "Philadelphia"
        ));
        assert!(place(
            "We drove through Cody and Sheridan on the way to Yellowstone.",
            "Sheridan"
        ));
        assert!(place(
            "How far is Sydney from Alice Springs by road?",
            "Sydney"
        ));
        assert!(place(
            "Is the ferry cheaper from Woods Hole or from Hyannis?",
            "Hyannis"
        ));
    }

    fn asked(text: &str, value: &str) -> bool {
        asked_about_street(text, &span(text, value, Meaning::Address, 0.9), value)
    }

    #[test]
    fn a_street_asked_about_is_a_place() {
        assert!(asked(
            "Is Lombard Street really that crooked?",
            "Lombard Street"
        ));
        assert!(asked(
            "We are staying near Sunset Boulevard, any breakfast places?",
            "Sunset Boulevard"
        ));
        assert!(asked(
            "Is it worth walking from Regent Street to Abbey Road on a Sunday?",
            "Regent Street to Abbey Road"
        ));
    }

    #[test]
    fn a_street_tied_to_someone_or_numbered_stays_an_address() {
        assert!(!asked(
            "Is my flat on Mill Lane in the flood zone?",
            "Mill Lane"
        ));
        assert!(!asked("Can you ship it to 12 Mill Lane?", "12 Mill Lane"));
        assert!(!asked("Does Ana still live on Calle Mayor?", "Calle Mayor"));
        assert!(!asked(
            "Our office: Avda. Valdecilla s/n?",
            "Avda. Valdecilla s/n"
        ));
        // Not a question: a report, a form, an instruction keep what the model found.
        assert!(!asked(
            "Ask the driver to stop at Daniel Neck St.",
            "Daniel Neck"
        ));
        assert!(!asked(
            "Domicilio: Calle Cronista Juan de la Torre, Murcia",
            "Calle Cronista Juan de la Torre"
        ));
    }

    #[test]
    fn people_in_travel_talk_stay_people() {
        assert!(!place("I got a call from Sarah about the trip.", "Sarah"));
        assert!(!place("Send the flight details to Sarah tonight.", "Sarah"));
        assert!(!place("Sarah booked the flight for us.", "Sarah"));
        assert!(!place(
            "Can you send the train times to Marta Kowalska?",
            "Marta Kowalska"
        ));
        assert!(!place("Are there trains to Leeds? Ask Tom.", "Tom"));
    }
}
