//! Turns core errors into real JS `Error` objects with a stable `code` property, so callers get
//! a stack trace and can switch on `err.code` (never a bare string, never a panic).

use crate::error::{Error, ErrorCode};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/bindings/errors.js")]
extern "C" {
    #[wasm_bindgen(js_name = codedError)]
    fn coded_error(code: &str, message: &str) -> JsValue;
}

/// The `.d.ts` union of the codes, from the core's one list (`scripts/finish-pkg.mjs` fills
/// `LlmMemoryError.codes` from it).
#[wasm_bindgen(typescript_custom_section)]
const ERROR_CODE_TS: &str = crate::error::ERROR_CODE_TS;

/// `new LlmMemoryError(code, message)` (src/bindings/errors.js; the package exports the class).
pub fn js_error(code: ErrorCode, message: &str) -> JsValue {
    coded_error(code.as_str(), message)
}

/// A core error as a JS one: a coded `LlmMemoryError`.
pub fn thrown(e: Error) -> JsValue {
    js_error(e.code, &e.message)
}

/// Core results as JS results (`core_call().js()?`): the error type is the core's, so the
/// conversion `?` would make cannot be implemented here.
pub trait OrThrow<T> {
    fn js(self) -> Result<T, JsValue>;
}

impl<T> OrThrow<T> for Result<T, Error> {
    fn js(self) -> Result<T, JsValue> {
        self.map_err(thrown)
    }
}

/// Shorthand for binding code that validates JS input.
pub fn invalid_option(message: impl AsRef<str>) -> JsValue {
    js_error(ErrorCode::InvalidOption, message.as_ref())
}

/// A thrown JS value as the session crate's operations carry it: core errors become coded
/// `LlmMemoryError`s, errors thrown by JS (WebCrypto, the app) stay as they are.
pub struct Thrown(pub JsValue);

impl From<Error> for Thrown {
    fn from(e: Error) -> Self {
        Thrown(thrown(e))
    }
}

impl From<JsValue> for Thrown {
    fn from(e: JsValue) -> Self {
        Thrown(e)
    }
}

impl From<Thrown> for JsValue {
    fn from(e: Thrown) -> Self {
        e.0
    }
}
