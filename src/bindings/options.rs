//! Reading JS arguments: a required string, and app data as JSON text (option objects are
//! read by `option_tree` and the core).

use super::errors::invalid_option;
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
