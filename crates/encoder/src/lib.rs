//! Our own BERT encoder and its text side, for models whose bytes apps load at run time (never
//! compiled in). Named-entity recognition for redaction: a token classifier (Rampart, a MiniLM-L6
//! fine-tuned for PII labels). `format` reads the model file that `scripts/convert-ner-model.py`
//! writes (`make model`), `encoder` turns token ids into per-token label scores, `kernels` holds
//! the arithmetic (4-bit matrix products with wasm SIMD128, their integer core in `qgemm`);
//! `tagger` runs the text through it and `decode` turns per-token labels into the values a user
//! would name (one person, one address). Sentence embeddings for recall by meaning: `embedder`
//! (all-MiniLM-L6-v2 from `make embed-model`, mean pooling) on the same format and kernels, with
//! 8-bit weights (`kernels_q8`); `layers` is the encoder stack both run, generic over the weight
//! format. `wordpiece` and `windows` are the text side both share.

pub mod decode;
pub mod embedder;
pub mod encoder;
pub mod format;
mod kernels;
mod kernels_q8;
mod layers;
pub mod lexicon;
mod qgemm;
mod simd;
pub mod tagger;
#[cfg(test)]
mod tests;
pub mod windows;
pub mod wordpiece;

pub use embedder::EmbedModel;
pub use encoder::NerModel;
pub use format::{NormalizerFlags, SpecialTokens, WordPieceConfig};
pub use tagger::Tagger;
