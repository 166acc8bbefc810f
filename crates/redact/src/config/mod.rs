//! What a redactor is asked to do: which entity types, what never to redact, extra patterns and
//! whether values are replaced reversibly. The JS options object is read by `options.rs` with
//! the core's option reader, as `Memory`'s options are; [`RedactorConfig::from_json`] reads the
//! same shape from JSON text.

mod options;
pub use options::{KEYS, PATTERN_KEYS};

use super::entity::EntityType;
use llm_memory_core::error::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};

/// How a detected value is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Mode {
    /// `[EMAIL_1]`, stable per value within a session and reversible through the vault.
    #[default]
    Placeholder,
    /// `[EMAIL]`: the type only. Nothing is kept, so nothing can be restored.
    Mask,
}

/// A user-declared recognizer: `{ name: "TICKET", regex: "TCK-\\d{6}", validate?: "luhn" }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CustomPattern {
    pub name: String,
    pub regex: String,
    /// A built-in validator applied to the match: see [`Validator::by_name`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validate: Option<String>,
    /// Confidence reported for matches; defaults to 1.0 (custom patterns are explicit intent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f32>,
}

/// Built-in checks a custom pattern may borrow by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Validator {
    Luhn,
    Iban,
    UsSsn,
    Ipv4,
    Ipv6,
    Base58Check,
    Bech32,
}

impl Validator {
    pub const NAMES: [&'static str; 7] = [
        "luhn",
        "iban",
        "usSsn",
        "ipv4",
        "ipv6",
        "base58check",
        "bech32",
    ];

    pub fn by_name(name: &str) -> Option<Validator> {
        Some(match name {
            "luhn" => Validator::Luhn,
            "iban" | "mod97" => Validator::Iban,
            "usSsn" | "ssn" => Validator::UsSsn,
            "ipv4" => Validator::Ipv4,
            "ipv6" => Validator::Ipv6,
            "base58check" => Validator::Base58Check,
            "bech32" => Validator::Bech32,
            _ => return None,
        })
    }

    pub fn check(self, value: &str) -> bool {
        use super::validate as v;
        match self {
            Validator::Luhn => v::luhn_digits(value),
            Validator::Iban => v::iban(value),
            Validator::UsSsn => v::us_ssn(value),
            Validator::Ipv4 => value.parse::<std::net::Ipv4Addr>().is_ok(),
            Validator::Ipv6 => value.parse::<std::net::Ipv6Addr>().is_ok(),
            Validator::Base58Check => v::crypto::base58check(value),
            Validator::Bech32 => v::crypto::bech32(value),
        }
    }
}

/// Options of a [`super::Redactor`]. `Default` enables every built-in type in placeholder mode.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RedactorConfig {
    /// Entity types to detect. `None` means every built-in type plus every custom pattern.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub types: Option<Vec<EntityType>>,
    /// Exact values (compared case-insensitively) that are never redacted, e.g. the support
    /// address the assistant is meant to mention.
    #[serde(default)]
    pub allow_list: Vec<String>,
    #[serde(default)]
    pub patterns: Vec<CustomPattern>,
    #[serde(default)]
    pub mode: Mode,
    /// Findings scoring below this are dropped. Context words lift weak patterns over it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_score: Option<f32>,
    /// The PII model, which adds names, addresses and numbers after a label that rules miss
    /// (see [`super::model`]). Set by code, not by JSON: the bindings take it from the
    /// options object.
    #[serde(skip)]
    pub model: Option<ModelOption>,
    /// A word counts for the model when its label's probability reaches this (default 0.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_threshold: Option<f32>,
}

/// A loaded model as a redactor option. Two options are equal when they hold the same model.
#[derive(Clone)]
pub struct ModelOption(pub std::sync::Arc<llm_memory_encoder::Tagger>);

impl PartialEq for ModelOption {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for ModelOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ModelOption({} labels)", self.0.labels().len())
    }
}

/// Default threshold: strong patterns score ≥ 0.5 alone, weak ones need a context word.
pub const DEFAULT_MIN_SCORE: f32 = 0.5;

impl RedactorConfig {
    /// Parses the JS options object (as JSON). Unknown keys, types and validators are
    /// `INVALID_OPTION` errors that name the culprit.
    pub fn from_json(json: &str) -> Result<RedactorConfig> {
        let value: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| Error::option(format!("redactor options are not JSON: {e}")))?;
        let tree = llm_memory_core::options::value::from_json(value);
        let (config, model) = RedactorConfig::parse(&tree, "redactor options")?;
        match model {
            // A loaded model is no JSON value: code sets `config.model`.
            Some(_) => Err(Error::option(
                "model cannot be given as JSON: set it in code",
            )),
            None => Ok(config),
        }
    }

    /// Checks what serde cannot: custom names, validator names, types that refer to custom
    /// patterns, and score ranges.
    pub fn check(&self) -> Result<()> {
        for p in &self.patterns {
            if !EntityType::is_valid_custom_name(&p.name) {
                return Err(Error::option(format!(
                    "pattern name {:?} must be upper-case letters, digits and '_' (like \"TICKET\") and not a built-in type",
                    p.name
                )));
            }
            if let Some(v) = &p.validate {
                if Validator::by_name(v).is_none() {
                    return Err(Error::option(format!(
                        "unknown validator {v:?} for pattern {:?}; expected one of {}",
                        p.name,
                        Validator::NAMES.join(", ")
                    )));
                }
            }
            if let Some(s) = p.score {
                if !(0.0..=1.0).contains(&s) {
                    return Err(Error::option(format!(
                        "score of pattern {:?} must be between 0 and 1",
                        p.name
                    )));
                }
            }
        }
        let mut names: Vec<&str> = self.patterns.iter().map(|p| p.name.as_str()).collect();
        names.sort_unstable();
        if names.windows(2).any(|w| w[0] == w[1]) {
            return Err(Error::option("two custom patterns share a name"));
        }
        if let Some(types) = &self.types {
            for t in types {
                if let EntityType::Custom(name) = t {
                    if !self.patterns.iter().any(|p| &p.name == name) {
                        let known = EntityType::BUILT_IN.iter().map(|t| t.as_str());
                        let known: Vec<&str> = known
                            .chain(self.patterns.iter().map(|p| p.name.as_str()))
                            .collect();
                        return Err(Error::option(format!(
                            "unknown entity type {name:?}: not built-in and not declared in patterns{}",
                            llm_memory_core::options::reader::did_you_mean(name, &known)
                        )));
                    }
                }
            }
        }
        if let Some(s) = self.min_score {
            if !(0.0..=1.0).contains(&s) {
                return Err(Error::option("minScore must be between 0 and 1"));
            }
        }
        if let Some(t) = self.model_threshold {
            if !(0.0..=1.0).contains(&t) {
                return Err(Error::option("modelThreshold must be between 0 and 1"));
            }
        }
        Ok(())
    }

    /// Whether detection of `t` is switched on.
    pub fn enables(&self, t: &EntityType) -> bool {
        match &self.types {
            None => true,
            Some(types) => types.contains(t),
        }
    }

    /// Every type name that may appear as a placeholder stem, longest first so the placeholder
    /// parser never stops at a shorter stem that is a prefix of a longer one.
    pub fn placeholder_stems(&self) -> Vec<String> {
        let mut stems: Vec<String> = EntityType::BUILT_IN
            .iter()
            .map(|t| t.as_str().to_string())
            .chain(self.patterns.iter().map(|p| p.name.clone()))
            .collect();
        stems.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        stems
    }
}

/// The error for a custom regex that does not compile.
pub(crate) fn invalid_pattern(name: &str, err: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::InvalidPattern,
        format!("pattern {name:?} does not compile: {err}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_shape() {
        let c = RedactorConfig::from_json(
            r#"{ "types": ["EMAIL","PHONE","TICKET"], "allowList": ["help@acme.com"],
                 "patterns": [{"name":"TICKET","regex":"TCK-\\d{6}"}], "mode": "placeholder" }"#,
        )
        .unwrap();
        assert!(c.enables(&EntityType::Email));
        assert!(!c.enables(&EntityType::Iban));
        assert!(c.enables(&EntityType::Custom("TICKET".into())));
        assert_eq!(c.mode, Mode::Placeholder);
        assert_eq!(
            RedactorConfig::from_json("{}").unwrap(),
            RedactorConfig::default()
        );
    }

    #[test]
    fn unknown_things_are_invalid_options() {
        for bad in [
            r#"{"types":["EMAIL","NOPE"]}"#,
            r#"{"colour":"red"}"#,
            r#"{"mode":"shred"}"#,
            r#"{"patterns":[{"name":"x","regex":"a"}]}"#,
            r#"{"patterns":[{"name":"X","regex":"a","validate":"crc"}]}"#,
            r#"{"patterns":[{"name":"X","regex":"a","bogus":1}]}"#,
            r#"{"minScore":2}"#,
            r#"{"modelThreshold":-0.1}"#,
            "[1]",
        ] {
            let err = RedactorConfig::from_json(bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidOption, "{bad}: {err}");
        }
    }

    #[test]
    fn stems_are_longest_first() {
        let stems = RedactorConfig::default().placeholder_stems();
        assert_eq!(stems[0], "FI_PERSONAL_IDENTITY_CODE");
        assert!(stems.windows(2).all(|w| w[0].len() >= w[1].len()));
        assert!(stems.contains(&"URL".to_string()));
    }
}
