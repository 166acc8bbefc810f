//! Turns core errors into real JS `Error` objects with a stable `code` property, so callers get
//! a stack trace and can switch on `err.code` (never a bare string, never a panic).

use crate::error::{Error, ErrorCode};
use wasm_bindgen::prelude::*;

/// Builds `new Error(message)` with `name = "LlmMemoryError"` and `code` set.
pub fn js_error(code: ErrorCode, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    err.set_name("LlmMemoryError");
    // Reflect::set on a fresh Error object cannot fail; ignoring the Result keeps this panic-free.
    let _ = js_sys::Reflect::set(&err, &"code".into(), &code.as_str().into());
    err.into()
}

impl From<Error> for JsValue {
    fn from(e: Error) -> JsValue {
        js_error(e.code, &e.message)
    }
}

/// Shorthand for binding code that validates JS input.
pub fn invalid_option(message: impl AsRef<str>) -> JsValue {
    js_error(ErrorCode::InvalidOption, message.as_ref())
}
