//! The vault: the on-device table from placeholders to the values they stand for. It is what
//! makes redaction reversible, so it never leaves the device except through the app's own
//! persistence (`exportVault`), and it is never put into any prompt.
//!
//! Numbering is per type and stable per value: the same e-mail address gets `[EMAIL_1]` every
//! time within a session, so the model can still tell people apart. Values are kept exactly as
//! written; a person's name in another form (case, possessive, a given name alone) is a value of
//! its own that shares the person's placeholder ([`people`]), and restores as the first form.
//!
//! Beside it: [`known`] finds the values the vault holds when they come back in later text,
//! [`placeholder`] is the placeholder grammar (escaping look-alikes, restoring values), and
//! [`erase`] removes the values nothing kept refers to any more (forget, clear).

mod erase;
mod known;
mod people;
pub mod placeholder;

use crate::entity::EntityType;
pub use erase::Erased;
pub use known::KnownValues;
use llm_memory_core::error::{Error, ErrorCode, Result};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// One placeholder and the value it replaced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VaultEntry {
    /// The canonical placeholder, e.g. `[EMAIL_1]`.
    pub placeholder: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub value: String,
}

/// The serialized form: `{ "version": 1, "entries": [{ placeholder, type, value }],
/// "erased": [placeholders] }`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct VaultDocument {
    version: u32,
    entries: Vec<VaultEntry>,
    /// Placeholders whose values were erased: their numbers are never handed out again (a
    /// copy made earlier may hold one, and it must not come to mean another value), and
    /// another tab's copy of such an entry is not taken back in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    erased: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vault {
    entries: Vec<VaultEntry>,
    /// type → value → index in `entries`: nested, so a look-up borrows the type and value
    /// instead of copying them into a key (one look-up per finding).
    by_value: FxHashMap<String, FxHashMap<String, usize>>,
    /// type → number → index in `entries`.
    by_key: FxHashMap<String, FxHashMap<u32, usize>>,
    /// Highest number handed out per type, erased ones included.
    last: FxHashMap<String, u32>,
    /// The values, indexed to be found again in new text.
    known: KnownValues,
    /// Placeholders whose values were erased, in erasure order (see [`VaultDocument`]).
    erased: Vec<String>,
    /// Bumped by every change, so a store writes the vault again only when it changed.
    revision: u64,
}

impl Vault {
    pub fn new() -> Vault {
        Vault::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> &[VaultEntry] {
        &self.entries
    }

    /// Changes so far: equal revisions of one vault hold the same entries.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The types it holds values of.
    pub fn kinds(&self) -> impl Iterator<Item = &str> {
        self.last.keys().map(String::as_str)
    }

    /// The placeholder for `value`, allocating the next number of its type on first sight. A
    /// person's name in another form shares the placeholder of the person it names
    /// ([`people`]: case, a possessive, a given name or surname alone when unambiguous).
    pub fn placeholder_for(&mut self, kind: &EntityType, value: &str) -> String {
        if let Some(&i) = self.by_value.get(kind.as_str()).and_then(|m| m.get(value)) {
            return self.entries[i].placeholder.clone();
        }
        if *kind == EntityType::Person {
            let people: Vec<&VaultEntry> =
                self.entries.iter().filter(|e| e.kind == "PERSON").collect();
            let alias = people::same_person(&people, value).map(str::to_string);
            if let Some((placeholder, n)) =
                alias.and_then(|p| parse_placeholder(&p).map(|(_, n)| (p.clone(), n)))
            {
                self.insert(
                    kind.as_str().to_string(),
                    n,
                    placeholder.clone(),
                    value.to_string(),
                );
                return placeholder;
            }
        }
        let n = self.last.get(kind.as_str()).copied().unwrap_or(0) + 1;
        let placeholder = format!("[{}_{}]", kind.as_str(), n);
        self.insert(
            kind.as_str().to_string(),
            n,
            placeholder.clone(),
            value.to_string(),
        );
        placeholder
    }

    /// [`Vault::placeholder_for`], for a value among the other values of its text: a person
    /// named by one word before the full name that holds it ("Médico: Pablo … Dr. Pablo Justo
    /// Ávila") takes the full name's placeholder, which is allocated here, rather than a
    /// number of its own that the full name could no longer join. Restoring then gives the
    /// full name.
    pub fn placeholder_for_in_text(
        &mut self,
        kind: &EntityType,
        value: &str,
        names_in_text: &[&str],
    ) -> String {
        let new = self
            .by_value
            .get(kind.as_str())
            .is_none_or(|m| !m.contains_key(value));
        if *kind == EntityType::Person && new {
            if let Some(full) = people::full_name_holding(value, names_in_text.iter().copied()) {
                self.placeholder_for(kind, full);
            }
        }
        self.placeholder_for(kind, value)
    }

    fn insert(&mut self, kind: String, n: u32, placeholder: String, value: String) {
        let i = self.entries.len();
        self.by_value
            .entry(kind.clone())
            .or_default()
            .insert(value.clone(), i);
        // Another form of a person already here keeps the first form as what restores.
        self.by_key
            .entry(kind.clone())
            .or_default()
            .entry(n)
            .or_insert(i);
        let last = self.last.entry(kind.clone()).or_insert(0);
        *last = (*last).max(n);
        let entry = VaultEntry {
            placeholder,
            kind,
            value,
        };
        self.known.add(i, &entry);
        self.entries.push(entry);
        self.revision += 1;
    }

    /// Takes the entries of `other` (another tab's vault of the same session) whose value and
    /// number are both new here; returns how many. An entry whose number this vault gave to
    /// another value is left out: renumbering it would change what the other tab's placeholders
    /// mean.
    pub fn merge(&mut self, other: &Vault) -> usize {
        let mut added = 0;
        for e in &other.entries {
            let Some(n) = number_of(e) else {
                continue;
            };
            let known_value = self
                .by_value
                .get(&e.kind)
                .is_some_and(|m| m.contains_key(&e.value));
            let taken = self.by_key.get(&e.kind).is_some_and(|m| m.contains_key(&n))
                || self.is_erased(&e.placeholder);
            if !known_value && !taken {
                self.insert(e.kind.clone(), n, e.placeholder.clone(), e.value.clone());
                added += 1;
            }
        }
        added
    }

    /// The values added after the first `since` entries, indexed to be searched for alone.
    pub fn values_since(&self, since: usize) -> KnownValues {
        let mut known = KnownValues::default();
        for (i, e) in self.entries.iter().enumerate().skip(since) {
            known.add(i, e);
        }
        known
    }

    /// Where values it holds occur in `text`: (start, end, entry), byte offsets.
    pub fn sightings(&self, text: &str) -> Vec<(usize, usize, &VaultEntry)> {
        let mut found = Vec::new();
        self.known.find(text, &self.entries, &mut found);
        found
            .into_iter()
            .map(|(s, e, i)| (s, e, &self.entries[i]))
            .collect()
    }

    /// The value behind `STEM_n`; `stem` must be upper case.
    pub fn lookup(&self, stem: &str, n: u32) -> Option<&str> {
        self.by_key
            .get(stem)
            .and_then(|m| m.get(&n))
            .map(|&i| self.entries[i].value.as_str())
    }

    pub fn to_json(&self) -> String {
        let doc = self.document();
        // Serializing plain strings and integers cannot fail.
        serde_json::to_string(&doc).unwrap_or_default()
    }

    /// Parses what [`Vault::to_json`] wrote. Anything else is `INVALID_DOCUMENT`: a vault that
    /// restores the wrong value is worse than none.
    pub fn from_json(json: &str) -> Result<Vault> {
        let doc: VaultDocument = serde_json::from_str(json)
            .map_err(|e| Error::new(ErrorCode::InvalidDocument, format!("not a vault: {e}")))?;
        Vault::from_document(doc)
    }

    /// The vault in its stored form, as a JSON value (what [`Vault::to_json`] writes).
    pub fn to_value(&self) -> serde_json::Value {
        // Serializing plain strings and integers cannot fail.
        serde_json::to_value(self.document()).unwrap_or_default()
    }

    /// Reads a stored vault from a parsed JSON value; the checks of [`Vault::from_json`].
    pub fn from_value(value: &serde_json::Value) -> Result<Vault> {
        let doc = VaultDocument::deserialize(value)
            .map_err(|e| Error::new(ErrorCode::InvalidDocument, format!("not a vault: {e}")))?;
        Vault::from_document(doc)
    }

    /// Whether a stored record holds a vault [`Vault::from_value`] takes, for checking an
    /// imported document.
    pub fn check_value(value: &serde_json::Value) -> Result<()> {
        Vault::from_value(value).map(drop)
    }

    fn from_document(doc: VaultDocument) -> Result<Vault> {
        let bad = |m: String| Error::new(ErrorCode::InvalidDocument, m);
        if doc.version != 1 {
            return Err(bad(format!("unsupported vault version {}", doc.version)));
        }
        let mut vault = Vault::new();
        for placeholder in doc.erased {
            let Some((kind, n)) = parse_placeholder(&placeholder) else {
                return Err(bad(format!("erased {placeholder:?} is no placeholder")));
            };
            let last = vault.last.entry(kind.to_string()).or_insert(0);
            *last = (*last).max(n);
            vault.erased.push(placeholder);
        }
        for e in doc.entries {
            let parsed = e
                .placeholder
                .strip_prefix('[')
                .and_then(|p| p.strip_suffix(']'))
                .and_then(|p| p.rsplit_once('_'))
                .filter(|(stem, _)| *stem == e.kind)
                .and_then(|(_, n)| n.parse::<u32>().ok().filter(|n| *n > 0));
            let Some(n) = parsed else {
                return Err(bad(format!(
                    "placeholder {:?} does not match type {:?}",
                    e.placeholder, e.kind
                )));
            };
            if EntityType::built_in(&e.kind).is_none() && !EntityType::is_valid_custom_name(&e.kind)
            {
                return Err(bad(format!("unknown type {:?} in vault", e.kind)));
            }
            if e.value.is_empty() {
                return Err(bad(format!("{} has an empty value", e.placeholder)));
            }
            // A number already here is another form of the same person (`people`), never of
            // another type.
            let form_of_person = e.kind == "PERSON";
            if vault
                .by_key
                .get(&e.kind)
                .is_some_and(|m| m.contains_key(&n) && !form_of_person)
                || vault.is_erased(&e.placeholder)
                || vault
                    .by_value
                    .get(&e.kind)
                    .is_some_and(|m| m.contains_key(&e.value))
            {
                return Err(bad(format!("duplicate vault entry {:?}", e.placeholder)));
            }
            vault.insert(e.kind, n, e.placeholder, e.value);
        }
        Ok(vault)
    }
}

/// The number of an entry's placeholder (`[EMAIL_3]` → 3).
fn number_of(e: &VaultEntry) -> Option<u32> {
    parse_placeholder(&e.placeholder).map(|(_, n)| n)
}

/// `[EMAIL_3]` → ("EMAIL", 3).
fn parse_placeholder(p: &str) -> Option<(&str, u32)> {
    let (kind, n) = p.strip_prefix('[')?.strip_suffix(']')?.rsplit_once('_')?;
    Some((kind, n.parse().ok()?))
}

impl Serialize for Vault {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.document().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Vault {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let doc = VaultDocument::deserialize(d)?;
        let json = serde_json::to_string(&doc).map_err(serde::de::Error::custom)?;
        Vault::from_json(&json).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_is_stable_per_value_and_per_type() {
        let mut v = Vault::new();
        assert_eq!(v.placeholder_for(&EntityType::Email, "a@x.io"), "[EMAIL_1]");
        assert_eq!(v.placeholder_for(&EntityType::Email, "b@x.io"), "[EMAIL_2]");
        assert_eq!(v.placeholder_for(&EntityType::Email, "a@x.io"), "[EMAIL_1]");
        assert_eq!(v.placeholder_for(&EntityType::Phone, "a@x.io"), "[PHONE_1]");
        assert_eq!(v.lookup("EMAIL", 2), Some("b@x.io"));
        assert_eq!(v.lookup("EMAIL", 3), None);
    }

    #[test]
    fn json_round_trip_and_rejects_bad_documents() {
        let mut v = Vault::new();
        v.placeholder_for(&EntityType::Email, "a@x.io");
        v.placeholder_for(&EntityType::Custom("TICKET".into()), "TCK-123456");
        let back = Vault::from_json(&v.to_json()).unwrap();
        assert_eq!(back, v);
        let mut back = back;
        assert_eq!(
            back.placeholder_for(&EntityType::Email, "c@x.io"),
            "[EMAIL_2]"
        );
        for bad in [
            "{}",
            r#"{"version":2,"entries":[]}"#,
            r#"{"version":1,"entries":[{"placeholder":"[EMAIL_1]","type":"PHONE","value":"x"}]}"#,
            r#"{"version":1,"entries":[{"placeholder":"[EMAIL_1]","type":"EMAIL","value":"x"},{"placeholder":"[EMAIL_1]","type":"EMAIL","value":"y"}]}"#,
            // Restoring it would delete what the placeholder stood for.
            r#"{"version":1,"entries":[{"placeholder":"[EMAIL_1]","type":"EMAIL","value":""}]}"#,
        ] {
            assert_eq!(
                Vault::from_json(bad).unwrap_err().code,
                ErrorCode::InvalidDocument
            );
        }
    }
}
