//! What the server needs from a database, as one small trait with three backends: SQLite (the
//! embedded default), Postgres (many clients) and Redis (sessions that expire). Every backend
//! stores a user's sessions apart from every other user's: the user is part of every key, so a
//! session id names a different session under each user.
//!
//! The rules every backend keeps: a push is stored all or nothing; a record id already stored
//! with the same bytes is acknowledged again with its first sequence number, with other bytes
//! the whole push is refused (unless a compaction rewrote it, see `plan_push`); sequence
//! numbers are per session, from 1, without gaps; a compaction replaces the bytes of records at
//! or below its `upto` in place, all or nothing, and raises the session's mark, which only
//! grows (`check_compaction`); a deleted session keeps a tombstone that refuses pushes and reads.

pub mod postgres;
pub mod redis;
pub mod sqlite;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

/// One record of a push: the client's id and the bytes to keep verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRecord {
    pub id: String,
    pub data: Vec<u8>,
}

/// A stored record as read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRecord {
    pub id: String,
    pub seq: u64,
    pub data: Vec<u8>,
}

/// The answer to a push: each record's sequence number, in the order pushed, and the head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pushed {
    pub acked: Vec<(String, u64)>,
    pub head: u64,
}

/// One page of a session's records after a sequence number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub records: Vec<StoredRecord>,
    pub head: u64,
    pub more: bool,
}

/// A session as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    pub id: String,
    pub seq: u64,
    pub deleted: bool,
    pub updated_at: i64,
    /// The compaction mark: records at or below it were rewritten (0: never compacted).
    pub compacted: u64,
}

/// The answer to a compaction: the new mark, how many records were rewritten, the head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compacted {
    pub compacted: u64,
    pub rewritten: usize,
    pub head: u64,
}

/// Why a store refused or failed an operation. All but the last are answers to the request;
/// the last is the store's own trouble (the database is down), the only one that is not a 4xx.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// This record id is stored with other bytes (nothing of the push was stored).
    Conflict(String),
    /// The session was deleted.
    Deleted,
    /// No such session for this user.
    NotFound,
    /// A compaction's `upto` is past the session's head (given).
    PastHead(u64),
    /// A compaction names a record id the session does not hold at or below `upto`.
    NotCompactable(String),
    /// A compaction's `upto` is below the session's mark (given): another device compacted
    /// further, from a newer read.
    Stale(u64),
    Unavailable(String),
}

impl StoreError {
    pub fn unavailable(e: impl std::fmt::Display) -> StoreError {
        StoreError::Unavailable(e.to_string())
    }
}

pub type StoreResult<T> = Result<T, StoreError>;
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = StoreResult<T>> + Send + 'a>>;

/// The operations the HTTP layer uses. `user` is the authenticated user's id, `sid` a checked
/// session name, `now_ms` the server's clock in milliseconds since the Unix epoch.
pub trait Store: Send + Sync {
    /// "sqlite", "postgres" or "redis", as `/v1/health` reports it.
    fn kind(&self) -> &'static str;

    /// Stores a push atomically and idempotently (see the module comment).
    fn put_records<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        records: &'a [NewRecord],
        now_ms: i64,
    ) -> StoreFuture<'a, Pushed>;

    /// Up to `limit` records with seq > `after`, in seq order, stopping early (with `more`) once
    /// `max_bytes` of data are in the page; the first record is always included.
    fn records_after<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        after: u64,
        limit: usize,
        max_bytes: usize,
    ) -> StoreFuture<'a, Page>;

    /// Replaces the bytes of stored records (same id, same seq) and raises the session's mark
    /// to `upto`, all or nothing, after `check_compaction`'s checks. `records` holds no id twice
    /// (the HTTP layer refuses that).
    fn compact<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        upto: u64,
        records: &'a [NewRecord],
    ) -> StoreFuture<'a, Compacted>;

    /// Every session of the user, deleted ones included, ordered by id.
    fn list_sessions<'a>(&'a self, user: &'a str) -> StoreFuture<'a, Vec<SessionInfo>>;

    /// Drops the session's records and leaves a tombstone. Deleting a deleted session succeeds
    /// again (a retried delete); a session never pushed is `NotFound`.
    fn delete_session<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        now_ms: i64,
    ) -> StoreFuture<'a, ()>;

    /// Notes a request id; false when the user sent the same id within `REPLAY_WINDOW_MS`.
    fn note_request<'a>(
        &'a self,
        user: &'a str,
        request_id: &'a str,
        now_ms: i64,
    ) -> StoreFuture<'a, bool>;
}

/// How long a request id is remembered for replay detection.
pub const REPLAY_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;

/// What a push adds to a session whose matching records are already known: the SQL backends
/// read the stored records with the pushed ids, then write what this returns.
#[derive(Debug, PartialEq, Eq)]
pub struct PushPlan<'r> {
    /// The records to insert with their new sequence numbers.
    pub inserts: Vec<(u64, &'r NewRecord)>,
    pub pushed: Pushed,
}

/// Decides a push against the session's head, its compaction mark and the already stored
/// records among the pushed ids (`existing`: id → (seq, bytes)). An id repeated within one push
/// counts as one record. A stored id at or below the mark is acknowledged whatever the bytes: a
/// compaction rewrote them, and a device retrying its original push after a lost answer must
/// neither conflict nor store the record twice. (New records get seqs above the head, which is
/// never below the mark, so only stored records can be at or below it.)
pub fn plan_push<'r>(
    head: u64,
    mark: u64,
    existing: &HashMap<String, (u64, Vec<u8>)>,
    records: &'r [NewRecord],
) -> StoreResult<PushPlan<'r>> {
    let mut seen: HashMap<&str, (u64, &[u8])> = HashMap::new();
    let mut inserts = Vec::new();
    let mut acked = Vec::with_capacity(records.len());
    let mut next = head;
    for r in records {
        let known = seen
            .get(r.id.as_str())
            .copied()
            .or_else(|| existing.get(&r.id).map(|(s, d)| (*s, d.as_slice())));
        let seq = match known {
            Some((seq, _)) if seq <= mark => seq,
            Some((seq, data)) if data == r.data.as_slice() => seq,
            Some(_) => return Err(StoreError::Conflict(r.id.clone())),
            None => {
                next += 1;
                inserts.push((next, r));
                next
            }
        };
        seen.insert(&r.id, (seq, &r.data));
        acked.push((r.id.clone(), seq));
    }
    Ok(PushPlan {
        inserts,
        pushed: Pushed { acked, head: next },
    })
}

/// The checks of a compaction, in the order the API answers them: `upto` within the head, every
/// id stored (`stored`: id → seq, the stored records among the ids) at or below `upto`, then
/// `upto` not below the mark. Redis runs the same checks in its script.
pub fn check_compaction(
    head: u64,
    mark: u64,
    upto: u64,
    stored: &HashMap<String, u64>,
    records: &[NewRecord],
) -> StoreResult<()> {
    if upto > head {
        return Err(StoreError::PastHead(head));
    }
    if let Some(r) = records
        .iter()
        .find(|r| stored.get(&r.id).is_none_or(|seq| *seq > upto))
    {
        return Err(StoreError::NotCompactable(r.id.clone()));
    }
    if upto < mark {
        return Err(StoreError::Stale(mark));
    }
    Ok(())
}

/// Cuts a page to `max_bytes` of data (at least one record) and says whether more follow.
pub fn cut_page(mut records: Vec<StoredRecord>, limit: usize, max_bytes: usize, head: u64) -> Page {
    let mut bytes = 0;
    let mut keep = 0;
    for r in records.iter().take(limit) {
        if keep > 0 && bytes + r.data.len() > max_bytes {
            break;
        }
        bytes += r.data.len();
        keep += 1;
    }
    records.truncate(keep);
    let last = records.last().map(|r| r.seq);
    let more = last.is_some_and(|s| s < head);
    Page {
        records,
        head,
        more,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: &str, data: &[u8]) -> NewRecord {
        NewRecord {
            id: id.into(),
            data: data.to_vec(),
        }
    }

    #[test]
    fn new_records_get_consecutive_seqs_after_the_head() {
        let recs = [rec("a", b"1"), rec("b", b"2")];
        let plan = plan_push(4, 0, &HashMap::new(), &recs).unwrap();
        assert_eq!(
            plan.inserts.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
            [5, 6]
        );
        assert_eq!(plan.pushed.head, 6);
        assert_eq!(plan.pushed.acked, [("a".into(), 5), ("b".into(), 6)]);
    }

    #[test]
    fn a_stored_id_with_the_same_bytes_keeps_its_seq() {
        let existing = HashMap::from([("a".to_string(), (2, b"1".to_vec()))]);
        let recs = [rec("a", b"1"), rec("c", b"3")];
        let plan = plan_push(7, 0, &existing, &recs).unwrap();
        assert_eq!(plan.pushed.acked, [("a".into(), 2), ("c".into(), 8)]);
        assert_eq!(plan.inserts.len(), 1);
    }

    #[test]
    fn other_bytes_under_a_stored_or_repeated_id_conflict() {
        let existing = HashMap::from([("a".to_string(), (2, b"1".to_vec()))]);
        assert_eq!(
            plan_push(7, 0, &existing, &[rec("a", b"x")]),
            Err(StoreError::Conflict("a".into()))
        );
        let recs = [rec("b", b"1"), rec("b", b"2")];
        assert_eq!(
            plan_push(0, 0, &HashMap::new(), &recs),
            Err(StoreError::Conflict("b".into()))
        );
        let same = [rec("b", b"1"), rec("b", b"1")];
        let plan = plan_push(0, 0, &HashMap::new(), &same).unwrap();
        assert_eq!(plan.pushed.acked, [("b".into(), 1), ("b".into(), 1)]);
        assert_eq!(plan.inserts.len(), 1);
    }

    #[test]
    fn a_stored_id_at_or_below_the_mark_is_acked_whatever_the_bytes() {
        let existing = HashMap::from([
            ("a".to_string(), (2, b"rewritten".to_vec())),
            ("b".to_string(), (3, b"rewritten".to_vec())),
            ("c".to_string(), (4, b"4".to_vec())),
        ]);
        // The original bytes of compacted records, one twice with other bytes, and a new one.
        let recs = [
            rec("a", b"old"),
            rec("b", b"old"),
            rec("a", b"other"),
            rec("d", b"5"),
        ];
        let plan = plan_push(4, 3, &existing, &recs).unwrap();
        assert_eq!(
            plan.pushed.acked,
            [
                ("a".into(), 2),
                ("b".into(), 3),
                ("a".into(), 2),
                ("d".into(), 5)
            ]
        );
        assert_eq!(plan.inserts.len(), 1);
        assert_eq!(plan.pushed.head, 5);
        // Above the mark the bytes still have to match.
        assert_eq!(
            plan_push(4, 3, &existing, &[rec("c", b"x")]),
            Err(StoreError::Conflict("c".into()))
        );
        assert!(plan_push(4, 3, &existing, &[rec("c", b"4")]).is_ok());
    }

    #[test]
    fn a_compaction_is_checked_head_then_ids_then_mark() {
        let stored = HashMap::from([("a".to_string(), 1), ("b".to_string(), 5)]);
        let check = |mark, upto, ids: &[&str]| {
            let recs: Vec<_> = ids.iter().map(|id| rec(id, b"")).collect();
            check_compaction(6, mark, upto, &stored, &recs)
        };
        assert_eq!(check(0, 5, &["a", "b"]), Ok(()));
        assert_eq!(check(0, 0, &[]), Ok(()));
        assert_eq!(check(5, 5, &["a"]), Ok(()), "the same mark again: a retry");
        assert_eq!(check(0, 7, &["a"]), Err(StoreError::PastHead(6)));
        assert_eq!(
            check(0, 4, &["a", "b"]),
            Err(StoreError::NotCompactable("b".into()))
        );
        assert_eq!(
            check(0, 5, &["zz"]),
            Err(StoreError::NotCompactable("zz".into()))
        );
        assert_eq!(
            check(5, 4, &["b"]),
            Err(StoreError::NotCompactable("b".into()))
        );
        assert_eq!(check(5, 4, &["a"]), Err(StoreError::Stale(5)));
    }

    #[test]
    fn pages_stop_at_the_byte_budget_but_hold_one_record() {
        let r = |seq, n| StoredRecord {
            id: format!("r{seq}"),
            seq,
            data: vec![0; n],
        };
        let page = cut_page(vec![r(1, 10), r(2, 10), r(3, 10)], 10, 25, 3);
        assert_eq!(page.records.len(), 2);
        assert!(page.more);
        let page = cut_page(vec![r(1, 100)], 10, 25, 1);
        assert_eq!(page.records.len(), 1);
        assert!(!page.more);
    }
}
