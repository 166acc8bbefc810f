#![cfg(not(target_arch = "wasm32"))]
//! The life of a summary request when the summarizer is slow or never answers: the binding
//! reports a request that passed `summaryTimeoutMs` with `summary_timed_out`, which must not
//! turn summarization off (the next trigger asks again), while an answer that still arrives
//! later is used from the next turn on, unless a newer summary already covers more or an entry
//! it covered was forgotten. A summarizer that throws is a failure, reported as such.

use crate::context::Strategy;
use crate::history::{NewEntry, Role};
use crate::memory::{Memory, MemoryConfig};
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

fn chat(m: &mut Memory, from: usize, n: usize) -> Vec<String> {
    (from..from + n)
        .map(|i| {
            let role = if i % 2 == 0 {
                Role::User
            } else {
                Role::Assistant
            };
            let text = if i == 1 {
                "my password is SECRET-PW".to_string()
            } else {
                format!("turn {i}")
            };
            m.add(role, &text, NewEntry::default(), i as f64).unwrap()
        })
        .collect()
}

fn notes(m: &Memory) -> Vec<String> {
    m.context(None).unwrap().report.notes
}

fn sent(m: &Memory) -> String {
    serde_json::to_string(&m.context(None).unwrap().messages).unwrap()
}

#[test]
fn a_timed_out_request_does_not_stop_the_next_trigger_from_asking_again() {
    let mut m = memory();
    chat(&mut m, 0, 8);
    let first = m.begin_summary().expect("a summary is due");
    assert!(m.begin_summary().is_none(), "one request at a time");
    m.summary_timed_out(first.request_id);
    assert!(!m.summary_pending());
    assert!(notes(&m).iter().any(|n| n.contains("still being written")));
    chat(&mut m, 8, 2);
    let second = m.begin_summary().expect("the next trigger asks again");
    assert_ne!(second.request_id, first.request_id);
}

#[test]
fn a_late_answer_after_a_timeout_is_used_from_the_next_turn_on() {
    let mut m = memory();
    chat(&mut m, 0, 8);
    let req = m.begin_summary().expect("a summary is due");
    m.summary_timed_out(req.request_id);
    m.complete_summary(req.request_id, "A late summary.", 10.0)
        .expect("the late answer is adopted");
    assert!(sent(&m).contains("A late summary."));
    assert!(
        !notes(&m)
            .iter()
            .any(|n| n.contains("failed") || n.contains("still being written")),
        "{:?}",
        notes(&m)
    );
}

#[test]
fn a_late_answer_that_a_newer_summary_covers_is_ignored_without_a_failure_note() {
    let mut m = memory();
    chat(&mut m, 0, 8);
    let old = m.begin_summary().expect("a summary is due");
    m.summary_timed_out(old.request_id);
    chat(&mut m, 8, 2);
    let new = m.begin_summary().expect("asked again");
    m.complete_summary(new.request_id, "The newer summary.", 11.0)
        .unwrap();
    // What the binding does with any answer: complete it, and report a refusal as a failure
    // (which must not claim the summarizer failed: a newer summary is in place).
    if let Err(e) = m.complete_summary(old.request_id, "The older summary.", 12.0) {
        m.fail_summary(old.request_id, &e.message);
    }
    assert_eq!(m.summaries().len(), 1);
    let out = sent(&m);
    assert!(
        out.contains("The newer summary.") && !out.contains("The older"),
        "{out}"
    );
    assert!(
        !notes(&m).iter().any(|n| n.contains("failed")),
        "{:?}",
        notes(&m)
    );
}

#[test]
fn a_late_answer_arriving_while_a_newer_request_is_out_is_used_until_that_one_lands() {
    let mut m = memory();
    chat(&mut m, 0, 8);
    let old = m.begin_summary().expect("a summary is due");
    m.summary_timed_out(old.request_id);
    chat(&mut m, 8, 2);
    let new = m.begin_summary().expect("asked again");
    m.complete_summary(old.request_id, "The older summary.", 12.0)
        .unwrap();
    assert!(sent(&m).contains("The older summary."));
    m.complete_summary(new.request_id, "The newer summary.", 13.0)
        .unwrap();
    let latest = m.summaries().last().unwrap();
    assert_eq!(latest.text, "The newer summary.");
    assert_eq!(latest.end_id, new.end_id);
    assert!(sent(&m).contains("The newer summary."));
}

#[test]
fn a_late_answer_covering_a_forgotten_entry_is_never_adopted() {
    let mut m = memory();
    let ids = chat(&mut m, 0, 8);
    let req = m.begin_summary().expect("a summary is due");
    m.summary_timed_out(req.request_id);
    m.forget(&ids[1], Default::default()).unwrap();
    assert!(m
        .complete_summary(req.request_id, "The password is SECRET-PW.", 10.0)
        .is_err());
    assert!(m.summaries().is_empty());
    assert!(!sent(&m).contains("SECRET-PW"));
}

#[test]
fn a_summarizer_that_throws_is_a_failure_and_its_request_is_not_kept() {
    let mut m = memory();
    chat(&mut m, 0, 8);
    let req = m.begin_summary().expect("a summary is due");
    m.fail_summary(req.request_id, "rate limited");
    assert!(notes(&m).iter().any(|n| n.contains("rate limited")));
    assert!(m
        .complete_summary(req.request_id, "Too late.", 10.0)
        .is_err());
    assert!(m.begin_summary().is_some(), "the next trigger asks again");
}

#[test]
fn the_default_trigger_follows_a_budget_changed_by_configure() {
    let mut c = MemoryConfig {
        strategy: Strategy::Summary,
        ..Default::default()
    };
    c.limits.max_tokens = Some(8000);
    c.summary.keep_recent = 2;
    let mut m = Memory::new(c, Arc::new(ApproximateCounter::default())).unwrap();
    // configure() starts from the current config and changes only what it is given.
    let mut smaller = m.config().clone();
    smaller.limits.max_tokens = Some(400);
    m.reconfigure(smaller).unwrap();
    let turn = "word ".repeat(60);
    for i in 0..8 {
        let role = if i % 2 == 0 {
            Role::User
        } else {
            Role::Assistant
        };
        m.add(role, &turn, NewEntry::default(), i as f64).unwrap();
    }
    assert!(
        m.begin_summary().is_some(),
        "the turns passed 3/4 of the new 400-token budget"
    );
}

#[test]
fn a_trigger_the_user_set_survives_configure() {
    let mut c = MemoryConfig {
        strategy: Strategy::Summary,
        ..Default::default()
    };
    c.limits.max_tokens = Some(8000);
    c.summary.keep_recent = 2;
    c.summary.trigger.messages = Some(100);
    let mut m = Memory::new(c, Arc::new(ApproximateCounter::default())).unwrap();
    let mut smaller = m.config().clone();
    smaller.limits.max_tokens = Some(400);
    m.reconfigure(smaller).unwrap();
    let turn = "word ".repeat(60);
    for i in 0..8 {
        let role = if i % 2 == 0 {
            Role::User
        } else {
            Role::Assistant
        };
        m.add(role, &turn, NewEntry::default(), i as f64).unwrap();
    }
    assert!(
        m.begin_summary().is_none(),
        "only the user's trigger counts"
    );
}
