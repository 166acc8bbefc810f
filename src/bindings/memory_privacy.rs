//! The privacy face of `Memory`: with `redact` on, every context is redacted at the egress;
//! these put the real values back into what the model replies.

use super::errors::js_error;
use super::memory::Memory;
use super::options::string_arg;
use super::stream_restorer::JsStreamRestorer;
use crate::error::ErrorCode;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Memory {
    pub fn restore(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<String, JsValue> {
        Ok(self.core.borrow().restore_text(&string_arg(&text, "text")?))
    }

    #[wasm_bindgen(js_name = streamRestorer)]
    pub fn stream_restorer(&self) -> Result<JsStreamRestorer, JsValue> {
        self.core
            .borrow()
            .stream_restorer()
            .map(JsStreamRestorer::wrap)
            .ok_or_else(|| {
                js_error(
                    ErrorCode::InvalidOption,
                    "this memory does not redact: pass redact: true to new Memory or configure()",
                )
            })
    }

    #[wasm_bindgen(getter)]
    pub fn redacts(&self) -> bool {
        self.core.borrow().redacts()
    }
}
