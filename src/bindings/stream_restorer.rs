//! `StreamRestorer`: a streamed model reply restored chunk by chunk, made by a `Redactor` or by a
//! `Memory` that redacts.

use super::errors::invalid_option;
use super::options::describe;
use crate::memory::StreamRestore;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(js_name = StreamRestorer)]
pub struct JsStreamRestorer {
    inner: Box<dyn StreamRestore>,
    /// A high surrogate that ended the last chunk: its low half comes with the next one, and
    /// alone it would cross into Rust as U+FFFD.
    high: Option<js_sys::JsString>,
}

#[wasm_bindgen(js_class = StreamRestorer)]
impl JsStreamRestorer {
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] chunk: JsValue,
    ) -> Result<String, JsValue> {
        let Some(chunk) = chunk.dyn_ref::<js_sys::JsString>() else {
            return Err(invalid_option(format!(
                "chunk must be a string, got {}",
                describe(&chunk)
            )));
        };
        let chunk = match self.high.take() {
            Some(high) => high.concat(chunk),
            None => chunk.clone(),
        };
        let n = chunk.length();
        let chunk = match chunk.char_code_at(n.saturating_sub(1)) {
            c if (0xD800..0xDC00).contains(&(c as u32)) => {
                self.high = Some(chunk.slice(n - 1, n));
                chunk.slice(0, n - 1)
            }
            _ => chunk,
        };
        Ok(self.inner.push(&String::from(chunk)))
    }

    pub fn finish(&mut self) -> String {
        let mut out = match self.high.take() {
            Some(high) => self.inner.push(&String::from(high)),
            None => String::new(),
        };
        out.push_str(&self.inner.finish());
        out
    }
}

impl JsStreamRestorer {
    pub(crate) fn wrap(inner: Box<dyn StreamRestore>) -> JsStreamRestorer {
        JsStreamRestorer { inner, high: None }
    }
}
