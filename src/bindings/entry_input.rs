//! Reads entries, OpenAI messages and agent steps from JS values, with errors that say which
//! field is wrong. Tool-call arguments given as objects are accepted and stored as JSON text,
//! the form chat APIs send.

use super::errors::js_error;
use super::options::{describe, json_data, Opts};
use crate::bindings::errors::OrThrow;
use crate::error::ErrorCode;
use crate::history::steps::Step;
use crate::history::{FunctionCall, NewEntry, Role, ToolCall};
use wasm_bindgen::prelude::*;

fn invalid(message: String) -> JsValue {
    js_error(ErrorCode::InvalidEntry, &message)
}

/// `extra` of `add()`.
pub fn parse_extra(value: &JsValue) -> Result<NewEntry, JsValue> {
    let o = Opts::new(value, "add() extra")?;
    // camelCase only: the OpenAI names are `addMessage`'s, and an unknown key says so.
    o.check_keys(&["name", "toolCalls", "toolCallId", "metadata", "timestamp"])?;
    read_entry_fields(&o)
}

/// Tool calls and the tool call id are read under their camelCase names (`add()`'s) or their
/// OpenAI names (`addMessage()`'s, which takes both); both spellings at once could disagree, so
/// that is refused.
fn read_entry_fields(o: &Opts) -> Result<NewEntry, JsValue> {
    let one_of = |camel: &'static str, openai: &'static str| match (o.has(camel), o.has(openai)) {
        (true, true) => Err(invalid(format!(
            "give {camel} or {openai}, not both (they name the same field)"
        ))),
        (false, true) => Ok(openai),
        _ => Ok(camel),
    };
    let calls = o.get(one_of("toolCalls", "tool_calls")?);
    let call_id = o.string(one_of("toolCallId", "tool_call_id")?)?;
    let metadata = match o.get("metadata") {
        Some(m) => Some(
            json_data(&m)
                .map_err(|e| invalid(format!("metadata must be JSON-compatible data: {e}")))?,
        ),
        None => None,
    };
    Ok(NewEntry {
        name: o.string("name")?,
        tool_calls: match calls {
            Some(c) => parse_tool_calls(&c)?,
            None => Vec::new(),
        },
        tool_call_id: call_id,
        metadata,
        timestamp: o.number("timestamp")?,
    })
}

/// An OpenAI chat message object.
pub fn parse_message(value: &JsValue) -> Result<(Role, String, NewEntry), JsValue> {
    let o = Opts::new(value, "message")?;
    o.check_keys(&[
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
    ])?;
    let role = o
        .string("role")?
        .ok_or_else(|| invalid("message.role is required".into()))?;
    let role = Role::parse(&role).js()?;
    let content = match o.get("content") {
        None => None,
        Some(c) => Some(c.as_string().ok_or_else(|| {
            invalid(format!(
                "message.content must be a string or null, got {} (multi-part content is not \
                 supported yet: join the text parts)",
                describe(&c)
            ))
        })?),
    };
    let extra = read_entry_fields(&o)?;
    let content = content_or_calls(role, content, &extra)?;
    Ok((role, content, extra))
}

/// The content of a message, which only an assistant message with tool calls may leave out
/// (`null`): the chat APIs refuse any other message without content.
pub fn content_or_calls(
    role: Role,
    content: Option<String>,
    extra: &NewEntry,
) -> Result<String, JsValue> {
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

fn parse_tool_calls(value: &JsValue) -> Result<Vec<ToolCall>, JsValue> {
    if !super::js::is_array(value) {
        return Err(invalid("toolCalls must be an array of tool calls".into()));
    }
    let mut out = Vec::new();
    for (i, call) in super::js::items(value, "toolCalls")
        .map_err(invalid)?
        .iter()
        .enumerate()
    {
        let c = Opts::new(&call, "tool call")?;
        let id = c
            .string("id")?
            .ok_or_else(|| invalid(format!("toolCalls[{i}].id is required")))?;
        let f = c.object("function")?;
        let name = f
            .string("name")?
            .ok_or_else(|| invalid(format!("toolCalls[{i}].function.name is required")))?;
        let arguments = match f.get("arguments") {
            None => "{}".to_string(),
            Some(a) => match a.as_string() {
                Some(s) => s,
                None => js_sys::JSON::stringify(&a)
                    .ok()
                    .and_then(|s| s.as_string())
                    .ok_or_else(|| {
                        invalid(format!("toolCalls[{i}].function.arguments is not JSON"))
                    })?,
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
pub fn parse_step(value: &JsValue) -> Result<Step, JsValue> {
    let o = Opts::new(value, "step")?;
    let kind = o.string("type")?.unwrap_or_default();
    let need = |key: &str| -> Result<String, JsValue> {
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
                    Some(c) => parse_tool_calls(&c)?,
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
