//! What a pulled record changes on this device. Records arrive in the server's order; each is
//! applied as a tab applies another tab's changes, except that a delete is final (a later put
//! of that record is ignored) and a change to a record this device changed since, and has not
//! pushed yet, is older than that change and is skipped (it will follow it on every device).

use super::outbox::{gone_record, Payload};
use super::{kind, SyncEngine};
use llm_memory_core::error::{Error, ErrorCode, Result};
use llm_memory_core::store::records::key;
use llm_memory_core::store::{Record, RecordOp};

/// What one page of pulled records does here.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pulled {
    /// Changes to apply to the memory (and to store locally).
    pub apply: Vec<RecordOp>,
    /// Sync bookkeeping to store with them (tombstones, the cursor).
    pub local: Vec<RecordOp>,
    /// Records of other devices (or earlier instances) among them.
    pub foreign: usize,
}

impl SyncEngine {
    /// Takes decrypted pulled records `(id, seq, plaintext)` in server order. A record whose
    /// plaintext is not a payload stops the page there with `CORRUPT_STORAGE` (the cursor stays
    /// before it, nothing after it is applied), so a bug or a foreign writer loses nothing.
    pub fn accept(&mut self, records: &[(String, u64, String)], order: f64) -> Result<Pulled> {
        let mut out = Pulled::default();
        let mut failure = None;
        for (id, seq, plain) in records {
            if *seq <= self.cursor {
                continue;
            }
            let payload: Payload = match serde_json::from_str(plain) {
                Ok(p) => p,
                Err(e) => {
                    failure = Some(Error::new(
                        ErrorCode::CorruptStorage,
                        format!("pulled sync record {id:?} (seq {seq}) is not a payload: {e}"),
                    ));
                    break;
                }
            };
            if !self.own.contains(id) && !self.pending.contains_key(id) {
                out.foreign += 1;
            }
            for op in payload.ops {
                self.accept_op(op, order, &mut out);
            }
            self.cursor = *seq;
        }
        out.local.push(self.cursor_record(order));
        match failure {
            Some(e) if out.apply.is_empty() && out.foreign == 0 => Err(e),
            _ => Ok(out),
        }
    }

    fn pending_touches(&self, k: &str) -> bool {
        self.pending.values().any(|p| p.keys.iter().any(|x| x == k))
    }

    fn accept_op(&mut self, op: RecordOp, order: f64, out: &mut Pulled) {
        match &op {
            RecordOp::Put(r) => {
                let k = key(&r.kind, &r.id);
                if super::is_sync_kind(&r.kind)
                    || self.gone.contains(&k)
                    || self.pending_touches(&k)
                {
                    return;
                }
            }
            RecordOp::Delete { kind: kd, id } => {
                if super::is_sync_kind(kd) {
                    return;
                }
                if self.gone.insert(key(kd, id)) {
                    out.local.push(gone_record(kd, id, order));
                }
            }
            RecordOp::DeleteKinds { kinds } => {
                if kinds.iter().any(|k| super::is_sync_kind(k)) {
                    return;
                }
            }
        }
        out.apply.push(op);
    }

    fn cursor_record(&self, order: f64) -> RecordOp {
        RecordOp::Put(Record {
            kind: kind::CURSOR.into(),
            id: "cursor".into(),
            order,
            data: serde_json::json!({ "seq": self.cursor }),
        })
    }
}
