//! Turns the JS `MemoryOptions` object into the core's `MemoryConfig`, plus the parts that stay
//! on the JS side (the tokenizer object and the callbacks).

use super::options::Opts;
use super::tokenizer::Tokenizer;
use crate::bindings::errors::OrThrow;
use crate::context::Strategy;
use crate::memory::MemoryConfig;
use crate::tokens::SharedCounter;
use wasm_bindgen::prelude::*;

pub const KNOWN: &[&str] = &[
    "strategy",
    "maxTokens",
    "reserveTokens",
    "maxTurns",
    "systemPrompt",
    "tokenizer",
    "summarize",
    "summaryTrigger",
    "keepRecent",
    "summaryPrompt",
    "summaryTimeoutMs",
    "messageOverhead",
    "sectionLimits",
    "maxEntryChars",
    "dedup",
    "redact",
    "extract",
    "llm",
    "embed",
    "embedder",
    "callbackTimeoutMs",
    "tools",
    "retrieval",
];

/// Options parsed from JS; `None` means "leave as it is" (for `configure`).
pub struct ParsedOptions {
    pub config: MemoryConfig,
    pub counter: Option<SharedCounter>,
    pub summary_timeout_ms: Option<f64>,
    /// `extract`, `embed`, `tools`, `retrieval` (see `recall_hooks`).
    pub recall: super::recall_hooks::RecallOptions,
    /// `redact`: `Some(None)` turns redaction off, `Some(Some(..))` on; `None` leaves it.
    pub redact: Option<Option<Box<dyn crate::memory::Redacting>>>,
}

/// Applies `value` on top of `base`: absent keys keep the base's values.
pub fn parse(value: &JsValue, base: &MemoryConfig) -> Result<ParsedOptions, JsValue> {
    parse_with(value, base, &[])
}

/// Like `parse`, also accepting `extra` keys that the caller reads itself (`Memory.open`).
pub fn parse_with(
    value: &JsValue,
    base: &MemoryConfig,
    extra: &[&str],
) -> Result<ParsedOptions, JsValue> {
    let o = Opts::new(value, "Memory options")?;
    let known: Vec<&str> = KNOWN.iter().chain(extra).copied().collect();
    o.check_keys(&known)?;
    let mut c = base.clone();
    if let Some(s) = o.string("strategy")? {
        c.strategy = Strategy::parse(&s).js()?;
    }
    if o.has("maxTokens") {
        c.limits.max_tokens = o.uint("maxTokens")?;
    }
    if let Some(r) = o.uint("reserveTokens")? {
        c.limits.reserve_tokens = r;
    }
    if o.has("maxTurns") {
        c.limits.max_turns = o.uint("maxTurns")?;
    }
    if let Some(p) = o.string("systemPrompt")? {
        c.system_prompt = (!p.is_empty()).then_some(p);
    }
    let t = o.object("summaryTrigger")?;
    t.check_keys(&["messages", "tokens"])?;
    if !t.is_empty() {
        c.summary.trigger.messages = t.uint("messages")?;
        c.summary.trigger.tokens = t.uint("tokens")?;
        if c.summary.trigger.messages.is_none() && c.summary.trigger.tokens.is_none() {
            return Err(super::errors::invalid_option(
                "summaryTrigger needs messages or tokens (or both)",
            ));
        }
    }
    if let Some(k) = o.uint("keepRecent")? {
        c.summary.keep_recent = k;
    }
    if let Some(p) = o.string("summaryPrompt")? {
        c.summary.prompt = p;
    }
    let ov = o.object("messageOverhead")?;
    ov.check_keys(&["perMessage", "perName", "perRequest", "perToolCall"])?;
    if let Some(n) = ov.uint("perMessage")? {
        c.overhead.per_message = n;
    }
    if let Some(n) = ov.uint("perName")? {
        c.overhead.per_name = n;
    }
    if let Some(n) = ov.uint("perRequest")? {
        c.overhead.per_request = n;
    }
    if let Some(n) = ov.uint("perToolCall")? {
        c.overhead.per_tool_call = n;
    }
    let sl = o.object("sectionLimits")?;
    sl.check_keys(&["pinned", "summary"])?;
    if sl.has("pinned") {
        c.limits.pinned_max = sl.uint("pinned")?;
    }
    if sl.has("summary") {
        c.limits.summary_max = sl.uint("summary")?;
    }
    if let Some(n) = o.uint("maxEntryChars")? {
        c.max_entry_chars = n;
    }
    if let Some(d) = o.boolean("dedup")? {
        c.dedup = d;
    }
    let counter = match o.get("tokenizer") {
        Some(t) => Some(Tokenizer::counter_of(&t)?),
        None => None,
    };
    let summary_timeout_ms = o.number("summaryTimeoutMs")?;
    if summary_timeout_ms.is_some_and(|t| t <= 0.0) {
        return Err(super::errors::invalid_option(
            "summaryTimeoutMs must be a positive number of milliseconds",
        ));
    }
    Ok(ParsedOptions {
        config: c,
        counter,
        summary_timeout_ms,
        recall: super::recall_hooks::parse_options(&o)?,
        redact: parse_redact(&o)?,
    })
}

/// `redact: true | false | RedactorInit`.
fn parse_redact(o: &Opts) -> Result<Option<Option<Box<dyn crate::memory::Redacting>>>, JsValue> {
    let Some(v) = o.get("redact") else {
        return Ok(None);
    };
    match v.as_bool() {
        Some(false) => Ok(Some(None)),
        Some(true) => Ok(Some(Some(super::build_parts::redactor_of(None)?))),
        None if v.is_object() => Ok(Some(Some(super::build_parts::redactor_of(Some(&v))?))),
        None => Err(super::errors::invalid_option(
            "redact must be true, false, or Redactor options ({ types, allowList, patterns, mode })",
        )),
    }
}
