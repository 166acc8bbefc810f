//! Schema migrations. Version 1 is the plain format apps keep before they adopt a memory
//! library, `{ "version": 1, "messages": [{ role, content, ... }] }` (or the bare array), as
//! `localStorage.setItem(key, JSON.stringify(history))` leaves it; version 2 is the record
//! format. Each step upgrades one version, so old data always has a path to the current one.

use super::records::{kind, FORMAT, SCHEMA_VERSION};
use crate::error::{Error, ErrorCode, Result};
use serde_json::{json, Value};

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidDocument, message)
}

pub fn detect_version(value: &Value) -> Result<u32> {
    match value {
        Value::Array(_) => Ok(1),
        Value::Object(map) => match map.get("version") {
            Some(Value::Number(n)) => n
                .as_u64()
                .filter(|v| *v >= 1 && *v <= u32::MAX as u64)
                .map(|v| v as u32)
                .ok_or_else(|| invalid("version must be a positive integer")),
            Some(_) => Err(invalid("version must be a positive integer")),
            None if map.contains_key("messages") => Ok(1),
            None => Err(invalid("not an llm-memory document: no version field")),
        },
        _ => Err(invalid("a session document must be a JSON object")),
    }
}

/// `session` names a v1 history, which has no name of its own; `None` refuses one.
pub fn to_current(
    mut value: Value,
    mut version: u32,
    session: Option<&str>,
    now: f64,
) -> Result<Value> {
    while version < SCHEMA_VERSION {
        value = match version {
            1 => v1_to_v2(value, session, now)?,
            _ => return Err(invalid(format!("no migration from version {version}"))),
        };
        version += 1;
    }
    Ok(value)
}

/// Plain message list → records, with ids `m1..mN` and the given or current timestamps.
fn v1_to_v2(value: Value, session: Option<&str>, now: f64) -> Result<Value> {
    let Some(session) = session else {
        return Err(Error::new(
            ErrorCode::InvalidOption,
            "a version 1 history has no session name: pass one, \
             Memory.import(doc, { session: \"chat-1\" })",
        ));
    };
    // Errors name the place in the input, as a JSONPath: `$.messages[3].role`.
    let (messages, path) = match value {
        Value::Array(a) => (a, "$"),
        Value::Object(mut map) => match map.remove("messages") {
            Some(Value::Array(a)) => (a, "$.messages"),
            _ => return Err(invalid("a version 1 document needs a messages array")),
        },
        _ => {
            return Err(invalid(
                "a version 1 document must be an object or an array",
            ))
        }
    };
    let mut records = Vec::with_capacity(messages.len());
    for (i, m) in messages.into_iter().enumerate() {
        let Value::Object(m) = m else {
            return Err(invalid(format!("{path}[{i}] must be an object")));
        };
        let at = |key: &str, message: String| invalid(format!("{path}[{i}].{key}: {message}"));
        match m.get("role") {
            Some(Value::String(role)) => {
                crate::message::Role::parse(role).map_err(|e| at("role", e.message))?;
            }
            _ => return Err(at("role", "must be a string".into())),
        }
        if !matches!(
            m.get("content"),
            None | Some(Value::Null | Value::String(_))
        ) {
            return Err(at("content", "must be a string or null".into()));
        }
        if !matches!(
            m.get("timestamp"),
            None | Some(Value::Null | Value::Number(_))
        ) {
            return Err(at("timestamp", "must be a number (milliseconds)".into()));
        }
        let get = |k: &str| m.get(k).cloned().unwrap_or(Value::Null);
        let timestamp = m.get("timestamp").and_then(Value::as_f64).unwrap_or(now);
        let mut entry = json!({
            "id": format!("m{}", i + 1),
            "role": get("role"),
            "content": match get("content") { Value::Null => json!(""), c => c },
            "timestamp": timestamp,
        });
        for (from, to) in [
            ("name", "name"),
            ("tool_calls", "toolCalls"),
            ("toolCalls", "toolCalls"),
            ("tool_call_id", "toolCallId"),
            ("toolCallId", "toolCallId"),
            ("metadata", "metadata"),
        ] {
            if let Some(v) = m.get(from).filter(|v| !v.is_null()) {
                entry[to] = v.clone();
            }
        }
        // What the checks above do not name (tool calls, metadata) still names the message.
        serde_json::from_value::<crate::history::Entry>(entry.clone())
            .map_err(|e| invalid(format!("{path}[{i}]: {e}")))?;
        records.push(json!({ "kind": kind::ENTRY, "id": format!("m{}", i + 1), "order": i as f64, "data": entry }));
    }
    Ok(json!({
        "format": FORMAT,
        "version": 2,
        "session": session,
        "createdAt": now,
        "updatedAt": now,
        "records": records,
    }))
}

#[cfg(test)]
mod tests {
    use super::super::document::{import_document, parse_document, SessionDocument};
    use super::super::SessionMeta;
    use super::*;

    #[test]
    fn an_import_is_stored_under_the_name_given_else_its_own() {
        let v1 = r#"[{"role":"user","content":"x"}]"#;
        let mine = import_document(v1, None, &[], Some("mine"), 0.0).unwrap();
        assert_eq!(mine.session, "mine");
        // A v1 history has no name: one must be given.
        let unnamed = import_document(v1, None, &[], None, 0.0).unwrap_err();
        assert_eq!(unnamed.code, ErrorCode::InvalidOption);
        assert!(unnamed.message.contains("session"), "{}", unnamed.message);
        let v2 = parse_document(v1, 1 << 20, &[], "theirs", 0.0).unwrap();
        let v2 = serde_json::to_string(&v2).unwrap();
        let doc = import_document(&v2, None, &[], None, 0.0).unwrap();
        assert_eq!(doc.session, "theirs");
        assert_eq!(doc.records.len(), 1);
        assert!(
            import_document(&v2, Some(10), &[], None, 0.0).is_err(),
            "maxBytes"
        );
    }

    #[test]
    fn a_v1_error_names_the_place_in_the_input() {
        let message = |text: &str| {
            parse_document(text, 1 << 20, &[], "s", 0.0)
                .unwrap_err()
                .message
        };
        let bad_role = message(
            r#"{"version":1,"messages":[{"role":"user","content":"a"},{"role":"bot","content":"b"}]}"#,
        );
        assert!(
            bad_role.starts_with("$.messages[1].role: unknown role \"bot\""),
            "{bad_role}"
        );
        let bare = message(r#"[{"role":"user","content":5}]"#);
        assert_eq!(bare, "$[0].content: must be a string or null");
        assert_eq!(
            message(r#"[{"content":"x"}]"#),
            "$[0].role: must be a string"
        );
        assert_eq!(
            message(r#"[{"role":"user","timestamp":"x"}]"#),
            "$[0].timestamp: must be a number (milliseconds)"
        );
        assert!(message(r#"[{"role":"user","content":"x","tool_calls":5}]"#).starts_with("$[0]: "));
        assert_eq!(message(r#"[1]"#), "$[0] must be an object");
    }

    #[test]
    fn a_memory_without_storage_exports_as_unsaved() {
        let doc = SessionDocument::export(None, Vec::new(), 7.0);
        assert_eq!((doc.session.as_str(), doc.created_at), ("unsaved", 7.0));
        let meta = SessionMeta::new("chat", 1.0, Some(5.0));
        let doc = SessionDocument::export(Some(&meta), Vec::new(), 7.0);
        assert_eq!((doc.session.as_str(), doc.ttl_ms), ("chat", Some(5.0)));
        assert_eq!(
            super::super::sealing::rest_key_label("chat"),
            "llm-memory local v1\nchat"
        );
    }

    #[test]
    fn v1_message_list_migrates_to_records() {
        let v1 = r#"{"version":1,"messages":[{"role":"user","content":"hi","timestamp":5},
                    {"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},
                    {"role":"tool","content":"1","tool_call_id":"c"}]}"#;
        let doc = parse_document(v1, 1 << 20, &[], "old", 9.0).unwrap();
        assert_eq!(doc.version, SCHEMA_VERSION);
        assert_eq!(doc.session, "old");
        assert_eq!(doc.records.len(), 3);
        assert_eq!(doc.records[0].data["timestamp"], 5.0);
        assert_eq!(doc.records[1].data["toolCalls"][0]["id"], "c");
        assert_eq!(doc.records[2].data["toolCallId"], "c");
        let bare = r#"[{"role":"user","content":"x"}]"#;
        assert_eq!(
            parse_document(bare, 1 << 20, &[], "s", 0.0)
                .unwrap()
                .records
                .len(),
            1
        );
    }

    #[test]
    fn hostile_documents_are_refused() {
        let cases = [
            ("{", ErrorCode::InvalidDocument),
            ("42", ErrorCode::InvalidDocument),
            (r#"{"version":"2"}"#, ErrorCode::InvalidDocument),
            (r#"{"version":99,"records":[]}"#, ErrorCode::InvalidDocument),
            (
                r#"{"version":1,"messages":[{"role":"user","content":"x","metadata":{"__proto__":{"admin":true}}}]}"#,
                ErrorCode::InvalidDocument,
            ),
            (
                r#"{"version":1,"messages":[{"role":"robot","content":"x"}]}"#,
                ErrorCode::InvalidDocument,
            ),
            (
                r#"{"version":1,"messages":[{"role":"user","content":5}]}"#,
                ErrorCode::InvalidDocument,
            ),
            (
                r#"{"format":"llm-memory/session","version":2,"session":"s","createdAt":0,"updatedAt":0,"records":[{"kind":"entry","id":"e1","order":0,"data":{}}]}"#,
                ErrorCode::InvalidDocument,
            ),
        ];
        for (text, code) in cases {
            let err = parse_document(text, 1 << 20, &[], "s", 0.0).unwrap_err();
            assert_eq!(err.code, code, "{text}: {}", err.message);
        }
        let huge = format!(
            "[{}]",
            vec![r#"{"role":"user","content":"x"}"#; 1000].join(",")
        );
        assert!(parse_document(&huge, 1000, &[], "s", 0.0).is_err());
    }
}
