//! What opening a stored session does with what it finds: whether it opens read-only (a newer
//! schema stored it), whether a key is needed or records stored in clear must be sealed again,
//! the session's bookkeeping (new, or with a new time to live), which records are sync
//! bookkeeping, whether this device sends what it holds to the sync server now, and whether
//! it links to that server at all. The JS face loads, decrypts and writes; this decides.

use super::records::{is_sync_kind, sealed_data, Stored};
use super::{Record, RecordOp, SessionMeta, StoredSizes, SCHEMA_VERSION};
use crate::error::{Error, ErrorCode, Result};

/// How a session opens.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    pub meta: SessionMeta,
    /// No session was stored under this name: its bookkeeping is written now.
    pub new: bool,
    /// Stored by a newer schema: readable, never written.
    pub read_only: bool,
    /// Some records were stored in clear before a key was given: they are written again,
    /// sealed.
    reseal: bool,
}

impl Opening {
    /// Decides from the stored session's bookkeeping and records (`None`: none stored).
    /// Refuses an encrypted session opened without a key (`WRONG_KEY`), changing nothing.
    pub fn of(
        found: Option<(SessionMeta, &[Stored])>,
        session: &str,
        keyed: bool,
        ttl_ms: Option<f64>,
        now: f64,
    ) -> Result<Opening> {
        let Some((mut meta, records)) = found else {
            return Ok(Opening {
                meta: SessionMeta::new(session, now, ttl_ms),
                new: true,
                read_only: false,
                reseal: false,
            });
        };
        let read_only = meta.schema_version > SCHEMA_VERSION;
        let sealed = |s: &Stored| matches!(s, Stored::Other(r) if sealed_data(&r.data).is_some());
        if !keyed && records.iter().any(sealed) {
            return Err(Error::new(
                ErrorCode::WrongKey,
                format!(
                    "session {session:?} is stored encrypted: open it with encrypt: {{ key }} \
                     (or the sync key) it was written with; nothing was changed"
                ),
            ));
        }
        if ttl_ms.is_some() && !read_only {
            meta.ttl_ms = ttl_ms;
        }
        Ok(Opening {
            meta,
            new: false,
            read_only,
            reseal: keyed && !read_only && !records.iter().all(sealed),
        })
    }

    /// With sync, whether this device sends everything it holds now: a writable session that
    /// never synced from this browser (it has no sync records; once sent, the cursor record
    /// marks it). Those records are written again too, so no separate resealing is needed.
    pub fn first_push(&mut self, sync: bool, sync_records: &[Record]) -> bool {
        let due = sync && !self.read_only && sync_records.is_empty();
        if due {
            self.reseal = false;
        }
        due
    }

    /// Whether the session links to the sync server (a read-only one never does).
    pub fn links(&self, sync: bool) -> bool {
        sync && !self.read_only
    }

    /// The records to write again, sealed: all of them, when some were stored in clear.
    pub fn resealed(&self, records: Vec<Record>, sync_records: &[Record]) -> Vec<RecordOp> {
        if !self.reseal {
            return Vec::new();
        }
        let mut all: Vec<RecordOp> = records.into_iter().map(RecordOp::Put).collect();
        all.extend(sync_records.iter().cloned().map(RecordOp::Put));
        all
    }
}

/// Whether a session is stored under the name an import takes, from what loading it gave: a
/// damaged stored session exists too, and `overwrite` is how to replace it.
pub fn stored_already(loaded: Result<bool>) -> Result<bool> {
    match loaded {
        Err(e) if e.code == ErrorCode::CorruptStorage => Ok(true),
        other => other,
    }
}

/// How an imported document is stored: refused over a stored session unless `overwrite`, then
/// the session's bookkeeping (the document's creation time and ttl unless `ttl_ms` is given,
/// the memory's turns and sizes) and every record, written in one step.
pub struct Import<'a> {
    pub session: &'a str,
    pub created_at: f64,
    pub ttl_ms: Option<f64>,
    pub exists: bool,
    pub overwrite: bool,
    /// Where it goes, for the refusal's message.
    pub storage: &'a str,
}

impl Import<'_> {
    pub fn plan(
        &self,
        turns: usize,
        records: Vec<Record>,
        now: f64,
    ) -> Result<(SessionMeta, Vec<RecordOp>)> {
        if self.exists && !self.overwrite {
            return Err(Error::option(format!(
                "session {:?} already exists in {}: pass overwrite: true to replace it, or \
                 session: \"another-name\"",
                self.session, self.storage
            )));
        }
        let mut meta = SessionMeta::new(self.session, now, self.ttl_ms);
        meta.created_at = self.created_at;
        meta.turns = turns;
        meta.bytes = StoredSizes::of(&records).total();
        Ok((meta, records.into_iter().map(RecordOp::Put).collect()))
    }
}

/// A short id prefix per opened instance, from a random number in [0, 1): two tabs that open
/// one session never mint the same entry id (`Memory::set_id_prefix`).
pub fn instance_prefix(random: f64) -> String {
    let mut x = (random * 36f64.powi(4)) as u32;
    let mut prefix = String::with_capacity(5);
    for _ in 0..4 {
        prefix.push(std::char::from_digit(x % 36, 36).unwrap_or('0'));
        x /= 36;
    }
    prefix.push('-');
    prefix
}

/// The sessions whose time to live has passed, which opening removes first. A session whose
/// bookkeeping cannot be read is skipped, not a reason to refuse opening another one:
/// `Memory.sessions()` names it, and opening it says it is damaged.
pub fn expired_sessions(metas: Vec<Result<SessionMeta>>, now: f64) -> Vec<String> {
    let expired = metas.into_iter().flatten().filter(|m| m.is_expired(now));
    expired.map(|m| m.session).collect()
}

/// Splits what a backend loaded into the memory's records and the sync bookkeeping.
pub fn split_sync(records: Vec<Stored>) -> (Vec<Stored>, Vec<Record>) {
    let mut sync = Vec::new();
    let mut rest = Vec::with_capacity(records.len());
    for s in records {
        match s {
            Stored::Other(r) if is_sync_kind(&r.kind) => sync.push(r),
            other => rest.push(other),
        }
    }
    (rest, sync)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::records::SEALED_FIELD;

    fn record(kind: &str, sealed: bool) -> Stored {
        let data = match sealed {
            true => serde_json::json!({ SEALED_FIELD: "AAAA" }),
            false => serde_json::json!({ "text": "hi" }),
        };
        Stored::Other(Record {
            kind: kind.into(),
            id: "1".into(),
            order: 0.0,
            data,
        })
    }

    fn stored(schema_version: u32) -> SessionMeta {
        SessionMeta {
            schema_version,
            ..SessionMeta::new("chat", 1.0, Some(10.0))
        }
    }

    #[test]
    fn a_new_session_is_written_with_its_ttl() {
        let o = Opening::of(None, "chat", false, Some(5.0), 7.0).unwrap();
        assert!(o.new && !o.read_only);
        assert_eq!((o.meta.created_at, o.meta.ttl_ms), (7.0, Some(5.0)));
    }

    #[test]
    fn a_newer_schema_opens_read_only_and_is_never_changed() {
        let records = [record("fact", false)];
        let mut o = Opening::of(
            Some((stored(SCHEMA_VERSION + 1), &records)),
            "chat",
            true,
            Some(5.0),
            2.0,
        )
        .unwrap();
        assert!(o.read_only);
        assert_eq!(o.meta.ttl_ms, Some(10.0), "the stored ttl is kept");
        assert!(!o.first_push(true, &[]));
        assert!(!o.links(true));
        assert!(o.resealed(vec![], &[]).is_empty());
    }

    #[test]
    fn an_encrypted_session_needs_its_key_and_clear_records_are_sealed_again() {
        let records = [record("fact", true), record("fact", false)];
        let found = || Some((stored(SCHEMA_VERSION), &records[..]));
        let e = Opening::of(found(), "chat", false, None, 2.0).unwrap_err();
        assert_eq!(e.code, ErrorCode::WrongKey);
        let o = Opening::of(found(), "chat", true, None, 2.0).unwrap();
        let Stored::Other(r) = &records[1] else {
            unreachable!()
        };
        assert_eq!(o.resealed(vec![r.clone()], &[]).len(), 1);
        let all_sealed = [record("fact", true)];
        let o = Opening::of(
            Some((stored(SCHEMA_VERSION), &all_sealed)),
            "chat",
            true,
            None,
            2.0,
        );
        assert!(o.unwrap().resealed(vec![], &[]).is_empty());
    }

    #[test]
    fn a_first_push_replaces_resealing_and_happens_once() {
        let records = [record("fact", false)];
        let mut o = Opening::of(
            Some((stored(SCHEMA_VERSION), &records)),
            "chat",
            true,
            None,
            2.0,
        )
        .unwrap();
        let Stored::Other(cursor) = record("sync-state", false) else {
            unreachable!()
        };
        assert!(!o.clone().first_push(true, &[cursor]), "synced before");
        assert!(o.first_push(true, &[]));
        assert!(o.resealed(vec![], &[]).is_empty());
        let (rest, sync) = split_sync(vec![record("fact", false), record("sync-out", true)]);
        assert_eq!((rest.len(), sync.len()), (1, 1));
    }

    #[test]
    fn an_import_over_a_stored_session_needs_overwrite() {
        let import = |exists, overwrite| Import {
            session: "chat",
            created_at: 3.0,
            ttl_ms: Some(9.0),
            exists,
            overwrite,
            storage: "indexeddb",
        };
        let Stored::Other(r) = record("fact", false) else {
            unreachable!()
        };
        let e = import(true, false)
            .plan(0, vec![r.clone()], 5.0)
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidOption);
        assert!(e.message.contains("overwrite: true"), "{}", e.message);
        let (meta, ops) = import(true, true).plan(2, vec![r], 5.0).unwrap();
        assert_eq!(
            (meta.created_at, meta.updated_at, meta.ttl_ms, meta.turns),
            (3.0, 5.0, Some(9.0), 2)
        );
        assert!(meta.bytes > 0 && ops.len() == 1);
        let damaged = Error::new(ErrorCode::CorruptStorage, "bad meta");
        assert!(stored_already(Err(damaged)).unwrap());
        let failed = Error::new(ErrorCode::StorageFailed, "io");
        assert!(stored_already(Err(failed)).is_err());
    }

    #[test]
    fn instance_prefixes_are_four_base36_digits_and_a_dash() {
        assert_eq!(instance_prefix(0.0), "0000-");
        assert_eq!(instance_prefix(0.999_999_9), "zzzz-");
        assert_eq!(instance_prefix(35.0 / 36f64.powi(4)), "z000-");
        assert_ne!(instance_prefix(0.25), instance_prefix(0.5));
    }

    #[test]
    fn expired_sessions_skip_unreadable_bookkeeping() {
        let damaged = Err(Error::new(ErrorCode::CorruptStorage, "damaged"));
        let fresh = SessionMeta::new("fresh", 0.0, Some(100.0));
        let old = SessionMeta::new("old", 0.0, Some(10.0));
        let kept = SessionMeta::new("kept", 0.0, None);
        let metas = vec![damaged, Ok(fresh), Ok(old), Ok(kept)];
        assert_eq!(expired_sessions(metas, 50.0), vec!["old".to_string()]);
    }
}
