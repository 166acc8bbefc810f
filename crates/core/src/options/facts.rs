//! The options of the long-term memory calls: `remember`, `recall` and `facts`.

use super::reader::Opts;
use super::value::OptValue;
use crate::error::{Error, Result};
use crate::recall::facts::NewFact;
use crate::recall::ItemKind;

js_options! {
    pub struct RememberOptionsSpec as "RememberOptions" {
        category: "string",
        /// 0..1 (default 0.5); weighs retrieval.
        importance: "number",
        /// What the fact is about; facts with the same subject supersede each other (default:
        /// found in the text).
        subject: "string",
    }
}

js_options! {
    pub struct FactsOptionsSpec as "FactsOptions" {
        /// Also the superseded and deleted facts (default false).
        all: "boolean",
    }
}

js_options! {
    pub struct RecallOptionsSpec as "RecallOptions" {
        /// Results (default 5).
        k: "number",
        kinds: "(\"turn\" | \"fact\" | \"episode\")[]",
        /// Only facts in this category.
        category: "string",
    }
}

/// Results `recall` gives without `k`.
pub const DEFAULT_RECALL_K: usize = 5;

/// `remember(text, options)`'s options.
pub fn remember_options(value: &OptValue) -> Result<NewFact> {
    let o = Opts::new(value, "remember options")?;
    o.check_keys(RememberOptionsSpec::KEYS)?;
    Ok(NewFact {
        category: o.string("category")?,
        importance: o.unit("importance")?,
        subject: o.string("subject")?,
    })
}

/// `facts({ all })`: whether to list superseded and deleted facts too.
pub fn facts_all(value: &OptValue) -> Result<bool> {
    let o = Opts::new(value, "facts options")?;
    o.check_keys(FactsOptionsSpec::KEYS)?;
    Ok(o.boolean("all")?.unwrap_or(false))
}

/// `recall(query, options)`'s options.
#[derive(Debug, Clone, PartialEq)]
pub struct RecallOptions {
    pub k: usize,
    /// Empty: every kind.
    pub kinds: Vec<ItemKind>,
    pub category: Option<String>,
}

impl RecallOptions {
    pub fn parse(value: &OptValue) -> Result<Self> {
        let o = Opts::new(value, "recall options")?;
        o.check_keys(RecallOptionsSpec::KEYS)?;
        Ok(RecallOptions {
            k: o.uint("k")?.unwrap_or(DEFAULT_RECALL_K),
            category: o.string("category")?,
            kinds: kinds(o.get("kinds"))?,
        })
    }
}

fn kinds(v: Option<&OptValue>) -> Result<Vec<ItemKind>> {
    let items = match v {
        None => return Ok(Vec::new()),
        Some(OptValue::Array(items)) => items,
        Some(_) => {
            return Err(Error::option(
                "kinds must be an array of \"turn\", \"fact\", \"episode\"",
            ))
        }
    };
    items
        .iter()
        .map(|k| {
            let kind = match k {
                OptValue::String(s) => ItemKind::parse(s),
                _ => None,
            };
            kind.ok_or_else(|| {
                Error::option(format!(
                    "kinds must hold \"turn\", \"fact\" or \"episode\", got {}",
                    k.describe()
                ))
            })
        })
        .collect()
}

js_options! {
    pub struct EpisodeRecallOptionsSpec as "EpisodeRecallOptions" {
        /// Episodes (default 3, at most 1000).
        k: "number",
    }
}

/// Episodes `recallEpisodes` gives without `k`.
pub const DEFAULT_EPISODE_K: usize = 3;

/// `recallEpisodes(situation, { k })`'s `k`: a whole number from 1 to 1000, 3 when left out.
/// The options are an object as `recall`'s are; a bare number (an older form) is refused with
/// the form to write.
pub fn episode_count(value: &OptValue) -> Result<usize> {
    if let OptValue::Number(n) = value {
        return Err(Error::option(format!(
            "recallEpisodes takes its options as an object, as recall does: write recallEpisodes(situation, {{ k: {n} }})"
        )));
    }
    let o = Opts::new(value, "recallEpisodes options")?;
    o.check_keys(EpisodeRecallOptionsSpec::KEYS)?;
    match o.uint("k")? {
        None => Ok(DEFAULT_EPISODE_K),
        Some(k) if (1..=1000).contains(&k) => Ok(k),
        Some(k) => Err(Error::option(format!("k must be from 1 to 1000, got {k}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::value::{from_json, with};
    use serde_json::json;

    fn message(r: Result<impl std::fmt::Debug>) -> String {
        let e = r.unwrap_err();
        assert_eq!(e.code, crate::ErrorCode::InvalidOption);
        e.message
    }

    #[test]
    fn remember_reads_category_importance_and_subject() {
        let f = remember_options(&from_json(
            json!({ "category": "health", "importance": 0.9, "subject": "x" }),
        ));
        let f = f.unwrap();
        assert_eq!(
            (f.category.as_deref(), f.importance, f.subject.as_deref()),
            (Some("health"), Some(0.9), Some("x"))
        );
        assert_eq!(
            remember_options(&OptValue::Undefined).unwrap().importance,
            None
        );
        let m = message(remember_options(&from_json(json!({ "importance": 2 }))));
        assert_eq!(m, "importance must be between 0 and 1, got 2");
        let nan = with(json!({}), "importance", OptValue::Number(f64::NAN));
        assert_eq!(
            message(remember_options(&nan)),
            "importance must be a finite number, got NaN"
        );
        let m = message(remember_options(&from_json(json!({ "categry": "a" }))));
        assert!(m.contains("(did you mean category?)"), "{m}");
    }

    #[test]
    fn recall_reads_k_kinds_and_category() {
        let r = RecallOptions::parse(&from_json(
            json!({ "k": 3, "kinds": ["fact", "turn"], "category": "c" }),
        ));
        let r = r.unwrap();
        assert_eq!(
            (r.k, r.kinds, r.category.as_deref()),
            (3, vec![ItemKind::Fact, ItemKind::Turn], Some("c"))
        );
        let r = RecallOptions::parse(&from_json(json!({ "kinds": null }))).unwrap();
        assert_eq!((r.k, r.kinds.len()), (DEFAULT_RECALL_K, 0));
        let cases = [
            (
                json!({ "k": -1 }),
                "k must be a non-negative integer, got -1",
            ),
            (
                json!({ "k": 2.5 }),
                "k must be a non-negative integer, got 2.5",
            ),
            (
                json!({ "kinds": "fact" }),
                "kinds must be an array of \"turn\", \"fact\", \"episode\"",
            ),
            (
                json!({ "kinds": ["facts"] }),
                "kinds must hold \"turn\", \"fact\" or \"episode\", got the string \"facts\"",
            ),
            (
                json!({ "kinds": [null] }),
                "kinds must hold \"turn\", \"fact\" or \"episode\", got object",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(message(RecallOptions::parse(&from_json(input))), expected);
        }
    }

    #[test]
    fn facts_reads_all() {
        assert!(facts_all(&from_json(json!({ "all": true }))).unwrap());
        assert!(!facts_all(&OptValue::Null).unwrap());
        assert_eq!(
            message(facts_all(&from_json(json!({ "all": 1 })))),
            "all must be true or false, got 1"
        );
        assert_eq!(
            message(facts_all(&from_json(json!(true)))),
            "facts options must be an object"
        );
    }

    #[test]
    fn an_episode_count_is_k_from_one_to_a_thousand() {
        let count = |v| episode_count(&from_json(v));
        assert_eq!(episode_count(&OptValue::Undefined).unwrap(), 3);
        assert_eq!(count(json!(null)).unwrap(), 3);
        assert_eq!(count(json!({})).unwrap(), 3);
        assert_eq!(count(json!({ "k": 7 })).unwrap(), 7);
        for bad in [json!(0), json!(1.5), json!(1001), json!("3")] {
            assert!(
                message(count(json!({ "k": bad }))).contains("k must"),
                "{bad}"
            );
        }
        assert!(message(count(json!({ "kk": 2 }))).contains("did you mean k?"));
        let bare = message(count(json!(2)));
        assert!(
            bare.contains("recallEpisodes(situation, { k: 2 })"),
            "{bare}"
        );
    }
}
