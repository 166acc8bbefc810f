//! Exact prompt counts through a model's own chat template. A Hugging Face
//! `tokenizer_config.json` carries the Jinja template that turns messages into the prompt the
//! model sees (`<|start_header_id|>user<|end_header_id|>\n\n...`); rendering it with
//! `minijinja` and counting the result with the model's tokenizer gives the count the model's
//! server computes, framing tokens included, instead of the per-message overhead estimate.
//!
//! Rendering follows `transformers`' `apply_chat_template`: `trim_blocks` and `lstrip_blocks`,
//! Python string methods (`.strip()`, `.startswith()`, ...), `raise_exception`,
//! `strftime_now`, a Python-style `tojson`, and the special tokens (`bos_token`, `eos_token`,
//! ...) in the context. The clock is an input (`RenderOptions::now_ms`): the core reads none.
//! Counting encodes the rendered text with added tokens recognized and adds no BOS of its own,
//! as `apply_chat_template(tokenize=True)` does: templates that want a BOS emit `bos_token`.

use super::TokenCounter;
use crate::error::{Error, ErrorCode, Result};
use crate::history::ToolCall;
use crate::message::ChatMessage;
use minijinja::{Environment, ErrorKind, Value};
use serde::Serialize;

/// Options of one rendering.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderOptions {
    /// Append the header that opens the assistant's reply (default true: the prompt as sent).
    pub add_generation_prompt: bool,
    /// Milliseconds since the Unix epoch (UTC) for templates that call `strftime_now`
    /// (llama 3.1's "Today Date"); without it such templates fail with a coded error.
    pub now_ms: Option<f64>,
    /// Tool calls (message index, call index) whose `arguments` the caller gave as an object:
    /// templates get the object (`tool_call.arguments is string` is false, `| tojson` prints
    /// it), as they would from the caller; the others get the JSON text.
    pub object_arguments: Vec<(usize, usize)>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            add_generation_prompt: true,
            now_ms: None,
            object_arguments: Vec::new(),
        }
    }
}

/// A compiled chat template with the special tokens its config names.
pub struct ChatTemplate {
    env: Environment<'static>,
    special: Vec<(&'static str, String)>,
}

const NAME: &str = "chat_template";
/// The special-token fields `transformers` passes to the template.
const SPECIAL_FIELDS: [&str; 7] = [
    "bos_token",
    "eos_token",
    "unk_token",
    "pad_token",
    "sep_token",
    "cls_token",
    "mask_token",
];

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidTokenizer, message)
}

impl ChatTemplate {
    /// Reads a `tokenizer_config.json` document.
    pub fn from_config_json(json: &str) -> Result<Self> {
        let value: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| invalid(format!("the tokenizer_config.json is not valid JSON: {e}")))?;
        Self::from_config(&value)
    }

    /// Reads a parsed `tokenizer_config.json`. `chat_template` may be a string or a list of
    /// `{ name, template }` (the one named "default" is used).
    pub fn from_config(config: &serde_json::Value) -> Result<Self> {
        let obj = config
            .as_object()
            .ok_or_else(|| invalid("the tokenizer_config.json must be a JSON object"))?;
        let source =
            match obj.get("chat_template") {
                None | Some(serde_json::Value::Null) => return Err(invalid(
                    "this tokenizer_config.json has no chat_template: pass the config of a chat \
                     model (its tokenizer_config.json, or chat_template.jinja as \
                     { chat_template: text })",
                )),
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(serde_json::Value::Array(list)) => default_of(list)?,
                Some(_) => {
                    return Err(invalid(
                        "chat_template must be a string or a list of { name, template }",
                    ))
                }
            };
        let mut special = Vec::new();
        for field in SPECIAL_FIELDS {
            match obj.get(field) {
                None | Some(serde_json::Value::Null) => {}
                Some(serde_json::Value::String(s)) => special.push((field, s.clone())),
                Some(serde_json::Value::Object(o)) => match o.get("content") {
                    Some(serde_json::Value::String(s)) => special.push((field, s.clone())),
                    _ => {
                        return Err(invalid(format!(
                            "{field} must be a string or an object with a string \"content\""
                        )))
                    }
                },
                Some(_) => {
                    return Err(invalid(format!(
                        "{field} must be a string or an object with a string \"content\""
                    )))
                }
            }
        }
        Self::new(source, special)
    }

    /// Compiles `source` with the given special tokens (`("bos_token", "<s>")`, ...).
    pub fn new(source: String, special: Vec<(&'static str, String)>) -> Result<Self> {
        let mut env = Environment::new();
        let syntax = env
            .syntax()
            .to_builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .build()
            .map_err(|e| invalid(format!("chat template syntax: {e}")))?;
        env.set_syntax(syntax);
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.add_function("raise_exception", raise_exception);
        env.add_filter("tojson", tojson);
        env.add_template_owned(NAME, source)
            .map_err(|e| invalid(format!("the chat template does not compile: {e}")))?;
        Ok(ChatTemplate { env, special })
    }

    /// The special token named `field` (`"bos_token"`, ...), when the config sets one.
    pub fn special_token(&self, field: &str) -> Option<&str> {
        self.special
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, v)| v.as_str())
    }

    /// The prompt the model sees for `messages`.
    pub fn render(&self, messages: &[ChatMessage], opts: &RenderOptions) -> Result<String> {
        let mut env = self.env.clone();
        let now = opts.now_ms;
        env.add_function("strftime_now", move |format: String| match now {
            Some(ms) => Ok(strftime(&format, ms)),
            None => Err(minijinja::Error::new(
                ErrorKind::InvalidOperation,
                "this template calls strftime_now: pass the current time",
            )),
        });
        let template = env
            .get_template(NAME)
            .map_err(|e| invalid(format!("chat template: {e}")))?;
        let views: Vec<MessageView> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| MessageView::new(i, m, &opts.object_arguments))
            .collect();
        let mut ctx = std::collections::BTreeMap::new();
        ctx.insert("messages", Value::from(minijinja::value::Serde(&views)));
        let add = Value::from(opts.add_generation_prompt);
        ctx.insert("add_generation_prompt", add);
        for (field, token) in &self.special {
            ctx.insert(field, Value::from(token.as_str()));
        }
        let ctx = Value::from(ctx);
        template.render(ctx).map_err(|e| {
            invalid(format!(
                "the chat template failed on these messages: {}",
                describe(&e)
            ))
        })
    }

    /// Tokens of the rendered prompt, exactly as the model counts them.
    pub fn count(
        &self,
        counter: &dyn TokenCounter,
        messages: &[ChatMessage],
        opts: &RenderOptions,
    ) -> Result<usize> {
        Ok(counter.count(&self.render(messages, opts)?))
    }
}

fn default_of(list: &[serde_json::Value]) -> Result<String> {
    let mut names = Vec::new();
    for item in list {
        let name = item.get("name").and_then(|n| n.as_str());
        let template = item.get("template").and_then(|t| t.as_str());
        match (name, template) {
            (Some("default"), Some(t)) => return Ok(t.to_string()),
            (Some(n), Some(_)) => names.push(n.to_string()),
            _ => {
                return Err(invalid(
                    "each chat_template in the list must be { name: string, template: string }",
                ))
            }
        }
    }
    Err(invalid(format!(
        "the chat_template list has no template named \"default\" (found: {})",
        names.join(", ")
    )))
}

/// The message as templates read it: absent fields stay undefined (`is defined` tests depend on
/// it) and content is always a string (templates concatenate it).
#[derive(Serialize)]
struct MessageView<'a> {
    role: &'static str,
    content: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_calls: Vec<CallView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'a str>,
}

/// A tool call as templates read it (the OpenAI shape).
#[derive(Serialize)]
struct CallView<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    function: FunctionView<'a>,
}

#[derive(Serialize)]
struct FunctionView<'a> {
    name: &'a str,
    arguments: Arguments<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Arguments<'a> {
    Text(&'a str),
    Object(serde_json::Value),
}

impl<'a> MessageView<'a> {
    fn new(index: usize, m: &'a ChatMessage, object_arguments: &[(usize, usize)]) -> Self {
        let view = |(j, c): (usize, &'a ToolCall)| {
            let text = c.function.arguments.as_str();
            let arguments = match object_arguments.contains(&(index, j)) {
                true => serde_json::from_str(text).map_or(Arguments::Text(text), Arguments::Object),
                false => Arguments::Text(text),
            };
            CallView {
                id: &c.id,
                kind: &c.kind,
                function: FunctionView {
                    name: &c.function.name,
                    arguments,
                },
            }
        };
        MessageView {
            role: m.role.as_str(),
            content: &m.content,
            name: m.name.as_deref(),
            tool_calls: m.tool_calls.iter().enumerate().map(view).collect(),
            tool_call_id: m.tool_call_id.as_deref(),
        }
    }
}

/// A template's own error message (`raise_exception("System role not supported")`) is the
/// useful part; minijinja adds the template line.
fn describe(e: &minijinja::Error) -> String {
    match (e.detail(), e.line()) {
        (Some(d), Some(l)) => format!("{d} (template line {l})"),
        (Some(d), None) => d.to_string(),
        _ => e.to_string(),
    }
}

fn raise_exception(message: String) -> std::result::Result<Value, minijinja::Error> {
    Err(minijinja::Error::new(ErrorKind::InvalidOperation, message))
}

/// Python's `json.dumps(value, ensure_ascii=False, indent=indent)`, as `transformers` defines
/// `tojson`: `", "` and `": "` separators, no HTML escaping (minijinja's own escapes `<`).
fn tojson(value: Value, indent: Option<usize>) -> std::result::Result<Value, minijinja::Error> {
    let text = match indent {
        Some(n) => {
            let pad = vec![b' '; n];
            let mut out = Vec::new();
            let fmt = serde_json::ser::PrettyFormatter::with_indent(&pad);
            let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
            value.serialize(&mut ser).map_err(json_error)?;
            String::from_utf8(out).unwrap_or_default()
        }
        None => {
            let mut out = Vec::new();
            let mut ser = serde_json::Serializer::with_formatter(&mut out, PyCompact);
            value.serialize(&mut ser).map_err(json_error)?;
            String::from_utf8(out).unwrap_or_default()
        }
    };
    Ok(Value::from_safe_string(text))
}

fn json_error(e: serde_json::Error) -> minijinja::Error {
    minijinja::Error::new(ErrorKind::BadSerialization, format!("tojson: {e}"))
}

/// serde_json's compact output with Python's default separators.
struct PyCompact;

impl serde_json::ser::Formatter for PyCompact {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
}

/// The subset of `strftime` chat templates use (`%d %b %Y`, `%Y-%m-%d`, `%H:%M`, ...), in UTC.
fn strftime(format: &str, ms: f64) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    const DAYS: [&str; 7] = [
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "Monday",
        "Tuesday",
        "Wednesday",
    ];
    let secs = (ms / 1000.0).floor() as i64;
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = crate::time::civil_from_days(days);
    let weekday = DAYS[days.rem_euclid(7) as usize];
    let month = MONTHS[(m - 1) as usize];
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('Y') => out.push_str(&y.to_string()),
            Some('y') => out.push_str(&format!("{:02}", y.rem_euclid(100))),
            Some('m') => out.push_str(&format!("{m:02}")),
            Some('d') => out.push_str(&format!("{d:02}")),
            Some('B') => out.push_str(month),
            Some('b') => out.push_str(&month[..3]),
            Some('A') => out.push_str(weekday),
            Some('a') => out.push_str(&weekday[..3]),
            Some('H') => out.push_str(&format!("{:02}", sod / 3600)),
            Some('M') => out.push_str(&format!("{:02}", sod / 60 % 60)),
            Some('S') => out.push_str(&format!("{:02}", sod % 60)),
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{FunctionCall, Role};
    use crate::tokens::ApproximateCounter;

    const LLAMA3: &str = "{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}";

    fn config(template: serde_json::Value) -> serde_json::Value {
        serde_json::json!({
            "bos_token": { "content": "<|begin_of_text|>", "lstrip": false },
            "eos_token": "<|eot_id|>",
            "chat_template": template,
        })
    }

    fn chat() -> Vec<ChatMessage> {
        vec![
            ChatMessage::new(Role::System, "Be brief."),
            ChatMessage::new(Role::User, "  Hi!  "),
        ]
    }

    #[test]
    fn renders_llama3_with_bos_and_generation_prompt() {
        let t = ChatTemplate::from_config(&config(LLAMA3.into())).unwrap();
        assert_eq!(t.special_token("bos_token"), Some("<|begin_of_text|>"));
        assert_eq!(t.special_token("eos_token"), Some("<|eot_id|>"));
        let out = t.render(&chat(), &RenderOptions::default()).unwrap();
        assert_eq!(
            out,
            "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>\
             <|start_header_id|>user<|end_header_id|>\n\nHi!<|eot_id|>\
             <|start_header_id|>assistant<|end_header_id|>\n\n"
        );
        let opts = RenderOptions {
            add_generation_prompt: false,
            ..Default::default()
        };
        assert!(t.render(&chat(), &opts).unwrap().ends_with("Hi!<|eot_id|>"));
        let c = ApproximateCounter::new(1.0).unwrap();
        assert_eq!(
            t.count(&c, &chat(), &opts).unwrap(),
            t.render(&chat(), &opts).unwrap().chars().count()
        );
    }

    #[test]
    fn takes_the_default_of_a_template_list() {
        let list = serde_json::json!([
            { "name": "tool_use", "template": "TOOLS" },
            { "name": "default", "template": "{{ messages | length }}" },
        ]);
        let t = ChatTemplate::from_config(&config(list)).unwrap();
        assert_eq!(t.render(&chat(), &RenderOptions::default()).unwrap(), "2");
        let no_default = serde_json::json!([{ "name": "tool_use", "template": "x" }]);
        let e = ChatTemplate::from_config(&config(no_default))
            .err()
            .unwrap();
        assert_eq!(e.code, ErrorCode::InvalidTokenizer);
        assert!(e.message.contains("tool_use"), "{}", e.message);
    }

    #[test]
    fn python_methods_tojson_and_undefined_fields() {
        let src = "{% for m in messages %}{{ m.content.strip().upper() }}|{{ m.content.startswith('  H') }}|{{ m.name is defined }}|{% if m.tool_calls %}{{ m.tool_calls[0].function | tojson }}{% endif %};{% endfor %}";
        let mut msgs = chat();
        msgs[1].tool_calls = vec![ToolCall {
            id: "c1".into(),
            kind: "function".into(),
            function: FunctionCall {
                name: "f<x>".into(),
                arguments: "{}".into(),
            },
        }];
        let t = ChatTemplate::new(src.into(), Vec::new()).unwrap();
        assert_eq!(
            t.render(&msgs, &RenderOptions::default()).unwrap(),
            "BE BRIEF.|False|False|;HI!|True|False|{\"name\": \"f<x>\", \"arguments\": \"{}\"};"
        );
    }

    #[test]
    fn raise_exception_and_strftime_now() {
        let t = ChatTemplate::new(
            "{% if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}".into(),
            Vec::new(),
        )
        .unwrap();
        let e = t.render(&chat(), &RenderOptions::default()).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidTokenizer);
        assert!(
            e.message.contains("System role not supported"),
            "{}",
            e.message
        );

        let t = ChatTemplate::new("{{ strftime_now('%d %b %Y %H:%M %A') }}".into(), Vec::new())
            .unwrap();
        assert!(t.render(&chat(), &RenderOptions::default()).is_err());
        let opts = RenderOptions {
            now_ms: Some(1_721_865_600_000.0 + 3_723_000.0), // 2024-07-25 01:02:03 UTC
            ..Default::default()
        };
        assert_eq!(
            t.render(&chat(), &opts).unwrap(),
            "25 Jul 2024 01:02 Thursday"
        );
    }

    #[test]
    fn bad_configs_are_coded_errors() {
        for bad in [
            "not json",
            "[]",
            "{}",
            r#"{"chat_template": 3}"#,
            r#"{"chat_template": "{% for %}"}"#,
            r#"{"chat_template": [{"name": "default"}]}"#,
            r#"{"chat_template": "x", "bos_token": 1}"#,
            r#"{"chat_template": "x", "bos_token": {"content": null}}"#,
        ] {
            let e = ChatTemplate::from_config_json(bad).err().unwrap();
            assert_eq!(e.code, ErrorCode::InvalidTokenizer, "{bad}");
        }
        // An undefined variable's attribute is an error at render time, not a panic.
        let t =
            ChatTemplate::from_config_json(r#"{"chat_template": "{{ nothing.at.all }}"}"#).unwrap();
        assert_eq!(
            t.render(&chat(), &RenderOptions::default())
                .unwrap_err()
                .code,
            ErrorCode::InvalidTokenizer
        );
    }
}
