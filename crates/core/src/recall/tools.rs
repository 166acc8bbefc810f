//! Memory as tools the model calls itself (OpenAI function calling): `store_memory`,
//! `recall_memory`, `list_memories`, `forget_memory`. A call always produces a tool-result
//! string, also for unknown tools and bad arguments: the error is written for the model to read
//! and correct, never raised, so it cannot break the app's chat loop.

use super::facts::NewFact;
use super::{find_entry, ItemKind, RecallQuery, RecallState};
use crate::history::{Entry, Role};
use crate::time::format_date;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

pub const TOOL_NAMES: [&str; 4] = [
    "store_memory",
    "recall_memory",
    "list_memories",
    "forget_memory",
];

/// Most memories one `recall_memory` or `list_memories` call returns.
const MAX_RESULTS: usize = 20;

/// The OpenAI `tools` array (`[{ type: "function", function: { name, description, parameters } }]`).
pub fn definitions() -> &'static Value {
    // Parsed from text, once: the `json!` form compiled to 15 KB of wasm.
    static DEFS: OnceLock<Value> = OnceLock::new();
    DEFS.get_or_init(|| serde_json::from_str(DEFINITIONS).unwrap_or_default())
}

/// [`definitions`] as the compact JSON text sent to the model, for counting its tokens.
pub fn definitions_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| definitions().to_string())
}

/// `k`'s maximum is [`MAX_RESULTS`] (a test holds them equal).
const DEFINITIONS: &str = r#"[
        {"type": "function", "function": {
            "name": "store_memory",
            "description": "Save a lasting fact about the user or the task (a preference, a name, a decision) to long-term memory. One statement per call. A newer statement on the same subject replaces the older one.",
            "parameters": {"type": "object", "properties": {
                "text": {"type": "string", "description": "The fact, as a short standalone sentence."},
                "category": {"type": "string", "description": "Optional group, e.g. \"preference\", \"person\", \"work\"."},
                "importance": {"type": "number", "minimum": 0, "maximum": 1, "description": "0 trivial .. 1 essential (default 0.5)."}
            }, "required": ["text"], "additionalProperties": false}
        }},
        {"type": "function", "function": {
            "name": "recall_memory",
            "description": "Search long-term memory (saved facts, earlier conversation, past episodes) for what is relevant to a query.",
            "parameters": {"type": "object", "properties": {
                "query": {"type": "string", "description": "What to look for, in words likely to appear in the memory."},
                "k": {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many results (default 5)."}
            }, "required": ["query"], "additionalProperties": false}
        }},
        {"type": "function", "function": {
            "name": "list_memories",
            "description": "List the saved facts that are currently true, newest first.",
            "parameters": {"type": "object", "properties": {
                "category": {"type": "string", "description": "Only facts in this group."}
            }, "additionalProperties": false}
        }},
        {"type": "function", "function": {
            "name": "forget_memory",
            "description": "Delete a saved fact that is wrong or that the user asked to forget. Use the id from recall_memory or list_memories.",
            "parameters": {"type": "object", "properties": {
                "id": {"type": "string", "description": "The fact's id, e.g. \"f3\"."}
            }, "required": ["id"], "additionalProperties": false}
        }}
    ]"#;

/// Runs tool `name` with `args` (the JSON text the model produced) and returns the tool result.
/// Facts it changes are re-indexed; `entries` supplies the text of recalled turns.
pub fn call(
    state: &mut RecallState,
    entries: &[Entry],
    name: &str,
    args: &str,
    now: f64,
) -> String {
    match run(state, entries, name, args, now) {
        Ok(v) => v.to_string(),
        Err(msg) => json!({ "error": msg }).to_string(),
    }
}

fn run(
    state: &mut RecallState,
    entries: &[Entry],
    name: &str,
    args: &str,
    now: f64,
) -> Result<Value, String> {
    if !TOOL_NAMES.contains(&name) {
        return Err(format!(
            "unknown tool {:?}; the memory tools are {}",
            crate::error::truncate(name, 40),
            TOOL_NAMES.join(", ")
        ));
    }
    let args = parse_args(args)?;
    match name {
        "store_memory" => {
            let text =
                string(&args, "text")?.ok_or("store_memory needs \"text\": the fact to save")?;
            let importance = match args.get("importance") {
                None | Some(Value::Null) => None,
                Some(v) => Some(
                    v.as_f64()
                        .filter(|x| (0.0..=1.0).contains(x))
                        .ok_or("\"importance\" must be a number from 0 to 1")?,
                ),
            };
            let opts = NewFact {
                category: string(&args, "category")?,
                importance,
                subject: None,
            };
            let r = state
                .facts
                .remember(&text, opts, now)
                .map_err(|e| e.message)?;
            state.sync_fact(&r.id);
            for old in &r.superseded {
                state.sync_fact(old);
            }
            let mut out = json!({ "stored": r.id });
            if r.duplicate {
                out["note"] = json!("this fact was already saved");
            }
            if !r.superseded.is_empty() {
                out["replaced"] = json!(r.superseded);
            }
            Ok(out)
        }
        "recall_memory" => {
            let query =
                string(&args, "query")?.ok_or("recall_memory needs \"query\": what to look for")?;
            let k = match args.get("k") {
                None | Some(Value::Null) => 5,
                Some(v) => v
                    .as_u64()
                    .filter(|k| (1..=MAX_RESULTS as u64).contains(k))
                    .ok_or(format!("\"k\" must be an integer from 1 to {MAX_RESULTS}"))?
                    as usize,
            };
            // The user's message the model is answering is in its context already; as a
            // "memory" it would only echo the question back.
            let asking = entries
                .iter()
                .rev()
                .find(|e| e.role == Role::User)
                .map(|e| e.id.as_str());
            let q = RecallQuery {
                text: &query,
                k,
                exclude: asking,
                ..Default::default()
            };
            let hits = state.search(&q, now);
            let memories: Vec<Value> = hits
                .iter()
                .filter_map(|h| {
                    let text = item_text(state, entries, h.kind, &h.id)?;
                    Some(json!({
                        "id": h.id,
                        "kind": h.kind,
                        "date": format_date(h.timestamp),
                        "text": text,
                    }))
                })
                .collect();
            if memories.is_empty() {
                return Ok(
                    json!({ "memories": [], "note": "nothing in memory matches this query" }),
                );
            }
            Ok(json!({ "memories": memories }))
        }
        "list_memories" => {
            let category = string(&args, "category")?;
            let mut facts: Vec<Value> = state
                .facts
                .active()
                .filter(|f| category.is_none() || f.category == category)
                .map(|f| {
                    let mut v =
                        json!({ "id": f.id, "text": f.text, "date": format_date(f.updated_at) });
                    if let Some(c) = &f.category {
                        v["category"] = json!(c);
                    }
                    v
                })
                .collect();
            facts.reverse();
            let total = facts.len();
            facts.truncate(MAX_RESULTS);
            let mut out = json!({ "memories": facts });
            if total > MAX_RESULTS {
                out["note"] = json!(format!("{total} facts saved; the newest {MAX_RESULTS} are shown, use recall_memory to search"));
            }
            Ok(out)
        }
        _ => {
            let id = string(&args, "id")?
                .ok_or("forget_memory needs \"id\": the id of a saved fact, e.g. \"f3\"")?;
            state.facts.delete(&id, now).map_err(|e| e.message)?;
            state.sync_fact(&id);
            Ok(json!({ "forgotten": id }))
        }
    }
}

fn item_text(state: &RecallState, entries: &[Entry], kind: ItemKind, id: &str) -> Option<String> {
    match kind {
        ItemKind::Turn => {
            find_entry(entries, id).map(|e| format!("{}: {}", e.role.as_str(), e.content))
        }
        ItemKind::Fact => state.facts.get(id).map(|f| f.text.clone()),
        ItemKind::Episode => state.episodes.get(id).map(|e| e.text()),
    }
}

fn parse_args(args: &str) -> Result<Map<String, Value>, String> {
    if args.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(args) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err("arguments must be a JSON object, e.g. {\"text\": \"...\"}".into()),
        Err(e) => Err(format!(
            "arguments are not valid JSON ({e}); send a JSON object"
        )),
    }
}

fn string(args: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("\"{key}\" must be a string")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn round_trip() {
        let mut st = RecallState::new();
        let defs = definitions();
        assert_eq!(defs.as_array().unwrap().len(), 4);
        let names: Vec<&str> = defs
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["function"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, TOOL_NAMES);
        let k = &defs[1]["function"]["parameters"]["properties"]["k"];
        assert_eq!(k["maximum"], MAX_RESULTS);
        let r = result(&call(
            &mut st,
            &[],
            "store_memory",
            r#"{"text":"My favorite color is blue"}"#,
            1.0,
        ));
        assert_eq!(r["stored"], "f1");
        let r = result(&call(
            &mut st,
            &[],
            "store_memory",
            r#"{"text":"My favorite color is green","importance":0.9}"#,
            2.0,
        ));
        assert_eq!(r["replaced"], json!(["f1"]));
        let r = result(&call(
            &mut st,
            &[],
            "recall_memory",
            r#"{"query":"favorite color"}"#,
            3.0,
        ));
        let mems = r["memories"].as_array().unwrap();
        assert_eq!(mems.len(), 1, "the superseded fact is not recalled: {r}");
        assert_eq!(mems[0]["text"], "My favorite color is green");
        let r = result(&call(&mut st, &[], "list_memories", "", 3.0));
        assert_eq!(r["memories"].as_array().unwrap().len(), 1);
        let r = result(&call(&mut st, &[], "forget_memory", r#"{"id":"f2"}"#, 4.0));
        assert_eq!(r["forgotten"], "f2");
        let r = result(&call(
            &mut st,
            &[],
            "recall_memory",
            r#"{"query":"favorite color"}"#,
            5.0,
        ));
        assert_eq!(r["memories"], json!([]));
    }

    #[test]
    fn bad_calls_give_readable_errors() {
        let mut st = RecallState::new();
        for (name, args, needle) in [
            ("store_memory", "{not json", "not valid JSON"),
            ("store_memory", "[1]", "JSON object"),
            ("store_memory", "{}", "needs \\\"text\\\""),
            ("store_memory", r#"{"text": 5}"#, "must be a string"),
            (
                "store_memory",
                r#"{"text":"x","importance":7}"#,
                "from 0 to 1",
            ),
            ("recall_memory", r#"{"query":"x","k":0}"#, "from 1 to 20"),
            ("forget_memory", r#"{"id":"f9"}"#, "no fact"),
            ("delete_everything", "{}", "unknown tool"),
        ] {
            let out = call(&mut st, &[], name, args, 1.0);
            assert!(out.starts_with("{\"error\":"), "{out}");
            assert!(out.contains(needle), "{out} lacks {needle}");
        }
    }
}
