//! Reading JS arguments: a required string, and app data as JSON text (option objects are
//! read by `option_tree` and the core).

use super::errors::{invalid_option, js_error};
use crate::error::ErrorCode;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub use super::js::describe;

#[wasm_bindgen(module = "/src/bindings/json.js")]
extern "C" {
    #[wasm_bindgen(js_name = jsonText, catch)]
    fn json_text(value: &JsValue) -> Result<JsValue, JsValue>;
}

/// The JSON text of app data (metadata, a hook's answer) for the core to parse, through
/// `JSON.stringify` (`json.js`): it refuses a cycle, a BigInt or a function with an exception,
/// where converting field by field recursed until the wasm stack ran out.
pub fn json_string(v: &JsValue) -> Result<String, String> {
    json_text(v)
        .map_err(|e| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| "not JSON data".to_string())
        })?
        .as_string()
        .ok_or_else(|| "not JSON data".to_string())
}

/// A required string argument, with a coded error instead of wasm-bindgen's TypeError.
pub fn string_arg(v: &JsValue, name: &str) -> Result<String, JsValue> {
    v.as_string()
        .ok_or_else(|| invalid_option(format!("{name} must be a string, got {}", describe(v))))
}

/// A document given as its JSON text or as the parsed value (a tokenizer.json, an exported
/// session): its text. Anything else, or an object JSON cannot write, is a `code` error saying
/// what the argument takes.
pub fn text_or_json(v: &JsValue, code: ErrorCode, takes: &str) -> Result<String, JsValue> {
    let text = match v.as_string() {
        Some(s) => Some(s),
        None if v.is_object() => js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string()),
        None => None,
    };
    text.ok_or_else(|| js_error(code, takes))
}
