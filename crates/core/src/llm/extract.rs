//! Fact extraction through `llm`: the request (current facts and new turns in the
//! `EXTRACT_PROMPT`) and the reading of its answer into fact operations. The reading accepts
//! the forms small models drift into (a bare list, `"event": "ADD"` as Mem0 writes it,
//! `"memory"` or `"fact"` for the text, plain strings for new facts) and checks what the
//! engine needs: a known op, text for add and update, an id from the list for update and
//! delete. An answer with nothing usable is an error (retried once); a usable answer keeps
//! its good operations, and the bad ones become notes.

use super::json::parse_json;
use super::prompts::{fill, EXTRACT_EXAMPLES, EXTRACT_PROMPT, JSON_SYSTEM};
use super::{LlmMessage, LlmRequest, Purpose, EXTRACT_MAX_TOKENS};
use crate::message::Role;
use serde::Deserialize;
use serde_json::Value;

/// One fact operation, from the app's `extract` hook or read from an `llm` answer.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtractOp {
    pub op: String,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub importance: Option<f64>,
}

/// A current fact as the prompt lists it (its text as sent: redacted with a redactor).
pub struct KnownFact<'a> {
    pub id: &'a str,
    pub text: &'a str,
}

/// The request: `facts` are the current facts, `turns` the new turns as `(speaker, text)`.
pub fn request(facts: &[KnownFact<'_>], turns: &[(&str, &str)]) -> LlmRequest {
    let facts_text = if facts.is_empty() {
        "(none yet)".to_string()
    } else {
        facts
            .iter()
            .map(|f| format!("[{}] {}", f.id, f.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let turns_text = turns
        .iter()
        .map(|(who, text)| format!("{who}: {text}"))
        .collect::<Vec<_>>()
        .join("\n");
    let prompt = fill(
        EXTRACT_PROMPT,
        &[("facts", &facts_text), ("turns", &turns_text)],
    );
    LlmRequest::new(
        Purpose::Extract,
        vec![
            LlmMessage::new(Role::System, JSON_SYSTEM),
            LlmMessage::new(Role::User, prompt),
        ],
        EXTRACT_MAX_TOKENS,
        true,
    )
}

/// What an answer held: operations to apply (`none` dropped) and notes on the ones left out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParsedOps {
    pub ops: Vec<ExtractOp>,
    pub notes: Vec<String>,
}

/// Reads an answer against the ids of the current facts and the turns it was asked about.
pub fn parse(answer: &str, known_ids: &[&str], turns: &str) -> Result<ParsedOps, String> {
    let value = parse_json(answer)?;
    let items = match &value {
        Value::Array(items) => items.clone(),
        Value::Object(map) => match ["facts", "memory", "memories", "operations", "ops"]
            .iter()
            .find_map(|k| map.get(*k))
        {
            Some(Value::Array(items)) => items.clone(),
            Some(Value::Null) => Vec::new(),
            // One operation on its own.
            None if map.contains_key("op") || map.contains_key("event") => vec![value.clone()],
            _ => return Err("the answer must be {\"facts\": [...]}".to_string()),
        },
        _ => return Err("the answer must be {\"facts\": [...]}".to_string()),
    };
    let mut out = ParsedOps::default();
    let total = items.len();
    let mut nones = 0;
    for (i, item) in items.iter().enumerate() {
        match read_op(item, known_ids) {
            Ok(Some(op)) if copies_example(&op, turns) => out.notes.push(format!(
                "fact {}: {:?} is the prompt's example, not something the turns say",
                i + 1,
                op.text.as_deref().unwrap_or_default()
            )),
            Ok(Some(op)) => out.ops.push(op),
            Ok(None) => nones += 1,
            Err(why) => out.notes.push(format!("fact {}: {why}", i + 1)),
        }
    }
    if total > 0 && out.ops.is_empty() && nones == 0 {
        return Err(out.notes.join("; "));
    }
    Ok(out)
}

/// Whether `op` repeats one of the prompt's example facts that the turns do not support.
fn copies_example(op: &ExtractOp, turns: &str) -> bool {
    let Some(text) = op.text.as_deref() else {
        return false;
    };
    let text = text.trim().trim_end_matches('.');
    EXTRACT_EXAMPLES
        .iter()
        .any(|(example, marker)| text.eq_ignore_ascii_case(example) && !turns.contains(marker))
}

fn text_of(map: &serde_json::Map<String, Value>) -> Option<String> {
    ["text", "memory", "fact", "content", "new_text", "value"]
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// One item: `Ok(None)` for "none".
fn read_op(item: &Value, known_ids: &[&str]) -> Result<Option<ExtractOp>, String> {
    let map = match item {
        // A bare sentence is a new fact (a single word is not a sentence: `["text"]`).
        Value::String(s) if s.trim().contains(' ') => {
            return Ok(Some(ExtractOp {
                op: "add".into(),
                text: Some(s.trim().to_string()),
                id: None,
                category: None,
                importance: None,
            }))
        }
        Value::Object(map) => map,
        _ => return Err("each fact must be an object {\"op\", \"text\", \"id\"?}".into()),
    };
    let op = ["op", "event", "action", "operation"]
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))
        .map(str::to_ascii_lowercase);
    let text = text_of(map);
    let id = map.get("id").and_then(|v| match v {
        Value::String(s) => Some(s.trim().trim_matches(['[', ']']).to_string()),
        Value::Number(n) => Some(format!("f{n}")),
        _ => None,
    });
    let op = match op.as_deref() {
        Some("add" | "update" | "delete" | "none") => op.unwrap(),
        Some("noop" | "no_op" | "nothing" | "keep") => "none".into(),
        Some("remove") => "delete".into(),
        Some(other) => {
            return Err(format!(
                "unknown op {:?}: use \"add\", \"update\", \"delete\" or \"none\"",
                crate::error::truncate(other, 20)
            ))
        }
        // No op but a text: a new fact.
        None if text.is_some() => "add".into(),
        None => return Err("no \"op\"".into()),
    };
    if op == "none" {
        return Ok(None);
    }
    if op != "delete" && text.is_none() {
        return Err(format!("{op} needs a \"text\""));
    }
    let id = match (op.as_str(), id) {
        ("add", _) => None,
        (_, Some(id)) if known_ids.contains(&id.as_str()) => Some(id),
        (_, Some(id)) => {
            return Err(format!(
                "{op} names {:?}, which is not a current fact's id",
                crate::error::truncate(&id, 20)
            ))
        }
        ("update", None) => return Err("update needs the \"id\" of a current fact".into()),
        _ => return Err("delete needs the \"id\" of a current fact".into()),
    };
    Ok(Some(ExtractOp {
        op,
        text,
        id,
        category: map
            .get("category")
            .and_then(Value::as_str)
            .map(str::to_string),
        importance: map
            .get("importance")
            .and_then(Value::as_f64)
            .map(|x| x.clamp(0.0, 1.0)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["f1", "f2"];

    fn ops(answer: &str) -> Vec<(String, Option<String>, Option<String>)> {
        parse(answer, KNOWN, "user: I moved to Porto")
            .unwrap_or_else(|e| panic!("{answer:?}: {e}"))
            .ops
            .into_iter()
            .map(|o| (o.op, o.id, o.text))
            .collect()
    }

    fn s(x: &str) -> Option<String> {
        Some(x.to_string())
    }

    #[test]
    fn the_prompt_lists_the_facts_and_turns() {
        let r = request(
            &[KnownFact {
                id: "f1",
                text: "The user lives in Lisbon",
            }],
            &[("user", "I moved to Porto"), ("assistant", "Nice!")],
        );
        assert!(r.json);
        assert_eq!(r.purpose, Purpose::Extract);
        let prompt = &r.messages[1].content;
        assert!(prompt.contains("[f1] The user lives in Lisbon"), "{prompt}");
        assert!(
            prompt.contains("user: I moved to Porto\nassistant: Nice!"),
            "{prompt}"
        );
        let empty = request(&[], &[("user", "hi")]);
        assert!(empty.messages[1].content.contains("(none yet)"));
    }

    #[test]
    fn the_asked_shape_reads_as_is() {
        let answer = r#"{"facts": [{"op": "add", "text": "The user has a cat"},
            {"op": "update", "id": "f1", "text": "The user lives in Porto"},
            {"op": "delete", "id": "f2"}, {"op": "none"}]}"#;
        assert_eq!(
            ops(answer),
            vec![
                ("add".into(), None, s("The user has a cat")),
                ("update".into(), s("f1"), s("The user lives in Porto")),
                ("delete".into(), s("f2"), None),
            ]
        );
    }

    #[test]
    fn mem0_style_events_and_memory_keys() {
        let answer = r#"```json
{"memory": [{"event": "ADD", "text": "Name is Ana"}, {"id": "f1", "event": "UPDATE", "memory": "Lives in Porto"}, {"event": "NONE"}]}
```"#;
        assert_eq!(
            ops(answer),
            vec![
                ("add".into(), None, s("Name is Ana")),
                ("update".into(), s("f1"), s("Lives in Porto")),
            ]
        );
    }

    #[test]
    fn a_bare_list_of_sentences_adds_them() {
        assert_eq!(
            ops("Here you go: ['Likes jazz', 'Has two kids',]"),
            vec![
                ("add".into(), None, s("Likes jazz")),
                ("add".into(), None, s("Has two kids")),
            ]
        );
    }

    #[test]
    fn nothing_to_store_is_fine() {
        assert_eq!(ops(r#"{"facts": []}"#), vec![]);
        assert_eq!(ops(r#"{"facts": [{"op": "none"}]}"#), vec![]);
        assert_eq!(ops("[]"), vec![]);
    }

    #[test]
    fn bad_operations_become_notes_beside_good_ones() {
        let answer = r#"{"facts": [{"op": "add", "text": "Likes tea"},
            {"op": "update", "id": "f9", "text": "made up id"}, {"op": "delete"}]}"#;
        let parsed = parse(answer, KNOWN, "").unwrap();
        assert_eq!(parsed.ops.len(), 1);
        assert_eq!(parsed.notes.len(), 2, "{:?}", parsed.notes);
        assert!(parsed.notes[0].contains("\"f9\""), "{:?}", parsed.notes);
        assert!(
            parsed.notes[1].contains("delete needs"),
            "{:?}",
            parsed.notes
        );
    }

    #[test]
    fn an_answer_with_nothing_usable_is_an_error_to_retry() {
        for (answer, says) in [
            ("No facts found in this conversation.", "no JSON"),
            (r#"{"name": "Ana", "age": 25}"#, "{\"facts\": [...]}"),
            (
                r#"{"facts": [{"op": "update", "id": "f7", "text": "x"}]}"#,
                "not a current fact",
            ),
            (
                r#"{"facts": [{"op": "rename", "text": "x"}]}"#,
                "unknown op",
            ),
            (r#"{"facts": [{"op": "add", "text": "The user"#, "cut off"),
        ] {
            let err = parse(answer, KNOWN, "").unwrap_err();
            assert!(err.contains(says), "{answer:?}: {err}");
        }
    }

    #[test]
    fn copies_of_the_prompt_example_are_left_out_unless_the_turns_say_so() {
        // As SmolLM2-135M answered a chat about Kyoto: the prompt's examples, then a stray key.
        let answer = r#"{"facts": [{"op": "add", "text": "The user lives in Porto"}, {"op": "add", "text": "The user works at Acme as a designer."}, "text"]}"#;
        let err = parse(answer, KNOWN, "user: I'm planning a trip to Kyoto").unwrap_err();
        assert!(err.contains("the prompt's example"), "{err}");
        let believed = parse(answer, KNOWN, "user: I live in Porto now").unwrap();
        assert_eq!(
            believed.ops.len(),
            1,
            "the Porto fact is what the turns say"
        );
        assert!(believed.notes[0].contains("Acme"), "{:?}", believed.notes);
        let porto = parse(
            r#"[{"op": "add", "text": "The user lives in Porto"}]"#,
            KNOWN,
            "I live in Porto",
        );
        assert_eq!(porto.unwrap().ops.len(), 1);
    }

    #[test]
    fn a_small_model_answer_with_everything_wrong_at_once() {
        // As SmolLM2-135M wrote it: a fence, single quotes, a trailing comma, numeric id.
        let answer = "Sure! Here is the JSON:\n```\n{'facts': [{'op': 'Update', 'id': 2, 'text': 'The user’s dog is Rex',},]}\n```";
        assert_eq!(
            ops(answer),
            vec![("update".into(), s("f2"), s("The user’s dog is Rex"))]
        );
    }
}
