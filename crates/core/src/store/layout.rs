//! Where records live in a store: the storage kinds, the key layout of key-value stores
//! (`llm-memory/<session>/r/<kind>/<id>` per record, `llm-memory/<session>/meta`), the keys of
//! the `prepared` store, a write's ops as the rows a backend applies, and how the backends'
//! answers and damaged stored records read. Session names are escaped so that `/` in a name
//! cannot reach another session's keys. The JS face's backends do the I/O.

use super::records::{parse_stored, Stored};
use super::{RecordOp, SessionMeta};
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

/// Where a session's things are, for every kind of backend: `[session, meta key, records'
/// prefix, session's prefix]`. IndexedDB keys by the name; key-value stores by the keys.
pub fn session_keys(session: &str) -> [String; 4] {
    [
        session.to_string(),
        meta_key(session),
        records_prefix(session, None),
        session_prefix(session),
    ]
}

/// Every meta key starts with the first and ends with the second: what a key-value backend
/// lists for `metas` (`session_of_meta_key` then drops a record whose id is `meta`).
pub const META_KEYS: (&str, &str) = (PREFIX, "/meta");

/// The session whose meta `key` is, if it is one.
pub fn session_of_meta_key(key: &str) -> Option<String> {
    let name = key.strip_prefix(PREFIX)?.strip_suffix("/meta")?;
    (!name.contains('/')).then(|| unescape(name))
}

/// A write's ops as rows a backend applies in order, `[verb, kind, id, text, key]`: `put` (the
/// record's JSON), `del`, or `clear` (every record of `kind`). `key` is where a key-value store
/// keeps it (for `clear`, the prefix of the kind's keys); IndexedDB keys by `[session, kind, id]`.
pub fn op_rows(session: &str, ops: &[RecordOp]) -> Vec<[String; 5]> {
    let row = |verb: &str, kind: &str, id: &str, text: String, key: String| {
        [verb.into(), kind.into(), id.into(), text, key]
    };
    let mut rows = Vec::with_capacity(ops.len());
    for op in ops {
        match op {
            RecordOp::Put(r) => {
                let text = serde_json::to_string(r).unwrap_or_default();
                let key = record_key(session, &r.kind, &r.id);
                rows.push(row("put", &r.kind, &r.id, text, key));
            }
            RecordOp::Delete { kind, id } => {
                rows.push(row(
                    "del",
                    kind,
                    id,
                    String::new(),
                    record_key(session, kind, id),
                ));
            }
            RecordOp::DeleteKinds { kinds } => rows.extend(kinds.iter().map(|kind| {
                let prefix = records_prefix(session, Some(kind));
                row("clear", kind, "", String::new(), prefix)
            })),
        }
    }
    rows
}

/// The `prepared` store's key for a tokenizer file: FNV-1a over the whole file plus its length.
/// A cache key, not a security measure (a stale or damaged entry only falls back to parsing).
pub fn prepared_key(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("tokenizer:{h:016x}:{}", bytes.len())
}

/// A session as loaded: its meta and every record.
pub struct Loaded {
    pub meta: SessionMeta,
    pub records: Vec<Stored>,
}

/// Reads a backend's answer to a load, `[meta, label, text, ...]` (`label`: where the record
/// was found, to name it if damaged); empty when there is no such session.
pub fn parse_loaded(session: &str, texts: &[String]) -> Result<Option<Loaded>> {
    let Some((meta, records)) = texts.split_first() else {
        return Ok(None);
    };
    let records = records.chunks_exact(2);
    let records = records.map(|r| parse_record(session, &r[0], &r[1]));
    Ok(Some(Loaded {
        meta: parse_meta(session, meta)?,
        records: records.collect::<Result<_>>()?,
    }))
}

/// Reads a backend's answer to listing the metas, `[name, text, ...]`, each meta on its own:
/// one damaged session does not hide the others. With `by_key` the names are keys, and only
/// meta keys count.
pub fn parse_metas(texts: &[String], by_key: bool) -> Vec<Result<SessionMeta>> {
    let metas = texts.chunks_exact(2).filter_map(|m| {
        let session = match by_key {
            true => session_of_meta_key(&m[0])?,
            false => m[0].clone(),
        };
        Some(parse_meta(&session, &m[1]))
    });
    metas.collect()
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
            assert!(
                meta_key(name).starts_with(META_KEYS.0) && meta_key(name).ends_with(META_KEYS.1)
            );
        }
        assert_eq!(session_of_meta_key("llm-memory/a/r/meta"), None);
        let [name, meta, records, all] = session_keys("a/b");
        assert_eq!(
            (name.as_str(), meta.as_str()),
            ("a/b", "llm-memory/a%2Fb/meta")
        );
        assert!(meta.starts_with(&all) && records.starts_with(&all) && !meta.starts_with(&records));
        assert_eq!(session_of_meta_key("other/a/meta"), None);
        assert_eq!(session_of_meta_key(&record_key("a", "k", "meta")), None);
    }

    #[test]
    fn ops_become_rows_keyed_for_both_kinds_of_store() {
        let record = crate::store::Record {
            kind: "fact".into(),
            id: "1".into(),
            order: 1.0,
            data: serde_json::json!({"text": "hi"}),
        };
        let ops = [
            RecordOp::Put(record.clone()),
            RecordOp::Delete {
                kind: "fact".into(),
                id: "a/b".into(),
            },
            RecordOp::DeleteKinds {
                kinds: vec!["entry".into(), "summary".into()],
            },
        ];
        let rows = op_rows("s", &ops);
        assert_eq!(rows.len(), 4, "one clear per kind");
        let [verb, kind, id, text, key] = &rows[0];
        assert_eq!(
            (verb.as_str(), kind.as_str(), id.as_str()),
            ("put", "fact", "1")
        );
        assert!(matches!(parse_record("s", key, text), Ok(Stored::Other(r)) if r == record));
        assert_eq!(key, &record_key("s", "fact", "1"));
        assert_eq!(rows[1][0], "del");
        assert_eq!(rows[1][4], "llm-memory/s/r/fact/a%2Fb");
        assert_eq!(rows[2][..3], ["clear", "entry", ""]);
        assert_eq!(rows[3][4], records_prefix("s", Some("summary")));
    }

    #[test]
    fn answers_are_read_record_by_record_and_meta_by_meta() {
        let meta = serde_json::to_string(&SessionMeta::new("a/b", 1.0, None)).unwrap();
        let record = r#"{"kind":"fact","id":"1","order":1,"data":{}}"#.to_string();
        assert!(parse_loaded("a/b", &[]).unwrap().is_none());
        let loaded = parse_loaded("a/b", &[meta.clone(), "k".into(), record]).unwrap();
        assert_eq!(loaded.unwrap().records.len(), 1);
        let damaged = parse_loaded("a/b", &[meta.clone(), "where".into(), "{".into()]);
        assert!(damaged
            .err()
            .unwrap()
            .message
            .contains("stored record \"where\""));

        let keyed = [
            meta_key("a/b"),
            meta.clone(),
            record_key("x", "k", "meta"),
            meta.clone(),
        ];
        let metas = parse_metas(&keyed, true);
        assert_eq!(metas.len(), 1, "a record whose id is meta is no session");
        assert_eq!(metas[0].as_ref().unwrap().session, "a/b");
        let named = ["a/b".to_string(), "{".into(), "c".into(), meta];
        let metas = parse_metas(&named, false);
        assert_eq!(
            metas[0].as_ref().unwrap_err().code,
            ErrorCode::CorruptStorage
        );
        assert!(
            metas[1].is_ok(),
            "one damaged session does not hide the others"
        );
    }

    #[test]
    fn a_tokenizer_file_keeps_its_prepared_key() {
        // Keys already in users' IndexedDB must keep matching their files.
        assert_eq!(prepared_key(b""), "tokenizer:cbf29ce484222325:0");
        assert_eq!(prepared_key(b"a"), "tokenizer:af63dc4c8601ec8c:1");
        assert_ne!(prepared_key(b"ab"), prepared_key(b"ba"));
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
