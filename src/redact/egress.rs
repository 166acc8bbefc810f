//! Redaction at the egress: what the memory sends to a model. Text the model wrote (a summary,
//! a stored memory) may hold placeholders it was given, which must reach it unchanged, so
//! [`Redactor::redact_outgoing`] does not escape look-alikes. What the user typed is theirs:
//! [`Redactor::redact_typed`] marks a literal `[EMAIL_1]` as `redact` does, so a reply quoting
//! it restores to what the user wrote.

use super::config::Mode;
use super::Redactor;
use std::collections::BTreeMap;

/// Redacted values per type, e.g. `{ "EMAIL": 2 }`.
pub type Counts = BTreeMap<String, usize>;

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

#[cfg(test)]
mod tests {
    use crate::redact::{config::RedactorConfig, Redactor};

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
