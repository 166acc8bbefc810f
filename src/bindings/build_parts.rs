//! The parts a build may leave out (cargo features `redact`, `encoder`): what the rest of the
//! bindings use of them, and in a build without them (pkg-core) the coded error that names the
//! build that has them. The only place in the bindings that asks which features are on.

use crate::memory::Redacting;
use crate::options::BuildParts;
use crate::store::document::RecordCheck;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// What the core's option parsers may accept: the options of a part left out are refused there.
pub const BUILD_PARTS: BuildParts = BuildParts {
    redact: cfg!(feature = "redact"),
    embedder: cfg!(feature = "encoder"),
    sync: cfg!(feature = "sync"),
};

/// `NOT_IN_BUILD` for an option or class this build leaves out.
#[allow(dead_code)]
pub fn not_in_build(what: &str) -> JsValue {
    super::errors::thrown(crate::options::not_in_build(what))
}

/// The in-page embedder (`embedder: EmbedModel`).
#[cfg(feature = "encoder")]
pub use crate::ner::EmbedModel as InPageEmbedder;

/// No in-page embedder in this build: the type has no values.
#[cfg(not(feature = "encoder"))]
pub enum InPageEmbedder {}

#[cfg(not(feature = "encoder"))]
impl InPageEmbedder {
    pub fn embed(&self, _texts: &[&str]) -> Vec<Vec<f32>> {
        match *self {}
    }
}

/// The model behind an `embedder` option.
pub fn embedder_of(value: &JsValue) -> Result<Rc<InPageEmbedder>, JsValue> {
    #[cfg(feature = "encoder")]
    return super::embed_model::EmbedModel::model_of(value);
    #[cfg(not(feature = "encoder"))]
    {
        let _ = value;
        Err(not_in_build("embedder (an EmbedModel)"))
    }
}

/// The redactor `redact: true | RedactorInit` asks for.
pub fn redactor_of(options: Option<&JsValue>) -> Result<Box<dyn Redacting>, JsValue> {
    #[cfg(feature = "redact")]
    {
        let config = match options {
            Some(v) => super::redactor::config_of(v, "redact")?,
            None => Default::default(),
        };
        let redactor = crate::redact::Redactor::new(config).map_err(super::errors::thrown)?;
        Ok(Box::new(redactor))
    }
    #[cfg(not(feature = "redact"))]
    {
        let _ = options;
        Err(not_in_build("redact"))
    }
}

/// Checks of the stored records the included parts own, for `Memory.import`.
#[cfg(feature = "redact")]
pub const RECORD_CHECKS: &[RecordCheck] = crate::redact::RECORD_CHECKS;
#[cfg(not(feature = "redact"))]
pub const RECORD_CHECKS: &[RecordCheck] = &[];

/// The option types of the parts left out, so the `.d.ts` stays whole: no value fits them.
#[cfg(not(feature = "redact"))]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const REDACT_OFF_TS: &str = r#"/** Not in this build (pkg-core): `redact` other than `false` throws NOT_IN_BUILD; pkg/ has redaction. */
export type RedactorInit = never;
"#;

#[cfg(not(feature = "encoder"))]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const ENCODER_OFF_TS: &str = r#"/** Not in this build (pkg-core): an in-page embedder throws NOT_IN_BUILD; pkg/ has `EmbedModel`. */
export type EmbedModel = never;
"#;
