//! What this device has not sent: local changes packed into sync records (each minted once,
//! with its id, and stored with the changes), push batches within the server's limits, and
//! what an acknowledgement removes.

use super::limits::PushBatcher;
use super::protocol::MAX_RECORD_BYTES;
use super::{gone_id, kind, Pending, SyncEngine};
use llm_memory_core::store::records::key;
use llm_memory_core::store::{Record, RecordOp};
use serde::{Deserialize, Serialize};

/// Plaintext bytes per sync record: AES-GCM adds 29 bytes and base64 a third, so this stays
/// under the server's per-record limit.
pub const MAX_PAYLOAD_BYTES: usize = MAX_RECORD_BYTES / 4 * 3 - 1024;

/// The plaintext of a sync record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Payload {
    pub v: u32,
    pub ops: Vec<RecordOp>,
}

/// A sync record to encrypt (then `stored_record` turns it into the local `sync-out` record).
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    pub id: String,
    pub keys: Vec<String>,
    /// JSON of a `Payload`.
    pub plain: String,
}

/// One push request: its body and the ids it carries.
#[derive(Debug, Clone, PartialEq)]
pub struct PushBatch {
    pub ids: Vec<String>,
    pub body: String,
}

#[derive(Serialize, Deserialize)]
struct OutboxData {
    keys: Vec<String>,
    data: String,
}

fn op_keys(op: &RecordOp) -> Vec<String> {
    match op {
        RecordOp::Put(r) => vec![key(&r.kind, &r.id)],
        RecordOp::Delete { kind, id } => vec![key(kind, id)],
        RecordOp::DeleteKinds { .. } => Vec::new(),
    }
}

fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Reads a stored `sync-out` record back.
pub(crate) fn pending_of(r: &Record) -> Option<Pending> {
    let d: OutboxData = serde_json::from_value(r.data.clone()).ok()?;
    Some(Pending {
        id: r.id.clone(),
        order: r.order,
        keys: d.keys,
        data: d.data,
    })
}

impl SyncEngine {
    /// Packs the changes the memory just made into sync records (none for an empty list). A
    /// change too big for one record still gets one of its own; the server refuses it and
    /// `refused` reports it. Deletes become tombstones here at once.
    pub fn plan(&mut self, ops: &[RecordOp]) -> Vec<Outgoing> {
        let mut out = Vec::new();
        let mut batch: Vec<RecordOp> = Vec::new();
        let mut size = 0;
        for op in ops {
            let k = match op {
                RecordOp::Put(r) => &r.kind,
                RecordOp::Delete { kind, .. } => kind,
                RecordOp::DeleteKinds { .. } => "",
            };
            if super::is_sync_kind(k) {
                continue;
            }
            // The compaction a delete calls for becomes due when its batch is stored, in the
            // outbox (`note_stored`), not here: until then a compaction would read a log without
            // the delete and still count it as done.
            if let RecordOp::Delete { kind, id } = op {
                self.gone.insert(key(kind, id));
            }
            let n = json(op).len();
            if !batch.is_empty() && size + n > MAX_PAYLOAD_BYTES {
                out.push(self.mint(std::mem::take(&mut batch)));
                size = 0;
            }
            size += n;
            batch.push(op.clone());
        }
        if !batch.is_empty() {
            out.push(self.mint(batch));
        }
        out
    }

    fn mint(&mut self, ops: Vec<RecordOp>) -> Outgoing {
        self.minted += 1;
        let mut keys: Vec<String> = ops.iter().flat_map(op_keys).collect();
        keys.sort();
        keys.dedup();
        Outgoing {
            id: format!("{}{}", self.prefix, self.minted),
            keys,
            plain: json(&Payload { v: 1, ops }),
        }
    }

    /// The local records to write with the changes that `out` carries: the encrypted sync
    /// record (`data`, base64), and a tombstone for each delete in it. `order` is the storage
    /// order (the bindings pass the time, so pushes keep the order of writing).
    pub fn stored_records(&self, out: &Outgoing, data: String, order: f64) -> Vec<RecordOp> {
        let mut ops = vec![RecordOp::Put(Record {
            kind: kind::OUTBOX.into(),
            id: out.id.clone(),
            order,
            data: serde_json::to_value(OutboxData {
                keys: out.keys.clone(),
                data,
            })
            .unwrap_or_default(),
        })];
        if let Ok(p) = serde_json::from_str::<Payload>(&out.plain) {
            ops.extend(p.ops.iter().filter_map(|op| match op {
                RecordOp::Delete { kind, id } => Some(gone_record(kind, id, order)),
                _ => None,
            }));
            // Stored with the delete, so a reload before the compaction still runs it.
            if p.ops.iter().any(|op| !matches!(op, RecordOp::Put(_))) {
                ops.push(RecordOp::Put(Record {
                    kind: kind::CURSOR.into(),
                    id: super::COMPACT_DUE_ID.into(),
                    order,
                    data: serde_json::json!({}),
                }));
            }
        }
        ops
    }

    /// What to encrypt for `outs`, in their order: the additional data that binds each to the
    /// session and its id, and the plaintext.
    pub fn to_seal(session: &str, outs: &[Outgoing]) -> (Vec<String>, Vec<String>) {
        outs.iter()
            .map(|o| (super::protocol::aad(session, &o.id), o.plain.clone()))
            .unzip()
    }

    /// The local records of `outs`, once encrypted (`datas`, in their order), to store with
    /// the changes they carry. They are ordered from `now` a microsecond apart, so that they
    /// are pushed in the order they were made.
    pub fn packed(&self, outs: &[Outgoing], datas: Vec<String>, now: f64) -> Vec<RecordOp> {
        outs.iter()
            .zip(datas)
            .enumerate()
            .flat_map(|(i, (o, d))| self.stored_records(o, d, now + i as f64 / 1000.0))
            .collect()
    }

    /// Local changes were stored: the sync records among them wait for the server now, and a
    /// compaction is due for the deletes among them. True when more wait than before: a cycle
    /// should push them.
    pub fn note_stored(&mut self, ops: &[RecordOp]) -> bool {
        let before = self.unsent();
        for op in ops {
            if let RecordOp::Put(r) = op {
                if r.kind == kind::OUTBOX {
                    if let Some(p) = pending_of(r) {
                        self.pending.insert(p.id.clone(), p);
                    }
                } else if r.kind == kind::CURSOR && r.id == super::COMPACT_DUE_ID {
                    // Stored with a batch that deletes (`stored_records`): its compaction is due.
                    self.compact_due += 1;
                }
            }
        }
        self.unsent() > before
    }

    /// The next push: the oldest unsent records within the server's limits, or none.
    pub fn next_push(&self) -> Option<PushBatch> {
        let mut queue: Vec<&Pending> = self.pending.values().collect();
        queue.sort_by(|a, b| a.order.total_cmp(&b.order).then_with(|| a.id.cmp(&b.id)));
        let mut batcher = PushBatcher::default();
        let mut ids = Vec::new();
        for p in queue {
            if let Some(full) = batcher.add(&p.id, &p.data) {
                return Some(push_batch(full, ids));
            }
            ids.push(p.id.clone());
        }
        batcher.finish().map(|items| push_batch(items, ids))
    }

    /// The server stored these: they leave the outbox. Returns the local deletes to write.
    pub fn acked(&mut self, acks: &[super::PushAck]) -> Vec<RecordOp> {
        acks.iter()
            .filter_map(|a| {
                self.own.insert(a.id.clone());
                self.pending.remove(&a.id).map(|_| RecordOp::Delete {
                    kind: kind::OUTBOX.into(),
                    id: a.id.clone(),
                })
            })
            .collect()
    }

    /// The server refuses a record for good (too large, or its id taken by other bytes):
    /// it is dropped from the outbox so that the others go on; its changes stay on this
    /// device. `id` None (a 413 without one) means the first record of `batch`, when the
    /// batch holds one record; a larger batch is not refused as a whole (see `next_push`).
    pub fn refused(&mut self, id: Option<&str>, batch: &PushBatch) -> Vec<RecordOp> {
        let id = match id {
            Some(id) => Some(id.to_string()),
            None if batch.ids.len() == 1 => batch.ids.first().cloned(),
            None => None,
        };
        match id.and_then(|id| self.pending.remove(&id)) {
            Some(p) => vec![RecordOp::Delete {
                kind: kind::OUTBOX.into(),
                id: p.id,
            }],
            None => Vec::new(),
        }
    }

    /// A 413 on a batch of several records: push them one at a time from now on.
    pub fn single(&self, batch: &PushBatch) -> Option<PushBatch> {
        let id = batch.ids.first()?;
        let p = self.pending.get(id)?;
        Some(PushBatch {
            ids: vec![id.clone()],
            body: serde_json::json!({ "records": [{ "id": p.id, "data": p.data }] }).to_string(),
        })
    }
}

pub(crate) fn gone_record(kind: &str, id: &str, order: f64) -> RecordOp {
    RecordOp::Put(Record {
        kind: kind::GONE.into(),
        id: gone_id(kind, id),
        order,
        data: serde_json::Value::Object(Default::default()),
    })
}

/// A push of `items`, whose ids are `ids`.
fn push_batch(items: Vec<serde_json::Value>, ids: Vec<String>) -> PushBatch {
    PushBatch {
        ids,
        body: serde_json::json!({ "records": items }).to_string(),
    }
}
