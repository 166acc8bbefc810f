//! Reads option objects field by field, so that a wrong type or an unknown key fails with a
//! message naming the option (`maxTokens must be a non-negative integer, got -5`), rather than a
//! generic deserialization error. Every refusal is `INVALID_OPTION`.

use super::value::{Handle, OptValue};
use crate::error::{Error, Result};

pub struct Opts<'a> {
    fields: Option<&'a [(String, OptValue)]>,
    handle: Option<Handle>,
    what: &'a str,
    /// The keys `check_keys` allowed: reading another one is a bug in the reader (a key the
    /// declaration and the `.d.ts` do not have), caught by the tests.
    #[cfg(debug_assertions)]
    known: std::cell::RefCell<Vec<&'a str>>,
}

impl<'a> Opts<'a> {
    /// `undefined` and `null` read as an empty object.
    pub fn new(value: &'a OptValue, what: &'a str) -> Result<Opts<'a>> {
        let (fields, handle) = match value {
            OptValue::Undefined | OptValue::Null => (None, None),
            OptValue::Object(h, f) => (Some(f.as_slice()), Some(*h)),
            _ => return Err(Error::option(format!("{what} must be an object"))),
        };
        Ok(Opts {
            fields,
            handle,
            what,
            #[cfg(debug_assertions)]
            known: Default::default(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_none()
    }

    /// The object itself, for a face that hands it on whole (Redactor options).
    pub fn handle(&self) -> Option<Handle> {
        self.handle
    }

    /// The raw value; `None` for a missing, undefined or null field.
    pub fn get(&self, key: &str) -> Option<&'a OptValue> {
        #[cfg(debug_assertions)]
        {
            let known = self.known.borrow();
            debug_assert!(
                known.is_empty() || known.contains(&key),
                "{key} is read from {} but not declared",
                self.what
            );
        }
        let fields = self.fields?;
        let (_, v) = fields.iter().find(|(k, _)| k == key)?;
        (!v.is_absent()).then_some(v)
    }

    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn uint(&self, key: &str) -> Result<Option<usize>> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        match v {
            OptValue::Number(n)
                if n.is_finite() && *n >= 0.0 && n.fract() == 0.0 && *n <= u32::MAX as f64 =>
            {
                Ok(Some(*n as usize))
            }
            _ => Err(Error::option(format!(
                "{key} must be a non-negative integer, got {}",
                v.describe()
            ))),
        }
    }

    pub fn number(&self, key: &str) -> Result<Option<f64>> {
        match self.get(key) {
            None => Ok(None),
            Some(OptValue::Number(n)) if n.is_finite() => Ok(Some(*n)),
            Some(v) => Err(Error::option(format!(
                "{key} must be a finite number, got {}",
                v.describe()
            ))),
        }
    }

    /// A number above zero, refused with `message` otherwise (a duration, a half-life).
    pub fn positive(&self, key: &str, message: &str) -> Result<Option<f64>> {
        match self.number(key)? {
            Some(x) if x <= 0.0 => Err(Error::option(message)),
            x => Ok(x),
        }
    }

    /// A number from 0 to 1 (a share, a weight, an importance), kept as given.
    pub fn unit(&self, key: &str) -> Result<Option<f64>> {
        match self.number(key)? {
            Some(x) if !(0.0..=1.0).contains(&x) => Err(Error::option(format!(
                "{key} must be between 0 and 1, got {x}"
            ))),
            x => Ok(x),
        }
    }

    pub fn string(&self, key: &str) -> Result<Option<String>> {
        match self.get(key) {
            None => Ok(None),
            Some(OptValue::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(Error::option(format!(
                "{key} must be a string, got {}",
                v.describe()
            ))),
        }
    }

    pub fn boolean(&self, key: &str) -> Result<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(OptValue::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(Error::option(format!(
                "{key} must be true or false, got {}",
                v.describe()
            ))),
        }
    }

    /// A callback, as the handle the face finds it by.
    pub fn function(&self, key: &str) -> Result<Option<Handle>> {
        match self.get(key) {
            None => Ok(None),
            Some(OptValue::Function(h)) => Ok(Some(*h)),
            Some(v) => Err(Error::option(format!(
                "{key} must be a function, got {}",
                v.describe()
            ))),
        }
    }

    /// A class instance the face checks (a `Tokenizer`, an `EmbedModel`): any object or
    /// function passes here; anything else is refused with `message`.
    pub fn instance(&self, key: &str, message: &str) -> Result<Option<Handle>> {
        match self.get(key) {
            None => Ok(None),
            Some(OptValue::Object(h, _) | OptValue::Function(h)) => Ok(Some(*h)),
            Some(_) => Err(Error::option(message)),
        }
    }

    /// A nested options object, named by its key in messages.
    pub fn object(&self, key: &'a str) -> Result<Opts<'a>> {
        const ABSENT: &OptValue = &OptValue::Undefined;
        Opts::new(self.get(key).unwrap_or(ABSENT), key)
    }

    /// Fails on keys outside `known`, suggesting the closest known one (typos like `maxToken`).
    pub fn check_keys(&self, known: &[&'a str]) -> Result<()> {
        #[cfg(debug_assertions)]
        self.known.borrow_mut().extend_from_slice(known);
        let Some(fields) = self.fields else {
            return Ok(());
        };
        match fields
            .iter()
            .find(|(key, _)| !known.contains(&key.as_str()))
        {
            Some((key, _)) => Err(unknown_key(key, known, self.what)),
            None => Ok(()),
        }
    }
}

/// The error for `key`, not among `known` in `what`, suggesting the closest known one.
pub fn unknown_key(key: &str, known: &[&str], what: &str) -> Error {
    let hint = did_you_mean(key, known);
    Error::option(format!(
        "unknown option {key:?} in {what}{hint}; known options: {}",
        known.join(", ")
    ))
}

/// " (did you mean X?)" for the name in `known` closest to `name`, when one is close; empty
/// otherwise.
pub fn did_you_mean(name: &str, known: &[&str]) -> String {
    known
        .iter()
        .min_by_key(|k| edit_distance(k, name))
        .filter(|k| edit_distance(k, name) <= 3)
        .map(|k| format!(" (did you mean {k}?)"))
        .unwrap_or_default()
}

/// Levenshtein distance, ignoring ASCII case (`maxtokens` is `maxTokens`).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(!ca.eq_ignore_ascii_case(cb));
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
