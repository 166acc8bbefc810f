//! The option values a caller hands over, as a small tree without JS in it: the face turns a JS
//! value into an `OptValue` and the core reads it. Functions and objects carry a `Handle`, the
//! index of the original in the face's list, so the core can say "this callback" or "this
//! tokenizer" and the face finds the JS value again.

/// The index of a function or object in the list the face kept while converting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handle(pub usize);

/// A JS value as the option readers see it. `undefined` and `null` both mean "not given";
/// they stay apart only because error messages describe them as JS does.
#[derive(Debug, Clone, PartialEq)]
pub enum OptValue {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<OptValue>),
    /// An object's own enumerable fields, in the order `Object.keys` gives them. Class
    /// instances (a `Tokenizer`, a `CryptoKey`) are objects too: the face checks their class.
    Object(Handle, Vec<(String, OptValue)>),
    Function(Handle),
    /// A value of another JS type (a symbol, a BigInt), by its `typeof`.
    Other(String),
}

impl OptValue {
    /// `undefined` and `null` read as a missing option.
    pub fn is_absent(&self) -> bool {
        matches!(self, OptValue::Undefined | OptValue::Null)
    }

    /// What JS `typeof` says of it.
    pub fn type_of(&self) -> &str {
        match self {
            OptValue::Undefined => "undefined",
            OptValue::Bool(_) => "boolean",
            OptValue::Number(_) => "number",
            OptValue::String(_) => "string",
            OptValue::Function(_) => "function",
            OptValue::Null | OptValue::Array(_) | OptValue::Object(..) => "object",
            OptValue::Other(t) => t,
        }
    }

    /// A short description for error messages: `the string "2000"`, `-5`, or the `typeof`.
    pub fn describe(&self) -> String {
        match self {
            OptValue::String(s) => format!("the string {:?}", crate::error::truncate(s, 30)),
            OptValue::Number(n) => n.to_string(),
            other => other.type_of().to_string(),
        }
    }
}

/// Values written as JSON (options given as JSON text, tests): objects get handles in the
/// order they are met.
pub fn from_json(v: serde_json::Value) -> OptValue {
    fn walk(v: serde_json::Value, next: &mut usize) -> OptValue {
        match v {
            serde_json::Value::Null => OptValue::Null,
            serde_json::Value::Bool(b) => OptValue::Bool(b),
            serde_json::Value::Number(n) => OptValue::Number(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(s) => OptValue::String(s),
            serde_json::Value::Array(a) => {
                OptValue::Array(a.into_iter().map(|v| walk(v, next)).collect())
            }
            serde_json::Value::Object(o) => {
                let handle = Handle(*next);
                *next += 1;
                let fields = o.into_iter().map(|(k, v)| (k, walk(v, next))).collect();
                OptValue::Object(handle, fields)
            }
        }
    }
    walk(v, &mut 0)
}

/// `from_json(base)` with `key` set to `value` (a function, NaN: what JSON cannot write).
#[cfg(test)]
pub fn with(base: serde_json::Value, key: &str, value: OptValue) -> OptValue {
    let OptValue::Object(h, mut fields) = from_json(base) else {
        panic!("with() takes an object");
    };
    fields.retain(|(k, _)| k != key);
    fields.push((key.to_string(), value));
    OptValue::Object(h, fields)
}
