//! What a summary may not do: carry a forgotten entry's text into later contexts, exports or
//! storage (the summary that covered it, or one being written when it was forgotten), or hide
//! turns it is too long to replace.
#![cfg(not(target_arch = "wasm32"))]

use crate::context::Strategy;
use crate::history::{NewEntry, Role};
use crate::memory::Persistence as _;
use crate::memory::{Memory, MemoryConfig};
use crate::store::RecordOp;
use crate::tokens::ApproximateCounter;
use std::sync::Arc;

fn memory() -> Memory {
    let mut c = MemoryConfig {
        strategy: Strategy::Summary,
        ..Default::default()
    };
    c.limits.max_tokens = Some(2000);
    c.summary.trigger.messages = Some(4);
    c.summary.keep_recent = 2;
    Memory::new(c, Arc::new(ApproximateCounter::default())).unwrap()
}

fn chat(m: &mut Memory, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let text = if i == 1 {
                "my password is SECRET-PW".to_string()
            } else {
                format!("turn {i}")
            };
            let role = if i % 2 == 0 {
                Role::User
            } else {
                Role::Assistant
            };
            m.add(role, &text, NewEntry::default(), i as f64).unwrap()
        })
        .collect()
}

fn sent(m: &mut Memory) -> String {
    serde_json::to_string(&m.context(None).unwrap().messages).unwrap()
}

#[test]
fn a_summary_that_covered_a_forgotten_entry_is_not_sent_and_is_rewritten() {
    let mut m = memory();
    let ids = chat(&mut m, 8);
    let req = m.begin_summary().expect("a summary is due");
    m.complete_summary(req.request_id, "User said the password is SECRET-PW.", 9.0)
        .unwrap();
    assert!(
        sent(&mut m).contains("SECRET-PW"),
        "the summary is sent before the forget"
    );
    m.forget(&ids[1], Default::default()).unwrap();
    let built = m.context(None).unwrap();
    assert!(
        built.report.notes.iter().any(|n| n.contains("forgotten")),
        "{:?}",
        built.report.notes
    );
    let out = sent(&mut m);
    assert!(!out.contains("SECRET-PW"), "{out}");
    assert!(
        out.contains("turn 0") && out.contains("turn 2"),
        "the covered turns are sent instead: {out}"
    );
    // The next summary starts over without the stale one's text.
    let req = m.begin_summary().expect("the stale summary is rewritten");
    assert!(!req.prompt.contains("SECRET-PW"), "{}", req.prompt);
    assert_eq!(req.previous_summary, None);
}

#[test]
fn forgetting_an_entry_deletes_the_summaries_that_covered_it_everywhere() {
    let mut m = memory();
    m.track_changes();
    let ids = chat(&mut m, 8);
    let req = m.begin_summary().expect("a summary is due");
    let covering = m
        .complete_summary(req.request_id, "User said the password is SECRET-PW.", 9.0)
        .unwrap();
    m.take_changes();
    m.forget(&ids[1], Default::default()).unwrap();
    assert!(m.summaries().iter().all(|s| s.id != covering));
    let everywhere = serde_json::to_string(&m.records()).unwrap();
    assert!(!everywhere.contains("SECRET-PW"), "{everywhere}");
    let ops = m.take_changes();
    assert!(
        ops.iter()
            .any(|op| matches!(op, RecordOp::Delete { kind, id }
            if kind == "summary" && *id == covering)),
        "{ops:?}"
    );
    assert!(
        !ops.iter()
            .any(|op| matches!(op, RecordOp::Put(r) if r.data.to_string().contains("SECRET-PW"))),
        "{ops:?}"
    );
    // The covered turns are sent as turns, and the report says why.
    let built = m.context(None).unwrap();
    assert!(
        built.report.notes.iter().any(|n| n.contains("forgotten")),
        "{:?}",
        built.report.notes
    );
    // The next summary folds them in again from the start.
    let req = m.begin_summary().expect("the turns are summarized again");
    assert_eq!(req.start_id, ids[0]);
    assert_eq!(req.previous_summary, None);
    m.complete_summary(req.request_id, "A new summary.", 30.0)
        .unwrap();
    let built = m.context(None).unwrap();
    assert!(
        !built.report.notes.iter().any(|n| n.contains("forgotten")),
        "{:?}",
        built.report.notes
    );
}

#[test]
fn a_summary_that_ends_before_the_forgotten_entry_stays() {
    let mut m = memory();
    chat(&mut m, 8);
    let req = m.begin_summary().expect("a summary is due");
    m.complete_summary(req.request_id, "Early turns.", 9.0)
        .unwrap();
    let later = chat(&mut m, 2);
    m.forget(&later[0], Default::default()).unwrap();
    assert_eq!(m.summaries().len(), 1);
    assert!(sent(&mut m).contains("Early turns."));
}

#[test]
fn a_summary_being_written_when_an_entry_it_covers_is_forgotten_is_dropped() {
    let mut m = memory();
    let ids = chat(&mut m, 8);
    let req = m.begin_summary().expect("a summary is due");
    assert!(req.prompt.contains("SECRET-PW"));
    m.forget(&ids[1], Default::default()).unwrap();
    // The answer, written from the forgotten text, arrives late: it is not adopted.
    assert!(m
        .complete_summary(req.request_id, "User said the password is SECRET-PW.", 9.0)
        .is_err());
    assert!(!sent(&mut m).contains("SECRET-PW"));
}

#[test]
fn a_summary_too_long_to_send_is_refused_and_the_turns_stay() {
    let mut m = memory();
    chat(&mut m, 8);
    let req = m.begin_summary().expect("a summary is due");
    let huge = "blah ".repeat(5000);
    let err = m.complete_summary(req.request_id, &huge, 9.0).unwrap_err();
    assert!(err.message.contains("longer than"), "{}", err.message);
    assert!(m.summaries().is_empty());
    let built = m.context(None).unwrap();
    let out = serde_json::to_string(&built.messages).unwrap();
    assert!(
        out.contains("turn 0") && out.contains("turn 7"),
        "the turns are sent: {out}"
    );
    assert!(
        built.report.notes.iter().any(|n| n.contains("longer than")),
        "{:?}",
        built.report.notes
    );
}

fn capped(summary_max: usize) -> Memory {
    let mut c = MemoryConfig {
        strategy: Strategy::Summary,
        ..Default::default()
    };
    c.limits.max_tokens = Some(2000);
    c.limits.summary_max = Some(summary_max);
    c.summary.trigger.messages = Some(4);
    c.summary.keep_recent = 2;
    Memory::new(c, Arc::new(ApproximateCounter::default())).unwrap()
}

#[test]
fn a_summary_accepted_under_its_section_cap_is_always_sent() {
    // Around the cap, every length: what is accepted must be what is sent (marker and
    // per-message overhead included), or the turns it covers would vanish from the context.
    for words in 60..80 {
        let mut m = capped(90);
        chat(&mut m, 8);
        let req = m.begin_summary().expect("a summary is due");
        let text = "word ".repeat(words);
        match m.complete_summary(req.request_id, &text, 9.0) {
            Ok(_) => {
                let built = m.context(None).unwrap();
                let summary = built.report.summary.expect("a summary is reported");
                assert!(
                    summary.included,
                    "{words} words: accepted but not sent: {:?}",
                    built.report.notes
                );
                assert!(summary.tokens <= 90, "{words} words: {}", summary.tokens);
            }
            Err(e) => assert!(e.message.contains("sectionLimits.summary"), "{}", e.message),
        }
    }
}

#[test]
fn a_summary_over_a_section_cap_lowered_later_says_so() {
    let mut m = capped(200);
    chat(&mut m, 8);
    let req = m.begin_summary().expect("a summary is due");
    m.complete_summary(req.request_id, &"word ".repeat(100), 9.0)
        .unwrap();
    let mut lower = m.config().clone();
    lower.limits.summary_max = Some(50);
    m.reconfigure(lower).unwrap();
    let notes = m.context(None).unwrap().report.notes;
    assert!(
        notes
            .iter()
            .any(|n| n.contains("sectionLimits.summary") && !n.contains("budget")),
        "{notes:?}"
    );
}
