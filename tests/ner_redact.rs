//! The redactor with the PII model (`models/pii-ner.bin`, `make model`): what it adds to the
//! rules (lower-case names, addresses without a cue, numbers after a label), that rules keep
//! the structured types, that nothing planted reaches a context with the model on, and that a
//! memory tags each text once however many contexts it builds.
//!
//! Without the model file the tests are skipped with a message, except in CI (`CI` set), where
//! `make test` builds it first and its absence is a failure. They run optimized only
//! (`cargo test --profile server --test ner_redact`, in `make test`): unoptimized, the encoder takes
//! minutes over these texts.
#![cfg(all(not(target_arch = "wasm32"), not(debug_assertions)))]

use llm_memory::ner::Tagger;
use llm_memory::redact::{ModelOption, Redactor, RedactorConfig, Source};
use llm_memory::{ApproximateCounter, Memory, MemoryConfig, NewEntry, Role, Strategy};
use std::path::PathBuf;
use std::sync::Arc;

#[path = "support/pii_model.rs"]
mod pii_model;
use pii_model::tagger;

/// A redactor with `options` (JSON) and, when given, the model.
fn redactor(options: &str, model: Option<&Arc<Tagger>>) -> Redactor {
    let mut config = RedactorConfig::from_json(options).unwrap();
    config.model = model.map(|t| ModelOption(t.clone()));
    Redactor::new(config).unwrap()
}

/// Texts whose value the rules alone leave, with the value and the type the model gives it.
const RULES_MISS: [(&str, &str, &str); 5] = [
    (
        "i'm seeing maria gonzalez tomorrow at 1420 elm street, apt 3b",
        "maria gonzalez",
        "PERSON",
    ),
    (
        "i'm seeing maria gonzalez tomorrow at 1420 elm street, apt 3b",
        "1420 elm street, apt 3b",
        "ADDRESS",
    ),
    (
        "tell dmitri petrov the keys are under the mat",
        "dmitri petrov",
        "PERSON",
    ),
    (
        "my landlord is carlos mendoza, his place is 88 oak ridge road",
        "88 oak ridge road",
        "ADDRESS",
    ),
    (
        "can you ask priya raman to call me back",
        "priya raman",
        "PERSON",
    ),
];

#[test]
fn the_model_finds_what_the_rules_miss() {
    let Some(t) = tagger() else { return };
    for (text, value, kind) in RULES_MISS {
        let rules = redactor("{}", None).redact(text);
        assert!(
            rules.text.contains(value),
            "the rules alone already find {value:?}: pick another example ({})",
            rules.text
        );
        let out = redactor("{}", Some(&t)).redact(text);
        assert!(!out.text.contains(value), "{value:?} kept in {}", out.text);
        let start = text.find(value).unwrap();
        let f = out
            .findings
            .iter()
            .find(|f| f.start == start && f.end == start + value.len())
            .unwrap_or_else(|| panic!("no finding for {value:?}: {:?}", out.findings));
        assert_eq!(f.kind.as_str(), kind);
        assert_eq!(f.source, Source::Model);
        assert!(f.score >= 0.5 && f.score <= 1.0, "{f:?}");
    }
}

#[test]
fn the_model_file_brings_the_longer_given_name_list() {
    let Some(t) = tagger() else { return };
    // "Bennett" is on the list the model file carries (crates/redact/word-lists), not on the
    // person recognizer's own: rules alone leave the uncued name.
    let text = "Bennett Sloan from accounting says hi";
    let alone = redactor("{}", None);
    assert!(alone.word_lists().is_empty());
    assert!(alone.detect(text).is_empty());
    let mut with = redactor("{}", Some(&t));
    assert!(with.word_lists().is_given_name("bennett"));
    let found = with.redact(text);
    assert!(found.text.starts_with("[PERSON_1] from"), "{}", found.text);
}

#[test]
fn rules_keep_the_structured_types() {
    let Some(t) = tagger() else { return };
    // The model reads an e-mail and a phone here too; the rules' findings are the ones kept,
    // and the name inside the e-mail address is not cut out of it.
    let text = "my email is maria.gonzalez@example.com and phone 415-555-0100";
    let plain = redactor("{}", None).redact(text);
    let with = redactor("{}", Some(&t)).redact(text);
    assert_eq!(with.text, plain.text);
    assert!(with.findings.iter().all(|f| f.source == Source::Rule));
    let json = serde_json::to_string(&with.findings[0]).unwrap();
    assert!(json.contains(r#""source":"rule""#), "{json}");
}

#[test]
fn types_allow_list_and_threshold_apply_to_the_model() {
    let Some(t) = tagger() else { return };
    let text = RULES_MISS[0].0;
    let only_email = redactor(r#"{"types":["EMAIL"]}"#, Some(&t)).redact(text);
    assert!(only_email.findings.is_empty(), "{:?}", only_email.findings);
    let allowed = redactor(r#"{"allowList":["Maria Gonzalez"]}"#, Some(&t)).redact(text);
    assert!(allowed.text.contains("maria gonzalez"));
    assert!(allowed
        .findings
        .iter()
        .any(|f| f.kind.as_str() == "ADDRESS"));
    // A threshold no word reaches leaves the text to the rules.
    let strict = redactor(r#"{"modelThreshold":1}"#, Some(&t)).redact(text);
    let plain = redactor("{}", None).redact(text);
    assert!(strict.findings.len() <= plain.findings.len() + 1);
    assert!(strict
        .findings
        .iter()
        .all(|f| f.source == Source::Rule || f.score >= 0.999));
}

#[test]
fn restore_brings_model_values_back() {
    let Some(t) = tagger() else { return };
    let mut r = redactor("{}", Some(&t));
    let text = RULES_MISS[0].0;
    let out = r.redact(text);
    assert_eq!(r.restore(&out.text), text);
    // The same name later is the same placeholder.
    let again = r.redact("did maria gonzalez call?");
    let person = out
        .findings
        .iter()
        .find(|f| f.kind.as_str() == "PERSON")
        .unwrap();
    assert!(
        again.text.contains(&person.placeholder),
        "{} / {}",
        again.text,
        person.placeholder
    );
}

#[test]
fn a_long_text_is_tagged_in_windows_to_its_end() {
    let Some(t) = tagger() else { return };
    let filler = "we talked about the weather and the garden for a while. ".repeat(80);
    let text = format!("{filler}then i met carlos mendoza at 88 oak ridge road. {filler}");
    let runs = t.runs();
    let out = redactor("{}", Some(&t)).redact(&text);
    assert!(
        t.runs() - runs > 3,
        "a text this long needs several windows"
    );
    assert!(!out.text.contains("carlos mendoza"), "name kept");
    assert!(!out.text.contains("88 oak ridge road"), "address kept");
}

const PLANTED: [&str; 5] = [
    "maria gonzalez",
    "1420 elm street, apt 3b",
    "dmitri petrov",
    "88 oak ridge road",
    "riley.jones@example.com",
];

fn memory(t: &Arc<Tagger>, strategy: Strategy) -> Memory {
    let mut c = MemoryConfig {
        strategy,
        system_prompt: Some("You help dmitri petrov with his errands.".into()),
        ..Default::default()
    };
    c.limits.max_tokens = Some(4000);
    let mut m = Memory::new(c, Arc::new(ApproximateCounter::default())).unwrap();
    m.set_redactor(Some(Box::new(redactor("{}", Some(t)))));
    m.add(
        Role::User,
        "i'm seeing maria gonzalez tomorrow at 1420 elm street, apt 3b",
        NewEntry::default(),
        1.0,
    )
    .unwrap();
    m.add(Role::Assistant, "Noted.", NewEntry::default(), 2.0)
        .unwrap();
    m.add(
        Role::User,
        "my landlord is carlos mendoza, his place is 88 oak ridge road; mail riley.jones@example.com",
        NewEntry::default(),
        3.0,
    )
    .unwrap();
    m.pin("the user's friend is maria gonzalez").unwrap();
    m
}

#[test]
fn nothing_planted_reaches_a_context_with_the_model_on() {
    let Some(t) = tagger() else { return };
    for strategy in [Strategy::Full, Strategy::Tokens, Strategy::Window] {
        let m = memory(&t, strategy);
        let built = m.context(None).unwrap();
        let sent = serde_json::to_string(&built.messages).unwrap();
        for v in PLANTED {
            assert!(!sent.contains(v), "{v:?} sent under {strategy:?}: {sent}");
        }
        assert!(sent.contains("[PERSON_") && sent.contains("[ADDRESS_"));
        let report = serde_json::to_string(&built.report).unwrap();
        assert!(PLANTED.iter().all(|v| !report.contains(v)));
        assert!(built.report.redactions.get("PERSON").copied().unwrap_or(0) >= 2);
    }
}

#[test]
fn each_text_is_tagged_once_across_context_builds() {
    if tagger().is_none() {
        return;
    }
    // A tagger of its own: the shared one counts the other tests' runs too.
    let bytes = std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models/pii-ner.bin"));
    let t = Arc::new(Tagger::from_bytes(&bytes.unwrap()).unwrap());
    let m = memory(&t, Strategy::Full);
    m.context(None).unwrap();
    let after_first = t.runs();
    for _ in 0..3 {
        m.context(None).unwrap();
    }
    assert_eq!(
        t.runs(),
        after_first,
        "turns, the pinned fact and the system prompt were tagged again"
    );
}

/// "I'm <name>" as people write it, in every case and with both apostrophes: the finding is the
/// name alone, and the text reads as it was with the name swapped for its placeholder.
#[test]
fn a_contraction_stays_outside_the_name() {
    let Some(t) = tagger() else { return };
    let texts = [
        ("Hi, I'm Dana Reyes.", "Dana Reyes"),
        ("i'm tom baker and i need help", "tom baker"),
        ("I’m Priya, nice to meet you", "Priya"),
        ("Hey, I'm Amanda's daughter", "Amanda"),
    ];
    for (text, name) in texts {
        let mut r = redactor("{}", Some(&t));
        let out = r.redact(text);
        // Findings are in UTF-16 code units, as JS indexes.
        let byte = |u: usize| {
            text.char_indices()
                .scan(0, |units, (b, c)| {
                    let at = *units;
                    *units += c.len_utf16();
                    Some((at, b))
                })
                .find(|&(at, _)| at == u)
                .map_or(text.len(), |(_, b)| b)
        };
        for f in out.findings.iter().filter(|f| f.kind.as_str() == "PERSON") {
            let (start, end) = (byte(f.start), byte(f.end));
            let value = &text[start..end];
            let before = text[..start].chars().next_back();
            let after = text[end..].chars().next();
            assert!(
                !before.is_some_and(|c| c.is_alphanumeric() || c == '\'' || c == '’')
                    && !after.is_some_and(char::is_alphanumeric),
                "{text:?}: {value:?} is not a whole name"
            );
        }
        let person = out.findings.iter().find(|f| f.kind.as_str() == "PERSON");
        if let Some(p) = person {
            assert_eq!(&text[byte(p.start)..byte(p.end)], name, "{text:?}");
            assert_eq!(out.text, text.replacen(name, &p.placeholder, 1), "{text:?}");
        }
    }
}

/// A street asked about as a place is no one's address; a street tied to someone, or with a
/// house number, still is (the model tags both kinds alike).
#[test]
fn a_street_asked_about_is_not_an_address() {
    let Some(t) = tagger() else { return };
    for text in [
        "Is Lombard Street really the most crooked street?",
        "Best pubs near Portobello Road Market?",
        "We are staying near Sunset Boulevard, any breakfast places?",
    ] {
        let out = redactor("{}", Some(&t)).redact(text);
        assert!(out.findings.is_empty(), "{text:?}: {:?}", out.findings);
    }
    for (text, street) in [
        (
            "My flat is on Portobello Road, can you find a plumber near me?",
            "Portobello Road",
        ),
        ("Can you send it to 14 Lombard Street?", "14 Lombard Street"),
    ] {
        let out = redactor("{}", Some(&t)).redact(text);
        assert!(!out.text.contains(street), "{text:?} sent as {}", out.text);
    }
}
