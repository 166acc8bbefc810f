//! JS option objects as the core's `OptValue` tree (`crate::options`), which parses and checks
//! them. Functions and objects are kept here, in the order they were met, so the handles the
//! core hands back find them again. Reading runs no app code outside a catch (see `js.rs`).

use super::errors::invalid_option;
use crate::options::{Handle, OptValue};
use js_sys::{Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Levels read below the options object: `sync.key.passphrase` is the deepest the core reads.
/// Deeper objects keep their handle with no fields, so a cycle or a large app object (Redactor
/// patterns, metadata) costs nothing.
const MAX_DEPTH: usize = 3;

/// Levels read below an entry (`toolCalls[i].function.name`).
const ENTRY_DEPTH: usize = 4;

/// Fields whose objects are app data, read as JSON text when the core asks, never as a tree.
const APP_DATA: &[&str] = &["metadata", "arguments"];

/// An options value, converted, with the JS values its handles name.
pub struct JsOptions {
    pub tree: OptValue,
    values: Vec<JsValue>,
}

impl JsOptions {
    /// `what` names the value in the error a throwing Proxy causes ("Memory options could not
    /// be read: ...").
    pub fn read(value: &JsValue, what: &str) -> Result<JsOptions, JsValue> {
        JsOptions::read_to(value, what, MAX_DEPTH)
    }

    /// An entry, message or step: a tool call's `function.name` is four levels down. App data
    /// (`metadata`, a call's `arguments`) keeps its handle unread: the core asks for its JSON.
    pub fn read_entry(value: &JsValue, what: &str) -> Result<JsOptions, JsValue> {
        JsOptions::read_to(value, what, ENTRY_DEPTH)
    }

    /// A chat's messages: an array of entries, one level more.
    #[cfg(feature = "chat-template")]
    pub fn read_chat(value: &JsValue) -> Result<JsOptions, JsValue> {
        JsOptions::read_to(value, "messages", ENTRY_DEPTH + 1)
    }

    fn read_to(value: &JsValue, what: &str, depth: usize) -> Result<JsOptions, JsValue> {
        let mut values = Vec::new();
        let tree = convert(value, what, depth, &mut values)?;
        Ok(JsOptions { tree, values })
    }

    /// The JSON text of the app data behind a handle (`crate::options::entry`).
    pub fn json(&self, handle: Handle) -> Result<String, String> {
        super::options::json_string(self.value(handle))
    }

    /// The JS value behind a handle of this tree.
    pub fn value(&self, handle: Handle) -> &JsValue {
        &self.values[handle.0]
    }

    /// The callback behind a handle the core read as a function.
    pub fn function(&self, handle: Option<Handle>) -> Option<Function> {
        handle.map(|h| self.value(h).clone().unchecked_into())
    }
}

/// `left`: levels still to read below `v`.
fn convert(
    v: &JsValue,
    what: &str,
    left: usize,
    values: &mut Vec<JsValue>,
) -> Result<OptValue, JsValue> {
    Ok(if v.is_undefined() {
        OptValue::Undefined
    } else if v.is_null() {
        OptValue::Null
    } else if let Some(b) = v.as_bool() {
        OptValue::Bool(b)
    } else if let Some(n) = v.as_f64() {
        OptValue::Number(n)
    } else if let Some(s) = v.as_string() {
        OptValue::String(s)
    } else if v.is_function() {
        OptValue::Function(keep(values, v))
    } else if !v.is_object() {
        OptValue::Other(v.js_typeof().as_string().unwrap_or_default())
    } else if super::js::is_array(v) {
        let mut items = Vec::new();
        if left > 0 {
            for item in super::js::items(v, what).map_err(invalid_option)?.iter() {
                items.push(convert(&item, what, left - 1, values)?);
            }
        }
        OptValue::Array(items)
    } else {
        let handle = keep(values, v);
        let mut fields = Vec::new();
        if left > 0 {
            for key in super::js::keys(v, what).map_err(invalid_option)?.iter() {
                let name = key.as_string().unwrap_or_default();
                // A getter that throws reads as absent, as `Reflect.get` did before.
                let value = Reflect::get(v, &key).unwrap_or(JsValue::UNDEFINED);
                let value = match APP_DATA.contains(&name.as_str()) && value.is_object() {
                    // Arrays too: the core asks for app data's JSON by its handle.
                    true => OptValue::Object(keep(values, &value), Vec::new()),
                    false => convert(&value, &name, left - 1, values)?,
                };
                fields.push((name, value));
            }
        }
        OptValue::Object(handle, fields)
    })
}

fn keep(values: &mut Vec<JsValue>, v: &JsValue) -> Handle {
    values.push(v.clone());
    Handle(values.len() - 1)
}
