//! Named-entity recognition for redaction: a BERT token classifier (Rampart, a MiniLM-L6 fine-tuned
//! for PII labels) run by our own code. `format` reads the model file that
//! `scripts/convert-ner-model.py` writes (`make model`), `encoder` turns token ids into per-token
//! label scores, `kernels` holds the arithmetic (4-bit matrix products with wasm SIMD128, their integer core in
//! `qgemm`).
//! `wordpiece` and `windows` are the text side; `tagger` runs them together and `decode` turns
//! per-token labels into the values a user would name (one person, one address).
//! The model is never compiled in: apps load its bytes at run time.

pub mod decode;
pub mod encoder;
pub mod format;
mod kernels;
mod qgemm;
mod simd;
pub mod tagger;
#[cfg(test)]
mod tests;
pub mod windows;
pub mod wordpiece;

pub use encoder::NerModel;
pub use format::{NormalizerFlags, SpecialTokens, WordPieceConfig};
pub use tagger::Tagger;
