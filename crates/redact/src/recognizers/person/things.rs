//! Given names that, where they stand, name something other than a person the writer knows:
//! a brand or a place named after someone ("a Ford Focus", "Tim Hortons", "Lake Louise", "the
//! Lincoln Tunnel"), a public figure in an essay question ("compare Thatcher and Reagan"), or
//! the placeholder names of sample data (`Person("Alice")`, "John Doe", Alice and Bob in a
//! protocol). Only names no cue vouches for are asked about here: "my name is Ford" and "Hi
//! Tim" stay names.

use super::super::Candidate;
use super::names::listed as listed_words;
use super::words::{word_after_space, word_before};
use super::Token;
use crate::lexicon::RELATIONS;
use crate::recognizers::address::EN_SUFFIXES;
use crate::scan::code::{string_literal, CodeSpans};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::OnceLock;

/// Brands, firms and venues named after people, as written. A name run inside one of them is
/// the brand.
const BRANDS: &str = include_str!("data/eponymous-brands.txt");

/// Nouns that, right after a name or ending it, make it a brand, a product or a place ("Hilton
/// Honors", "Jefferson Memorial", "a Gibson guitar", "Charles de Gaulle airport").
const THING_NOUNS: &str = "
account accounts airport album app arena award bag bags bank beach boots bourbon brand
bridge brokerage building burger car cars center centre college collection dealer
dealership falls foundation franchise fund guitar guitars hole honors honours hospital
hotel hotels institute internship island jeans library memorial menu museum outlet paint
perfume points polos prize restaurant restaurants rewards school shares shirt shirts shop
springs stadium station stock store stores suit suits theater theatre tower truck tunnel
university whiskey whisky
";

/// Capitalized words before a name that make it a place's or a thing's: "Lake Louise",
/// "Prince Rupert", "Royal Albert Hall", "Mount Vernon", "West Harry" (a town).
const PLACE_WORDS: &str = "
Lake Mount Mt North South East West New Old Little Upper Lower Prince Princess King Queen
Royal Grand Glen Cape Port Fort Saint St Lac Bad Villa Camp
";

/// Words that make a message a question about a topic rather than about someone the writer
/// deals with: essay prompts, history, works, records.
const TOPIC_WORDS: &str = "
essay biography arguments compare comparing discuss discussion outline thesis debate legacy class
lesson homework argue argued sides historical famous novel chapter speech theory paintings
painted albums films invented discovered nobel oscars president emperor scientist composer
character reforms rivalry influenced celebrated autobiography quotes deduction philosophy
physicist novelist painter poet stories
";

/// Words that tie a name to the writer's own life, with the [`RELATIONS`]: then it is someone
/// they deal with, topic or not ("my colleague", "email her", "call").
const TIE_WORDS: &str = "
my our mine colleague coworker boss manager neighbour neighbor landlord tenant
client customer patient cousin uncle aunt girlfriend boyfriend roommate email phone call called
address lives contact dear hi hello thanks met meeting invoice account booking appointment
";

/// Whether the uncued name run `first..end` names a brand, a place or an essay question's
/// topic. (Public figures of the deny list are the suppression stage's, for every finder.)
pub(super) fn means_something_else(text: &str, first: Token, end: usize) -> bool {
    after_an_article(text, first)
        || in_a_brand(text, first.start, end)
        || thing_noun_ends(text, first.start, end)
        || after_a_place_word(text, first)
        || before_a_street_word(text, end)
        || among_places(text, first)
        || about_a_topic(text, first.start, end)
}

/// Whether a name the model found names a brand or a product rather than a person: a brand
/// of [`BRANDS`] holds it, or a [`THING_NOUNS`] noun ends it or follows it.
pub(crate) fn model_name_is_a_thing(text: &str, start: usize, end: usize) -> bool {
    in_a_brand(text, start, end) || thing_noun_ends(text, start, end)
}

/// "a Ford", "the Lincoln Tunnel", "an Audrey Hepburn film": an article makes it a thing. "a"
/// and "an" are English articles only in English ("Scrivi a Francesca", "Nachricht an Lukas").
fn after_an_article(text: &str, first: Token) -> bool {
    word_before(text, first.start).is_some_and(|t| {
        let article = &text[t.start..t.end];
        &text[t.end..first.start] == " "
            && (article.eq_ignore_ascii_case("the")
                || (["a", "an"].iter().any(|a| a.eq_ignore_ascii_case(article))
                    && english_around(text, t.start)))
    })
}

/// English function words, for [`english_around`].
const ENGLISH_WORDS: &str = "the is and of for with my you i it to was this";

/// Words that say a name is made up, for [`placeholder_word`].
const PLACEHOLDER_WORDS: &str = "test tester testy sample example dummy demo fake placeholder";

/// Whether the 120 bytes around `at` hold an English function word.
fn english_around(text: &str, at: usize) -> bool {
    let (lo, hi) = (floor(text, at.saturating_sub(120)), floor(text, at + 120));
    text[lo..hi].split(|c: char| !c.is_alphanumeric()).any(|w| {
        listed(
            "the is and of for with my you i it to was this",
            &w.to_lowercase(),
        )
    })
}

/// The nearest char boundary at or below `i` (clamped to the text).
fn floor(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn in_a_brand(text: &str, start: usize, end: usize) -> bool {
    // "Mr. Heineken", "Frau Porsche": a title makes a lone word the person of that name.
    let lone = !text[start..end].contains(' ');
    if lone && titled(text, start) {
        return false;
    }
    let mut lo = start.saturating_sub(24);
    while !text.is_char_boundary(lo) {
        lo += 1;
    }
    let mut hi = (end + 24).min(text.len());
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    // Most names are in no brand: one look-up of the name's first word says so, and names
    // which are give the few brands holding that word to try ("John" is in a dozen).
    static BY_WORD: OnceLock<FxHashMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    let by_word = BY_WORD.get_or_init(|| {
        let mut map: FxHashMap<&'static str, Vec<&'static str>> = FxHashMap::default();
        for brand in brands() {
            for word in brand.split(' ').filter(|w| !w.is_empty()) {
                // "McDonald's", "McDonalds": a name run stops before the possessive.
                let stem = ["'s", "’s", "s"]
                    .iter()
                    .find_map(|x| word.strip_suffix(x))
                    .unwrap_or(word);
                for key in [word, stem] {
                    let brands = map.entry(key).or_default();
                    if brands.last() != Some(&brand) {
                        brands.push(brand);
                    }
                }
            }
        }
        map
    });
    let first = text[start..end].split(' ').next().unwrap_or("");
    let Some(holding) = by_word.get(first) else {
        return false;
    };
    let window = &text[lo..hi];
    holding.iter().any(|brand| {
        window.match_indices(brand).any(|(i, _)| {
            let (s, e) = (lo + i, lo + i + brand.len());
            s <= start && start < e
        })
    })
}

/// Whether a title (a [`super::names`] honorific, with or without its dot) stands right
/// before `start`.
fn titled(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end_matches(' ');
    let before = before.strip_suffix('.').unwrap_or(before);
    let word = before
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '.'))
        .next()
        .unwrap_or("");
    before.len() < text[..start].len()
        && !word.is_empty()
        && listed_words(&word.to_lowercase()).honorific
}

/// The brands of [`BRANDS`], past its comment lines.
fn brands() -> impl Iterator<Item = &'static str> {
    BRANDS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The run's last word or the word right after it is a [`THING_NOUNS`] noun.
fn thing_noun_ends(text: &str, start: usize, end: usize) -> bool {
    let last = text[start..end].rsplit(' ').next().unwrap_or("");
    let last = last
        .strip_suffix("'s")
        .or_else(|| last.strip_suffix("’s"))
        .unwrap_or(last);
    let next = text[end..]
        .strip_prefix(['\'', '’'])
        .map_or(&text[end..], |r| r.strip_prefix('s').unwrap_or(r))
        .strip_prefix(' ')
        .map(|r| r.split(|c: char| !c.is_alphabetic()).next().unwrap_or(""));
    let noun = |w: &str| {
        THING_NOUNS
            .split_whitespace()
            .any(|n| n.eq_ignore_ascii_case(w))
    };
    // A noun that is also a verb ("points out", "shares that", "suits the"): a function word
    // after it makes it the verb of a sentence about the person.
    let verb_after = || {
        let after_next = text[end..]
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .trim_matches(|c: char| !c.is_alphabetic());
        VERB_PARTICLES
            .split_whitespace()
            .any(|p| p.eq_ignore_ascii_case(after_next))
    };
    (start + last.len() < end && noun(last)) || (next.is_some_and(noun) && !verb_after())
}

/// Words after "points", "shares", "suits", "stores" that make them verbs.
const VERB_PARTICLES: &str = "out up that to the a an his her their its with me us them this";

/// "Lombard Street", "Penny Lane", "Baker Street": a capitalised street word right after the
/// run (a run stops before one: `names::NOT_NAMES`) makes it a street's name.
fn before_a_street_word(text: &str, end: usize) -> bool {
    word_after_space(text, end).is_some_and(|t| {
        let word = &text[t.start..t.end];
        word.starts_with(|c: char| c.is_ascii_uppercase())
            && EN_SUFFIXES.split('|').any(|w| w == word)
    })
}

fn after_a_place_word(text: &str, first: Token) -> bool {
    word_before(text, first.start).is_some_and(|t| {
        matches!(&text[t.end..first.start], " " | ". ")
            && PLACE_WORDS
                .split_whitespace()
                .any(|p| p == &text[t.start..t.end])
    })
}

/// A lone name after "through", "past" or "via" ("drove through Cody"), or joined by "and" /
/// "or" to a capitalized word after one of them or a preposition of place ("through Cody and
/// Sheridan", "in Austin or Dallas").
fn among_places(text: &str, first: Token) -> bool {
    const THROUGH: [&str; 7] = ["through", "past", "via", "in", "at", "near", "around"];
    let word = |t: Token| &text[t.start..t.end];
    let Some(prev) = word_before(text, first.start) else {
        return false;
    };
    if ["through", "past"].contains(&word(prev)) {
        return true;
    }
    if !["and", "or"].contains(&word(prev)) {
        return false;
    }
    let Some(other) = word_before(text, prev.start) else {
        return false;
    };
    word(other).starts_with(|c: char| c.is_uppercase())
        && word_before(text, other.start).is_some_and(|p| THROUGH.contains(&word(p)))
}

/// Whether the paragraph around `start..end` (its line, 240 bytes each side at most) asks
/// about a topic ([`TOPIC_WORDS`], or opens
/// with "who was", "what did", "why did", "how did") and holds no [`TIE_WORDS`].
fn about_a_topic(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let stop = |c: &u8| *c == b'\n';
    let mut lo = start.saturating_sub(240);
    let mut hi = (end + 240).min(text.len());
    if let Some(p) = b[lo..start].iter().rposition(stop) {
        lo += p + 1;
    }
    if let Some(p) = b[end..hi].iter().position(stop) {
        hi = end + p;
    }
    while !text.is_char_boundary(lo) {
        lo += 1;
    }
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    let sentence = text[lo..hi].to_lowercase();
    let words: Vec<&str> = sentence
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    // Identifiers and addresses (five digits in a row, a mailbox) belong to someone the writer
    // deals with, not to a topic.
    let digits = sentence
        .split(|c: char| !c.is_ascii_digit())
        .any(|run| run.len() >= 5);
    if digits
        || sentence.contains('@')
        || words
            .iter()
            .any(|w| listed(TIE_WORDS, w) || RELATIONS.contains(w))
    {
        return false;
    }
    let asks = matches!(
        words.get(..2),
        Some([
            "who",
            "was" | "were" | "is" | "won" | "painted" | "wrote" | "invented" | "influenced"
        ]) | Some(["what" | "why" | "how", "did" | "was" | "were"])
    );
    asks || words.iter().any(|w| listed(TOPIC_WORDS, w))
}

/// Surnames of placeholder people ("John Doe", "Max Mustermann", "Joe Bloggs").
const PLACEHOLDER_SURNAMES: &str = "
doe roe mustermann musterfrau bloggs
";

/// Names sample data uses that, in a string literal, are sample data too.
const SAMPLE_SURNAMES: &str = "
smith kowalski kowalska rossi dupont jansen
";

/// The parties of protocol examples: with both Alice and Bob in a text, these alone are roles.
const PROTOCOL_PARTIES: &str = "
Alice Bob Carol Charlie Dave Eve Mallory Trent Peggy Victor
";

/// Drops the person candidates from `out[from..]` that are sample data: names in fenced or
/// inline code that holds no identifier (one-word names in any), one-word names and
/// placeholder names as string literals, placeholder people in quotes, made-up names ("Test
/// User"), and the parties of a protocol example.
pub(super) fn drop_sample_names(text: &str, from: usize, out: &mut Vec<Candidate>) {
    if out.len() == from {
        return;
    }
    let code = text.contains(['`', '~']).then(|| CodeSpans::of(text));
    let protocol = has_word(text, "Alice") && has_word(text, "Bob");
    let kept: Vec<Candidate> = out
        .drain(from..)
        .filter(|c| {
            let value = &text[c.start..c.end];
            let lower = value.to_lowercase();
            let words: Vec<&str> = lower.split(' ').collect();
            let surname = words.last().copied().unwrap_or("");
            // In code, a one-word name is a fixture's; a full name too unless the code holds
            // identifiers (a pasted record: `{"name": …, "passport": "403022002"}`).
            let in_code = code.as_ref().and_then(|s| s.around(c.start, c.end));
            let sample = in_code
                .is_some_and(|(s, e)| words.len() == 1 || !holds_identifiers(&text[s..e]))
                || (string_literal(text, c.start, c.end)
                    && (words.len() == 1 || listed(SAMPLE_SURNAMES, surname)))
                // Quoted, "Sam Doe" is a placeholder too (the listed placeholder people,
                // "John Doe", are dropped wherever they stand: `crate::text_context::public_figures`).
                || (words.len() > 1
                    && listed(PLACEHOLDER_SURNAMES, surname)
                    && quoted(text, c.start, c.end))
                || words.iter().any(|w| placeholder_word(w))
                || (protocol && listed(PROTOCOL_PARTIES, value));
            !sample
        })
        .collect();
    out.extend(kept);
}

/// Whether `start..end` stands between quotes.
fn quoted(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    matches!(
        (before, after),
        (Some('"'), Some('"')) | (Some('\''), Some('\'')) | (Some('“'), Some('”'))
    )
}

/// Whether `code` holds what a real record does: a mailbox, or a value with five digits or
/// more ("417 969 7475") or a code of letters and four digits or more ("ZDDPP3316L").
fn holds_identifiers(code: &str) -> bool {
    code.contains('@')
        || code
            .split([
                '"', '\'', ',', ':', '=', '(', ')', '[', ']', '{', '}', '\n', '|',
            ])
            .any(|piece| {
                let piece = piece.trim();
                let digits = piece.bytes().filter(u8::is_ascii_digit).count();
                digits >= 5
                    || (digits >= 4
                        && !piece.contains(' ')
                        && piece.bytes().any(|c| c.is_ascii_alphabetic()))
            })
}

/// A word that says a name is made up: "Test User", "Demo Account", "Reginald Testington".
fn placeholder_word(w: &str) -> bool {
    listed(
        "test tester testy sample example dummy demo fake placeholder",
        w,
    ) || (w.starts_with("test") && w.len() >= 6 && !w.starts_with("testa"))
}

/// Whether `word` is one of the space-separated words of `list`, one of this file's lists:
/// each is hashed once, since long texts ask about every word of many windows.
fn listed(list: &'static str, word: &str) -> bool {
    static SETS: OnceLock<FxHashMap<usize, FxHashSet<&'static str>>> = OnceLock::new();
    let sets = SETS.get_or_init(|| {
        [
            THING_NOUNS,
            PLACE_WORDS,
            TOPIC_WORDS,
            TIE_WORDS,
            PLACEHOLDER_SURNAMES,
            SAMPLE_SURNAMES,
            PROTOCOL_PARTIES,
            ENGLISH_WORDS,
            PLACEHOLDER_WORDS,
        ]
        .iter()
        .map(|l| (l.as_ptr() as usize, l.split_whitespace().collect()))
        .collect()
    });
    match sets.get(&(list.as_ptr() as usize)) {
        Some(set) => set.contains(word),
        None => list.split_whitespace().any(|w| w == word),
    }
}

/// Whether `word` occurs in `text` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let b = text.as_bytes();
        let glued_before = i > 0 && b[i - 1].is_ascii_alphanumeric();
        let glued_after = b.get(i + word.len()).is_some_and(u8::is_ascii_alphanumeric);
        !(glued_before || glued_after)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(text: &str, name: &str) -> bool {
        let s = text.find(name).unwrap();
        let first_end = name.find(' ').map_or(s + name.len(), |i| s + i);
        means_something_else(
            text,
            Token {
                start: s,
                end: first_end,
            },
            s + name.len(),
        )
    }

    #[test]
    fn brands_places_and_topics_are_things() {
        assert!(named("I bought a Ford Focus", "Ford"));
        assert!(named("Why is Tim Hortons so popular?", "Tim Hortons"));
        assert!(named("a day hike near Lake Louise", "Louise"));
        assert!(named("Is the Kennedy Center open late?", "Kennedy"));
        assert!(named(
            "Compare Margaret Thatcher and Ronald Reagan",
            "Ronald Reagan"
        ));
        assert!(named("Who was Alan Turing?", "Alan Turing"));
        assert!(named("Is a Hilton Honors card worth it?", "Hilton Honors"));
        assert!(named("We drove through Cody and Sheridan", "Sheridan"));
        assert!(named("Is Lombard Street really that crooked?", "Lombard"));
        assert!(named("Was Penny Lane a real street?", "Penny"));
        assert!(placeholder_word("testington") && !placeholder_word("demostene"));
    }

    #[test]
    fn people_the_writer_deals_with_stay_names() {
        assert!(!named(
            "Maria Lopez will send the invoice tomorrow",
            "Maria Lopez"
        ));
        assert!(!named(
            "Compare my colleague Anna Berg's offer",
            "Anna Berg"
        ));
        assert!(!named(
            "Please explain to Anna Berg how to log in",
            "Anna Berg"
        ));
    }
}
