//! The engine's persistence contract, natively: it emits exactly what changed, reloads from
//! its records to the same state, and merges another tab's records in storage order.
#![cfg(not(target_arch = "wasm32"))]

use llm_memory::driver::summarize_now;
use llm_memory::memory::Persistence as _;
use llm_memory::store::records::compact;
use llm_memory::store::{parse_document, Record, RecordOp, SessionDocument, SessionMeta};
use llm_memory::{ApproximateCounter, Memory, MemoryConfig, NewEntry, Role, Strategy};
use std::sync::Arc;

fn memory() -> Memory {
    let config = MemoryConfig {
        strategy: Strategy::Summary,
        ..Default::default()
    };
    let mut c = config;
    c.limits.max_tokens = Some(500);
    c.summary.trigger.messages = Some(4);
    c.summary.keep_recent = 2;
    Memory::new(c, Arc::new(ApproximateCounter::default())).unwrap()
}

fn puts(ops: &[RecordOp]) -> Vec<(String, String)> {
    ops.iter()
        .filter_map(|op| match op {
            RecordOp::Put(r) => Some((r.kind.clone(), r.id.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn emits_one_put_per_change_and_reloads_to_the_same_state() {
    let mut m = memory();
    m.track_changes();
    for i in 0..10 {
        let role = if i % 2 == 0 {
            Role::User
        } else {
            Role::Assistant
        };
        m.add(
            role,
            &format!("turn {i}"),
            NewEntry::default(),
            1000.0 + i as f64,
        )
        .unwrap();
    }
    let ops = m.take_changes();
    assert_eq!(ops.len(), 10);
    assert!(puts(&ops).iter().all(|(k, _)| k == "entry"));
    assert!(summarize_now(&mut m, 2000.0, |_| "they talked".to_string()));
    m.pin("likes tea").unwrap();
    let ops = m.take_changes();
    assert_eq!(
        puts(&ops),
        vec![
            ("summary".into(), "sum1".into()),
            ("pinned".into(), "p1".into())
        ]
    );
    assert!(m.take_changes().is_empty());

    let mut reloaded = memory();
    reloaded.load_records(m.records()).unwrap();
    assert_eq!(reloaded.entries(), m.entries());
    assert_eq!(reloaded.entry_tokens(), m.entry_tokens());
    assert_eq!(reloaded.summaries(), m.summaries());
    assert_eq!(reloaded.pinned(), m.pinned());
    assert_eq!(reloaded.context(None).unwrap(), m.context(None).unwrap());
    // New ids continue after the stored ones.
    let id = reloaded
        .add(Role::User, "next", NewEntry::default(), 3000.0)
        .unwrap();
    assert_eq!(id, "e11");
}

#[test]
fn forget_and_clear_emit_deletes() {
    let mut m = memory();
    m.track_changes();
    let a = m.add(Role::User, "a", NewEntry::default(), 1.0).unwrap();
    m.add(Role::User, "b", NewEntry::default(), 2.0).unwrap();
    m.take_changes();
    m.forget(&a, Default::default()).unwrap();
    assert_eq!(
        m.take_changes(),
        vec![RecordOp::Delete {
            kind: "entry".into(),
            id: a.clone()
        }]
    );
    m.clear(Default::default());
    assert!(matches!(
        m.take_changes()[..],
        [RecordOp::DeleteKinds { .. }]
    ));
}

#[test]
fn another_tabs_turns_merge_in_storage_order() {
    let mut tab_a = memory();
    tab_a.set_id_prefix("a");
    tab_a.track_changes();
    let mut tab_b = memory();
    tab_b.set_id_prefix("b");
    tab_b.track_changes();
    tab_a
        .add(Role::User, "a1", NewEntry::default(), 10.0)
        .unwrap();
    tab_b
        .add(Role::User, "b1", NewEntry::default(), 20.0)
        .unwrap();
    tab_a
        .add(Role::User, "a2", NewEntry::default(), 30.0)
        .unwrap();
    let from_a = tab_a.take_changes();
    let from_b = tab_b.take_changes();
    tab_a.apply_remote(from_b).unwrap();
    tab_b.apply_remote(from_a).unwrap();
    let contents = |m: &Memory| {
        m.entries()
            .iter()
            .map(|e| e.content.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(contents(&tab_a), ["a1", "b1", "a2"]);
    assert_eq!(contents(&tab_a), contents(&tab_b));
    // Applying remote changes records nothing to write back.
    assert!(tab_a.take_changes().is_empty());
    // A reload of the union sorts the same way.
    let mut fresh = memory();
    let mut all: Vec<Record> = tab_b.records();
    all.reverse();
    fresh.load_records(all).unwrap();
    assert_eq!(contents(&fresh), ["a1", "b1", "a2"]);
}

#[test]
fn two_tabs_never_mint_the_same_fact_pin_or_step_id() {
    use llm_memory::history::steps::Step;
    use llm_memory::recall::facts::NewFact;
    let tab = |prefix: &str| {
        let mut m = memory();
        m.set_id_prefix(prefix);
        m.track_changes();
        m
    };
    let (mut tab_a, mut tab_b) = (tab("a-"), tab("b-"));
    for (m, who) in [(&mut tab_a, "A"), (&mut tab_b, "B")] {
        m.remember(
            &format!("{who} is allergic to peanuts"),
            NewFact::default(),
            1.0,
        )
        .unwrap();
        m.pin(&format!("{who} pinned this")).unwrap();
        m.add_step(
            Step::Task {
                task: format!("{who} task"),
            },
            1.0,
        );
    }
    let from_a = tab_a.take_changes();
    let from_b = tab_b.take_changes();
    tab_a.apply_remote(from_b).unwrap();
    tab_b.apply_remote(from_a).unwrap();
    for m in [&mut tab_a, &mut tab_b] {
        let mut facts: Vec<&str> = m.facts().iter().map(|f| f.text.as_str()).collect();
        facts.sort();
        assert_eq!(
            facts,
            ["A is allergic to peanuts", "B is allergic to peanuts"]
        );
        assert_eq!(m.pinned().len(), 2, "both pins kept");
        assert_eq!(m.steps().len(), 2, "both steps kept");
    }
    // A memory that is not stored keeps the short ids.
    let mut plain = memory();
    assert_eq!(plain.pin("x").unwrap(), "p1");
    assert_eq!(tab_a.pinned()[0].id, "a-p1");
}

#[test]
fn a_tab_keeps_the_redaction_vault_values_another_tab_stored() {
    use llm_memory::redact::{Redactor, RedactorConfig};
    let tab = |prefix: &str| {
        let mut m = memory();
        m.set_id_prefix(prefix);
        m.set_redactor(Some(Box::new(
            Redactor::new(RedactorConfig::default()).unwrap(),
        )));
        m.track_changes();
        m
    };
    let (mut tab_a, mut tab_b) = (tab("a-"), tab("b-"));
    tab_a
        .add(
            Role::User,
            "write to alice@example.com",
            NewEntry::default(),
            1.0,
        )
        .unwrap();
    // Tab B numbers its own values: its e-mail takes the same number, its phone is new.
    tab_b
        .add(Role::User, "I am bob@example.org", NewEntry::default(), 2.0)
        .unwrap();
    tab_b
        .add(
            Role::User,
            "call +1 415 555 0132 or +44 20 7946 0958",
            NewEntry::default(),
            3.0,
        )
        .unwrap();
    // B's vault record arrives (its turns may come in another batch, or never: B's summary
    // prompts and steps also teach its vault).
    let vault_from_b: Vec<RecordOp> = tab_b
        .take_changes()
        .into_iter()
        .filter(|op| matches!(op, RecordOp::Put(r) if r.kind == "vault"))
        .collect();
    tab_a.take_changes();
    tab_a.apply_remote(vault_from_b).unwrap();
    // A now knows B's phones under B's placeholders, and keeps its own [EMAIL_1].
    assert_eq!(tab_a.restore_text("[PHONE_2]"), "+44 20 7946 0958");
    assert_eq!(tab_a.restore_text("[EMAIL_1]"), "alice@example.com");
    // Its next store keeps B's phone instead of writing a vault without it.
    tab_a
        .add(
            Role::User,
            "and cc carol@example.net",
            NewEntry::default(),
            4.0,
        )
        .unwrap();
    let stored = tab_a
        .take_changes()
        .into_iter()
        .rev()
        .filter_map(|op| match op {
            RecordOp::Put(r) if r.kind == "vault" => Some(r.data.to_string()),
            _ => None,
        })
        .next()
        .expect("the vault is stored");
    assert!(stored.contains("+44 20 7946 0958"), "{stored}");
    assert!(stored.contains("carol@example.net"), "{stored}");
}

#[test]
fn unknown_record_kinds_survive_a_round_trip() {
    let mut m = memory();
    let foreign = Record {
        kind: "fact".into(),
        id: "f1".into(),
        order: 1.0,
        data: serde_json::json!({ "text": "from a newer feature" }),
    };
    m.load_records(vec![foreign.clone()]).unwrap();
    assert!(m.records().contains(&foreign));
}

#[test]
fn export_document_round_trips_through_json() {
    let mut m = memory();
    m.add(
        Role::User,
        "hello \u{1F44B}",
        NewEntry {
            metadata: Some(serde_json::json!({"k": [1, 2]})),
            ..Default::default()
        },
        5.0,
    )
    .unwrap();
    let meta = SessionMeta::new("s1", 1.0, Some(60_000.0));
    let doc = SessionDocument::new(&meta, m.records());
    let text = serde_json::to_string(&doc).unwrap();
    let back = parse_document(
        &text,
        1 << 20,
        llm_memory::redact::RECORD_CHECKS,
        "ignored",
        0.0,
    )
    .unwrap();
    assert_eq!(back, doc);
    let mut m2 = memory();
    m2.load_records(back.records).unwrap();
    assert_eq!(m2.entries(), m.entries());
}

#[test]
fn corrupt_records_are_reported_not_dropped() {
    let mut m = memory();
    let bad = Record {
        kind: "entry".into(),
        id: "e1".into(),
        order: 0.0,
        data: serde_json::json!({ "role": "user" }),
    };
    let err = m.load_records(vec![bad]).unwrap_err();
    assert_eq!(err.code, llm_memory::ErrorCode::CorruptStorage);
}

#[test]
fn metadata_with_prototype_keys_is_refused() {
    let mut m = memory();
    let extra = NewEntry {
        metadata: Some(serde_json::json!({ "a": { "__proto__": { "polluted": true } } })),
        ..Default::default()
    };
    let err = m.add(Role::User, "x", extra, 0.0).unwrap_err();
    assert_eq!(err.code, llm_memory::ErrorCode::InvalidEntry);
    assert!(m.entries().is_empty());
}

#[test]
fn an_import_with_a_broken_vault_fact_episode_or_vectors_is_refused_whole() {
    // A vault that restores nothing (or an empty value), and facts, episodes and vectors that
    // cannot be read, were dropped silently on load; an import is checked before anything is
    // stored.
    let meta = SessionMeta::new("s1", 1.0, None);
    let good_vault = serde_json::json!({"version": 1, "entries": [
        {"placeholder": "[EMAIL_1]", "type": "EMAIL", "value": "ann@example.com"}]});
    for (kind, data, ok) in [
        ("vault", good_vault, true),
        ("vault", serde_json::json!("garbage"), false),
        (
            "vault",
            serde_json::json!({"version": 1, "entries": [
            {"placeholder": "[EMAIL_1]", "type": "EMAIL", "value": ""}]}),
            false,
        ),
        (
            "vault",
            serde_json::json!({"version": 1, "entries": [
            {"placeholder": "[EMAIL_1]", "type": "EMAIL"}]}),
            false,
        ),
        ("episode", serde_json::json!({"situation": 3}), false),
        ("fact", serde_json::json!({"fact": {"text": 3}}), false),
        ("vectors", serde_json::json!({"dim": "384"}), false),
    ] {
        let record = Record {
            kind: kind.into(),
            id: kind.into(),
            order: 0.0,
            data,
        };
        let text = serde_json::to_string(&SessionDocument::new(&meta, vec![record])).unwrap();
        let parsed = parse_document(
            &text,
            1 << 20,
            llm_memory::redact::RECORD_CHECKS,
            "ignored",
            0.0,
        );
        match parsed {
            Ok(_) => assert!(ok, "{text} was accepted"),
            Err(e) => {
                assert!(!ok, "{text}: {}", e.message);
                assert_eq!(e.code, llm_memory::ErrorCode::InvalidDocument);
                assert!(e.message.contains(kind), "{}", e.message);
            }
        }
    }
}

#[test]
fn queued_changes_keep_each_records_last_change_only() {
    let put = |kind: &str, id: &str, v: u32| {
        RecordOp::Put(Record {
            kind: kind.into(),
            id: id.into(),
            order: 0.0,
            data: serde_json::json!(v),
        })
    };
    let del = |kind: &str, id: &str| RecordOp::Delete {
        kind: kind.into(),
        id: id.into(),
    };
    let ops = vec![
        put("entry", "e1", 1),
        put("entry", "big", 2),
        put("summary", "s1", 3),
        put("summary", "s1", 4),
        del("entry", "big"),
        put("pinned", "p1", 5),
        RecordOp::DeleteKinds {
            kinds: vec!["pinned".into()],
        },
        put("pinned", "p2", 6),
    ];
    assert_eq!(
        compact(ops),
        vec![
            put("entry", "e1", 1),
            put("summary", "s1", 4),
            del("entry", "big"),
            RecordOp::DeleteKinds {
                kinds: vec!["pinned".into()]
            },
            put("pinned", "p2", 6),
        ]
    );
}

/// The real approximate counter, counting how often it is asked.
struct Counting {
    inner: ApproximateCounter,
    calls: std::sync::atomic::AtomicUsize,
}

impl Counting {
    fn new(chars_per_token: f64) -> Arc<Counting> {
        Arc::new(Counting {
            inner: ApproximateCounter::new(chars_per_token).unwrap(),
            calls: Default::default(),
        })
    }
    fn calls(&self) -> usize {
        self.calls.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl llm_memory::TokenCounter for Counting {
    fn count(&self, text: &str) -> usize {
        self.calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.count(text)
    }
    fn kind(&self) -> &str {
        self.inner.kind()
    }
    fn is_exact(&self) -> bool {
        false
    }
    fn fingerprint(&self) -> Option<u64> {
        self.inner.fingerprint()
    }
}

#[test]
fn reopening_with_the_same_tokenizer_counts_no_stored_entry() {
    let first = Counting::new(4.0);
    let mut m = Memory::new(MemoryConfig::default(), first.clone()).unwrap();
    m.track_changes();
    for i in 0..50 {
        let role = if i % 2 == 0 {
            Role::User
        } else {
            Role::Assistant
        };
        m.add(
            role,
            &format!("turn {i} {}", "word ".repeat(i)),
            NewEntry::default(),
            i as f64,
        )
        .unwrap();
    }
    let records = m.records();
    // As a store writes them (JSON text) and reads them back.
    let stored: Vec<_> = records
        .iter()
        .map(|r| {
            llm_memory::store::records::parse_stored(&serde_json::to_string(r).unwrap()).unwrap()
        })
        .collect();

    let same = Counting::new(4.0);
    let mut reopened = Memory::new(MemoryConfig::default(), same.clone()).unwrap();
    let before = same.calls();
    reopened.load_stored(stored.clone()).unwrap();
    assert_eq!(same.calls(), before, "no entry counted again");
    assert_eq!(reopened.entry_tokens(), m.entry_tokens());
    // The same through an exported document's records.
    let again = Counting::new(4.0);
    let mut imported = Memory::new(MemoryConfig::default(), again.clone()).unwrap();
    let before = again.calls();
    imported.load_records(records.clone()).unwrap();
    assert_eq!(again.calls(), before);

    // Another tokenizer counts every entry with its own rules.
    let other = Counting::new(2.0);
    let mut recounted = Memory::new(MemoryConfig::default(), other.clone()).unwrap();
    recounted.load_stored(stored.clone()).unwrap();
    assert!(other.calls() >= 50);
    let expected: Vec<usize> = m
        .entries()
        .iter()
        .map(|e| {
            MemoryConfig::default().overhead.message_tokens(
                &ApproximateCounter::new(2.0).unwrap(),
                &llm_memory::ChatMessage::from_entry(e),
            )
        })
        .collect();
    assert_eq!(recounted.entry_tokens(), &expected[..]);
    assert_ne!(recounted.entry_tokens(), m.entry_tokens());

    // Records written before counts were stored still open, and are counted.
    let old: Vec<Record> = records
        .into_iter()
        .map(|mut r| {
            if let Some(map) = r.data.as_object_mut() {
                map.remove("tokenCount");
            }
            r
        })
        .collect();
    let plain = Counting::new(4.0);
    let mut legacy = Memory::new(MemoryConfig::default(), plain.clone()).unwrap();
    let before = plain.calls();
    legacy.load_records(old).unwrap();
    assert!(plain.calls() > before);
    assert_eq!(legacy.entry_tokens(), m.entry_tokens());
}

/// Stored token counts are keyed by the fingerprint: the same vocabulary loaded either way
/// shares it, another vocabulary does not.
#[test]
fn the_fingerprint_names_the_vocabulary_not_how_it_was_loaded() {
    use llm_memory::TokenCounter;
    let prints: Vec<u64> = ["gpt4o", "llama3", "llama2"]
        .iter()
        .map(|name| {
            let path = format!(
                "{}/node_modules/@lenml/tokenizer-{name}/models/tokenizer.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let json = std::fs::read(&path).expect("node_modules (make node-deps)");
            let fast = llm_memory::HfTokenizer::from_bytes(&json).unwrap();
            let warm = llm_memory::HfTokenizer::from_prepared(&fast.prepared().unwrap()).unwrap();
            assert_eq!(fast.fingerprint(), warm.fingerprint(), "{name}");
            fast.fingerprint().unwrap()
        })
        .collect();
    assert!(prints[0] != prints[1] && prints[1] != prints[2] && prints[0] != prints[2]);
    let approx = ApproximateCounter::default().fingerprint();
    assert_ne!(approx, ApproximateCounter::new(3.0).unwrap().fingerprint());
    assert!(!prints.contains(&approx.unwrap()));
}
