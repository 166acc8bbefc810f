//! Token counting: the model's real tokenizer (`hf`, any Hugging Face tokenizer.json) or the
//! approximate fallback, plus the chat format's per-message overhead. Every budget decision is
//! made in these units.

pub mod bpe;
#[cfg(feature = "chat-template")]
pub mod chat_template;
pub mod hf;
pub mod utf16;

use crate::error::{Error, Result};
use crate::message::ChatMessage;
use std::sync::Arc;

pub use hf::HfTokenizer;

/// Counts tokens in text. Implementations must be deterministic: the engine caches counts per
/// entry and never recounts them.
pub trait TokenCounter: Send + Sync {
    fn count(&self, text: &str) -> usize;
    /// Counts many texts at once; one call instead of one per text where crossing a boundary
    /// costs more than counting.
    fn count_many(&self, texts: &[&str]) -> Vec<usize> {
        texts.iter().map(|t| self.count(t)).collect()
    }
    /// `"approximate"` or the tokenizer model kind (`"BPE"`, `"WordPiece"`, `"Unigram"`, ...).
    fn kind(&self) -> &str;
    /// Whether counts are the model's real ones.
    fn is_exact(&self) -> bool;
    /// Names what this counter counts, so stored counts are reused only by a counter that
    /// would count the same (`None`: never reuse them).
    fn fingerprint(&self) -> Option<u64> {
        None
    }
}

/// FNV-1a over bytes: a fingerprint that is the same in every build and version (stored counts
/// are keyed by it), unlike a hasher whose algorithm may change.
pub fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // Separates ["ab", "c"] from ["a", "bc"].
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

pub type SharedCounter = Arc<dyn TokenCounter>;

/// The no-vocabulary fallback: about four characters per token (OpenAI's rule of thumb for
/// English). It errs high on CJK-free prose and low on CJK; use a real tokenizer when it matters.
#[derive(Debug, Clone, Copy)]
pub struct ApproximateCounter {
    chars_per_token: f64,
}

impl ApproximateCounter {
    pub fn new(chars_per_token: f64) -> Result<Self> {
        if !(chars_per_token.is_finite() && chars_per_token > 0.0) {
            // As JS writes it: "Infinity", not Rust's "inf".
            let got = match chars_per_token {
                x if x == f64::INFINITY => "Infinity".to_string(),
                x if x == f64::NEG_INFINITY => "-Infinity".to_string(),
                x => x.to_string(),
            };
            return Err(Error::option(format!(
                "charsPerToken must be a positive finite number, got {got}"
            )));
        }
        Ok(ApproximateCounter { chars_per_token })
    }
}

impl Default for ApproximateCounter {
    fn default() -> Self {
        ApproximateCounter {
            chars_per_token: 4.0,
        }
    }
}

impl TokenCounter for ApproximateCounter {
    fn count(&self, text: &str) -> usize {
        // Characters, not bytes: a UTF-8 byte count would triple the estimate for CJK.
        let chars = text.chars().count() as f64;
        (chars / self.chars_per_token).ceil() as usize
    }
    fn kind(&self) -> &str {
        "approximate"
    }
    fn is_exact(&self) -> bool {
        false
    }
    fn fingerprint(&self) -> Option<u64> {
        Some(fnv1a(&[
            b"approximate",
            &self.chars_per_token.to_bits().to_le_bytes(),
        ]))
    }
}

/// The tokens a chat API adds around messages. Defaults are OpenAI's documented values for its
/// chat models: 3 per message plus its role's own tokens (OpenAI's cookbook counts every value
/// of the message, the role's too), 1 more when a `name` is set, 3 to prime the reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageOverhead {
    pub per_message: usize,
    pub per_name: usize,
    pub per_request: usize,
    /// Added per tool call for the JSON wrapper around its name and arguments.
    pub per_tool_call: usize,
}

impl Default for MessageOverhead {
    fn default() -> Self {
        MessageOverhead {
            per_message: 3,
            per_name: 1,
            per_request: 3,
            per_tool_call: 3,
        }
    }
}

impl MessageOverhead {
    /// The overhead's share of a stored count's key.
    pub fn fingerprint_bytes(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        let parts = [
            self.per_message,
            self.per_name,
            self.per_request,
            self.per_tool_call,
        ];
        for (chunk, v) in out.chunks_mut(8).zip(parts) {
            chunk.copy_from_slice(&(v as u64).to_le_bytes());
        }
        out
    }

    /// Tokens one message costs in a request, overhead included.
    pub fn message_tokens(&self, counter: &dyn TokenCounter, m: &ChatMessage) -> usize {
        let mut n = self.per_message + counter.count(m.role.as_str()) + counter.count(&m.content);
        if let Some(name) = &m.name {
            n += self.per_name + counter.count(name);
        }
        for call in &m.tool_calls {
            n += self.per_tool_call
                + counter.count(&call.function.name)
                + counter.count(&call.function.arguments);
        }
        if let Some(id) = &m.tool_call_id {
            n += counter.count(id);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::Role;

    #[test]
    fn approximate_counts_characters_not_bytes() {
        let c = ApproximateCounter::default();
        assert_eq!(c.count(""), 0);
        assert_eq!(c.count("abcd"), 1);
        assert_eq!(c.count("abcde"), 2);
        assert_eq!(c.count("日本語の"), 1);
        assert!(ApproximateCounter::new(0.0).is_err());
        assert!(ApproximateCounter::new(f64::NAN).is_err());
    }

    #[test]
    fn overhead_adds_per_message_and_name() {
        let c = ApproximateCounter::default();
        let o = MessageOverhead::default();
        let mut m = ChatMessage::new(Role::User, "abcd");
        // 3 per message + "user" + "abcd".
        assert_eq!(o.message_tokens(&c, &m), 5);
        m.name = Some("bob".into());
        assert_eq!(o.message_tokens(&c, &m), 7);
    }
}
