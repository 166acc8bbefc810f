//! `Redactor` for JavaScript: a thin wrapper over [`crate::redact::Redactor`]. Options and
//! documents cross the boundary as plain objects (via JSON, so the same shape the core parses
//! and writes); offsets are UTF-16; errors are `Error`s with a `code`.

use crate::bindings::errors::OrThrow;
use crate::bindings::errors::{invalid_option, js_error};
use crate::bindings::ner_model::JsNerModel;
use crate::bindings::option_tree::JsOptions;
use crate::bindings::options::{describe, string_arg, text_or_json};
use crate::bindings::stream_restorer::JsStreamRestorer;
use crate::bindings::to_js;
use crate::error::{Error, ErrorCode};
use crate::redact::{self, RedactorConfig, Vault};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const REDACTOR_TYPES: &str = redact::TYPESCRIPT_API;

/// The closed union of built-in names, generated from the entity table.
#[wasm_bindgen(typescript_custom_section)]
const BUILT_IN_ENTITY_TYPES: &'static str = redact::entity::TYPESCRIPT;

#[wasm_bindgen(module = "/src/bindings/redaction.js")]
extern "C" {
    #[wasm_bindgen(js_name = encodeText)]
    fn encode_text(text: &js_sys::JsString, memory: &JsValue, ptr: u32, cap: u32) -> u32;
    #[wasm_bindgen(js_name = unpackRedaction)]
    fn unpack_redaction(input: &js_sys::JsString, all: &str, packed: &[u32]) -> JsValue;
}

/// The UTF-8 of a JS string, written into wasm memory by `TextEncoder.encodeInto` in one call
/// (the generic string glue copies ASCII one character at a time in JS first).
fn text_of(text: &JsValue) -> Result<(String, &js_sys::JsString), JsValue> {
    let Some(js) = text.dyn_ref::<js_sys::JsString>() else {
        return Err(js_error(
            ErrorCode::InvalidOption,
            &format!("text must be a string, got {}", describe(text)),
        ));
    };
    // Three UTF-8 bytes at most per UTF-16 unit (a surrogate pair: four bytes for two).
    let mut buf = vec![0u8; js.length() as usize * 3];
    let written = encode_text(
        js,
        &wasm_bindgen::memory(),
        buf.as_mut_ptr() as u32,
        buf.len() as u32,
    );
    buf.truncate(written as usize);
    // `encodeInto` writes valid UTF-8 (lone surrogates become U+FFFD, as the string glue does).
    let text = String::from_utf8(buf)
        .map_err(|_| js_error(ErrorCode::InvalidOption, "text is not valid UTF-16"))?;
    Ok((text, js))
}

/// The redactor configuration from JS options (`Memory`'s `redact` option too): a plain
/// object, or its JSON text, read by the redact crate with the core's option reader.
pub(crate) fn config_of(value: &JsValue, what: &str) -> Result<RedactorConfig, JsValue> {
    if value.is_string() {
        let json = value.as_string().unwrap_or_default();
        return RedactorConfig::from_json(&json).js();
    }
    if js_sys::Reflect::has(value, &"__wbg_ptr".into()).unwrap_or(false) {
        return Err(invalid_option(format!(
            "{what} must be options such as {{ types: [\"EMAIL\"] }}, not a Redactor or other \
             instance: pass the options it was made with"
        )));
    }
    let js = JsOptions::read(value, what)?;
    let (mut config, model) = RedactorConfig::parse(&js.tree, what).js()?;
    if let Some(h) = model {
        let model = JsNerModel::tagger_of(js.value(h))?;
        config.model = Some(redact::ModelOption(model));
    }
    Ok(config)
}

/// JSON text of a JS value (`undefined`/`null` → `None`), else a `code` error.
fn json_of(value: &JsValue, what: &str, code: ErrorCode) -> Result<Option<String>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let takes = format!(
        "{what} must be an object or its JSON text, got {}",
        describe(value)
    );
    text_or_json(value, code, &takes).map(Some)
}

#[wasm_bindgen(js_name = Redactor)]
pub struct JsRedactor {
    inner: redact::Redactor,
}

#[wasm_bindgen(js_class = Redactor)]
impl JsRedactor {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "RedactorInit | undefined")] options: Option<
            js_sys::Object,
        >,
    ) -> Result<JsRedactor, JsValue> {
        let config = match options {
            None => RedactorConfig::default(),
            Some(o) => config_of(&o, "Redactor options")?,
        };
        Ok(JsRedactor {
            inner: redact::Redactor::new(config).js()?,
        })
    }

    #[wasm_bindgen(getter, unchecked_return_type = "EntityTypeInfo[]")]
    pub fn types() -> Result<JsValue, JsValue> {
        to_js(redact::entity::ENTITY_TABLE)
    }

    #[wasm_bindgen(unchecked_return_type = "RedactionResult")]
    pub fn redact(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (rust, js) = text_of(&text)?;
        let redaction = self.inner.redact(&rust);
        let (all, packed) = redaction.packed();
        Ok(unpack_redaction(js, &all, &packed))
    }

    pub fn restore(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<String, JsValue> {
        Ok(self.inner.restore(&string_arg(&text, "text")?))
    }

    #[wasm_bindgen(js_name = streamRestorer)]
    pub fn stream_restorer(&self) -> JsStreamRestorer {
        JsStreamRestorer::wrap(Box::new(self.inner.stream_restorer()))
    }

    #[wasm_bindgen(unchecked_return_type = "VaultDocument")]
    pub fn vault(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.vault())
    }

    #[wasm_bindgen(js_name = importVault)]
    pub fn import_vault(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | VaultDocument")] vault: JsValue,
    ) -> Result<(), JsValue> {
        let json = json_of(&vault, "vault", ErrorCode::InvalidDocument)?
            .ok_or_else(|| Error::new(ErrorCode::InvalidDocument, "no vault given"))
            .js()?;
        self.inner.set_vault(Vault::from_json(&json).js()?);
        Ok(())
    }
}
