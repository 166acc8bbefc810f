//! Long-term facts with Mem0-like operations: add, update, delete, and supersession. A fact
//! about the same subject as an older active fact ("my favorite color is green" after "my
//! favorite color is blue") supersedes it: the old one stays in the change trail but is no
//! longer current, so it is never recalled as true. Subjects are found with a small lexical
//! rule (the words before "is" / "are" / "lives in" ...), not a model; apps that know better
//! pass `subject` explicitly or run their own `extract` hook.

use super::fact_text::normalized;
pub use super::fact_text::subject_of;
use super::tokenize::terms;
use crate::error::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FactStatus {
    Active,
    /// Replaced by a newer fact on the same subject (`supersededBy`).
    Superseded,
    Deleted,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fact {
    pub id: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// 0..1, default 0.5. Weighs retrieval.
    pub importance: f64,
    /// Normalized subject words; facts with equal non-empty subjects supersede each other.
    pub subject: String,
    pub created_at: f64,
    pub updated_at: f64,
    pub status: FactStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// The turns it was extracted from (ids), empty for a fact the app stored itself:
    /// forgetting one of them forgets the fact too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ChangeOp {
    Add,
    Update,
    Supersede,
    Delete,
}

/// One line of a fact's change trail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FactChange {
    pub fact_id: String,
    pub op: ChangeOp,
    /// The fact's text after the change (before it, for a delete).
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_text: Option<String>,
    /// For a supersede: the newer fact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    pub at: f64,
}

/// A fact as stored with its session: the fact and its change trail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredFact {
    pub fact: Fact,
    pub changes: Vec<FactChange>,
}

/// What `remember` did, so the caller can update its indexes.
#[derive(Debug, Clone, PartialEq)]
pub struct Remembered {
    pub id: String,
    /// True when an active fact with the same text existed: nothing new was stored.
    pub duplicate: bool,
    pub superseded: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct NewFact {
    pub category: Option<String>,
    pub importance: Option<f64>,
    /// Overrides the subject found in the text.
    pub subject: Option<String>,
}

/// Largest fact accepted, in characters: a fact is a sentence, not a document.
pub const MAX_FACT_CHARS: usize = 4000;

#[derive(Debug, Clone, Default)]
pub struct FactStore {
    facts: Vec<Fact>,
    changes: Vec<FactChange>,
    next_seq: u64,
    /// See [`crate::history::ids`].
    prefix: String,
    /// Lookups that keep every operation independent of the number of facts.
    position: HashMap<String, usize>,
    /// Active facts by their normalized words (duplicates) and by subject (supersession).
    by_words: HashMap<String, usize>,
    by_subject: HashMap<String, Vec<usize>>,
    /// Positions in `changes` per fact.
    trail: HashMap<String, Vec<usize>>,
}

impl FactStore {
    pub fn new() -> Self {
        FactStore {
            next_seq: 1,
            prefix: String::new(),
            ..Default::default()
        }
    }

    fn log(&mut self, change: FactChange) {
        self.trail
            .entry(change.fact_id.clone())
            .or_default()
            .push(self.changes.len());
        self.changes.push(change);
    }

    /// Adds fact `i` to the active lookups.
    fn link(&mut self, i: usize) {
        let f = &self.facts[i];
        if f.status != FactStatus::Active {
            return;
        }
        self.by_words.insert(normalized(&f.text), i);
        if !f.subject.is_empty() {
            self.by_subject
                .entry(f.subject.clone())
                .or_default()
                .push(i);
        }
    }

    /// Removes fact `i` from the active lookups (before it changes or stops being current).
    fn unlink(&mut self, i: usize) {
        let f = &self.facts[i];
        let words = normalized(&f.text);
        if self.by_words.get(&words) == Some(&i) {
            self.by_words.remove(&words);
        }
        if let Some(list) = self.by_subject.get_mut(&f.subject) {
            list.retain(|&x| x != i);
            if list.is_empty() {
                self.by_subject.remove(&f.subject);
            }
        }
    }

    /// Stores a fact; supersedes active facts on the same subject (and category, when both
    /// have one). An active fact with the same words is returned instead of a copy.
    pub fn remember(&mut self, text: &str, opts: NewFact, now: f64) -> Result<Remembered> {
        let text = validate(text)?;
        let importance = check_importance(opts.importance)?;
        if let Some(&i) = self.by_words.get(&normalized(&text)) {
            let f = &mut self.facts[i];
            f.importance = f.importance.max(importance);
            return Ok(Remembered {
                id: f.id.clone(),
                duplicate: true,
                superseded: Vec::new(),
            });
        }
        let subject = match opts.subject {
            Some(s) => terms(&s).join(" "),
            None => subject_of(&text),
        };
        let id = crate::history::ids::mint(&self.prefix, "f", self.next_seq.max(1));
        self.next_seq = self.next_seq.max(1) + 1;
        let superseded = self.supersede(&subject, opts.category.as_deref(), &id, now);
        self.facts.push(Fact {
            id: id.clone(),
            text: text.clone(),
            category: opts.category,
            importance,
            subject,
            created_at: now,
            updated_at: now,
            status: FactStatus::Active,
            superseded_by: None,
            from: Vec::new(),
        });
        let i = self.facts.len() - 1;
        self.position.insert(id.clone(), i);
        self.link(i);
        self.log(FactChange {
            fact_id: id.clone(),
            op: ChangeOp::Add,
            text,
            previous_text: None,
            by: None,
            at: now,
        });
        Ok(Remembered {
            id,
            duplicate: false,
            superseded,
        })
    }

    fn supersede(
        &mut self,
        subject: &str,
        category: Option<&str>,
        by: &str,
        now: f64,
    ) -> Vec<String> {
        let Some(same) = self.by_subject.get(subject).cloned() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for i in same {
            let f = &self.facts[i];
            let same_category = match (category, f.category.as_deref()) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            };
            if f.id == by || !same_category {
                continue;
            }
            self.unlink(i);
            let f = &mut self.facts[i];
            f.status = FactStatus::Superseded;
            f.superseded_by = Some(by.to_string());
            f.updated_at = now;
            let change = FactChange {
                fact_id: f.id.clone(),
                op: ChangeOp::Supersede,
                text: f.text.clone(),
                previous_text: None,
                by: Some(by.to_string()),
                at: now,
            };
            out.push(f.id.clone());
            self.log(change);
        }
        out
    }

    /// Rewrites an active fact; the old text stays in its trail. Returns the facts it
    /// superseded (its new subject may match others).
    pub fn update(&mut self, id: &str, text: &str, now: f64) -> Result<Vec<String>> {
        let text = validate(text)?;
        let i = self.active_index(id)?;
        let subject = subject_of(&text);
        self.unlink(i);
        let f = &mut self.facts[i];
        let previous = std::mem::replace(&mut f.text, text.clone());
        f.updated_at = now;
        if !subject.is_empty() {
            f.subject = subject;
        }
        let (subject, category) = (f.subject.clone(), f.category.clone());
        self.log(FactChange {
            fact_id: id.to_string(),
            op: ChangeOp::Update,
            text,
            previous_text: Some(previous),
            by: None,
            at: now,
        });
        let superseded = self.supersede(&subject, category.as_deref(), id, now);
        self.link(i);
        Ok(superseded)
    }

    /// Deletes an active fact (it stays in the trail).
    /// Forgets a fact, current or superseded: its words are erased from the fact and from
    /// every step of its trail (what the user asked to forget must not stay in `history`, an
    /// export or storage); the trail keeps when and what happened.
    pub fn delete(&mut self, id: &str, now: f64) -> Result<()> {
        let i = match self.position.get(id) {
            Some(&i) if self.facts[i].status != FactStatus::Deleted => i,
            Some(_) => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!("fact {id:?} was forgotten already"),
                ))
            }
            None => {
                return Err(Error::new(
                    ErrorCode::NotFound,
                    format!("no fact with id {id:?}"),
                ))
            }
        };
        if self.facts[i].status == FactStatus::Active {
            self.unlink(i);
        }
        let f = &mut self.facts[i];
        f.status = FactStatus::Deleted;
        f.updated_at = now;
        f.text.clear();
        for &c in self.trail.get(id).into_iter().flatten() {
            self.changes[c].text.clear();
            self.changes[c].previous_text = None;
        }
        self.log(FactChange {
            fact_id: id.to_string(),
            op: ChangeOp::Delete,
            text: String::new(),
            previous_text: None,
            by: None,
            at: now,
        });
        Ok(())
    }

    fn active_index(&self, id: &str) -> Result<usize> {
        match self.position.get(id) {
            Some(&i) if self.facts[i].status == FactStatus::Active => Ok(i),
            Some(_) => Err(Error::new(
                ErrorCode::NotFound,
                format!(
                    "fact {id:?} is no longer current (superseded or deleted); see history({id:?})"
                ),
            )),
            None => Err(Error::new(
                ErrorCode::NotFound,
                format!("no fact with id {id:?}"),
            )),
        }
    }

    /// Records that fact `id` came from the turns `from` (an extraction over them).
    pub fn add_sources(&mut self, id: &str, from: &[String]) {
        if let Some(&i) = self.position.get(id) {
            let f = &mut self.facts[i];
            for t in from {
                if !f.from.contains(t) {
                    f.from.push(t.clone());
                }
            }
        }
    }

    /// Facts not yet forgotten that came from any of `turns`.
    pub fn derived_from(&self, turns: &rustc_hash::FxHashSet<&str>) -> Vec<String> {
        self.facts
            .iter()
            .filter(|f| f.status != FactStatus::Deleted)
            .filter(|f| f.from.iter().any(|t| turns.contains(t.as_str())))
            .map(|f| f.id.clone())
            .collect()
    }

    pub fn get(&self, id: &str) -> Option<&Fact> {
        self.position.get(id).map(|&i| &self.facts[i])
    }

    pub fn contains(&self, id: &str) -> bool {
        self.position.contains_key(id)
    }

    /// Every fact ever stored, current or not, oldest first.
    pub fn all(&self) -> &[Fact] {
        &self.facts
    }

    pub fn active(&self) -> impl Iterator<Item = &Fact> {
        self.facts.iter().filter(|f| f.status == FactStatus::Active)
    }

    /// The change trail of a fact, oldest first.
    pub fn history(&self, id: &str) -> Result<Vec<FactChange>> {
        if !self.contains(id) {
            return Err(Error::new(
                ErrorCode::NotFound,
                format!("no fact with id {id:?}"),
            ));
        }
        Ok(self
            .trail
            .get(id)
            .map(|t| t.iter().map(|&c| self.changes[c].clone()).collect())
            .unwrap_or_default())
    }

    pub fn changes(&self) -> &[FactChange] {
        &self.changes
    }

    /// Ids from now on are `prefix + "f" + n` (see [`crate::history::ids`]).
    pub fn set_prefix(&mut self, prefix: &str) {
        self.prefix = prefix.to_string();
    }

    /// Puts back a stored fact and its trail (persistence, import, another tab), replacing a
    /// fact with the same id.
    pub fn reload(&mut self, fact: Fact, changes: Vec<FactChange>) {
        if let Some(seq) = crate::history::ids::seq_of(&fact.id, &self.prefix, "f") {
            self.next_seq = self.next_seq.max(seq + 1);
        }
        let i = match self.position.get(&fact.id) {
            Some(&i) => {
                self.unlink(i);
                self.facts[i] = fact;
                i
            }
            None => {
                self.facts.push(fact);
                let i = self.facts.len() - 1;
                self.position.insert(self.facts[i].id.clone(), i);
                i
            }
        };
        self.link(i);
        let id = self.facts[i].id.clone();
        // The stored trail replaces ours; positions left behind in `changes` go unused.
        self.trail.remove(&id);
        for c in changes {
            self.log(c);
        }
    }
}

fn validate(text: &str) -> Result<String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(Error::new(ErrorCode::InvalidEntry, "a fact needs text"));
    }
    let n = t.chars().count();
    if n > MAX_FACT_CHARS {
        return Err(Error::new(
            ErrorCode::EntryTooLarge,
            format!("a fact has at most {MAX_FACT_CHARS} characters, this one {n}: store one statement per fact"),
        ));
    }
    Ok(t.to_string())
}

fn check_importance(i: Option<f64>) -> Result<f64> {
    match i {
        None => Ok(0.5),
        Some(x) if (0.0..=1.0).contains(&x) => Ok(x),
        Some(x) => Err(Error::option(format!(
            "importance must be between 0 and 1, got {x}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects() {
        assert_eq!(subject_of("My favorite color is blue"), "favorite color");
        assert_eq!(
            subject_of("Actually, the user's favorite color is now green."),
            "favorite color"
        );
        assert_eq!(subject_of("I live in Lisbon"), "live");
        assert_eq!(subject_of("Riley works at Acme"), "riley work");
        assert_eq!(subject_of("Loves hiking"), "");
    }

    #[test]
    fn newer_fact_on_the_same_subject_supersedes() {
        let mut s = FactStore::new();
        let a = s
            .remember("My favorite color is blue", NewFact::default(), 1.0)
            .unwrap();
        let b = s
            .remember("My favorite color is green", NewFact::default(), 2.0)
            .unwrap();
        assert_eq!(b.superseded, vec![a.id.clone()]);
        let active: Vec<&str> = s.active().map(|f| f.text.as_str()).collect();
        assert_eq!(active, vec!["My favorite color is green"]);
        let trail = s.history(&a.id).unwrap();
        assert_eq!(trail.len(), 2);
        assert_eq!(trail[1].op, ChangeOp::Supersede);
        assert_eq!(trail[1].by.as_deref(), Some(b.id.as_str()));
        // Other subjects are untouched; the same words are not stored twice.
        s.remember("My dog is called Rex", NewFact::default(), 3.0)
            .unwrap();
        let again = s
            .remember("my favorite color is GREEN!", NewFact::default(), 4.0)
            .unwrap();
        assert!(again.duplicate);
        assert_eq!(s.active().count(), 2);
    }

    #[test]
    fn a_negation_is_not_the_same_words() {
        let mut s = FactStore::new();
        for (first, second) in [
            ("I like coffee", "I don't like coffee"),
            ("The user is vegetarian", "The user is not vegetarian"),
            ("Sam eats meat", "Sam never eats meat"),
            ("I can swim", "I can\u{2019}t swim"),
        ] {
            let a = s.remember(first, NewFact::default(), 1.0).unwrap();
            let b = s.remember(second, NewFact::default(), 2.0).unwrap();
            assert!(!b.duplicate, "{second:?} is a new fact, not {first:?}");
            assert_ne!(a.id, b.id);
        }
        // The same negation in other words is still the same fact.
        let c = s
            .remember("I do not like coffee", NewFact::default(), 3.0)
            .unwrap();
        assert!(c.duplicate);
    }

    #[test]
    fn categories_keep_subjects_apart() {
        let mut s = FactStore::new();
        let work = NewFact {
            category: Some("work".into()),
            ..Default::default()
        };
        let home = NewFact {
            category: Some("home".into()),
            ..Default::default()
        };
        s.remember("Address is 1 Main St", work, 1.0).unwrap();
        let r = s.remember("Address is 9 Elm St", home, 2.0).unwrap();
        assert!(r.superseded.is_empty());
    }

    #[test]
    fn update_delete_and_errors() {
        let mut s = FactStore::new();
        let a = s
            .remember("Allergic to peanuts", NewFact::default(), 1.0)
            .unwrap()
            .id;
        s.update(&a, "Allergic to peanuts and shellfish", 2.0)
            .unwrap();
        assert_eq!(s.get(&a).unwrap().text, "Allergic to peanuts and shellfish");
        s.delete(&a, 3.0).unwrap();
        assert_eq!(s.delete(&a, 4.0).unwrap_err().code, ErrorCode::NotFound);
        assert_eq!(
            s.update("f99", "x", 4.0).unwrap_err().code,
            ErrorCode::NotFound
        );
        let ops: Vec<ChangeOp> = s.history(&a).unwrap().iter().map(|c| c.op).collect();
        assert_eq!(ops, vec![ChangeOp::Add, ChangeOp::Update, ChangeOp::Delete]);
        assert!(s.remember("  ", NewFact::default(), 1.0).is_err());
        let bad = NewFact {
            importance: Some(2.0),
            ..Default::default()
        };
        assert!(s.remember("x", bad, 1.0).is_err());
    }
}
