//! The classes of false finding a model span is checked for (see [`super::model_spans`]):
//! each check is a sign in the text around the span, not a list of examples.

use super::address_shape::address_shape;
use super::places::travel_place;
use crate::lexicon::RELATIONS;
use crate::recognizers::person::model_name_is_a_thing;
use crate::scan::code_lines::inside;
use crate::scan::text::glued_into_code;
use llm_memory_encoder::decode::{Meaning, Span};

/// Whether a model span is one of the classes of false finding the model makes.
pub(super) fn false_finding(text: &str, s: &Span, zones: &[std::ops::Range<usize>]) -> bool {
    let value = &text[s.start..s.end];
    match s.meaning {
        Meaning::Person => {
            inside(zones, s.start, s.end)
                || glued_into_code(text, s.start, s.end)
                || brand_pair(text, s.start, s.end)
                || common_word(text, s, value)
                || acronym_or_shout(text, s, value)
                || drawn_out(value)
                || command(text, s, value)
                || city_and_region(text, s, value)
                || model_name_is_a_thing(text, s.start, s.end)
                || travel_place(text, s, value)
        }
        Meaning::Address => inside(zones, s.start, s.end) || !address_shape(text, s, value),
        // The model mixes up ID and account labels; either kind of label will do.
        Meaning::IdNumber | Meaning::BankNumber => {
            !labeled_before(text, s.start, ID_CUES) && !labeled_before(text, s.start, BANK_CUES)
        }
        Meaning::Email | Meaning::Phone | Meaning::Url => false,
    }
}

/// `Marks & Spencer`, `Ben & Jerry's`, `Procter & Gamble`: capitalised words joined by `&`
/// name a firm or a brand. (People in a list are joined by "and" or a comma.)
fn brand_pair(text: &str, start: usize, end: usize) -> bool {
    let capital_word = |s: &str| s.chars().next().is_some_and(char::is_uppercase);
    let after = text[end..]
        .strip_prefix(" & ")
        .or(text[end..].strip_prefix("&"));
    let before = text[..start]
        .strip_suffix(" & ")
        .or(text[..start].strip_suffix("&"));
    capital_word(&text[start..end])
        && (after.is_some_and(capital_word)
            || before.is_some_and(|b| {
                b.rsplit(|c: char| !c.is_alphanumeric())
                    .next()
                    .is_some_and(capital_word)
            }))
}

/// Below this, a lone lower-case word needs a sign that it is a name.
const LONE_LOWER_CASE: f32 = 0.9;

/// Words right before a lone lower-case name that say it is one: people named by their
/// relation ([`RELATIONS`] and these), greeted, told something, met, heard from, sent or
/// added something ("emails from sam", "meet reveca", "send ashmit the notes"). Lower case.
const NAME_CUES: &[&str] = &[
    "my",
    "his",
    "her",
    "our",
    "their",
    "your",
    "boss",
    "colleague",
    "landlord",
    "neighbour",
    "neighbor",
    "fiancé",
    "fiancée",
    "hi",
    "hey",
    "hello",
    "dear",
    "thanks",
    "tell",
    "ask",
    "email",
    "text",
    "call",
    "remind",
    "message",
    "ping",
    "and",
    "with",
    "from",
    "meet",
    "send",
    "add",
    "invite",
    "pick",
    "is",
    "am",
    "i'm",
    "im",
    "to",
];

/// A lone lower-case word the model is not sure of (`crystals`, `ivy`, `bourbon`), with no
/// cue before it and no capital, mid-sentence: a common word, not a name typed in lower case.
fn common_word(text: &str, s: &Span, value: &str) -> bool {
    let lone = !value.contains(char::is_whitespace);
    let lower = value.chars().all(|c| !c.is_uppercase());
    if !(lone && lower) || s.score >= LONE_LOWER_CASE {
        return false;
    }
    let before = text[..s.start].trim_end();
    // The first word of a message or a line ("sven says hi") reads as a name.
    if before.is_empty() || before.ends_with(['\n', ':', '.', '!', '?']) {
        return false;
    }
    !cued(before)
}

/// Whether the word that ends `before` says a name follows: a [`NAME_CUES`] word or a
/// relation ("my sister anna").
fn cued(before: &str) -> bool {
    let previous = before
        .rsplit(|c: char| c.is_whitespace() || c == ',')
        .next()
        .unwrap_or("")
        .to_lowercase();
    NAME_CUES.contains(&previous.as_str()) || RELATIONS.contains(&previous.as_str())
}

/// A lone word in capitals in a text that is not written in capitals (`NINO`, `DVLA`, `LMAO`,
/// `GOAT`), with no cue before it: an acronym or a shout. A name typed in capitals comes with
/// its surname ("INGRID SOLBERG"), a label ("NAME: DANA") or a cue ("my name is DANA").
fn acronym_or_shout(text: &str, s: &Span, value: &str) -> bool {
    let lone = !value.contains(char::is_whitespace);
    let letters = value.chars().filter(|c| c.is_alphabetic()).count();
    let capitals = value.chars().all(|c| !c.is_lowercase());
    if !(lone && capitals && letters >= 2 && text.contains(char::is_lowercase)) {
        return false;
    }
    let before = text[..s.start].trim_end();
    !(before.ends_with(':') || cued(before))
}

/// A word with a letter drawn out three times or more (`YASSSS`, `Noooo`, `hahaaa`): speech
/// written as it sounds. No name spells a letter thrice in a row.
fn drawn_out(value: &str) -> bool {
    let chars: Vec<char> = value.chars().flat_map(char::to_lowercase).collect();
    chars
        .windows(3)
        .any(|w| w[0].is_alphabetic() && w[0] == w[1] && w[1] == w[2])
}

/// A lone lower-case word before a URL, a path or an option (`curl http://…`, `grep -r`,
/// `cat /etc/hosts`): a command, not a name.
fn command(text: &str, s: &Span, value: &str) -> bool {
    let lone_lower = !value.contains(char::is_whitespace) && !value.contains(char::is_uppercase);
    let rest = &text[s.end..];
    let Some(next) = rest.strip_prefix(' ') else {
        return false;
    };
    let option = next
        .strip_prefix('-')
        .is_some_and(|o| o.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-'));
    lone_lower
        && (option
            || ["http://", "https://", "/", "~/", "./"]
                .iter()
                .any(|p| next.starts_with(p)))
}

/// One capitalised word before `, XX` (a two-letter region code: `Victoria, BC`,
/// `Springfield, IL`): a city, not a person.
fn city_and_region(text: &str, s: &Span, value: &str) -> bool {
    let Some(rest) = text[s.end..].strip_prefix(", ") else {
        return false;
    };
    let code: Vec<char> = rest.chars().take(3).collect();
    let region = code.len() >= 2
        && code[..2].iter().all(char::is_ascii_uppercase)
        && code.get(2).is_none_or(|c| !c.is_alphanumeric());
    !value.contains(char::is_whitespace) && region
}

/// Words that label an identity document, tax or insurance number before it (the model's IDs
/// come without a country, so the label is what says a number is one). Compared lower-case,
/// as whole words.
const ID_CUES: &[&str] = &[
    "id",
    "identity",
    "identification",
    "passport",
    "licence",
    "license",
    "ssn",
    "social",
    "security",
    "insurance",
    "nino",
    "nric",
    "medicare",
    "medicaid",
    "tax",
    "tin",
    "itin",
    "ein",
    "vat",
    "bsn",
    "personnummer",
    "dni",
    "nie",
    "nif",
    "fiscale",
    "pesel",
    "aadhaar",
    "pan",
    "sin",
    "cpf",
    "rg",
    "nir",
    "cpr",
    "nhs",
    "tfn",
    "curp",
    "rut",
    "rfc",
    "steuer",
    "ausweis",
    "personalausweis",
    "reisepass",
    "carte",
    "identité",
    "cédula",
    "cedula",
    "patient",
    "member",
    "policy",
    "permit",
    "visa",
    "voter",
    "ahv",
    "hetu",
    "amka",
    "oib",
    "emšo",
    "jmbg",
    "egn",
    "cnp",
    "rodné",
    "personal",
    "national",
    "sécurité",
    "securite",
    "sociale",
    "fødselsnummer",
    "födelsenummer",
    "rrn",
    "steueridentifikationsnummer",
    "steuernummer",
    "steuer",
    "sozialversicherungsnummer",
    "svnr",
    "henkilötunnus",
    "documento",
    "identificación",
    "identificacion",
    "identidad",
    "identità",
    "codice",
];

/// Words that label a bank account or routing number.
const BANK_CUES: &[&str] = &[
    "account", "acct", "routing", "aba", "bank", "sort", "bsb", "iban", "konto", "compte",
    "cuenta", "conto", "rekening", "transit", "clabe",
];

/// Words that mark a number as something else even after an ID cue (`request id`, `build
/// number`): the word right before the cue.
const NOT_PERSONAL: &[&str] = &[
    "request",
    "build",
    "serial",
    "order",
    "tracking",
    "session",
    "transaction",
    "task",
    "job",
    "process",
    "commit",
    "product",
    "model",
    "device",
    "ticket",
    "invoice",
    "meeting",
    "trace",
    "correlation",
    "message",
    "event",
    "user",
];

/// How far before a number its label may stand (bytes, within the line).
const LABEL_REACH: usize = 48;

/// Whether a word of `cues` stands within [`LABEL_REACH`] before `start` on the same line,
/// and is not itself qualified as a technical identifier (`request id`).
fn labeled_before(text: &str, start: usize, cues: &[&str]) -> bool {
    let mut from = start.saturating_sub(LABEL_REACH);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let window = &text[from..start];
    let window = window.rsplit('\n').next().unwrap_or(window).to_lowercase();
    let words: Vec<&str> = window
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words
        .iter()
        .enumerate()
        .any(|(i, w)| cues.contains(w) && !(i > 0 && NOT_PERSONAL.contains(&words[i - 1])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::test_spans::span;
    use crate::scan::code_lines::code_zones;

    fn rejected(text: &str, value: &str, meaning: Meaning, score: f32) -> bool {
        false_finding(text, &span(text, value, meaning, score), &code_zones(text))
    }

    #[test]
    fn names_in_code_are_sample_data_and_names_in_prose_are_not() {
        let person = Meaning::Person;
        assert!(rejected(
            "```rust\nlet p = Person::new(\"Ferris\");\n```",
            "Ferris",
            person,
            0.96
        ));
        assert!(rejected(
            "my test `greet(\"Bob\")` fails",
            "Bob",
            person,
            0.9
        ));
        assert!(rejected("celery.worker: Task done", "celery", person, 0.94));
        assert!(!rejected(
            "please tell Bob the code is `x = 1`",
            "Bob",
            person,
            0.9
        ));
    }

    #[test]
    fn a_command_before_a_url_or_option_and_a_city_before_its_region_are_not_people() {
        let person = Meaning::Person;
        assert!(rejected(
            "curl http://127.0.0.1/health fails",
            "curl",
            person,
            0.6
        ));
        assert!(rejected("run grep -r foo", "grep", person, 0.6));
        assert!(rejected(
            "Is Victoria, BC worth it?",
            "Victoria",
            person,
            0.9
        ));
        assert!(!rejected(
            "Is Victoria, my aunt, coming?",
            "Victoria",
            person,
            0.9
        ));
        assert!(!rejected("tell ana - she knows", "ana", person, 0.9));
    }

    #[test]
    fn capitalised_names_joined_by_an_ampersand_are_a_brand() {
        let text = "return it to Marks & Spencer or Ben & Jerry's";
        for name in ["Marks", "Spencer", "Ben", "Jerry"] {
            assert!(rejected(text, name, Meaning::Person, 0.9), "{name}");
        }
        assert!(!rejected("ask Anna and Ben", "Ben", Meaning::Person, 0.9));
    }

    #[test]
    fn a_lone_unsure_lower_case_word_needs_a_cue_to_be_a_name() {
        let person = Meaning::Person;
        assert!(rejected("mine has crystals", "crystals", person, 0.67));
        // Sure enough, after a cue, or opening the message: a name.
        assert!(!rejected("mine has crystals", "crystals", person, 0.95));
        assert!(!rejected(
            "my husband tomasz is here",
            "tomasz",
            person,
            0.71
        ));
        assert!(!rejected("sven says hi", "sven", person, 0.7));
        assert!(!rejected("any emails from sam today", "sam", person, 0.7));
        assert!(!rejected(
            "remember to meet reveca at six",
            "reveca",
            person,
            0.7
        ));
        assert!(!rejected("ask Maria Lopez", "Maria Lopez", person, 0.6));
    }

    #[test]
    fn an_acronym_a_shout_or_a_drawn_out_word_is_not_a_name() {
        let person = Meaning::Person;
        assert!(rejected(
            "NINO AB123456C, HMRC says no",
            "NINO",
            person,
            0.95
        ));
        assert!(rejected(
            "guess RED is not sponsoring this",
            "RED",
            person,
            0.95
        ));
        assert!(rejected("OMG YASSSSS!!", "YASSSSS", person, 0.95));
        assert!(rejected("soooo good, Annnna", "Annnna", person, 0.95));
        // A name in capitals with its surname, after a label or a cue, or in a text written
        // in capitals, stays a name.
        assert!(!rejected(
            "ask INGRID SOLBERG",
            "INGRID SOLBERG",
            person,
            0.95
        ));
        assert!(!rejected("Patient: DANA", "DANA", person, 0.95));
        assert!(!rejected("my name is DANA", "DANA", person, 0.95));
        assert!(!rejected("CALL DANA NOW", "DANA", person, 0.95));
        assert!(!rejected(
            "ask Aaron and Llewellyn",
            "Llewellyn",
            person,
            0.95
        ));
    }

    #[test]
    fn an_address_needs_words_and_a_number_or_a_street_kind() {
        let address = Meaning::Address;
        for (text, value) in [
            ("Tyre size 225/45 R17", "225/45 R17"),
            ("population 8 336 817 people", "8 336 817"),
            ("hotels near Victoria Station", "Victoria Station"),
        ] {
            assert!(rejected(text, value, address, 0.9), "{value}");
        }
        for (text, value) in [
            ("I live at 12 Elm Road", "12 Elm Road"),
            ("shows on Sille Ranch Street were", "Sille Ranch Street"),
            ("corner of 5 Oak Rd and Alexis Shoal St.", "Alexis Shoal"),
        ] {
            assert!(!rejected(text, value, address, 0.9), "{value}");
        }
    }

    #[test]
    fn a_model_id_needs_an_identity_or_account_label_before_it() {
        let id = Meaning::IdNumber;
        assert!(!rejected("Mijn BSN is 111222333", "111222333", id, 0.9));
        assert!(!rejected("ID card number T22000129", "T22000129", id, 0.9));
        assert!(!rejected(
            "account 12345678",
            "12345678",
            Meaning::BankNumber,
            0.9
        ));
        assert!(rejected(
            "SKU 4006381333931 is out",
            "4006381333931",
            id,
            0.9
        ));
        assert!(rejected("X-Request-Id: 18b2c7e4a1", "18b2c7e4a1", id, 0.9));
        // The label must be on the same line.
        assert!(rejected(
            "passport\n\nbuild TQ3A.230805",
            "TQ3A.230805",
            id,
            0.9
        ));
    }
}
