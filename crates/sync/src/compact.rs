//! Compaction: the server keeps every encrypted batch a device pushed, so a forgotten turn's
//! words would stay there in the batch that first carried it. After a forget or a clear has
//! reached the server, the device reads the log back, drops from each batch the changes that a
//! later one in the log supersedes, and has the server replace those batches' bytes in place
//! (same id, same sequence number; docs/sync-protocol.md, "Compaction").
//!
//! Dropping a superseded change is invisible to every reader, wherever its cursor stands,
//! because readers already resolve changes that way: a later put of a record replaces an
//! earlier one, a delete is final (puts before and after it are dead), and a clear of a kind
//! ends every earlier record of it. Deletes and clears stay, payload-less tombstones that
//! readers still behind need. One kind is merged rather than replaced: the vault (each device
//! adds its values). Its newest put in the log is rewritten with this device's merged vault,
//! which holds every value of the log that was not erased, and its older puts are dropped.

use super::limits::PushBatcher;
use super::outbox::Payload;
use super::{kind, SyncEngine, COMPACT_DUE_ID as DUE_ID};
use llm_memory_core::error::{Error, ErrorCode, Result};
use llm_memory_core::store::records::key;
use llm_memory_core::store::{Record, RecordOp};
use std::collections::{HashMap, HashSet};

/// Kinds whose records merge on arrival instead of replacing: the newest copy in the log is
/// rewritten with the device's merged record (and older ones dropped) only when one is given.
pub use llm_memory_core::store::records::kind::MERGED as MERGED_KINDS;

/// Batches to rewrite, as plaintext payloads, and the log prefix they were computed over.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Compaction {
    pub upto: u64,
    /// `(record id, plaintext payload)` for each batch whose changes shrank.
    pub rewrites: Vec<(String, String)>,
    /// Changes dropped across all batches.
    pub dropped: usize,
}

/// Where one change stands once the whole prefix is known.
enum Fate {
    Keep,
    Drop,
    /// The newest put of a merged record: written again with the device's merged copy.
    Merge(Record),
}

impl SyncEngine {
    /// A forget or a clear was made here and has not been compacted on the server yet.
    pub fn compaction_due(&self) -> bool {
        self.compact_due > 0
    }

    /// Which forgets a compaction starting now covers: pass it to `compacted`.
    pub fn due_mark(&self) -> u64 {
        self.compact_due
    }

    /// Plans the compaction of the log's prefix `1..=upto`, read back as decrypted
    /// `(id, seq, plaintext)` in seq order (records past `upto` are ignored). `merged`: this
    /// device's current records of `MERGED_KINDS` (its vault).
    pub fn plan_compaction(
        &self,
        log: &[(String, u64, String)],
        upto: u64,
        merged: &[Record],
    ) -> Result<Compaction> {
        let mut batches = Vec::new();
        for (id, seq, plain) in log.iter().filter(|(_, seq, _)| *seq <= upto) {
            let payload: Payload = serde_json::from_str(plain).map_err(|e| {
                Error::new(
                    ErrorCode::CorruptStorage,
                    format!("sync record {id:?} (seq {seq}) is not a payload: {e}; not compacted"),
                )
            })?;
            batches.push((id, payload));
        }
        let fates = fates(&batches, merged);
        let mut out = Compaction {
            upto,
            ..Default::default()
        };
        for ((id, payload), fates) in batches.into_iter().zip(fates) {
            if fates.iter().all(|f| matches!(f, Fate::Keep)) {
                continue;
            }
            let mut ops = Vec::with_capacity(payload.ops.len());
            for (op, fate) in payload.ops.into_iter().zip(fates) {
                match fate {
                    Fate::Keep => ops.push(op),
                    Fate::Drop => out.dropped += 1,
                    Fate::Merge(r) => ops.push(RecordOp::Put(r)),
                }
            }
            let plain = serde_json::to_string(&Payload { v: 1, ops }).unwrap_or_default();
            out.rewrites.push((id.clone(), plain));
        }
        Ok(out)
    }

    /// The server holds the compaction that started at `mark` (or a later one): nothing is
    /// due any more, unless a forget came in meanwhile. Returns the local delete of the mark.
    pub fn compacted(&mut self, mark: u64) -> Vec<RecordOp> {
        if self.compact_due != mark {
            return Vec::new();
        }
        self.compact_due = 0;
        vec![RecordOp::Delete {
            kind: kind::CURSOR.into(),
            id: DUE_ID.into(),
        }]
    }
}

/// The bodies of `POST …/compact` for encrypted rewrites `(id, base64)`: within the server's
/// push limits, each with the same `upto` (every part is a valid compaction on its own).
pub fn compact_bodies(upto: u64, rewrites: &[(String, String)]) -> Vec<String> {
    let body = |items: Vec<serde_json::Value>| {
        serde_json::json!({ "upto": upto, "records": items }).to_string()
    };
    let mut batcher = PushBatcher::default();
    let mut bodies: Vec<String> = rewrites
        .iter()
        .filter_map(|(id, data)| batcher.add(id, data))
        .map(body)
        .collect();
    bodies.extend(batcher.finish().map(body));
    bodies
}

/// Decides every change of the prefix, walking from the newest back: the first change met for
/// a record is its newest, and the kinds cleared so far are cleared after the change at hand.
fn fates(batches: &[(&String, Payload)], merged: &[Record]) -> Vec<Vec<Fate>> {
    let deleted: HashSet<String> = batches
        .iter()
        .flat_map(|(_, p)| &p.ops)
        .filter_map(|op| match op {
            RecordOp::Delete { kind, id } => Some(key(kind, id)),
            _ => None,
        })
        .collect();
    let merged: HashMap<String, &Record> =
        merged.iter().map(|r| (key(&r.kind, &r.id), r)).collect();
    let mut newest_seen: HashSet<String> = HashSet::new();
    let mut tombstones: HashSet<String> = HashSet::new();
    let mut cleared_later: HashSet<&str> = HashSet::new();
    let mut out: Vec<Vec<Fate>> = Vec::with_capacity(batches.len());
    for (_, payload) in batches.iter().rev() {
        let mut fates: Vec<Fate> = Vec::with_capacity(payload.ops.len());
        for op in payload.ops.iter().rev() {
            let fate = match op {
                RecordOp::Put(r) => {
                    let k = key(&r.kind, &r.id);
                    let newest = newest_seen.insert(k.clone());
                    let is_merged = MERGED_KINDS.contains(&r.kind.as_str());
                    if deleted.contains(&k) || cleared_later.contains(r.kind.as_str()) {
                        Fate::Drop
                    } else if is_merged {
                        match merged.get(&k) {
                            Some(m) if newest && m.data == r.data => Fate::Keep,
                            Some(m) if newest => Fate::Merge((*m).clone()),
                            Some(_) => Fate::Drop,
                            // Without the device's merged copy every put is needed.
                            None => Fate::Keep,
                        }
                    } else if newest {
                        Fate::Keep
                    } else {
                        Fate::Drop
                    }
                }
                // The newest delete of a record is its tombstone; older ones say nothing more.
                RecordOp::Delete { kind, id } => {
                    if tombstones.insert(key(kind, id)) {
                        Fate::Keep
                    } else {
                        Fate::Drop
                    }
                }
                RecordOp::DeleteKinds { kinds } => {
                    cleared_later.extend(kinds.iter().map(String::as_str));
                    Fate::Keep
                }
            };
            fates.push(fate);
        }
        fates.reverse();
        out.push(fates);
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{MAX_BODY_BYTES, MAX_RECORDS_PER_PUSH};
    use serde_json::json;

    fn put(kind: &str, id: &str, data: serde_json::Value) -> RecordOp {
        RecordOp::Put(Record {
            kind: kind.into(),
            id: id.into(),
            order: 1.0,
            data,
        })
    }

    fn del(kind: &str, id: &str) -> RecordOp {
        RecordOp::Delete {
            kind: kind.into(),
            id: id.into(),
        }
    }

    fn log(batches: Vec<Vec<RecordOp>>) -> Vec<(String, u64, String)> {
        batches
            .into_iter()
            .enumerate()
            .map(|(i, ops)| {
                let plain = serde_json::to_string(&Payload { v: 1, ops }).unwrap();
                (format!("r{}", i + 1), i as u64 + 1, plain)
            })
            .collect()
    }

    fn ops_of(plain: &str) -> Vec<RecordOp> {
        serde_json::from_str::<Payload>(plain).unwrap().ops
    }

    #[test]
    fn a_deleted_records_puts_go_and_its_tombstone_stays() {
        let l = log(vec![
            vec![
                put("entry", "t1", json!({"content": "secret"})),
                put("entry", "t2", json!(2)),
            ],
            vec![del("entry", "t1")],
            // A device that had not heard of the delete put it again: readers ignore it.
            vec![put("entry", "t1", json!({"content": "secret"}))],
        ]);
        let c = SyncEngine::new("x").plan_compaction(&l, 3, &[]).unwrap();
        assert_eq!(c.dropped, 2);
        let ids: Vec<&str> = c.rewrites.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["r1", "r3"]);
        assert_eq!(ops_of(&c.rewrites[0].1), [put("entry", "t2", json!(2))]);
        assert!(ops_of(&c.rewrites[1].1).is_empty());
        assert!(c.rewrites.iter().all(|(_, p)| !p.contains("secret")));
    }

    #[test]
    fn only_the_newest_put_of_a_record_stays() {
        let l = log(vec![
            vec![put("fact", "f1", json!("old"))],
            vec![
                put("fact", "f1", json!("new")),
                put("fact", "f2", json!("x")),
            ],
        ]);
        let c = SyncEngine::new("x").plan_compaction(&l, 2, &[]).unwrap();
        assert_eq!(
            c.rewrites,
            [("r1".to_string(), r#"{"v":1,"ops":[]}"#.to_string())]
        );
    }

    #[test]
    fn a_clear_ends_every_earlier_record_of_its_kinds_and_stays() {
        let clear = RecordOp::DeleteKinds {
            kinds: vec!["entry".into()],
        };
        let l = log(vec![
            vec![put("entry", "t1", json!(1)), put("fact", "f1", json!(1))],
            vec![clear.clone()],
            vec![put("entry", "t9", json!(9))],
        ]);
        let c = SyncEngine::new("x").plan_compaction(&l, 3, &[]).unwrap();
        assert_eq!(c.rewrites.len(), 1);
        assert_eq!(ops_of(&c.rewrites[0].1), [put("fact", "f1", json!(1))]);
    }

    #[test]
    fn the_vault_is_rewritten_with_the_merged_copy_in_its_newest_place() {
        let l = log(vec![
            vec![put("vault", "vault", json!({"v": ["erased value"]}))],
            vec![put("vault", "vault", json!({"v": ["other device"]}))],
        ]);
        let mine = Record {
            kind: "vault".into(),
            id: "vault".into(),
            order: 0.0,
            data: json!({"v": ["other device", "mine"]}),
        };
        let c = SyncEngine::new("x")
            .plan_compaction(&l, 2, std::slice::from_ref(&mine))
            .unwrap();
        assert_eq!(c.rewrites.len(), 2);
        assert!(ops_of(&c.rewrites[0].1).is_empty());
        assert_eq!(ops_of(&c.rewrites[1].1), [RecordOp::Put(mine)]);
        // Without the merged copy no vault put may go: each may hold values the others lack.
        let c = SyncEngine::new("x").plan_compaction(&l, 2, &[]).unwrap();
        assert!(c.rewrites.is_empty());
    }

    #[test]
    fn compact_bodies_stay_within_the_push_limits() {
        let rewrites: Vec<(String, String)> = (0..1200)
            .map(|i| {
                (
                    format!("id{i}"),
                    "x".repeat(if i == 7 { 3 << 20 } else { 100 }),
                )
            })
            .collect();
        let bodies = compact_bodies(9, &rewrites);
        let mut seen = 0;
        for b in &bodies {
            assert!(b.len() <= MAX_BODY_BYTES);
            let v: serde_json::Value = serde_json::from_str(b).unwrap();
            assert_eq!(v["upto"], 9);
            let n = v["records"].as_array().unwrap().len();
            assert!((1..=MAX_RECORDS_PER_PUSH).contains(&n));
            seen += n;
        }
        assert_eq!(seen, 1200);
        assert!(compact_bodies(9, &[]).is_empty());
    }

    #[test]
    fn records_past_upto_are_left_alone_and_corrupt_ones_stop_the_plan() {
        let l = log(vec![
            vec![put("fact", "f1", json!("old"))],
            vec![put("fact", "f1", json!("new"))],
        ]);
        let c = SyncEngine::new("x").plan_compaction(&l, 1, &[]).unwrap();
        assert!(c.rewrites.is_empty());
        let mut bad = l.clone();
        bad[0].2 = "not json".into();
        let e = SyncEngine::new("x")
            .plan_compaction(&bad, 2, &[])
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::CorruptStorage);
    }
}
