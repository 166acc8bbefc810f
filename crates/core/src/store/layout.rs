//! Where records live in a store: the storage kinds, the key layout of key-value stores
//! (`llm-memory/<session>/r/<kind>/<id>` per record, `llm-memory/<session>/meta`), and what a
//! damaged stored record or meta says. Session names are escaped so that `/` in a name cannot
//! reach another session's keys. The JS face's backends do the I/O.

use super::records::{parse_stored, Stored};
use super::SessionMeta;
use crate::error::{Error, ErrorCode, Result};

/// Where a session is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageKind {
    /// This JS realm only (Node, tests).
    Memory,
    LocalStorage,
    IndexedDb,
}

impl StorageKind {
    pub fn parse(s: &str) -> Result<StorageKind> {
        match s {
            "memory" => Ok(StorageKind::Memory),
            "localstorage" | "localStorage" => Ok(StorageKind::LocalStorage),
            "indexeddb" | "indexedDB" => Ok(StorageKind::IndexedDb),
            other => Err(Error::option(format!(
                "unknown storage {other:?}: use \"indexeddb\", \"localstorage\" or \"memory\""
            ))),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            StorageKind::Memory => "memory",
            StorageKind::LocalStorage => "localstorage",
            StorageKind::IndexedDb => "indexeddb",
        }
    }
}

const PREFIX: &str = "llm-memory/";

fn escape(s: &str) -> String {
    s.replace('%', "%25").replace('/', "%2F")
}

fn unescape(s: &str) -> String {
    s.replace("%2F", "/").replace("%25", "%")
}

/// Every key of a session starts with this.
pub fn session_prefix(session: &str) -> String {
    format!("{PREFIX}{}/", escape(session))
}

/// The keys of a session's records start with this (of one kind, with `kind`).
pub fn records_prefix(session: &str, kind: Option<&str>) -> String {
    match kind {
        None => format!("{}r/", session_prefix(session)),
        Some(kind) => format!("{}r/{}/", session_prefix(session), escape(kind)),
    }
}

pub fn record_key(session: &str, kind: &str, id: &str) -> String {
    format!("{}{}", records_prefix(session, Some(kind)), escape(id))
}

pub fn meta_key(session: &str) -> String {
    format!("{}meta", session_prefix(session))
}

/// The session whose meta `key` is, if it is one.
pub fn session_of_meta_key(key: &str) -> Option<String> {
    let name = key.strip_prefix(PREFIX)?.strip_suffix("/meta")?;
    (!name.contains('/')).then(|| unescape(name))
}

/// Parses a stored meta, or says which session's bookkeeping is damaged.
pub fn parse_meta(session: &str, text: &str) -> Result<SessionMeta> {
    serde_json::from_str(text).map_err(|e| {
        Error::new(
            ErrorCode::CorruptStorage,
            format!("the stored meta of session {session:?} cannot be read: {e}"),
        )
    })
}

/// Parses a stored record, or says which one is damaged (`key`: where it was found).
pub fn parse_record(session: &str, key: &str, text: &str) -> Result<Stored> {
    parse_stored(text).map_err(|e| {
        Error::new(
            ErrorCode::CorruptStorage,
            format!(
                "stored record {key:?} of session {session:?} cannot be read ({e}); nothing \
                 was changed"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slash_in_a_name_cannot_reach_another_sessions_keys() {
        let key = record_key("a/r/x", "entry/1", "%2F");
        assert_eq!(key, "llm-memory/a%2Fr%2Fx/r/entry%2F1/%252F");
        assert!(!key.starts_with(&session_prefix("a")));
        assert!(key.starts_with(&records_prefix("a/r/x", None)));
        for name in ["a/b", "50%", "%2F", "plain"] {
            assert_eq!(session_of_meta_key(&meta_key(name)).as_deref(), Some(name));
        }
        assert_eq!(session_of_meta_key("llm-memory/a/r/meta"), None);
        assert_eq!(session_of_meta_key("other/a/meta"), None);
    }

    #[test]
    fn storage_names_and_damage_are_coded() {
        assert_eq!(
            StorageKind::parse("indexedDB").unwrap(),
            StorageKind::IndexedDb
        );
        assert_eq!(
            StorageKind::parse("disk").unwrap_err().code,
            ErrorCode::InvalidOption
        );
        assert_eq!(
            parse_meta("s", "{").unwrap_err().code,
            ErrorCode::CorruptStorage
        );
        assert_eq!(
            parse_record("s", "k", "[").unwrap_err().code,
            ErrorCode::CorruptStorage
        );
    }
}
