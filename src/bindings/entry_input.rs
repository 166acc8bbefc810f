//! Entries, OpenAI messages and agent steps from JS values: the core reads and checks them
//! (`crate::options::entry`); this file hands it the value tree and, when it asks, the JSON
//! text of app data (`metadata`, tool-call arguments given as objects).

use super::option_tree::JsOptions;
use crate::bindings::errors::OrThrow;
use crate::history::steps::Step;
use crate::history::{NewEntry, Role};
use crate::options::entry;
use wasm_bindgen::prelude::*;

pub use crate::options::entry::content_or_calls;

/// `extra` of `add()`.
pub fn parse_extra(value: &JsValue) -> Result<NewEntry, JsValue> {
    let js = JsOptions::read_entry(value, "add() extra")?;
    entry::parse_extra(&js.tree, &mut |h| js.json(h)).js()
}

/// An OpenAI chat message object.
pub fn parse_message(value: &JsValue) -> Result<(Role, String, NewEntry), JsValue> {
    let js = JsOptions::read_entry(value, "message")?;
    entry::parse_message(&js.tree, &mut |h| js.json(h)).js()
}

/// A chat to render: its messages and which tool calls had object arguments.
#[cfg(feature = "chat-template")]
pub fn parse_chat(value: &JsValue) -> Result<entry::Chat, JsValue> {
    let js = JsOptions::read_chat(value)?;
    entry::parse_chat(&js.tree, &mut |h| js.json(h)).js()
}

/// An agent step.
pub fn parse_step(value: &JsValue) -> Result<Step, JsValue> {
    let js = JsOptions::read_entry(value, "step")?;
    entry::parse_step(&js.tree, &mut |h| js.json(h)).js()
}
