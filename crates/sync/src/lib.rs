//! Sync across devices, without any I/O: what a device has not sent yet, what a record pulled
//! from the server changes here, and where the next pull starts. The bindings fetch, encrypt
//! and keep time; this module decides.
//!
//! The unit on the wire is a *sync record*: an immutable, encrypted batch of the `RecordOp`s a
//! memory emits for local storage (entries, facts, forgets, clears, the vault). Its id is minted
//! once, with a per-instance prefix, and it is stored locally (kind `sync-out`, ciphertext) in
//! the same write as the changes it carries, so a reload or a failed push sends the very same
//! bytes again: the server keeps one copy per id, nothing is lost or doubled.
//!
//! Every device applies the server's order (its sequence numbers), the rule two tabs already
//! follow (per-instance ids, record-level writes): entries are a set ordered by their own
//! `order`, a later put of a record replaces an earlier one, and a delete is final (a
//! tombstone, kind `sync-gone`, ignores any later put of that record), so a forgotten turn or
//! fact never comes back from a device that had not heard of the forget yet.

pub mod backoff;
pub mod compact;
pub mod cycle;
pub mod limits;
pub mod outbox;
pub mod protocol;
pub mod pull;
pub mod schedule;
pub mod task;

pub use compact::Compaction;
pub use outbox::{Outgoing, Payload, PushBatch};
pub use protocol::{PullPage, PushAck, Response, SyncOptions};
pub use pull::Pulled;

use llm_memory_core::store::records::key;
use llm_memory_core::store::{Record, RecordOp};
use std::collections::{BTreeMap, HashSet};

/// Local record kinds the sync keeps beside a session's records; the memory never sees them.
pub mod kind {
    /// A sync record not yet acknowledged by the server: `{ keys, data }`, data the ciphertext.
    pub const OUTBOX: &str = "sync-out";
    /// A record deleted for good: id `"<kind>:<id>"`.
    pub const GONE: &str = "sync-gone";
    /// Where the next pull starts: id `"cursor"`, `{ seq }`; id `"compact"` while a
    /// compaction is due.
    pub const CURSOR: &str = "sync-state";
}

/// The `sync-state` record id that says a compaction is due (stored with the delete that made
/// it due, so a reload before the compaction still runs it).
pub const COMPACT_DUE_ID: &str = "compact";

/// True for the kinds above: the bindings keep them out of the memory, exports and other tabs.
pub use llm_memory_core::store::records::is_sync_kind;

/// One sync record waiting for the server's acknowledgement.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    pub id: String,
    /// Storage order: sync records are pushed in the order they were made.
    pub order: f64,
    /// `key(kind, id)` of every record it changes: a pulled change to one of them is older
    /// than this one and is not applied (this one will be, after it).
    pub keys: Vec<String>,
    /// The encrypted payload (base64), opaque here.
    pub data: String,
}

/// A session's sync state on one device.
#[derive(Debug, Default)]
pub struct SyncEngine {
    /// Prefix of the ids this instance mints (random per instance).
    prefix: String,
    minted: u64,
    /// Sync records stored locally and not acknowledged yet, by id.
    pending: BTreeMap<String, Pending>,
    /// `key(kind, id)` of deleted records.
    gone: HashSet<String>,
    /// Highest server sequence number applied here.
    cursor: u64,
    /// Ids this instance pushed (acked), so a pull can tell others' records from its own.
    own: HashSet<String>,
    /// Batches with forgets or clears stored here (in the outbox) since the server's copy was
    /// last compacted (0: none).
    compact_due: u64,
}

impl SyncEngine {
    /// `prefix`: a random string unique to this instance (ids become `prefix + n`).
    pub fn new(prefix: &str) -> SyncEngine {
        SyncEngine {
            prefix: prefix.to_string(),
            ..Default::default()
        }
    }

    /// Takes the sync records of a session as read from local storage (the records whose kind
    /// `is_sync_kind`); unreadable ones are skipped (a lost cursor only means pulling again).
    pub fn reload(&mut self, records: &[Record]) {
        for r in records {
            match r.kind.as_str() {
                kind::OUTBOX => {
                    if let Some(p) = outbox::pending_of(r) {
                        self.pending.insert(p.id.clone(), p);
                    }
                }
                kind::GONE => {
                    self.gone.insert(gone_key_of(&r.id));
                }
                kind::CURSOR if r.id == COMPACT_DUE_ID => self.compact_due += 1,
                kind::CURSOR => {
                    let seq = r.data.get("seq").and_then(|s| s.as_u64()).unwrap_or(0);
                    self.cursor = self.cursor.max(seq);
                }
                _ => {}
            }
        }
    }

    /// The server sequence number the next pull starts after.
    pub fn cursor(&self) -> u64 {
        self.cursor
    }

    /// How many sync records wait for the server.
    pub fn unsent(&self) -> usize {
        self.pending.len()
    }

    pub fn is_gone(&self, kind: &str, id: &str) -> bool {
        self.gone.contains(&key(kind, id))
    }
}

/// A random id prefix for the sync records an instance mints: 12 base-36 characters, so two
/// devices never pick the same. `random` gives numbers in [0, 1) (the core has no randomness).
pub fn instance_prefix(mut random: impl FnMut() -> f64) -> String {
    let mut s: String = (0..12)
        .map(|_| {
            let d = (random().clamp(0.0, 1.0) * 36.0) as u32;
            std::char::from_digit(d.min(35), 36).unwrap_or('0')
        })
        .collect();
    s.push('.');
    s
}

/// What a session that never synced from this device sends first: every record it holds, and
/// the cursor record that marks it done.
pub fn first_push(records: Vec<Record>, now: f64) -> Vec<RecordOp> {
    let mut ops: Vec<RecordOp> = records.into_iter().map(RecordOp::Put).collect();
    ops.push(RecordOp::Put(Record {
        kind: kind::CURSOR.into(),
        id: "cursor".into(),
        order: now,
        data: serde_json::json!({ "seq": 0 }),
    }));
    ops
}

/// The `sync-gone` record id of a deleted record: `"<kind>:<id>"` (kinds have no `:`).
pub(crate) fn gone_id(kind: &str, id: &str) -> String {
    format!("{kind}:{id}")
}

fn gone_key_of(gone_id: &str) -> String {
    match gone_id.split_once(':') {
        Some((k, id)) => key(k, id),
        None => key(gone_id, ""),
    }
}

#[cfg(test)]
mod tests;
