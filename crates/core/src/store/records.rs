//! The unit of storage: one record per entry, summary, step or pinned fact (and, from other
//! features, facts, episodes, the redaction vault), keyed by kind and id within a session. The
//! engine emits `RecordOp`s as it changes, so a backend writes only what changed.

use serde::{Deserialize, Serialize};

/// The `format` field of an exported document.
pub const FORMAT: &str = "llm-memory/session";

/// The schema version of stored records and exported documents.
pub const SCHEMA_VERSION: u32 = 2;

/// Record kinds the engine itself owns; any other kind is kept and exported untouched.
pub mod kind {
    pub const ENTRY: &str = "entry";
    pub const SUMMARY: &str = "summary";
    pub const STEP: &str = "step";
    pub const PINNED: &str = "pinned";
    /// The redactor's placeholder vault.
    pub const VAULT: &str = "vault";
    pub const EPISODE: &str = "episode";
    pub const FACT: &str = "fact";
    /// Packed embedding vectors.
    pub const VECTORS: &str = "vectors";
    /// Kinds whose records merge on arrival (each device adds its values) instead of
    /// replacing: a sync compaction writes the device's merged record in place of older copies.
    pub const MERGED: &[&str] = &[VAULT];
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub kind: String,
    pub id: String,
    /// Sort key within the kind: insertion order, stable across tabs and reloads.
    pub order: f64,
    pub data: serde_json::Value,
}

/// One change to a session's stored records. Serializable: tabs send these to each other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum RecordOp {
    Put(Record),
    Delete {
        kind: String,
        id: String,
    },
    /// Removes every record of these kinds (clear()).
    DeleteKinds {
        kinds: Vec<String>,
    },
}

/// Per-session bookkeeping stored beside the records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionMeta {
    pub session: String,
    pub schema_version: u32,
    pub created_at: f64,
    pub updated_at: f64,
    /// Time to live after the last update, in ms; none keeps the session until deleted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<f64>,
    #[serde(default)]
    pub turns: usize,
    /// Approximate stored size in bytes (JSON of the records).
    #[serde(default)]
    pub bytes: usize,
}

impl SessionMeta {
    pub fn new(session: &str, now: f64, ttl_ms: Option<f64>) -> Self {
        SessionMeta {
            session: session.to_string(),
            schema_version: SCHEMA_VERSION,
            created_at: now,
            updated_at: now,
            ttl_ms,
            turns: 0,
            bytes: 0,
        }
    }

    pub fn expires_at(&self) -> Option<f64> {
        self.ttl_ms.map(|t| self.updated_at + t)
    }

    pub fn is_expired(&self, now: f64) -> bool {
        self.expires_at().is_some_and(|e| e <= now)
    }
}

/// A stored session as `Memory.sessions()` lists it: its bookkeeping and when it expires.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionInfo {
    #[serde(flatten)]
    pub meta: SessionMeta,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<f64>,
}

/// The stored sessions as `Memory.sessions()` lists them: the most recently changed first.
pub fn session_list(mut metas: Vec<SessionMeta>) -> Vec<SessionInfo> {
    metas.sort_by(|a, b| b.updated_at.total_cmp(&a.updated_at));
    let info = |meta: SessionMeta| SessionInfo {
        expires_at: meta.expires_at(),
        meta,
    };
    metas.into_iter().map(info).collect()
}

/// Session names become parts of storage keys; keep them printable and bounded. U+FFFD is
/// refused because a JS name with a lone surrogate arrives as one: two different names
/// ("\uD800", "\uDBFF") would share a session.
pub fn validate_session_name(name: &str) -> crate::error::Result<()> {
    if name.trim().is_empty()
        || name.chars().count() > 200
        || name.chars().any(|c| c.is_control() || c == '\u{FFFD}')
    {
        return Err(crate::error::Error::option(
            "session must be a name of at most 200 printable characters (not only spaces, \
             no lone UTF-16 surrogates)",
        ));
    }
    Ok(())
}

/// An entry's token count as stored in its record's data (`"tokenCount"`), with the key of
/// the counter and chat overhead that produced it: reopening with the same tokenizer reuses it
/// instead of counting the entry again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenCount {
    pub key: String,
    pub n: usize,
}

/// The key under which an entry's data stores its `TokenCount`.
pub const TOKEN_COUNT_FIELD: &str = "tokenCount";

/// Reads the stored count of an entry's data, if any.
pub fn token_count(data: &serde_json::Value) -> Option<TokenCount> {
    serde_json::from_value(data.get(TOKEN_COUNT_FIELD)?.clone()).ok()
}

/// The data of a record encrypted at rest: `{"$sealed": "<base64>"}`, the ciphertext of the
/// record's data JSON (the bindings encrypt; kind, id and order stay readable, as the storage
/// keys already show them).
pub const SEALED_FIELD: &str = "$sealed";

/// True for the sync bookkeeping kinds (`sync-out`, `sync-gone`, `sync-state`): kept out of the
/// memory, exports and other tabs, and kept as they are by a build without sync.
pub fn is_sync_kind(kind: &str) -> bool {
    kind.starts_with("sync-")
}
const SEALED_PREFIX: &str = "{\"$sealed\":";

/// The ciphertext of a sealed record's data, if it is one.
pub fn sealed_data(data: &serde_json::Value) -> Option<&str> {
    let map = data.as_object()?;
    if map.len() != 1 {
        return None;
    }
    map.get(SEALED_FIELD)?.as_str()
}

/// A record read back from storage. Entries, the bulk of a session, are parsed straight into
/// their type (no intermediate JSON tree), which is most of what reopening a long chat costs.
#[derive(Debug, Clone, PartialEq)]
pub enum Stored {
    Entry {
        id: String,
        order: f64,
        entry: crate::history::Entry,
        /// The count stored with it (sessions written before counts were stored have none).
        tokens: Option<TokenCount>,
    },
    Other(Record),
}

impl Stored {
    pub fn order(&self) -> f64 {
        match self {
            Stored::Entry { order, .. } => *order,
            Stored::Other(r) => r.order,
        }
    }

    pub fn id(&self) -> &str {
        match self {
            Stored::Entry { id, .. } => id,
            Stored::Other(r) => &r.id,
        }
    }
}

/// Parses one stored record's JSON text.
pub fn parse_stored(text: &str) -> serde_json::Result<Stored> {
    #[derive(Deserialize)]
    struct Head<'a> {
        kind: String,
        id: String,
        order: f64,
        #[serde(borrow)]
        data: &'a serde_json::value::RawValue,
    }
    let head: Head<'_> = serde_json::from_str(text)?;
    if head.kind == kind::ENTRY && !head.data.get().starts_with(SEALED_PREFIX) {
        #[derive(Deserialize)]
        struct Count {
            #[serde(rename = "tokenCount", default)]
            token_count: Option<TokenCount>,
        }
        let entry = serde_json::from_str(head.data.get())?;
        // A second pass over the small data text skips everything but the count; a missing or
        // unreadable count only means counting the entry again.
        let tokens = serde_json::from_str::<Count>(head.data.get())
            .ok()
            .and_then(|c| c.token_count);
        return Ok(Stored::Entry {
            id: head.id,
            order: head.order,
            entry,
            tokens,
        });
    }
    Ok(Stored::Other(Record {
        kind: head.kind,
        id: head.id,
        order: head.order,
        data: serde_json::from_str(head.data.get())?,
    }))
}

/// One string for kind and id: a map with this key type is in the binary already, a tuple
/// key would add its own copy of the hash map code (the wasm size budget is tight).
pub fn key(kind: &str, id: &str) -> String {
    format!("{kind}\u{0}{id}")
}

/// The queued changes with each record's last change only: a record put and then deleted
/// before it was stored is not written at all (so forgetting a turn too big for the quota
/// unblocks the queue), and one rewritten twice is written once. `DeleteKinds` drops every
/// earlier change of its kinds. Order is kept otherwise.
pub fn compact(ops: Vec<RecordOp>) -> Vec<RecordOp> {
    use std::collections::HashSet;
    let mut seen: HashSet<String> = HashSet::new();
    let mut cleared: HashSet<String> = HashSet::new();
    let mut kept: Vec<RecordOp> = Vec::with_capacity(ops.len());
    for op in ops.into_iter().rev() {
        let keep = match &op {
            RecordOp::Put(r) => !cleared.contains(&r.kind) && seen.insert(key(&r.kind, &r.id)),
            RecordOp::Delete { kind, id } => !cleared.contains(kind) && seen.insert(key(kind, id)),
            RecordOp::DeleteKinds { kinds } => {
                cleared.extend(kinds.iter().cloned());
                true
            }
        };
        if keep {
            kept.push(op);
        }
    }
    kept.reverse();
    kept
}
