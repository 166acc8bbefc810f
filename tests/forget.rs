#![cfg(not(target_arch = "wasm32"))]
//! Forget means forgotten: canary values planted in a turn, the facts extracted from it, an
//! episode and a summary are gone from every stored record (what `export()` and storage hold,
//! the vault included) after `forget` or `clear`, except where the receipt says a kept record
//! still holds them; vault numbering only grows, a reload and another tab agree, and stored
//! embeddings of a forgotten turn are rewritten away.

use llm_memory::driver::{
    record_episode_now, run_native, summarize_now, Answer, ExtractJob, Hooks,
};
use llm_memory::memory::ForgetOptions;
use llm_memory::memory::Persistence as _;
use llm_memory::redact::{Redactor, RedactorConfig};
use llm_memory::store::RecordOp;
use llm_memory::{ApproximateCounter, Memory, MemoryConfig, NewEntry, Role, Strategy};
use std::sync::Arc;

const NAME: &str = "Marisol Quintanilla-Obregon";
const EMAIL: &str = "marisol.qo@example-mail.net";
const PHONE: &str = "+1 415 555 0199";
const KEPT_NAME: &str = "Bartholomew Ferreira";

fn memory(strategy: Strategy) -> Memory {
    let mut config = MemoryConfig {
        strategy,
        ..Default::default()
    };
    config.limits.max_tokens = Some(400);
    let mut m = Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap();
    m.set_redactor(Some(Box::new(
        Redactor::new(RedactorConfig::default()).unwrap(),
    )));
    m.track_changes();
    m
}

/// Everything the memory would store or export, as one text.
fn stored(m: &Memory) -> String {
    serde_json::to_string(&m.records()).unwrap()
}

fn vault_json(m: &Memory) -> String {
    m.records()
        .into_iter()
        .find(|r| r.kind == "vault")
        .map(|r| r.data.to_string())
        .unwrap_or_default()
}

/// Adds the canary turn and a reply; returns the turn's id.
fn plant(m: &mut Memory, t: f64) -> String {
    let id = m
        .add(
            Role::User,
            &format!("Hi, I'm {NAME}, write to {EMAIL} or call {PHONE} please."),
            NewEntry::default(),
            t,
        )
        .unwrap();
    m.add(
        Role::Assistant,
        "Noted, thanks.",
        NewEntry::default(),
        t + 1.0,
    )
    .unwrap();
    id
}

fn keep(m: &mut Memory, t: f64) {
    m.add(
        Role::User,
        &format!("My name is {KEPT_NAME} and I review the budget."),
        NewEntry::default(),
        t,
    )
    .unwrap();
    m.add(Role::Assistant, "Sure.", NewEntry::default(), t + 1.0)
        .unwrap();
}

fn assert_gone(m: &Memory, what: &str) {
    let all = stored(m);
    for canary in [NAME, EMAIL, PHONE] {
        assert!(
            !all.contains(canary),
            "{what}: {canary:?} is still stored: {all}"
        );
    }
}

#[test]
fn forgetting_a_turn_erases_its_values_and_keeps_the_others() {
    let mut m = memory(Strategy::Tokens);
    let id = plant(&mut m, 1.0);
    keep(&mut m, 10.0);
    m.context(None).unwrap();
    assert!(vault_json(&m).contains(NAME), "the vault learned the name");
    let receipt = m.forget(&id, Default::default()).unwrap();
    assert_eq!(receipt.removed.turns, std::slice::from_ref(&id));
    assert_gone(&m, "after forget");
    assert!(receipt.removed.vault_values.len() >= 3, "{receipt:?}");
    assert!(vault_json(&m).contains(KEPT_NAME));
    // Only values the forgotten turn held are candidates: the other turn's name was not.
    assert!(receipt.kept.vault_values.is_empty(), "{receipt:?}");
    // The store is told: the entry is deleted and the vault rewritten without the values.
    let ops = m.take_changes();
    assert!(ops
        .iter()
        .any(|op| matches!(op, RecordOp::Delete { kind, id: d } if kind == "entry" && *d == id)));
    let last_vault = ops.iter().rev().find_map(|op| match op {
        RecordOp::Put(r) if r.kind == "vault" => Some(r.data.to_string()),
        _ => None,
    });
    let last_vault = last_vault.expect("the vault is stored again");
    assert!(!last_vault.contains(NAME) && last_vault.contains(KEPT_NAME));
    // Nothing of it is sent either.
    let built = m.context(None).unwrap();
    let sent = serde_json::to_string(&built.messages).unwrap();
    assert!(!sent.contains("Marisol") && !sent.contains("[EMAIL_1]"));
}

#[test]
fn numbering_only_grows_across_erasure_reload_and_tabs() {
    let mut m = memory(Strategy::Tokens);
    let id = plant(&mut m, 1.0);
    let erased = m
        .forget(&id, Default::default())
        .unwrap()
        .removed
        .vault_values;
    assert!(erased.iter().any(|p| p == "[EMAIL_1]"), "{erased:?}");
    // A new value of the same type takes a new number, here and after a reload.
    m.add(
        Role::User,
        "mail me at zed@example.org",
        NewEntry::default(),
        20.0,
    )
    .unwrap();
    m.context(None).unwrap();
    assert!(vault_json(&m).contains("[EMAIL_2]"), "{}", vault_json(&m));
    let mut back = memory(Strategy::Tokens);
    back.load_records(m.records()).unwrap();
    back.set_redactor(Some(Box::new(
        Redactor::new(RedactorConfig::default()).unwrap(),
    )));
    back.add(
        Role::User,
        "or at amy@example.org",
        NewEntry::default(),
        30.0,
    )
    .unwrap();
    back.context(None).unwrap();
    let v = vault_json(&back);
    assert!(v.contains("[EMAIL_3]") && !v.contains(EMAIL), "{v}");
    // An old placeholder restores to nothing new.
    assert_eq!(back.restore_text("[EMAIL_1]"), "[EMAIL_1]");
}

#[test]
fn another_tab_takes_the_erasure_over_and_stores_no_value_back() {
    let mut a = memory(Strategy::Tokens);
    let id = plant(&mut a, 1.0);
    keep(&mut a, 10.0);
    let mut b = memory(Strategy::Tokens);
    b.load_records(a.records()).unwrap();
    b.set_redactor(Some(Box::new(
        Redactor::new(RedactorConfig::default()).unwrap(),
    )));
    b.take_changes();
    assert!(vault_json(&b).contains(NAME));
    a.take_changes();
    a.forget(&id, Default::default()).unwrap();
    b.apply_remote(a.take_changes()).unwrap();
    b.save_vault();
    assert_gone(&b, "the other tab");
    assert!(vault_json(&b).contains(KEPT_NAME));
}

#[test]
fn facts_extracted_from_a_turn_go_with_it_unless_kept() {
    for keep_derived in [false, true] {
        let mut m = memory(Strategy::Tokens);
        let id = plant(&mut m, 1.0);
        let hooks = Hooks {
            extract: true,
            ..Hooks::default()
        };
        let mut job = ExtractJob::begin(&m, &hooks).expect("an exchange to extract from");
        let ops = format!(r#"[{{"op":"add","text":"The user's e-mail is {EMAIL}"}}]"#);
        run_native(&mut job, &mut m, 3.0, |_| Answer::Json(ops.clone()));
        let fact = m.facts()[0].clone();
        assert!(fact.from.contains(&id), "{fact:?}");
        let remembered = m
            .remember("The user likes green tea", Default::default(), 4.0)
            .unwrap();
        let receipt = m
            .forget(
                &id,
                ForgetOptions {
                    keep_derived,
                    now: Some(5.0),
                },
            )
            .unwrap();
        if keep_derived {
            assert!(receipt.removed.facts.is_empty());
            assert!(stored(&m).contains(EMAIL), "the kept fact holds it");
            assert!(!receipt.kept.vault_values.is_empty() || !vault_json(&m).contains(EMAIL));
        } else {
            assert_eq!(receipt.removed.facts, std::slice::from_ref(&fact.id));
            assert_gone(&m, "facts cascade");
        }
        let active: Vec<&str> = m
            .facts()
            .iter()
            .filter(|f| f.text.contains("green tea"))
            .map(|f| f.id.as_str())
            .collect();
        assert_eq!(active, [remembered.id.as_str()], "the app's own fact stays");
    }
}

#[test]
fn an_episode_and_a_summary_holding_the_words_go_with_the_turn() {
    let mut m = memory(Strategy::Summary);
    let id = plant(&mut m, 1.0);
    for i in 0..30 {
        let t = 10.0 + i as f64;
        m.add(
            Role::User,
            &format!("Filler question {i} about the garden?"),
            NewEntry::default(),
            t,
        )
        .unwrap();
        m.add(
            Role::Assistant,
            "A filler answer about soil and water.",
            NewEntry::default(),
            t,
        )
        .unwrap();
    }
    let summary = format!("{NAME} ({EMAIL}) asked about gardens.");
    let due = summarize_now(&mut m, 50.0, |_| summary.clone());
    assert!(due, "the history is over the budget");
    let episode = format!(r#"{{"summary":"{NAME} called from {PHONE}"}}"#);
    record_episode(&mut m, &episode, 51.0);
    assert!(stored(&m).contains(NAME));
    let receipt = m.forget(&id, Default::default()).unwrap();
    assert_eq!(receipt.removed.summaries.len(), 1, "{receipt:?}");
    assert_eq!(receipt.removed.episodes.len(), 1, "{receipt:?}");
    assert_gone(&m, "summary and episode");
}

#[test]
fn clear_erases_the_conversation_and_keeps_what_pinned_facts_hold() {
    let mut m = memory(Strategy::Tokens);
    plant(&mut m, 1.0);
    keep(&mut m, 10.0);
    m.pin(&format!("Escalations go to {KEPT_NAME}.")).unwrap();
    m.context(None).unwrap();
    let receipt = m.clear(Default::default());
    assert_eq!(receipt.removed.turns.len(), 4);
    assert_gone(&m, "after clear");
    assert!(
        vault_json(&m).contains(KEPT_NAME),
        "the pinned fact still holds it"
    );
    assert!(!receipt.kept.vault_values.is_empty());
}

#[test]
fn a_forgotten_turns_stored_embedding_is_rewritten_away() {
    let mut m = memory(Strategy::Retrieval);
    m.enable_vectors(false);
    let id = plant(&mut m, 1.0);
    keep(&mut m, 10.0);
    let pending = m.recall_state().pending_embeddings(m.entries(), 100);
    let items: Vec<u32> = pending.iter().map(|p| p.0).collect();
    let texts: Vec<String> = pending.iter().map(|p| p.1.clone()).collect();
    let vectors: Vec<Vec<f32>> = items.iter().map(|&i| vec![1.0, i as f32 + 1.0]).collect();
    m.set_embeddings(&items, &texts, &vectors).unwrap();
    let ids_stored = |m: &Memory| -> Vec<String> {
        m.records()
            .into_iter()
            .filter(|r| r.kind == "vectors")
            .flat_map(|r| serde_json::from_value::<Vec<String>>(r.data["ids"].clone()).unwrap())
            .collect()
    };
    assert!(ids_stored(&m).contains(&id));
    let receipt = m.forget(&id, Default::default()).unwrap();
    assert_eq!(receipt.removed.vectors, 1);
    assert!(!ids_stored(&m).contains(&id));
    assert_eq!(ids_stored(&m).len(), items.len() - 1);
    // A later embedding does not bring it back with the chunk being filled.
    m.add(Role::User, "one more turn", NewEntry::default(), 40.0)
        .unwrap();
    let pending = m.recall_state().pending_embeddings(m.entries(), 100);
    let (items, texts): (Vec<u32>, Vec<String>) = pending.into_iter().unzip();
    let vectors: Vec<Vec<f32>> = items.iter().map(|_| vec![0.5, 0.5]).collect();
    m.set_embeddings(&items, &texts, &vectors).unwrap();
    assert!(!ids_stored(&m).contains(&id));
}

/// Records an episode the app's `summarize` answers with `json`.
fn record_episode(m: &mut Memory, json: &str, now: f64) -> llm_memory::recall::episodes::Episode {
    record_episode_now(m, now, |_| json.to_string())
        .unwrap()
        .expect("turns to cover")
}
