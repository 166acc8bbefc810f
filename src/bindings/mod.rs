//! The JavaScript face: one file per exported class, thin wrappers over the core. The only
//! module that touches wasm-bindgen, js-sys, web-sys and serde-wasm-bindgen.

mod asset;
mod build_parts;
mod callbacks;
mod cipher;
mod driver;
#[cfg(feature = "encoder")]
mod embed_model;
mod entry_input;
mod errors;
mod handles;
mod js;
pub mod memory;
mod memory_embedding;
mod memory_episodes;
mod memory_facts;
mod memory_forget;
mod memory_options;
mod memory_privacy;
mod memory_store;
#[cfg(feature = "encoder")]
mod ner_model;
mod option_tree;
mod options;
mod recall_hooks;
#[cfg(feature = "redact")]
mod redactor;
mod storage;
mod stream_restorer;
#[cfg(feature = "sync")]
mod sync;
#[cfg(not(feature = "sync"))]
#[path = "sync_off.rs"]
mod sync;
pub mod tokenizer;
mod tokenizer_cache;
mod types;

#[cfg(feature = "encoder")]
pub use embed_model::EmbedModel;
pub use memory::Memory;
pub use tokenizer::Tokenizer;

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Serializes to plain JS objects and arrays (maps as objects, `None` as `null`).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| errors::js_error(crate::error::ErrorCode::InvalidDocument, &e.to_string()))
}
