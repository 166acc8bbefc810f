//! Entries, OpenAI messages and agent steps as JS gives them (`add`'s `extra`, `addMessage`,
//! `addStep`, a chat to render), read with errors that say which field is wrong. Tool-call
//! arguments given as objects are stored as JSON text, the form chat APIs send; the face
//! turns such an object, and `metadata`, into JSON text when asked (`json`).

use super::reader::Opts;
use super::value::{Handle, OptValue};
use crate::error::{Error, ErrorCode, Result};
use crate::history::steps::Step;
use crate::history::{FunctionCall, NewEntry, Role, ToolCall};
use crate::message::ChatMessage;

/// Turns the app value behind a handle into JSON text, or says why it is not JSON data.
pub type JsonOf<'a> = dyn FnMut(Handle) -> std::result::Result<String, String> + 'a;

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidEntry, message)
}

/// `extra` of `add()`: camelCase names only (the OpenAI ones are `addMessage`'s, and an
/// unknown key says so).
pub fn parse_extra(value: &OptValue, json: &mut JsonOf) -> Result<NewEntry> {
    let o = Opts::new(value, "add() extra")?;
    o.check_keys(&["name", "toolCalls", "toolCallId", "metadata", "timestamp"])?;
    entry_fields(&o, json, false)
}

/// Keys a chat message may carry: its fields under both spellings, and the fields chat APIs
/// answer with that the memory does not keep.
const MESSAGE_KEYS: &[&str] = &[
    "role",
    "content",
    "name",
    "tool_calls",
    "toolCalls",
    "tool_call_id",
    "toolCallId",
    "metadata",
    "timestamp",
    "refusal",
    "annotations",
    "audio",
    "reasoning",
    "reasoning_content",
];

/// An OpenAI chat message object: its role, content and the rest.
pub fn parse_message(value: &OptValue, json: &mut JsonOf) -> Result<(Role, String, NewEntry)> {
    let o = Opts::new(value, "message")?;
    o.check_keys(MESSAGE_KEYS)?;
    let role = o
        .string("role")?
        .ok_or_else(|| invalid("message.role is required".into()))?;
    let role = Role::parse(&role)?;
    let content = match o.get("content") {
        None => None,
        Some(OptValue::String(s)) => Some(s.clone()),
        Some(other) => {
            return Err(invalid(format!(
                "message.content must be a string or null, got {} (multi-part content is not \
                 supported yet: join the text parts)",
                other.describe()
            )))
        }
    };
    let extra = entry_fields(&o, json, true)?;
    let content = content_or_calls(role, content, &extra)?;
    Ok((role, content, extra))
}

/// A chat's messages, and the tool calls (message index, call index) whose arguments were an
/// object.
pub type Chat = (Vec<ChatMessage>, Vec<(usize, usize)>);

/// A chat to render with a template (`countChat`, `renderChat`): its messages, and the tool
/// calls (message index, call index) whose arguments were given as an object, which templates
/// get as one (`RenderOptions::object_arguments`).
pub fn parse_chat(value: &OptValue, json: &mut JsonOf) -> Result<Chat> {
    let OptValue::Array(items) = value else {
        return Err(invalid(
            "messages must be an array of chat messages ({ role, content, ... })".into(),
        ));
    };
    let mut messages = Vec::with_capacity(items.len());
    let mut object_arguments = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let (role, content, extra) = parse_message(item, json)?;
        let given = given_arguments(item)?;
        for (j, call) in extra.tool_calls.iter().enumerate() {
            // An array is app data too (kept by its handle), but only objects are "object
            // arguments": its JSON text tells them apart.
            let object = matches!(given.get(j), Some(Some(OptValue::Object(..))));
            if object && call.function.arguments.starts_with('{') {
                object_arguments.push((i, j));
            }
        }
        messages.push(ChatMessage {
            role,
            content,
            name: extra.name,
            tool_calls: extra.tool_calls,
            tool_call_id: extra.tool_call_id,
        });
    }
    Ok((messages, object_arguments))
}

/// The `function.arguments` of each tool call of a message read by `parse_message`.
fn given_arguments(message: &OptValue) -> Result<Vec<Option<&OptValue>>> {
    let o = Opts::new(message, "message")?;
    let Some(OptValue::Array(calls)) = o.get("tool_calls").or_else(|| o.get("toolCalls")) else {
        return Ok(Vec::new());
    };
    calls
        .iter()
        .map(|c| {
            Ok(Opts::new(c, "tool call")?
                .object("function")?
                .get("arguments"))
        })
        .collect()
}

/// The content of a message, which only an assistant message with tool calls may leave out
/// (`null`): the chat APIs refuse any other message without content.
pub fn content_or_calls(role: Role, content: Option<String>, extra: &NewEntry) -> Result<String> {
    match content {
        Some(c) => Ok(c),
        None if role == Role::Assistant && !extra.tool_calls.is_empty() => Ok(String::new()),
        None => Err(invalid(format!(
            "a {} message needs content (a string); null is only for an assistant message with \
             toolCalls",
            role.as_str()
        ))),
    }
}

/// Tool calls and the tool call id are read under their camelCase names (`add()`'s) or their
/// OpenAI names (`addMessage()`'s, which takes both); both spellings at once could disagree,
/// so that is refused.
fn entry_fields(o: &Opts, json: &mut JsonOf, openai_names: bool) -> Result<NewEntry> {
    let one_of = |camel: &'static str, openai: &'static str| match (
        o.has(camel),
        openai_names && o.has(openai),
    ) {
        (true, true) => Err(invalid(format!(
            "give {camel} or {openai}, not both (they name the same field)"
        ))),
        (false, true) => Ok(openai),
        _ => Ok(camel),
    };
    let calls = o.get(one_of("toolCalls", "tool_calls")?);
    let tool_call_id = o.string(one_of("toolCallId", "tool_call_id")?)?;
    let metadata = match o.get("metadata") {
        None => None,
        Some(m) => Some(
            json_data(m, json)
                .map_err(|e| invalid(format!("metadata must be JSON-compatible data: {e}")))?,
        ),
    };
    Ok(NewEntry {
        name: o.string("name")?,
        tool_calls: match calls {
            Some(c) => tool_calls(c, json)?,
            None => Vec::new(),
        },
        tool_call_id,
        metadata,
        timestamp: o.number("timestamp")?,
    })
}

/// App data as a JSON value: plain values directly, objects and arrays through their JSON text.
fn json_data(v: &OptValue, json: &mut JsonOf) -> std::result::Result<serde_json::Value, String> {
    let text = match v {
        OptValue::Object(h, _) => json(*h)?,
        OptValue::Array(_) | OptValue::Function(_) | OptValue::Other(_) => {
            return Err(format!("{} is not supported here", v.describe()))
        }
        OptValue::Bool(b) => return Ok((*b).into()),
        OptValue::String(s) => return Ok(s.clone().into()),
        OptValue::Number(n) => {
            return Ok(serde_json::Number::from_f64(*n).map_or(serde_json::Value::Null, Into::into))
        }
        OptValue::Undefined | OptValue::Null => return Ok(serde_json::Value::Null),
    };
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

fn tool_calls(value: &OptValue, json: &mut JsonOf) -> Result<Vec<ToolCall>> {
    let OptValue::Array(items) = value else {
        return Err(invalid("toolCalls must be an array of tool calls".into()));
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, call) in items.iter().enumerate() {
        let c = Opts::new(call, "tool call")?;
        let id = c
            .string("id")?
            .ok_or_else(|| invalid(format!("toolCalls[{i}].id is required")))?;
        let f = c.object("function")?;
        let name = f
            .string("name")?
            .ok_or_else(|| invalid(format!("toolCalls[{i}].function.name is required")))?;
        let arguments = match f.get("arguments") {
            None => "{}".to_string(),
            Some(OptValue::String(s)) => s.clone(),
            Some(OptValue::Object(h, _)) => json(*h)
                .map_err(|_| invalid(format!("toolCalls[{i}].function.arguments is not JSON")))?,
            Some(other) => match json_data(other, json) {
                Ok(v) => v.to_string(),
                Err(_) => {
                    return Err(invalid(format!(
                        "toolCalls[{i}].function.arguments is not JSON"
                    )))
                }
            },
        };
        out.push(ToolCall {
            id,
            kind: c.string("type")?.unwrap_or_else(|| "function".into()),
            function: FunctionCall { name, arguments },
        });
    }
    Ok(out)
}

/// An agent step: `{ type: "task", task }`, `{ type: "planning", plan }` or `{ type: "action",
/// modelOutput?, toolCalls?, observations?, error? }`.
pub fn parse_step(value: &OptValue, json: &mut JsonOf) -> Result<Step> {
    let o = Opts::new(value, "step")?;
    let kind = o.string("type")?.unwrap_or_default();
    let need = |key: &str| -> Result<String> {
        o.string(key)?
            .ok_or_else(|| invalid(format!("a {kind} step needs {key}")))
    };
    match kind.as_str() {
        "task" => {
            o.check_keys(&["type", "task"])?;
            Ok(Step::Task {
                task: need("task")?,
            })
        }
        "planning" => {
            o.check_keys(&["type", "plan"])?;
            Ok(Step::Planning {
                plan: need("plan")?,
            })
        }
        "action" => {
            o.check_keys(&["type", "modelOutput", "toolCalls", "observations", "error"])?;
            Ok(Step::Action {
                model_output: o.string("modelOutput")?,
                tool_calls: match o.get("toolCalls") {
                    Some(c) => tool_calls(c, json)?,
                    None => Vec::new(),
                },
                observations: o.string("observations")?,
                error: o.string("error")?,
            })
        }
        _ => Err(invalid(
            "step.type must be \"task\", \"planning\" or \"action\"".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::value::from_json;
    use serde_json::json;

    /// The face's JSON of an object handle, for tests: objects are written as `{"h":n}`.
    fn json_of(h: Handle) -> std::result::Result<String, String> {
        Ok(format!("{{\"h\":{}}}", h.0))
    }

    #[test]
    fn a_chat_message_with_object_arguments_is_read() {
        let v = from_json(
            json!({ "role": "assistant", "content": null, "refusal": null,
            "tool_calls": [{ "id": "c1", "type": "function", "function": { "name": "f", "arguments": { "x": 1 } } }] }),
        );
        let (role, content, extra) = parse_message(&v, &mut json_of).unwrap();
        assert_eq!((role, content.as_str()), (Role::Assistant, ""));
        assert_eq!(extra.tool_calls[0].function.name, "f");
        assert!(extra.tool_calls[0]
            .function
            .arguments
            .starts_with("{\"h\":"));
    }

    #[test]
    fn entry_rules_are_coded() {
        let code =
            |v: serde_json::Value| parse_message(&from_json(v), &mut json_of).unwrap_err().code;
        assert_eq!(code(json!({ "content": "hi" })), ErrorCode::InvalidEntry);
        assert_eq!(
            code(json!({ "role": "user", "content": null })),
            ErrorCode::InvalidEntry
        );
        assert_eq!(
            code(json!({ "role": "user", "content": [{ "type": "text" }] })),
            ErrorCode::InvalidEntry
        );
        assert_eq!(
            code(json!({ "role": "tool", "content": "x", "toolCallId": "a", "tool_call_id": "b" })),
            ErrorCode::InvalidEntry
        );
        assert_eq!(
            code(json!({ "role": "user", "content": "x", "colour": 1 })),
            ErrorCode::InvalidOption
        );
        let extra = |v: serde_json::Value| parse_extra(&from_json(v), &mut json_of);
        assert_eq!(
            extra(json!({ "toolCalls": "nope" })).unwrap_err().code,
            ErrorCode::InvalidEntry
        );
        assert_eq!(
            extra(json!({ "toolCalls": [{ "function": { "name": "f" } }] }))
                .unwrap_err()
                .code,
            ErrorCode::InvalidEntry
        );
        assert_eq!(
            extra(json!({ "timestamp": 5, "metadata": "m" }))
                .unwrap()
                .metadata,
            Some(json!("m"))
        );
        let step = |v: serde_json::Value| parse_step(&from_json(v), &mut json_of);
        assert_eq!(
            step(json!({ "type": "dance" })).unwrap_err().code,
            ErrorCode::InvalidEntry
        );
        assert_eq!(
            step(json!({ "type": "task" })).unwrap_err().code,
            ErrorCode::InvalidEntry
        );
        assert!(matches!(
            step(json!({ "type": "planning", "plan": "p" })).unwrap(),
            Step::Planning { .. }
        ));
    }

    #[test]
    fn a_chat_says_which_tool_calls_had_object_arguments() {
        let call = |args: serde_json::Value| json!({ "id": "c", "function": { "name": "f", "arguments": args } });
        let chat = from_json(json!([
            { "role": "user", "content": "hi" },
            { "role": "assistant", "content": null,
              "tool_calls": [call(json!("{\"x\":1}")), call(json!({ "x": 1 }))] },
            { "role": "assistant", "content": "", "toolCalls": [call(json!({ "y": 2 }))] },
        ]));
        let (messages, objects) = parse_chat(&chat, &mut json_of).unwrap();
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[1].tool_calls.len(), 2);
        assert_eq!(objects, vec![(1, 1), (2, 0)]);
        // An array given as arguments is JSON text to templates, as before.
        let array = |_: Handle| Ok("[1]".to_string());
        let listed = from_json(
            json!([{ "role": "assistant", "content": "", "tool_calls": [call(json!({}))] }]),
        );
        assert!(parse_chat(&listed, &mut { array }).unwrap().1.is_empty());
        let e = parse_chat(&from_json(json!("hi")), &mut json_of).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidEntry);
        let bad = from_json(json!([{ "role": "wizard", "content": "x" }]));
        assert_eq!(
            parse_chat(&bad, &mut json_of).unwrap_err().code,
            ErrorCode::InvalidRole
        );
    }
}
