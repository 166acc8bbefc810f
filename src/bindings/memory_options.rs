//! The JS `MemoryOptions` object: the core parses and checks it (`crate::options::memory`);
//! this file resolves what the core hands back as handles (the tokenizer, the callbacks, the
//! redactor) into the JS-side parts.

use super::build_parts::{redactor_of, BUILD_PARTS};
use super::option_tree::JsOptions;
use super::tokenizer::Tokenizer;
use crate::bindings::errors::OrThrow;
use crate::memory::{Memory as Core, MemoryConfig};
use crate::options::memory::{MemoryOptions, MemoryOptionsSpec, Redact};
use crate::tokens::{ApproximateCounter, SharedCounter};
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const MEMORY_OPTIONS_TS: &str = MemoryOptionsSpec::TS;

/// Options parsed from JS; `None` means "leave as it is" (for `configure`).
pub struct ParsedOptions {
    pub config: MemoryConfig,
    pub counter: Option<SharedCounter>,
    /// The options as the core read them: which hooks were given and their settings
    /// (`crate::driver::Hooks::apply` lays them over the memory's).
    pub parsed: MemoryOptions,
    /// `extract`, `embed`, `tools`, `retrieval` (see `recall_hooks`).
    pub recall: super::recall_hooks::HookFunctions,
    /// `redact`: `Some(None)` turns redaction off, `Some(Some(..))` on; `None` leaves it.
    pub redact: Option<Option<Box<dyn crate::memory::Redacting>>>,
}

impl ParsedOptions {
    /// A core memory with these options, counting with the tokenizer given, else the
    /// approximate counter.
    pub fn core(&self) -> Result<Core, JsValue> {
        let counter =
            (self.counter.clone()).unwrap_or_else(|| Arc::new(ApproximateCounter::default()));
        Core::new(self.config.clone(), counter).js()
    }
}

/// Applies `value` on top of `base`: absent keys keep the base's values.
pub fn parse(value: &JsValue, base: &MemoryConfig) -> Result<ParsedOptions, JsValue> {
    let js = JsOptions::read(value, "Memory options")?;
    let parsed = MemoryOptions::parse(&js.tree, base, BUILD_PARTS).js()?;
    resolve(&js, parsed)
}

/// The JS-side parts of parsed Memory options (`Memory.open` parses them with its own).
pub fn resolve(js: &JsOptions, parsed: MemoryOptions) -> Result<ParsedOptions, JsValue> {
    let counter = match parsed.tokenizer {
        Some(h) => Some(Tokenizer::counter_of(js.value(h))?),
        None => None,
    };
    let redact = match parsed.redact {
        None => None,
        Some(Redact::Off) => Some(None),
        Some(Redact::Default) => Some(Some(redactor_of(None)?)),
        Some(Redact::With(h)) => Some(Some(redactor_of(Some(js.value(h)))?)),
    };
    Ok(ParsedOptions {
        counter,
        recall: super::recall_hooks::parse_options(js, parsed.summarize, parsed.recall.clone())?,
        redact,
        config: parsed.config.clone(),
        parsed,
    })
}
