//! Reads JS option objects field by field, so that a wrong type or an unknown key fails with a
//! message naming the option (`maxTokens must be a non-negative integer, got -5`), rather than a
//! generic deserialization error.

use super::errors::{invalid_option, thrown};
use crate::options::reader::unknown_key;
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

pub struct Opts {
    obj: Option<Object>,
    what: &'static str,
}

impl Opts {
    /// `undefined` and `null` read as an empty object.
    pub fn new(value: &JsValue, what: &'static str) -> Result<Opts, JsValue> {
        if value.is_undefined() || value.is_null() {
            return Ok(Opts { obj: None, what });
        }
        if !value.is_object() || super::js::is_array(value) {
            return Err(invalid_option(format!("{what} must be an object")));
        }
        Ok(Opts {
            obj: Some(value.clone().unchecked_into()),
            what,
        })
    }

    /// The raw value; `None` for a missing, undefined or null field.
    pub fn get(&self, key: &str) -> Option<JsValue> {
        let obj = self.obj.as_ref()?;
        let v = Reflect::get(obj, &JsValue::from_str(key)).ok()?;
        (!v.is_undefined() && !v.is_null()).then_some(v)
    }

    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn number(&self, key: &str) -> Result<Option<f64>, JsValue> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        match v.as_f64() {
            Some(n) if n.is_finite() => Ok(Some(n)),
            _ => Err(invalid_option(format!(
                "{key} must be a finite number, got {}",
                describe(&v)
            ))),
        }
    }

    pub fn string(&self, key: &str) -> Result<Option<String>, JsValue> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        v.as_string()
            .map(Some)
            .ok_or_else(|| invalid_option(format!("{key} must be a string, got {}", describe(&v))))
    }

    pub fn object(&self, key: &'static str) -> Result<Opts, JsValue> {
        match self.get(key) {
            Some(v) => Opts::new(&v, key),
            None => Ok(Opts {
                obj: None,
                what: key,
            }),
        }
    }

    /// Fails on keys outside `known`, suggesting the closest known one (typos like `maxToken`).
    pub fn check_keys(&self, known: &[&str]) -> Result<(), JsValue> {
        let Some(obj) = &self.obj else {
            return Ok(());
        };
        let keys = super::js::keys(obj, self.what).map_err(invalid_option)?;
        for key in keys.iter() {
            let key = key.as_string().unwrap_or_default();
            if !known.contains(&key.as_str()) {
                return Err(thrown(unknown_key(&key, known, self.what)));
            }
        }
        Ok(())
    }
}

pub use super::js::describe;

/// A required string argument, with a coded error instead of wasm-bindgen's TypeError.
#[wasm_bindgen(module = "/src/bindings/json.js")]
extern "C" {
    #[wasm_bindgen(js_name = jsonText, catch)]
    fn json_text(value: &JsValue) -> Result<JsValue, JsValue>;
}

/// App data (metadata, a hook's answer) as JSON, through `JSON.stringify` (`json.js`): it
/// refuses a cycle, a BigInt or a function with an exception, and serde_json stops at 128
/// levels. Converting the object
/// field by field from Rust (serde-wasm-bindgen) recursed until the wasm stack ran out, which
/// unwinds without releasing borrows and poisons the whole module.
pub fn json_data<T: serde::de::DeserializeOwned>(v: &JsValue) -> Result<T, String> {
    serde_json::from_str(&json_string(v)?).map_err(|e| e.to_string())
}

/// The JSON text of app data, as `json_data` reads it (for the core to parse).
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

pub fn string_arg(v: &JsValue, name: &str) -> Result<String, JsValue> {
    v.as_string()
        .ok_or_else(|| invalid_option(format!("{name} must be a string, got {}", describe(v))))
}
