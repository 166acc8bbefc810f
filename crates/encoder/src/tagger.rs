//! The model as the redactor uses it: text in, values out. [`Tagger`] holds the encoder, the
//! WordPiece tokenizer built from the model file's own vocabulary and flags, and the label
//! table; [`Tagger::spans`] tokenizes once, runs the encoder over overlapping windows, takes
//! each token's most probable label from the window that sees it best, and decodes (see
//! [`super::decode`]). Linear in the text: windows have a fixed width and a fixed overlap.

use super::decode::{self, LabelTable, Span, TokenTag};
use super::encoder::NerModel;
use super::windows::windows;
use super::wordpiece::{self, WordPiece};
use llm_memory_core::error::{Error, ErrorCode, Result};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Tokens per encoder call, `[CLS]` and `[SEP]` included. The reference scans 480 characters
/// at a time because the model finds phone numbers less well in longer inputs (it was tuned on
/// chat-sized texts); 160 tokens is about that much English. Shorter windows also keep the
/// attention's quadratic part small.
pub const WINDOW_TOKENS: usize = 160;

/// Tokens two neighbouring windows share, so a value on a boundary is seen whole in one.
pub const WINDOW_OVERLAP: usize = 32;

/// A loaded PII model ready to tag text. Share it (`Arc`) between redactors: tagging takes
/// `&self`.
#[derive(Debug)]
pub struct Tagger {
    model: NerModel,
    wordpiece: WordPiece,
    labels: LabelTable,
    /// Encoder calls so far: tests check that cached texts are not tagged again.
    runs: AtomicUsize,
}

impl Tagger {
    /// Reads a model file (`models/pii-ner.bin`). A file that is not one, or whose labels or
    /// vocabulary this code cannot use, is `INVALID_MODEL`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tagger> {
        Tagger::new(NerModel::from_bytes(bytes)?)
    }

    pub fn new(model: NerModel) -> Result<Tagger> {
        let invalid = |m: String| Error::new(ErrorCode::InvalidModel, m);
        let labels = LabelTable::new(model.labels());
        if !labels.knows_any() {
            return Err(invalid(format!(
                "none of the model's labels ({}) is a kind of personal data this decoder knows",
                model.labels().join(", ")
            )));
        }
        let special = model.special_tokens();
        let unk = model
            .vocab()
            .get(special.unk as usize)
            .ok_or_else(|| invalid("the unknown token's id is outside the vocabulary".into()))?
            .clone();
        if [special.cls, special.sep]
            .iter()
            .any(|&id| id as usize >= model.vocab().len())
        {
            return Err(invalid("[CLS] or [SEP] is outside the vocabulary".into()));
        }
        let n = model.normalizer();
        let flags = wordpiece::NormalizerFlags {
            lowercase: n.lowercase,
            strip_accents: n.strip_accents,
            handle_chinese_chars: n.handle_chinese_chars,
            clean_text: n.clean_text,
        };
        let config = model.wordpiece();
        let wordpiece = WordPiece::new(
            model.vocab().to_vec(),
            flags,
            &unk,
            &config.continuing_subword_prefix,
            config.max_input_chars_per_word,
        )
        .map_err(|e| invalid(format!("the model's vocabulary: {}", e.message)))?;
        if model.max_positions() < 3 {
            return Err(invalid(
                "the model reads fewer than 3 tokens at once".into(),
            ));
        }
        Ok(Tagger {
            model,
            wordpiece,
            labels,
            runs: AtomicUsize::new(0),
        })
    }

    pub fn model(&self) -> &NerModel {
        &self.model
    }

    pub fn labels(&self) -> &[String] {
        self.model.labels()
    }

    /// How many times the encoder ran (one per window).
    pub fn runs(&self) -> usize {
        self.runs.load(Ordering::Relaxed)
    }

    /// The encoder's input for `text` as one sequence: `[CLS]`, the WordPiece ids, `[SEP]`.
    /// Texts longer than the model's window are tagged in windows (see [`Tagger::tag`]).
    pub fn token_ids(&self, text: &str) -> Vec<u32> {
        let special = self.model.special_tokens();
        let mut ids = vec![special.cls];
        ids.extend(self.wordpiece.encode(text).ids);
        ids.push(special.sep);
        ids
    }

    /// Each token's most probable label and its probability (softmax over the labels), in
    /// text order, with byte offsets into `text`.
    pub fn tag(&self, text: &str) -> Result<Vec<TokenTag>> {
        let encoding = self.wordpiece.encode(text);
        let n = encoding.ids.len();
        let width = WINDOW_TOKENS.min(self.model.max_positions());
        let overlap = WINDOW_OVERLAP.min(width.saturating_sub(3));
        let special = self.model.special_tokens();
        let label_count = self.model.labels().len();
        let mut tags = Vec::with_capacity(n);
        let mut ids = Vec::with_capacity(width);
        for w in windows(n, width, overlap)? {
            ids.clear();
            ids.push(special.cls);
            ids.extend_from_slice(&encoding.ids[w.tokens.clone()]);
            ids.push(special.sep);
            let logits = self.model.logits(&ids)?;
            self.runs.fetch_add(1, Ordering::Relaxed);
            for i in w.owned.clone() {
                // Row 0 is [CLS]: token `i` sits at row `i - start + 1`.
                let row = i - w.tokens.start + 1;
                let (label, prob) = most_probable(&logits[row * label_count..][..label_count]);
                let (start, end) = encoding.offsets[i];
                tags.push(TokenTag {
                    start,
                    end,
                    word: encoding.word_index[i],
                    label: label as u16,
                    prob,
                });
            }
        }
        Ok(tags)
    }

    /// The values in `text` (byte offsets), words tagged at `threshold` or above.
    pub fn spans(&self, text: &str, threshold: f32) -> Result<Vec<Span>> {
        let tags = self.tag(text)?;
        Ok(decode::decode(text, &tags, &self.labels, threshold))
    }
}

/// The argmax of a row of logits and its softmax probability: `1 / Σ exp(l - max)`.
fn most_probable(row: &[f32]) -> (usize, f32) {
    let (best, max) = row
        .iter()
        .enumerate()
        .fold((0, f32::NEG_INFINITY), |(bi, bv), (i, &v)| {
            if v > bv {
                (i, v)
            } else {
                (bi, bv)
            }
        });
    let sum: f32 = row.iter().map(|&v| (v - max).exp()).sum();
    (best, 1.0 / sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_probable_label_and_its_softmax_probability() {
        let (label, prob) = most_probable(&[0.0, 2.0, 1.0]);
        assert_eq!(label, 1);
        let e = |x: f32| x.exp();
        assert!((prob - e(2.0) / (e(0.0) + e(2.0) + e(1.0))).abs() < 1e-6);
        // Large logits do not overflow.
        let (label, prob) = most_probable(&[1000.0, 999.0]);
        assert_eq!(label, 0);
        assert!((prob - 1.0 / (1.0 + (-1.0f32).exp())).abs() < 1e-6);
    }
}
