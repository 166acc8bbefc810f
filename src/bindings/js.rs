//! Reading app values whose reading can run app code: `Array.isArray` throws on a revoked Proxy
//! (an Immer draft after `produce`), `Array.from` and `Object.keys` run getters and Proxy traps.
//! js-sys binds these without catching, so such an exception would unwind through wasm and
//! leave a borrowed object and the stack pointer behind (later calls fail, then every object of
//! the instance). These bindings catch it; callers turn it into a coded error.

use js_sys::{Array, Float32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array_checked(v: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Array, js_name = from)]
    fn array_from_checked(v: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn keys_checked(v: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Float32Array, js_name = from)]
    fn f32_from_checked(v: &JsValue) -> Result<Float32Array, JsValue>;
}

/// Whether `v` is an array. A value that throws when asked (a revoked Proxy) is not a usable one.
pub fn is_array(v: &JsValue) -> bool {
    is_array_checked(v).unwrap_or(false)
}

/// The elements of an array, each read once here (their getters run inside a catch).
pub fn items(v: &JsValue, what: &str) -> Result<Array, String> {
    array_from_checked(v).map_err(|e| format!("{what} could not be read: {}", error_text(&e)))
}

/// The items of an array of strings; `what` names the taker in the error.
pub fn string_items(v: &JsValue, what: &str) -> Result<Array, String> {
    if !is_array(v) {
        return Err(format!(
            "{what} takes an array of strings, got {}",
            describe(v)
        ));
    }
    let items = items(v, &format!("{what}'s texts"))?;
    match items.iter().position(|t| !t.is_string()) {
        Some(i) => Err(format!(
            "{what} takes an array of strings; item {i} is not a string"
        )),
        None => Ok(items),
    }
}

/// An object's own enumerable keys.
pub fn keys(v: &JsValue, what: &str) -> Result<Array, String> {
    keys_checked(v).map_err(|e| format!("{what} could not be read: {}", error_text(&e)))
}

/// An array of numbers (or a typed array) as `f32`s.
pub fn f32s(v: &JsValue, what: &str) -> Result<Vec<f32>, String> {
    f32_from_checked(v)
        .map(|a| a.to_vec())
        .map_err(|e| format!("{what} could not be read: {}", error_text(&e)))
}

/// A short description of a JS value for error messages.
pub fn describe(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        let s = crate::error::truncate(&s, 30);
        return format!("the string {s:?}");
    }
    if let Some(n) = v.as_f64() {
        return n.to_string();
    }
    v.js_typeof().as_string().unwrap_or_else(|| "?".into())
}

/// The message of what a callback threw or rejected with.
pub fn error_text(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return err.message().into();
    }
    e.as_string().unwrap_or_else(|| describe(e))
}
