//! The model file `models/pii-ner.bin` (written by `scripts/convert-ner-model.py`): parsing and
//! validation from plain bytes. Every way the bytes can be wrong (truncated, another format or
//! version, a flipped bit, a tensor whose size does not match its shape) is an `INVALID_MODEL`
//! error, never a panic, so an app can hand us whatever its fetch returned.
//!
//! Layout, little-endian: 8-byte magic, u32 format version, u32 header length, u64 FNV-1a of the
//! header, the JSON header, zero padding to a multiple of 16, then the tensor data (each tensor
//! at a multiple of 16, FNV-1a over its u64 words recorded in the header).

use serde::Deserialize;

use llm_memory_core::error::{Error, ErrorCode, Result};

pub const MAGIC: &[u8; 8] = b"LMNERMDL";
pub const FORMAT_VERSION: u32 = 1;
const PREFIX_LEN: usize = 24;
const ALIGN: usize = 16;
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// What the header says about the network, the labels and the tokenizer that goes with it.
#[derive(Debug, Clone, Deserialize)]
pub struct Header {
    pub architecture: String,
    pub hidden_size: usize,
    pub num_attention_heads: usize,
    pub num_hidden_layers: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    pub vocab_size: usize,
    pub layer_norm_eps: f64,
    pub labels: Vec<String>,
    pub normalizer: NormalizerFlags,
    pub wordpiece: WordPieceConfig,
    pub special_tokens: SpecialTokens,
    pub vocab: Vec<String>,
    pub license: String,
    pub attribution: String,
    pub source: Source,
    pub tensors: Vec<TensorEntry>,
    pub data_bytes: usize,
    pub data_fnv1a64: String,
    /// Word lists the redaction reads beside the model, by name (`crates/redact/word-lists/`):
    /// they ship here rather than in the wasm. Absent from older files.
    #[serde(default)]
    pub word_lists: std::collections::BTreeMap<String, String>,
}

/// The BERT normalizer settings the tokenizer must apply before WordPiece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct NormalizerFlags {
    pub lowercase: bool,
    pub strip_accents: bool,
    pub handle_chinese_chars: bool,
    pub clean_text: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct WordPieceConfig {
    pub continuing_subword_prefix: String,
    pub max_input_chars_per_word: usize,
}

/// Ids of the special tokens in `vocab`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct SpecialTokens {
    pub pad: u32,
    pub unk: u32,
    pub cls: u32,
    pub sep: u32,
    pub mask: u32,
}

/// Where the weights came from (shown with the attribution the licence requires).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Source {
    pub package: String,
    pub version: String,
    pub file: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TensorEntry {
    pub name: String,
    pub dtype: String,
    pub shape: Vec<usize>,
    pub offset: usize,
    pub bytes: usize,
}

/// A parsed, validated model file borrowing its tensor bytes from the input.
#[derive(Debug)]
pub struct ModelFile<'a> {
    pub header: Header,
    data: &'a [u8],
}

pub(crate) fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidModel, message)
}

fn fnv1a_bytes(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(FNV_OFFSET, |h, &b| (h ^ b as u64).wrapping_mul(FNV_PRIME))
}

/// FNV-1a over little-endian u64 words: one multiply per 8 bytes keeps the check of 15 MB of
/// weights to a few milliseconds.
fn fnv1a_words(bytes: &[u8]) -> u64 {
    bytes.chunks_exact(8).fold(FNV_OFFSET, |h, w| {
        let word = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        (h ^ word).wrapping_mul(FNV_PRIME)
    })
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn dtype_size(dtype: &str) -> Option<usize> {
    match dtype {
        "u8" | "i8" => Some(1),
        "f32" => Some(4),
        _ => None,
    }
}

impl<'a> ModelFile<'a> {
    /// Checks magic, version, both hashes, the header's dimensions and every tensor's extent.
    pub fn parse(bytes: &'a [u8]) -> Result<ModelFile<'a>> {
        if bytes.len() < PREFIX_LEN || &bytes[..8] != MAGIC {
            return Err(invalid(
                "not an llm-memory NER model file (make model writes models/pii-ner.bin)",
            ));
        }
        let version = read_u32(bytes, 8);
        if version != FORMAT_VERSION {
            return Err(invalid(format!(
                "model file format version {version}; this build reads version {FORMAT_VERSION}: \
                 rerun make model"
            )));
        }
        let header_len = read_u32(bytes, 12) as usize;
        let header_hash = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        let header_end = PREFIX_LEN
            .checked_add(header_len)
            .filter(|&end| end <= bytes.len())
            .ok_or_else(|| invalid("model file is truncated inside its header"))?;
        let header_bytes = &bytes[PREFIX_LEN..header_end];
        if fnv1a_bytes(header_bytes) != header_hash {
            return Err(invalid("model file header is corrupt (checksum mismatch)"));
        }
        let header: Header = serde_json::from_slice(header_bytes)
            .map_err(|e| invalid(format!("model file header is not valid: {e}")))?;
        let data_start = header_end.div_ceil(ALIGN) * ALIGN;
        if bytes
            .get(header_end..data_start)
            .is_some_and(|pad| pad.iter().any(|&b| b != 0))
        {
            return Err(invalid(
                "model file is corrupt (padding after the header is not zero)",
            ));
        }
        let data = bytes
            .get(data_start..)
            .filter(|d| d.len() == header.data_bytes)
            .ok_or_else(|| {
                invalid(format!(
                    "model file has {} bytes of weights, its header announces {}: truncated?",
                    bytes.len().saturating_sub(data_start),
                    header.data_bytes
                ))
            })?;
        if data.len() % ALIGN != 0 || format!("{:016x}", fnv1a_words(data)) != header.data_fnv1a64 {
            return Err(invalid(
                "model file weights are corrupt (checksum mismatch)",
            ));
        }
        let file = ModelFile { header, data };
        file.validate()?;
        Ok(file)
    }

    fn validate(&self) -> Result<()> {
        let h = &self.header;
        // A token classifier has labels; a sentence embedder (crates/encoder/src/embedder.rs) has none.
        let labels_ok = match h.architecture.as_str() {
            "bert-token-classification" => !h.labels.is_empty(),
            "bert-sentence-embedding" => h.labels.is_empty(),
            _ => {
                return Err(invalid(format!(
                    "unsupported architecture {:?}",
                    h.architecture
                )))
            }
        };
        let dims_ok = (1..=4096).contains(&h.hidden_size)
            && h.num_attention_heads > 0
            && h.hidden_size % h.num_attention_heads == 0
            && h.hidden_size % 32 == 0
            && h.intermediate_size % 32 == 0
            && (1..=65536).contains(&h.intermediate_size)
            && (1..=64).contains(&h.num_hidden_layers)
            && (1..=8192).contains(&h.max_position_embeddings)
            && (1..=16).contains(&h.type_vocab_size)
            && (1..=1 << 20).contains(&h.vocab_size)
            && labels_ok
            && h.labels.len() <= 4096
            && h.layer_norm_eps.is_finite()
            && h.layer_norm_eps >= 0.0;
        if !dims_ok {
            return Err(invalid("model header has out-of-range dimensions"));
        }
        if h.vocab.len() != h.vocab_size {
            return Err(invalid(format!(
                "model vocab has {} tokens, header says {}",
                h.vocab.len(),
                h.vocab_size
            )));
        }
        let s = h.special_tokens;
        if [s.pad, s.unk, s.cls, s.sep, s.mask]
            .iter()
            .any(|&id| id as usize >= h.vocab_size)
        {
            return Err(invalid("a special token id is outside the vocab"));
        }
        for (i, t) in h.tensors.iter().enumerate() {
            let size = dtype_size(&t.dtype).ok_or_else(|| {
                invalid(format!("tensor {}: unknown dtype {:?}", t.name, t.dtype))
            })?;
            let expected = t
                .shape
                .iter()
                .try_fold(size, |acc, &d| acc.checked_mul(d))
                .ok_or_else(|| invalid(format!("tensor {}: shape overflows", t.name)))?;
            let in_bounds = t.offset % ALIGN == 0
                && t.offset
                    .checked_add(t.bytes)
                    .is_some_and(|end| end <= self.data.len());
            if expected != t.bytes || !in_bounds {
                return Err(invalid(format!(
                    "tensor {}: {} bytes at {} do not match shape {:?} or the file",
                    t.name, t.bytes, t.offset, t.shape
                )));
            }
            if h.tensors[..i].iter().any(|o| o.name == t.name) {
                return Err(invalid(format!("tensor {} appears twice", t.name)));
            }
        }
        Ok(())
    }

    fn entry(&self, name: &str, dtype: &str, shape: &[usize]) -> Result<&'a [u8]> {
        let t = self
            .header
            .tensors
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| invalid(format!("model file has no tensor {name}")))?;
        if t.dtype != dtype || t.shape != shape {
            return Err(invalid(format!(
                "tensor {name} is {} {:?}, expected {dtype} {shape:?}",
                t.dtype, t.shape
            )));
        }
        Ok(&self.data[t.offset..t.offset + t.bytes])
    }

    /// The bytes of a `u8` tensor, which must have exactly this shape.
    pub fn u8s(&self, name: &str, shape: &[usize]) -> Result<&'a [u8]> {
        self.entry(name, "u8", shape)
    }

    /// A copy of an `i8` tensor, which must have exactly this shape.
    pub fn i8s(&self, name: &str, shape: &[usize]) -> Result<Vec<i8>> {
        let bytes = self.entry(name, "i8", shape)?;
        Ok(bytes.iter().map(|&b| b as i8).collect())
    }

    /// A copy of an `f32` tensor, which must have exactly this shape and hold finite numbers.
    pub fn f32s(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>> {
        let bytes = self.entry(name, "f32", shape)?;
        let values: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if values.iter().any(|v| !v.is_finite()) {
            return Err(invalid(format!("tensor {name} holds a NaN or infinity")));
        }
        Ok(values)
    }
}

/// Writes a model file from a header (its `tensors`, `data_bytes` and hash fields are filled in
/// here) and named tensors: the inverse of `parse`, for tests that need small models.
#[cfg(test)]
pub(crate) fn write_model_file(
    mut header: serde_json::Value,
    tensors: &[(&str, &str, Vec<usize>, Vec<u8>)],
) -> Vec<u8> {
    let mut data = Vec::new();
    let mut directory = Vec::new();
    for (name, dtype, shape, bytes) in tensors {
        directory.push(serde_json::json!({
            "name": name, "dtype": dtype, "shape": shape, "offset": data.len(), "bytes": bytes.len()
        }));
        data.extend_from_slice(bytes);
        data.resize(data.len().div_ceil(ALIGN) * ALIGN, 0);
    }
    header["tensors"] = directory.into();
    header["data_bytes"] = data.len().into();
    header["data_fnv1a64"] = format!("{:016x}", fnv1a_words(&data)).into();
    let header_bytes = serde_json::to_vec(&header).expect("header serializes");
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(header_bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a_bytes(&header_bytes).to_le_bytes());
    out.extend_from_slice(&header_bytes);
    out.resize(out.len().div_ceil(ALIGN) * ALIGN, 0);
    out.extend_from_slice(&data);
    out
}
