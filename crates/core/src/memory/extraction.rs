//! The engine's side of the app's `extract` hook, as a request and its answer (the way
//! summaries work): which turns to hand over, and what an answer, a failure or a malformed
//! answer does. A failed call leaves the turns unseen, so the next exchange retries them; a
//! malformed answer stores nothing but counts the turns as seen, so a hook that always answers
//! the wrong shape is not called for the same turns again and again.

use super::recall::ExtractOp;
use super::Memory;
use crate::history::Entry;
use crate::llm::extract::ParsedOps;

/// The turns to hand to `extract`, and the entry up to which they reach.
#[derive(Debug, Clone)]
pub struct ExtractRequest {
    /// The turns of completed exchanges not seen yet, as sent (redacted with a redactor).
    pub turns: Vec<Entry>,
    /// The newest of them: once answered, turns up to here count as seen.
    upto: String,
}

impl ExtractRequest {
    /// The ids of the turns handed over: the facts extracted from them came from these.
    fn ids(&self) -> Vec<String> {
        self.turns.iter().map(|e| e.id.clone()).collect()
    }
}

/// What the hook gave back.
#[derive(Debug, Clone, Copy)]
pub enum ExtractAnswer<'a> {
    /// JSON text of the resolved value (`null` for nothing to do).
    Json(&'a str),
    /// The resolved value could not be read as JSON (a cycle, a BigInt, a function).
    Unreadable(&'a str),
    /// The call threw, rejected or timed out.
    Failed(&'a str),
    /// Operations read from an `llm` answer, with notes on those left out.
    Ops(&'a ParsedOps),
    /// The `llm` answers (first and retry) could not be read: the last reason.
    Unusable(&'a str),
}

/// The result of one extraction: operations applied and notes for the report.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct ExtractOutcome {
    pub applied: usize,
    pub notes: Vec<String>,
}

impl Memory {
    /// What to ask `extract` now, or `None` when no completed exchange is unseen.
    pub(crate) fn begin_extraction(&self) -> Option<ExtractRequest> {
        let turns = self.extraction_turns();
        let upto = turns.last()?.id.clone();
        Some(ExtractRequest { turns, upto })
    }

    /// Records the hook's answer to `request`: valid operations are applied (bad ones are
    /// skipped with a note each), and the turns count as seen unless the call itself failed.
    pub(crate) fn finish_extraction(
        &mut self,
        request: &ExtractRequest,
        answer: ExtractAnswer<'_>,
        now: f64,
    ) -> ExtractOutcome {
        let parsed = match answer {
            ExtractAnswer::Failed(reason) => {
                return ExtractOutcome {
                    applied: 0,
                    notes: vec![format!(
                        "extract failed ({reason}); it runs again after the next exchange"
                    )],
                }
            }
            ExtractAnswer::Unreadable(reason) => Err(reason.to_string()),
            ExtractAnswer::Ops(parsed) => {
                let mut notes: Vec<String> = parsed
                    .notes
                    .iter()
                    .map(|n| format!("extract: {n} (left out)"))
                    .collect();
                let skipped =
                    self.apply_extraction(&parsed.ops, Some(&request.upto), &request.ids(), now);
                let applied = parsed.ops.len() - skipped.len().min(parsed.ops.len());
                notes.extend(skipped);
                return ExtractOutcome { applied, notes };
            }
            ExtractAnswer::Unusable(reason) => {
                self.apply_extraction(&[], Some(&request.upto), &[], now);
                return ExtractOutcome {
                    applied: 0,
                    notes: vec![format!(
                        "extract: the llm answer could not be used after a retry ({reason}); \
                         nothing was stored from these turns"
                    )],
                };
            }
            ExtractAnswer::Json(text) => {
                serde_json::from_str::<Option<Vec<ExtractOp>>>(text).map_err(|e| e.to_string())
            }
        };
        match parsed {
            Ok(ops) => {
                let ops = ops.unwrap_or_default();
                let notes = self.apply_extraction(&ops, Some(&request.upto), &request.ids(), now);
                ExtractOutcome {
                    applied: ops.len() - notes.len().min(ops.len()),
                    notes,
                }
            }
            Err(e) => {
                self.apply_extraction(&[], Some(&request.upto), &[], now);
                ExtractOutcome {
                    applied: 0,
                    notes: vec![format!(
                        "extract must resolve to [{{ op, text, id? }}] ({e}); nothing was stored"
                    )],
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_chat::{exchange, memory};
    use super::*;
    use crate::history::{NewEntry, Role};

    fn texts(request: &ExtractRequest) -> Vec<&str> {
        request.turns.iter().map(|e| e.content.as_str()).collect()
    }

    #[test]
    fn nothing_is_asked_before_a_reply() {
        let mut m = memory();
        assert!(m.begin_extraction().is_none());
        m.add(Role::User, "I live in Porto", NewEntry::default(), 1.0)
            .unwrap();
        assert!(m.begin_extraction().is_none(), "the reply is not there yet");
        m.add(Role::Assistant, "Nice!", NewEntry::default(), 2.0)
            .unwrap();
        let r = m.begin_extraction().unwrap();
        assert_eq!(texts(&r), ["I live in Porto", "Nice!"]);
    }

    #[test]
    fn an_answer_applies_its_operations_and_marks_the_turns_seen() {
        let mut m = memory();
        exchange(&mut m, "I live in Porto", "Nice!", 1.0);
        let r = m.begin_extraction().unwrap();
        let out = m.finish_extraction(
            &r,
            ExtractAnswer::Json(r#"[{"op":"add","text":"The user lives in Porto"}]"#),
            3.0,
        );
        assert_eq!((out.applied, out.notes.len()), (1, 0), "{:?}", out.notes);
        assert_eq!(m.facts()[0].text, "The user lives in Porto");
        assert!(
            m.begin_extraction().is_none(),
            "seen turns are not asked again"
        );
        exchange(&mut m, "I have a cat", "Cute!", 4.0);
        assert_eq!(
            texts(&m.begin_extraction().unwrap()),
            ["I have a cat", "Cute!"]
        );
    }

    #[test]
    fn null_means_nothing_to_store() {
        let mut m = memory();
        exchange(&mut m, "Hello", "Hi", 1.0);
        let r = m.begin_extraction().unwrap();
        let out = m.finish_extraction(&r, ExtractAnswer::Json("null"), 3.0);
        assert_eq!(out, ExtractOutcome::default());
        assert!(m.begin_extraction().is_none());
    }

    #[test]
    fn a_failed_call_leaves_the_turns_for_the_next_exchange() {
        let mut m = memory();
        exchange(&mut m, "I live in Porto", "Nice!", 1.0);
        let r = m.begin_extraction().unwrap();
        let out = m.finish_extraction(&r, ExtractAnswer::Failed("network down"), 3.0);
        assert_eq!(out.applied, 0);
        assert_eq!(out.notes.len(), 1);
        assert!(out.notes[0].contains("network down"), "{:?}", out.notes);
        assert!(out.notes[0].contains("runs again"), "{:?}", out.notes);
        exchange(&mut m, "I have a cat", "Cute!", 4.0);
        assert_eq!(
            texts(&m.begin_extraction().unwrap()),
            ["I live in Porto", "Nice!", "I have a cat", "Cute!"],
            "the retry covers the failed turns too"
        );
    }

    #[test]
    fn a_malformed_answer_stores_nothing_and_is_not_retried() {
        for answer in [
            ExtractAnswer::Json(r#"{"op":"add"}"#),
            ExtractAnswer::Json(r#"[{"text":"no op"}]"#),
            ExtractAnswer::Unreadable("cyclic object value"),
        ] {
            let mut m = memory();
            exchange(&mut m, "I live in Porto", "Nice!", 1.0);
            let r = m.begin_extraction().unwrap();
            let out = m.finish_extraction(&r, answer, 3.0);
            assert_eq!(out.applied, 0, "{answer:?}");
            assert!(
                out.notes[0].contains("nothing was stored"),
                "{:?}",
                out.notes
            );
            assert!(m.facts().is_empty());
            assert!(
                m.begin_extraction().is_none(),
                "{answer:?} marks the turns seen"
            );
        }
    }

    #[test]
    fn bad_operations_are_skipped_with_a_note_each() {
        let mut m = memory();
        exchange(&mut m, "I live in Porto", "Nice!", 1.0);
        let r = m.begin_extraction().unwrap();
        let out = m.finish_extraction(
            &r,
            ExtractAnswer::Json(
                r#"[{"op":"add","text":"Lives in Porto"},{"op":"delete"},{"op":"shout","text":"x"}]"#,
            ),
            3.0,
        );
        assert_eq!(out.applied, 1);
        assert_eq!(out.notes.len(), 2, "{:?}", out.notes);
        assert_eq!(m.facts().len(), 1);
    }
}
