//! Values the vault already holds are redacted wherever they occur again: a name given once
//! with a cue comes back without one, in another case, or bare; a phone number comes back
//! alone. And with a redactor, a message's `name` goes out redacted, in a form chat APIs accept.
#![cfg(not(target_arch = "wasm32"))]

use llm_memory::redact::{EntityType, Redactor, RedactorConfig};
use llm_memory::{ApproximateCounter, Memory, MemoryConfig, NewEntry, Role};
use std::sync::Arc;

fn redactor() -> Redactor {
    Redactor::new(RedactorConfig::default()).unwrap()
}

#[test]
fn a_value_seen_once_is_redacted_where_it_comes_back() {
    let mut r = redactor();
    let first = r.redact("Dear Josy Strausa, thanks for the call on 01 42 68 53 00.");
    assert!(!first.text.contains("Josy Strausa") && !first.text.contains("01 42 68 53 00"));
    for later in [
        "Josy Strausa wants the refund",
        "Update: josy strausa is angry",
        "01 42 68 53 00",
        "(Josy Strausa)",
    ] {
        let out = r.redact(later);
        assert!(
            !out.text.to_lowercase().contains("josy strausa"),
            "{later:?} -> {:?}",
            out.text
        );
        assert!(
            !out.text.contains("01 42 68 53 00"),
            "{later:?} -> {:?}",
            out.text
        );
        // One person, one placeholder: another case restores as the name was first written.
        assert_eq!(
            r.restore(&out.text).to_lowercase(),
            later.to_lowercase(),
            "restores to the person written"
        );
    }
    // The same name keeps its placeholder, in any case.
    let again = r.redact("Josy Strausa called");
    assert!(again.text.starts_with("[PERSON_1]"), "{:?}", again.text);
}

#[test]
fn only_whole_values_and_one_word_names_in_their_own_case() {
    let mut r = redactor();
    r.redact("My name is Mark.");
    let out = r.redact("Mark said: mark this as done, then remark on it.");
    assert_eq!(out.findings.len(), 1, "{:?}", out.text);
    assert!(out.text.contains("mark this as done, then remark"));
    // A type the redactor does not detect stays alone even if a vault holds it.
    let vault = r.vault().clone();
    let config = RedactorConfig {
        types: Some(vec![EntityType::Email]),
        ..Default::default()
    };
    let mut emails_only = Redactor::new(config).unwrap();
    emails_only.set_vault(vault);
    assert_eq!(emails_only.redact("Mark is here").text, "Mark is here");
}

#[test]
fn a_message_name_goes_out_redacted_as_a_valid_name() {
    let mut m = Memory::new(
        MemoryConfig::default(),
        Arc::new(ApproximateCounter::default()),
    )
    .unwrap();
    m.set_redactor(Some(Box::new(redactor())));
    let extra = NewEntry {
        name: Some("anna.schmidt@example.de".into()),
        ..Default::default()
    };
    m.add(Role::User, "hello there", extra, 0.0).unwrap();
    let built = m.context(None).unwrap();
    let sent = serde_json::to_string(&built.messages).unwrap();
    assert!(!sent.contains("anna.schmidt"), "{sent}");
    assert!(sent.contains(r#""name":"EMAIL_1""#), "{sent}");
    assert_eq!(built.report.redactions.get("EMAIL"), Some(&1));
}

#[test]
fn an_earlier_turn_is_redacted_again_once_the_vault_learns_a_value_it_holds() {
    let mut m = Memory::new(
        MemoryConfig::default(),
        Arc::new(ApproximateCounter::default()),
    )
    .unwrap();
    m.set_redactor(Some(Box::new(redactor())));
    m.add(
        Role::User,
        "Mason Cole called about the invoice",
        NewEntry::default(),
        0.0,
    )
    .unwrap();
    m.add(Role::Assistant, "Noted.", NewEntry::default(), 1.0)
        .unwrap();
    m.add(
        Role::User,
        "By the way, my name is Mason Cole.",
        NewEntry::default(),
        2.0,
    )
    .unwrap();
    let built = m.context(None).unwrap();
    let sent = serde_json::to_string(&built.messages).unwrap();
    assert!(!sent.contains("Mason Cole"), "{sent}");
    assert!(built.messages[0].content.starts_with("[PERSON_1] called"));
    // The budget counts the form that is sent now, not the raw one counted at first.
    let mut plain = Memory::new(
        MemoryConfig::default(),
        Arc::new(ApproximateCounter::default()),
    )
    .unwrap();
    plain
        .add(
            Role::User,
            &built.messages[0].content,
            NewEntry::default(),
            0.0,
        )
        .unwrap();
    assert_eq!(m.entry_tokens()[0], plain.entry_tokens()[0]);
    assert_eq!(built.report.redactions.get("PERSON"), Some(&2));
}
