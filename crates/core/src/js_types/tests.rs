//! Each declared interface against a value serde wrote: every key written is declared, and
//! every field declared as always there is written.

use super::shape::{check, interfaces};
use super::{CONTEXT, FORGET, MESSAGES, RECALL, STORE};
use crate::context::{Limits, Strategy};
use crate::history::{NewEntry, Role};
use crate::memory::{ContextExtras, Memory, MemoryConfig};
use crate::recall::facts::NewFact;
use crate::recall::{ItemKind, RecallQuery};
use crate::store::{SessionDocument, SessionMeta};
use crate::tokens::ApproximateCounter;
use serde_json::Value;
use std::sync::Arc;

fn json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap()
}

fn chat() -> Memory {
    let config = MemoryConfig {
        strategy: Strategy::Retrieval,
        limits: Limits {
            max_tokens: Some(2000),
            ..Limits::default()
        },
        ..MemoryConfig::default()
    };
    let mut m = Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap();
    for (i, (user, reply)) in [
        ("I adopted a beagle called Rex.", "Lovely!"),
        ("Rex likes the park.", "Nice."),
        ("What is my dog called?", ""),
    ]
    .iter()
    .enumerate()
    {
        let t = 1.7e12 + i as f64 * 60_000.0;
        m.add(Role::User, user, NewEntry::default(), t).unwrap();
        if !reply.is_empty() {
            m.add(Role::Assistant, reply, NewEntry::default(), t + 1.0)
                .unwrap();
        }
    }
    m
}

#[test]
fn context_reports_are_as_declared() {
    let ts = interfaces(CONTEXT);
    let mut m = chat();
    m.remember("The user's dog is Rex.", NewFact::default(), 1.7e12)
        .unwrap();
    let built = m.context_with(None, &ContextExtras::default()).unwrap();
    let report = json(&built.report);
    check(&ts, "ContextReport", &report, &[]);
    for e in report["entries"].as_array().unwrap() {
        check(&ts, "EntryReport", e, &[]);
    }
    for s in report["sections"].as_array().unwrap() {
        check(&ts, "SectionReport", s, &[]);
    }
    let recall = interfaces(RECALL);
    let retrieved = report["retrieved"]
        .as_array()
        .expect("retrieval reports its memories");
    assert!(!retrieved.is_empty());
    for r in retrieved {
        check(&recall, "RetrievedReport", r, &[]);
    }
    let trimmed = Memory::new(
        MemoryConfig {
            strategy: Strategy::Window,
            limits: Limits {
                max_turns: Some(1),
                ..Limits::default()
            },
            ..MemoryConfig::default()
        },
        Arc::new(ApproximateCounter::default()),
    )
    .unwrap();
    let mut trimmed = trimmed;
    for i in 0..4 {
        trimmed
            .add(
                Role::User,
                &format!("turn {i}"),
                NewEntry::default(),
                i as f64,
            )
            .unwrap();
    }
    let ranges = json(&trimmed.context(None).unwrap().report)["ranges"].clone();
    assert!(!ranges.as_array().unwrap().is_empty());
    for r in ranges.as_array().unwrap() {
        check(&ts, "EntryRange", r, &[]);
    }
    for e in m.entries() {
        check(&ts, "Entry", &json(e), &["tokens"]);
    }
    let messages = interfaces(MESSAGES);
    for message in &built.messages {
        check(&messages, "ChatMessage", &json(message), &[]);
    }
}

#[test]
fn what_the_callbacks_are_handed_is_as_declared() {
    let ts = interfaces(MESSAGES);
    let config = MemoryConfig {
        strategy: Strategy::Summary,
        limits: Limits {
            max_tokens: Some(4000),
            ..Limits::default()
        },
        summary: crate::summary::SummaryConfig {
            trigger: crate::summary::SummaryTrigger {
                messages: Some(2),
                tokens: None,
            },
            keep_recent: 2,
            ..MemoryConfig::default().summary
        },
        ..MemoryConfig::default()
    };
    let mut m = Memory::new(config, Arc::new(ApproximateCounter::default())).unwrap();
    for i in 0..6 {
        m.add(
            Role::User,
            &format!("turn {i}"),
            NewEntry::default(),
            i as f64,
        )
        .unwrap();
    }
    let request = m.begin_summary().expect("a summary is due");
    check(&ts, "SummarizeInfo", &json(&request), &[]);
    let exchange = m.summary_exchange(&request);
    check(&ts, "LlmCallInfo", &json(exchange.request()), &[]);
    for message in &exchange.request().messages {
        check(&ts, "LlmMessage", &json(message), &[]);
    }
    m.complete_summary(request.request_id, "Turns 0 to 3.", 10.0)
        .unwrap();
    check(
        &interfaces(CONTEXT),
        "Summary",
        &json(&m.summaries()[0]),
        &[],
    );
}

#[test]
fn recall_results_are_as_declared() {
    let ts = interfaces(RECALL);
    let mut m = chat();
    let id = m
        .remember("The user's dog is Rex.", NewFact::default(), 1.7e12)
        .unwrap()
        .id;
    m.update_fact(&id, "The user's dog is Rex, a beagle.", 1.7e12 + 1.0)
        .unwrap();
    let q = RecallQuery {
        text: "dog",
        vector: None,
        k: 5,
        kinds: vec![ItemKind::Fact, ItemKind::Turn],
        category: None,
        exclude: None,
    };
    let hits = m.recall(&q, 1.7e12);
    assert!(!hits.is_empty());
    for hit in &hits {
        check(&ts, "RecallHit", &json(hit), &[]);
    }
    for fact in m.facts() {
        check(&ts, "Fact", &json(fact), &[]);
    }
    for change in m.fact_history(&id).unwrap() {
        check(&ts, "FactChange", &json(&change), &[]);
    }
    let request = m.begin_episode().expect("new turns");
    let answer = r#"{"summary":"Talked about Rex.","actions":["asked"],"outcome":"answered","importance":0.5}"#;
    let episode = m
        .complete_episode(request.request_id, answer, 1.7e12)
        .unwrap();
    check(&ts, "Episode", &json(&episode), &[]);
    let scored = m.recall_episodes("Rex", None, 3, 1.7e12);
    assert_eq!(scored.len(), 1);
    let mut written = json(&scored[0]);
    assert!(written["score"].as_f64().unwrap() > 0.0);
    written.as_object_mut().unwrap().remove("score");
    check(&ts, "Episode", &written, &[]);
    for tool in crate::recall::tools::definitions().as_array().unwrap() {
        check(&ts, "MemoryTool", tool, &[]);
    }
}

#[test]
fn stored_sessions_are_as_declared() {
    let ts = interfaces(STORE);
    let m = chat();
    let meta = SessionMeta::new("chat", 1.0, Some(60_000.0));
    let newer = SessionMeta::new("newer", 2.0, None);
    let listed = crate::store::records::session_list(vec![meta.clone(), newer]);
    assert_eq!(
        listed[0].meta.session, "newer",
        "the most recently changed first"
    );
    assert_eq!(json(&listed[1])["expiresAt"], 60_001.0);
    check(&ts, "SessionInfo", &json(&listed[1]), &[]);
    check(&ts, "SessionInfo", &json(&listed[0]), &[]);
    let doc = json(&SessionDocument::new(&meta, m.records()));
    check(&ts, "SessionDocument", &doc, &[]);
    for record in doc["records"].as_array().unwrap() {
        check(&ts, "StoredRecord", record, &[]);
    }
    check(
        &ts,
        "SyncResult",
        &serde_json::json!({ "pushed": 1, "pulled": 0, "compacted": 0 }),
        &[],
    );
}

#[test]
fn the_reader_finds_fields_and_knows_optional_ones() {
    let ts = interfaces("export interface A { a: string; b?: { c: number; d: string }; e: (x: number) => void }\nexport interface B {\n  /** doc: with a colon */\n  f?: Record<string, number>;\n  g: string[];\n}");
    assert_eq!(
        ts["A"],
        [("a".into(), false), ("b".into(), true), ("e".into(), false)]
    );
    assert_eq!(ts["B"], [("f".into(), true), ("g".into(), false)]);
}

#[test]
fn a_forget_receipt_is_as_declared() {
    let mut m = chat();
    let id = m.entries()[0].id.clone();
    let erasure = m
        .forget(
            &id,
            crate::memory::ForgetOptions {
                now: Some(1.8e12),
                ..Default::default()
            },
        )
        .unwrap();
    let receipt = json(&erasure);
    check(&interfaces(FORGET), "ForgetReceipt", &receipt, &["stored"]);
    assert_eq!(receipt["removed"]["turns"][0], serde_json::json!(id));
}
