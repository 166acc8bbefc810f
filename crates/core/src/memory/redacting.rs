//! What the memory needs from a redactor, as a trait: the memory decides what is sent and when;
//! how text is redacted and how the vault is kept is the redactor's (`crate::redact::Redactor`
//! implements it). The core builds without any redaction this way, and the vault crosses this
//! line only in its stored form, a JSON value.

use crate::error::Result;
use serde_json::Value;

/// Redacted values per type, e.g. `{ "EMAIL": 2 }` (never the values themselves).
pub type Counts = std::collections::BTreeMap<String, usize>;

/// What erasing vault values did: the placeholders removed, and those kept because a kept text
/// still holds them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VaultErasure {
    pub erased: Vec<String>,
    pub kept: Vec<String>,
}

/// Restores a model reply that arrives in chunks.
pub trait StreamRestore {
    /// The text that is final so far; a possible placeholder at the end is held back.
    fn push(&mut self, chunk: &str) -> String;
    /// Flushes what was held back; the restorer can be reused afterwards.
    fn finish(&mut self) -> String;
}

pub trait Redacting {
    /// The outgoing form of text the user typed (look-alike placeholders escaped).
    fn redact_typed(&mut self, text: &str) -> (String, Counts);
    /// The outgoing form of text a model or a tool wrote (placeholders kept as they are).
    fn redact_outgoing(&mut self, text: &str) -> (String, Counts);
    /// Puts the vault's values back in place of placeholders.
    fn restore(&self, text: &str) -> String;
    fn stream_restorer(&self) -> Box<dyn StreamRestore>;

    /// Grows with every change to the vault: the memory stores it again when this moved.
    fn vault_revision(&self) -> u64;
    /// How many values the vault holds.
    fn vault_len(&self) -> usize;
    /// The vault in its stored form.
    fn vault_value(&self) -> Value;
    /// Replaces the vault with a stored one (a resumed session's).
    fn set_vault_value(&mut self, stored: &Value) -> Result<()>;
    /// Takes over the erasures recorded in another copy of the vault; returns how many values
    /// left this one.
    fn adopt_vault_erasures(&mut self, theirs: &Value) -> Result<usize>;
    /// Takes the values of another copy of the vault this one lacks; returns how many.
    fn merge_vault(&mut self, theirs: &Value) -> Result<usize>;
    /// Removes the values `removed_texts` held (all values with `None`) that none of
    /// `kept_texts` holds.
    fn erase_vault_values(
        &mut self,
        removed_texts: Option<&[&str]>,
        kept_texts: &mut dyn Iterator<Item = &str>,
    ) -> VaultErasure;
    /// Whether `text` holds one of the values the vault learned after its first `since`:
    /// `None` when it learned none.
    #[allow(clippy::type_complexity)]
    fn learned_since(&self, since: usize) -> Option<Box<dyn Fn(&str) -> bool + '_>>;
}
