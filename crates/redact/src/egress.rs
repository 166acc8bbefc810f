//! Redaction at the egress: what the memory sends to a model. Text the model wrote (a summary,
//! a stored memory) may hold placeholders it was given, which must reach it unchanged, so
//! [`Redactor::redact_outgoing`] does not escape look-alikes. What the user typed is theirs:
//! [`Redactor::redact_typed`] marks a literal `[EMAIL_1]` as `redact` does, so a reply quoting
//! it restores to what the user wrote.

use super::config::Mode;
use super::vault::placeholder::StreamRestorer;
use super::{Redactor, Vault};
use llm_memory_core::error::Result;
use llm_memory_core::memory::{Redacting, StreamRestore, VaultErasure};
use serde_json::Value;

pub use llm_memory_core::memory::Counts;

impl Redactor {
    /// The outgoing form of text the user typed, look-alike placeholders escaped.
    pub fn redact_typed(&mut self, text: &str) -> (String, Counts) {
        let redaction = self.redact(text);
        let counts = redaction.counts();
        (redaction.text, counts)
    }

    /// The outgoing form of `text` and what was replaced in it.
    pub fn redact_outgoing(&mut self, text: &str) -> (String, Counts) {
        let spans = self.detect(text);
        let mut counts = Counts::new();
        if spans.is_empty() {
            return (text.to_string(), counts);
        }
        let mut out = String::with_capacity(text.len() + spans.len() * 8);
        let mut copied = 0;
        for c in spans {
            out.push_str(&text[copied..c.start]);
            let value = &text[c.start..c.end];
            let placeholder = match self.config.mode {
                Mode::Placeholder => self.vault.placeholder_for(&c.kind, value),
                Mode::Mask => format!("[{}]", c.kind),
            };
            out.push_str(&placeholder);
            *counts.entry(c.kind.to_string()).or_insert(0) += 1;
            copied = c.end;
        }
        out.push_str(&text[copied..]);
        (out, counts)
    }
}

/// The memory's view of a redactor: its egress calls these.
impl Redacting for Redactor {
    fn redact_typed(&mut self, text: &str) -> (String, Counts) {
        Redactor::redact_typed(self, text)
    }

    fn redact_outgoing(&mut self, text: &str) -> (String, Counts) {
        Redactor::redact_outgoing(self, text)
    }

    fn restore(&self, text: &str) -> String {
        Redactor::restore(self, text)
    }

    fn stream_restorer(&self) -> Box<dyn StreamRestore> {
        Box::new(Redactor::stream_restorer(self))
    }

    fn vault_revision(&self) -> u64 {
        self.vault().revision()
    }

    fn vault_len(&self) -> usize {
        self.vault().len()
    }

    fn vault_value(&self) -> Value {
        self.vault().to_value()
    }

    fn set_vault_value(&mut self, stored: &Value) -> Result<()> {
        self.set_vault(Vault::from_value(stored)?);
        Ok(())
    }

    fn adopt_vault_erasures(&mut self, theirs: &Value) -> Result<usize> {
        let theirs = Vault::from_value(theirs)?;
        Ok(Redactor::adopt_vault_erasures(self, &theirs).len())
    }

    fn merge_vault(&mut self, theirs: &Value) -> Result<usize> {
        let theirs = Vault::from_value(theirs)?;
        Ok(Redactor::merge_vault(self, &theirs))
    }

    fn erase_vault_values(
        &mut self,
        removed_texts: Option<&[&str]>,
        kept_texts: &mut dyn Iterator<Item = &str>,
    ) -> VaultErasure {
        let erased = Redactor::erase_vault_values(self, removed_texts, kept_texts);
        VaultErasure {
            erased: erased.erased.into_iter().map(|e| e.placeholder).collect(),
            kept: erased.kept,
        }
    }

    fn learned_since(&self, since: usize) -> Option<Box<dyn Fn(&str) -> bool + '_>> {
        let vault = self.vault();
        let newer = vault.values_since(since);
        if newer.is_empty() {
            return None;
        }
        Some(Box::new(move |t: &str| newer.occurs_in(t, vault.entries())))
    }
}

impl StreamRestore for StreamRestorer {
    fn push(&mut self, chunk: &str) -> String {
        StreamRestorer::push(self, chunk)
    }

    fn finish(&mut self) -> String {
        StreamRestorer::finish(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::{config::RedactorConfig, Redactor};

    #[test]
    fn outgoing_keeps_existing_placeholders_and_stays_stable() {
        let mut r = Redactor::new(RedactorConfig::default()).unwrap();
        let (a, counts) = r.redact_outgoing("mail riley@example.com now");
        assert_eq!(a, "mail [EMAIL_1] now");
        assert_eq!(counts.get("EMAIL"), Some(&1));
        let (b, _) = r.redact_outgoing("again riley@example.com and [EMAIL_1]");
        assert_eq!(b, "again [EMAIL_1] and [EMAIL_1]");
        assert_eq!(
            r.restore(&b),
            "again riley@example.com and riley@example.com"
        );
    }
}
