//! Spans for the model checks' tests, as the decoder would give them.

use llm_memory_encoder::decode::{Meaning, Span};

/// The span of `value` (its first occurrence) in `text`.
pub(super) fn span(text: &str, value: &str, meaning: Meaning, score: f32) -> Span {
    let start = text.find(value).unwrap();
    Span {
        meaning,
        start,
        end: start + value.len(),
        score,
    }
}
