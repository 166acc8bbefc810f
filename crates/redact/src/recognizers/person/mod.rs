//! Person names. Names have no shape a regex can check, so this reads words: a capitalized word
//! becomes a name when a cue says so ("my name is", "Dear", "Dr.", a signature after "Regards,")
//! or when it is a known given name; following capitalized words and particles ("van der")
//! extend it to the family name. Cue strength sets the score, as context words do for patterns.
//! Form labels, mail headers and sign-offs are read by [`cues`]; names in lower case or in
//! capitals, which no capital starts, by [`cased`].

pub mod names;

use super::{Candidate, Recognizer};
use crate::entity::EntityType;
use crate::scan::prescan::{Needs, Prescan};
use cues::{
    given_after_comma, is_header, is_title, label_holds_a_phrase, labels_a_name, labels_a_role,
    mailbox_follows, mailbox_near, signs_off, speaker_after_quote,
};
use names::{
    is_accented_given_name, is_given_name, is_particle, listed, names_a_thing,
    precedes_a_given_name,
};
use score::{score, Evidence};
use words::{is_capitalized, opens_a_label, starts_word, word_after_space, word_before, word_end};

mod cased;
pub(crate) mod cjk;
mod cue_words;
use cue_words::{cues_ending_in, Cue};
mod cues;
mod score;
mod things;
pub(crate) use things::model_name_is_a_thing;
mod words;

#[derive(Debug, Clone, Copy)]
/// A word: byte offsets into the text.
struct Token {
    start: usize,
    end: usize,
}

/// `word` lower-cased into `buf`.
fn lower_into<'b>(word: &str, buf: &'b mut String) -> &'b str {
    buf.clear();
    if word.is_ascii() {
        buf.push_str(word);
        buf.make_ascii_lowercase();
    } else {
        buf.push_str(&word.to_lowercase());
    }
    buf
}

/// The person-name recognizer: capitalized names near cues and known given names, and names
/// in Chinese, Japanese and Korean after their phrases ([`cjk`]).
struct Person;

/// The registry's maker (see [`super::registry`]).
pub(crate) fn recognizer(enabled: &dyn Fn(&EntityType) -> bool) -> Option<Box<dyn Recognizer>> {
    enabled(&EntityType::Person).then(|| Box::new(Person) as Box<dyn Recognizer>)
}

impl Recognizer for Person {
    fn kinds(&self) -> Vec<EntityType> {
        vec![EntityType::Person]
    }

    /// Capitals and non-ASCII characters (where names start), and the word starts (cues).
    fn needs(&self) -> Needs {
        Needs {
            words: true,
            starts: true,
            ..Needs::NONE
        }
    }

    fn scan(&self, text: &str, pre: &Prescan, out: &mut Vec<Candidate>) {
        let from = out.len();
        let starts = pre.starts.as_ref().map(|s| s.all());
        scan_from(text, &pre.upper, &pre.leads, starts, out);
        cjk::scan(text, &pre.leads, out);
        things::drop_sample_names(text, from, out);
    }
}

/// Scans `text` for person names and appends candidates.
pub fn scan(text: &str, out: &mut Vec<Candidate>) {
    let b = text.as_bytes();
    let upper: Vec<usize> = (0..b.len())
        .filter(|&i| b[i].is_ascii_uppercase())
        .collect();
    let leads: Vec<usize> = (0..b.len()).filter(|&i| b[i] >= 0xc0).collect();
    scan_from(text, &upper, &leads, None, out);
}

/// [`scan`], given where `text`'s ASCII capitals and non-ASCII characters start (in order):
/// a name starts with a capital letter, so only words starting there are read, and the words
/// around one only when it could be a name. Most of a text is never tokenized.
pub(crate) fn scan_from(
    text: &str,
    upper: &[usize],
    leads: &[usize],
    starts: Option<&[usize]>,
    out: &mut Vec<Candidate>,
) {
    let (mut lower_buf, mut prev_buf, mut next_buf) = (String::new(), String::new(), String::new());
    let word = |t: Token| &text[t.start..t.end];
    // Names already taken end here; capitals inside them are not read again.
    let mut taken = 0;
    let (mut u, mut l) = (0, 0);
    loop {
        // The next capital or non-ASCII character, in text order.
        let p = match (upper.get(u), leads.get(l)) {
            (Some(&a), Some(&c)) if a < c => {
                u += 1;
                a
            }
            (_, Some(&c)) => {
                l += 1;
                c
            }
            (Some(&a), None) => {
                u += 1;
                a
            }
            (None, None) => break,
        };
        if p < taken || !starts_word(text, p) {
            continue;
        }
        let cur = Token {
            start: p,
            end: word_end(text, p),
        };
        let w = word(cur);
        if !is_capitalized(w) {
            continue;
        }
        let lower = lower_into(w, &mut lower_buf);
        let list = listed(lower);
        if list.not_name || list.honorific {
            continue;
        }
        // "Jean-Luc": the first part alone may be the listed name.
        // Alone, some given names name a language or a tool ("Is Julia faster?").
        // "Travis-CI" is the thing "Travis" alone is.
        let alone_a_name = !list.thing
            && !lower
                .split_once('-')
                .is_some_and(|(first, _)| names_a_thing(first));
        let given = list.given_name
            || lower
                .split_once('-')
                .is_some_and(|(first, _)| is_given_name(first));
        let prev = word_before(text, cur.start);
        let prev_lower = prev.map(|t| lower_into(word(t), &mut prev_buf));
        let gap = &text[prev.map_or(0, |t| t.end)..cur.start];
        let after_title = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| is_title(text, t, p, gap));
        let after_name_label = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| labels_a_name(text, t, p, gap, given));
        let after_role_label = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| labels_a_role(text, t, p, gap, given));
        let header = prev_lower.is_some_and(|p| is_header(p, gap));
        let cue = |strength| {
            prev_lower.is_some_and(|p| {
                cues_ending_in(p, strength).any(|c| cue_before(text, cur, prev, c))
            })
        };
        let strong = after_title || after_name_label || cue(Cue::Strong);
        let speaker = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| speaker_after_quote(text, t, p, gap));
        let medium = !strong && (cue(Cue::Medium) || speaker);
        let signature = prev
            .zip(prev_lower)
            .is_some_and(|(t, p)| signs_off(text, t, p, gap));
        // Without a cue, a known given name or an address after it nothing below can score:
        // most capitalized words end here, before the words after them are read.
        let cued = strong || medium || signature || header || after_role_label;
        if !(cued || given || mailbox_near(text, cur.start)) {
            continue;
        }

        // Extend over the family name: capitalized words and particles joined by single spaces.
        let mut last = cur;
        let mut more = 0;
        while more < 4 {
            let Some(next) = word_after_space(text, last.end) else {
                break;
            };
            let next_word = word(next);
            if is_capitalized(next_word)
                && !opens_a_label(text, next.end)
                && (precedes_a_given_name(word(last)) || {
                    let next_lower = lower_into(next_word, &mut next_buf);
                    let next_list = listed(next_lower);
                    // A title right after a titled given name, without its period and before
                    // another capitalized word, is a surname: "Dr. Héctor Pastor Navarro",
                    // not "Pastor Navarro" titled anew.
                    let surname_like_title = next_list.honorific
                        && after_title
                        && last.start == cur.start
                        && word_after_space(text, next.end)
                            .is_some_and(|t| is_capitalized(word(t)));
                    !next_list.not_name && (!next_list.honorific || surname_like_title)
                })
            {
                last = next;
                more += 1;
            } else if is_particle(next_word) {
                // One or two particles ("da", "van der") must lead to a capitalized word.
                let mut particle = next;
                let mut particles = 1;
                while particles < 2 {
                    match word_after_space(text, particle.end) {
                        Some(t) if is_particle(word(t)) => {
                            particle = t;
                            particles += 1;
                        }
                        _ => break,
                    }
                }
                match word_after_space(text, particle.end) {
                    Some(t) if is_capitalized(word(t)) => {
                        last = t;
                        more += particles + 1;
                    }
                    _ => break,
                }
            } else if matches!(next_word, "Jr" | "Sr") {
                last = next;
                more += 1;
            } else {
                break;
            }
        }
        // "Müller, Hans" in a form or a header: the surname comes first.
        let mut surname_first = false;
        if more == 0 && (after_name_label || after_role_label || header) {
            if let Some(given) = given_after_comma(text, last.end) {
                last = given;
                more += 1;
                surname_first = true;
            }
        }
        // "Mason Cole <m@x.io>": the display name of an address.
        let display =
            (given || more > 0 || strong || medium || header) && mailbox_follows(text, last.end);
        let phrase = after_name_label && label_holds_a_phrase(text, given, more > 0, last.end);
        // "Guest: Aroha Ngata", but not "Guest: WiFi": one unlisted word is mostly a thing.
        let role_named = after_role_label && (given || more > 0 || is_accented_given_name(lower));
        let score = score(
            text,
            cur,
            last.end,
            Evidence {
                strong: (strong && !phrase)
                    || role_named
                    || signature
                    || display
                    || (header && surname_first),
                medium,
                given,
                multi: more > 0,
                alone_a_name,
                titled: after_title,
            },
        );
        if score > 0.0 {
            let mut end = last.end;
            if matches!(word(last), "Jr" | "Sr") && text[end..].starts_with('.') {
                end += 1;
            }
            out.push(Candidate {
                kind: EntityType::Person,
                start: cur.start,
                end,
                score,
            });
            taken = last.end;
        }
    }
    cased::scan(text, starts, out);
}

/// Whether the words before `cur` are `cue` (lower-cased), separated by single spaces; the
/// last may be followed by a comma or colon ("Dear, Anna"; "Signed: Anna"). `prev` is the
/// word right before `cur`.
fn cue_before(text: &str, cur: Token, prev: Option<Token>, cue: &[&str]) -> bool {
    let mut after = cur;
    let mut at = prev;
    for (n, w) in cue.iter().enumerate().rev() {
        let Some(t) = at else {
            return false;
        };
        let sep = &text[t.end..after.start];
        let last = n + 1 == cue.len();
        if !(lower_eq(&text[t.start..t.end], w)
            && (sep == " " || (last && matches!(sep.trim(), "," | ":"))))
        {
            return false;
        }
        after = t;
        at = if n > 0 {
            word_before(text, t.start)
        } else {
            None
        };
    }
    true
}

/// `word.to_lowercase() == lower` without allocating (`lower` has no final sigma).
fn lower_eq(word: &str, lower: &str) -> bool {
    word.chars().flat_map(char::to_lowercase).eq(lower.chars())
}

#[cfg(test)]
mod reference;

#[cfg(test)]
mod tests {
    use super::reference::scan_by_tokens;
    use super::*;

    fn names(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        scan(text, &mut out);
        out.iter()
            .filter(|c| c.score >= 0.5)
            .map(|c| &text[c.start..c.end])
            .collect()
    }

    #[test]
    fn finds_names_from_cues_and_lists() {
        assert_eq!(
            names("Hi, my name is Zoltan Kovacs and I need help"),
            ["Zoltan Kovacs"]
        );
        assert_eq!(
            names("Dear Mrs. Okonkwo-Adeyemi, thanks"),
            ["Okonkwo-Adeyemi"]
        );
        assert_eq!(
            names("I talked to Sarah van der Berg yesterday"),
            ["Sarah van der Berg"]
        );
        assert_eq!(names("Best regards,\nTorvald"), ["Torvald"]);
        assert_eq!(names("Frau Elanur Maier called"), ["Elanur Maier"]);
        assert_eq!(names("ask Priya about it"), ["Priya"]);
        assert_eq!(names("Hi Anna Jr."), ["Anna Jr."]);
        assert_eq!(
            names("\"We are moving in that direction,\" says Hrafnsdóttir."),
            ["Hrafnsdóttir"]
        );
        assert!(names("The log says Error 42").is_empty());
        assert_eq!(
            names("Responsable: Dr. Luis Salcedo Mingoarranz Correo electrónico: l@x.es"),
            ["Luis Salcedo Mingoarranz"]
        );
    }

    /// Capitals and non-ASCII characters found by a byte scan, by [`Prescan`] and the whole
    /// text tokenized: the lazy scan finds what the reference finds, on the corpus too.
    fn agrees(text: &str) {
        let mut lazy = Vec::new();
        scan(text, &mut lazy);
        let pre = crate::scan::prescan::Prescan::new(text);
        let mut pre_lazy = Vec::new();
        let starts = pre.starts.as_ref().map(|s| s.all());
        scan_from(text, &pre.upper, &pre.leads, starts, &mut pre_lazy);
        let mut reference = Vec::new();
        scan_by_tokens(text, &mut reference);
        assert_eq!(lazy, reference, "{text:?}");
        assert_eq!(pre_lazy, reference, "{text:?}");
    }

    #[test]
    fn lazy_scan_equals_tokenized_scan() {
        for text in crate::scan::gate_texts::gate_texts() {
            agrees(&text);
        }
        for text in [
            "Dear, Anna; name: Bob O'Neil-Smith and Jean-Luc d'Arc van der Berg Jr. met Mr. Dürr",
            "Best regards,\nÉlodie Ørsted\nthanks,  Ana María da Silva de la Cruz",
            "x-Anna 'Anna a'Anna a-'Anna a''Anna ’Anna a’Anna Ünal ünal 9Anna _Anna",
            "mein Name ist Jürgen Groß; mi nombre es José; me llamo Ana, soy Lucía",
            "Guest: Aroha Ngata; Owner: Security; Kunde: Weiß, Anna; Send it to Nguyễn Văn An",
        ] {
            agrees(text);
        }
    }

    use proptest::prelude::*;

    proptest! {
        /// Generated text from cue words, names, particles, joiners and separators.
        #[test]
        fn lazy_scan_agrees_on_generated_text(
            parts in proptest::collection::vec(prop_oneof![
                Just("my"), Just("name"), Just("is"), Just("Name"), Just("Dear"), Just("dear"),
                Just("Mr."), Just("Ms"), Just("Dr"), Just("Anna"), Just("Zoltan"), Just("Kovacs"),
                Just("van"), Just("der"), Just("de"), Just("la"), Just("Jr"), Just("Sr"),
                Just("The"), Just("API"), Just("McDonald"), Just("Élodie"), Just("Øre"), Just("ünal"),
                Just("regards"), Just("Thanks"), Just("ich"), Just("heiße"), Just("mi"), Just("nombre"),
                Just("es"), Just("hi"), Just("talked"), Just("to"), Just("Guest"), Just("owner"),
                Just("Kontakt"), Just("Văn"), Just("An"), Just("Nguyễn"), Just("José"),
                Just(" "), Just(" "), Just(" "), Just("  "), Just(","), Just(", "), Just(":"),
                Just("."), Just(". "), Just("\n"), Just(",\n"), Just("-"), Just("'"), Just("’"),
                Just("9"), Just("_"), Just("\u{301}"), Just("😀"), Just("\u{a0}"),
            ], 0..24)
        ) {
            let text = parts.concat();
            let mut lazy = Vec::new();
            scan(&text, &mut lazy);
            let mut reference = Vec::new();
            scan_by_tokens(&text, &mut reference);
            prop_assert_eq!(lazy, reference, "{:?}", text);
        }
    }

    #[test]
    fn ignores_ordinary_capitals() {
        assert!(names("The Server Error happened on Monday. Hello World!").is_empty());
        assert!(names("May I ask, Will this work? NASA and JSON.").is_empty());
        assert!(names("Hi team, the API is down").is_empty());
    }
}
