//! `RedactorOptions` read with the core's option reader, as `Memory`'s options are: an unknown
//! key names the closest known one ("did you mean"), a wrong value names its path in JS terms
//! (`patterns[0].regex must be a string`), and every refusal is `INVALID_OPTION`. The keys are
//! the ones `redactor.d.ts` declares (checked in `typescript_tests.rs`).

use super::{CustomPattern, Mode, RedactorConfig};
use crate::entity::EntityType;
use llm_memory_core::error::{Error, Result};
use llm_memory_core::options::reader::{did_you_mean, Opts};
use llm_memory_core::options::{Handle, OptValue};

/// `RedactorOptions`' keys.
pub const KEYS: &[&str] = &[
    "types",
    "allowList",
    "patterns",
    "mode",
    "minScore",
    "model",
    "modelThreshold",
];

/// `CustomPattern`'s keys.
pub const PATTERN_KEYS: &[&str] = &["name", "regex", "validate", "score"];

impl RedactorConfig {
    /// Reads and checks the options object; also returns the handle of `model`, a class
    /// instance the face resolves (`NerModel`).
    pub fn parse(value: &OptValue, what: &str) -> Result<(RedactorConfig, Option<Handle>)> {
        let o = Opts::new(value, what)?;
        o.check_keys(KEYS)?;
        let config = RedactorConfig {
            types: match o.get("types") {
                None => None,
                Some(v) => Some(
                    strings(v, "types")?
                        .iter()
                        .map(|t| entity_type(t))
                        .collect::<Result<_>>()?,
                ),
            },
            allow_list: match o.get("allowList") {
                None => Vec::new(),
                Some(v) => strings(v, "allowList")?,
            },
            patterns: match o.get("patterns") {
                None => Vec::new(),
                Some(v) => patterns(v)?,
            },
            mode: match o.string("mode")?.as_deref() {
                None | Some("placeholder") => Mode::Placeholder,
                Some("mask") => Mode::Mask,
                Some(other) => {
                    return Err(Error::option(format!(
                        "mode must be \"placeholder\" or \"mask\", got {other:?}"
                    )))
                }
            },
            min_score: o.unit("minScore")?.map(|s| s as f32),
            model: None,
            model_threshold: o.unit("modelThreshold")?.map(|s| s as f32),
        };
        config.check()?;
        let model = o.instance(
            "model",
            "model must be a NerModel (NerModel.fromUrl or fromBytes)",
        )?;
        Ok((config, model))
    }
}

fn items<'a>(v: &'a OptValue, key: &str) -> Result<&'a [OptValue]> {
    match v {
        OptValue::Array(items) => Ok(items),
        other => Err(Error::option(format!(
            "{key} must be an array, got {}",
            other.describe()
        ))),
    }
}

fn strings(v: &OptValue, key: &str) -> Result<Vec<String>> {
    items(v, key)?
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            OptValue::String(s) => Ok(s.clone()),
            other => Err(Error::option(format!(
                "{key}[{i}] must be a string, got {}",
                other.describe()
            ))),
        })
        .collect()
}

/// A name in `types`: a built-in type (any case), or a custom pattern's name (checked against
/// the declared patterns by `check`, which suggests the closest name).
fn entity_type(name: &str) -> Result<EntityType> {
    if let Some(t) = EntityType::built_in(name) {
        return Ok(t);
    }
    if EntityType::is_valid_custom_name(name) {
        return Ok(EntityType::Custom(name.to_string()));
    }
    let known: Vec<&str> = EntityType::BUILT_IN.iter().map(|t| t.as_str()).collect();
    Err(Error::option(format!(
        "unknown entity type {name:?} in types{}; expected a built-in type or a custom pattern's name (upper case)",
        did_you_mean(name, &known)
    )))
}

fn patterns(v: &OptValue) -> Result<Vec<CustomPattern>> {
    let mut out = Vec::new();
    for (i, item) in items(v, "patterns")?.iter().enumerate() {
        let at = format!("patterns[{i}]");
        if !matches!(item, OptValue::Object(..)) {
            return Err(Error::option(format!(
                "{at} must be an object such as {{ name: \"TICKET\", regex: \"TCK-\\\\d{{6}}\" }}, got {}",
                item.describe()
            )));
        }
        let o = Opts::new(item, &at)?;
        o.check_keys(PATTERN_KEYS)?;
        let field = |e: Error| Error::option(format!("{at}.{}", e.message));
        let required = |key: &str| -> Result<String> {
            o.string(key)
                .map_err(field)?
                .ok_or_else(|| Error::option(format!("{at}.{key} is required")))
        };
        out.push(CustomPattern {
            name: required("name")?,
            regex: required("regex")?,
            validate: o.string("validate").map_err(field)?,
            score: o.unit("score").map_err(field)?.map(|s| s as f32),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use llm_memory_core::options::value::from_json;
    use serde_json::json;

    fn refused(v: serde_json::Value) -> String {
        let e = RedactorConfig::parse(&from_json(v), "Redactor options").unwrap_err();
        assert_eq!(e.code, llm_memory_core::error::ErrorCode::InvalidOption);
        e.message
    }

    #[test]
    fn every_refusal_names_the_option_in_js_terms() {
        let cases = [
            (
                json!({ "typs": [] }),
                "unknown option \"typs\" in Redactor options (did you mean types?)",
            ),
            (
                json!({ "types": "EMAIL" }),
                "types must be an array, got the string \"EMAIL\"",
            ),
            (json!({ "types": ["EMIAL"] }), "(did you mean EMAIL?)"),
            (
                json!({ "types": ["e-mail"] }),
                "unknown entity type \"e-mail\" in types (did you mean EMAIL?)",
            ),
            (
                json!({ "patterns": [{ "name": "TICKET", "regx": "x" }] }),
                "unknown option \"regx\" in patterns[0] (did you mean regex?)",
            ),
            (
                json!({ "patterns": [{ "name": "TICKET", "regex": 5 }] }),
                "patterns[0].regex must be a string, got 5",
            ),
            (
                json!({ "patterns": [{ "regex": "x" }] }),
                "patterns[0].name is required",
            ),
            (
                json!({ "patterns": ["x"] }),
                "patterns[0] must be an object",
            ),
            (
                json!({ "mode": "masked" }),
                "mode must be \"placeholder\" or \"mask\", got \"masked\"",
            ),
            (
                json!({ "minScore": 2 }),
                "minScore must be between 0 and 1, got 2",
            ),
            (
                json!({ "allowList": ["a", 1] }),
                "allowList[1] must be a string, got 1",
            ),
            (json!(["EMAIL"]), "Redactor options must be an object"),
        ];
        for (input, expected) in cases {
            let message = refused(input.clone());
            assert!(message.contains(expected), "{input}: {message}");
        }
    }

    #[test]
    fn options_read_into_the_config_and_the_model_handle() {
        let v = from_json(json!({
            "types": ["email", "TICKET"],
            "allowList": ["help@example.com"],
            "patterns": [{ "name": "TICKET", "regex": "TCK-\\d+", "score": 0.9 }],
            "mode": "mask",
            "minScore": 0.4,
            "model": {},
        }));
        let (c, model) = RedactorConfig::parse(&v, "Redactor options").unwrap();
        assert_eq!(
            c.types,
            Some(vec![EntityType::Email, EntityType::Custom("TICKET".into())])
        );
        assert_eq!(c.allow_list, ["help@example.com"]);
        assert_eq!((c.mode, c.min_score), (Mode::Mask, Some(0.4)));
        assert_eq!(c.patterns[0].score, Some(0.9));
        assert!(model.is_some());
        assert!(
            RedactorConfig::from_json(r#"{"model":{}}"#).is_err(),
            "a model is no JSON value"
        );
    }
}
