//! The embedded store: one SQLite file in WAL mode, one connection behind a mutex (SQLite
//! writes one transaction at a time anyway), every call on tokio's blocking pool. Commits wait
//! for the disk (`synchronous = FULL`): an acknowledged push survives the process being killed
//! and the machine losing power.
//!
//! Bytes a compaction replaces or a delete drops must not linger in the files: `secure_delete`
//! zeroes freed space in pages, and a checkpoint after those writes copies the new pages into
//! the database and empties the WAL, which otherwise keeps the old page images.

use super::{
    check_compaction, cut_page, plan_push, Compacted, NewRecord, Page, Pushed, SessionInfo,
    StoreError, StoreFuture, StoreResult, StoredRecord, REPLAY_WINDOW_MS,
};
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sync_sessions (
  user_id TEXT NOT NULL, sid TEXT NOT NULL, head INTEGER NOT NULL, deleted INTEGER NOT NULL,
  updated_at INTEGER NOT NULL, compacted INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, sid)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sync_records (
  user_id TEXT NOT NULL, sid TEXT NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL,
  data BLOB NOT NULL, PRIMARY KEY (user_id, sid, seq), UNIQUE (user_id, sid, id));
CREATE TABLE IF NOT EXISTS sync_requests (
  user_id TEXT NOT NULL, rid TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (user_id, rid))
  WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sync_requests_at ON sync_requests (at);
";

impl SqliteStore {
    pub fn open(path: &Path) -> StoreResult<SqliteStore> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(StoreError::unavailable)?;
        }
        let mut conn = Connection::open(path).map_err(StoreError::unavailable)?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;
             PRAGMA secure_delete = ON;",
        )
        .map_err(StoreError::unavailable)?;
        conn.execute_batch(SCHEMA)
            .map_err(StoreError::unavailable)?;
        add_mark_column(&mut conn).map_err(db)?;
        Ok(SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// Runs `f` with the connection on the blocking pool.
    fn with<'a, T: Send + 'static>(
        &'a self,
        f: impl FnOnce(&mut Connection) -> StoreResult<T> + Send + 'static,
    ) -> StoreFuture<'a, T> {
        let conn = self.conn.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                // A panic while holding the lock left no transaction open (rusqlite rolls back
                // on drop), so the connection is still usable.
                let mut conn = conn.lock().unwrap_or_else(|p| p.into_inner());
                f(&mut conn)
            })
            .await
            .map_err(StoreError::unavailable)?
        })
    }
}

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::unavailable(e)
}

/// A database made before compaction has no `compacted` column: add it (0, never compacted).
/// In a write transaction, so two servers opening one old file do not both add it.
fn add_mark_column(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let has_mark = tx
        .prepare("SELECT 1 FROM pragma_table_info('sync_sessions') WHERE name = 'compacted'")?
        .exists([])?;
    if !has_mark {
        tx.execute_batch(
            "ALTER TABLE sync_sessions ADD COLUMN compacted INTEGER NOT NULL DEFAULT 0",
        )?;
    }
    tx.commit()
}

/// Copies the WAL into the database and truncates it, so the page images of replaced or
/// dropped records leave the disk now rather than at the next automatic checkpoint. A busy or
/// failed checkpoint is left to a later one: the write it follows is already committed.
fn checkpoint(conn: &Connection) {
    let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
}

/// A session's row: head, deleted, compaction mark.
struct SessionRow {
    head: u64,
    deleted: bool,
    mark: u64,
}

fn session_state(
    tx: &rusqlite::Transaction<'_>,
    user: &str,
    sid: &str,
) -> StoreResult<Option<SessionRow>> {
    tx.query_row(
        "SELECT head, deleted, compacted FROM sync_sessions WHERE user_id = ?1 AND sid = ?2",
        params![user, sid],
        |row| {
            Ok(SessionRow {
                head: row.get::<_, i64>(0)? as u64,
                deleted: row.get::<_, i64>(1)? != 0,
                mark: row.get::<_, i64>(2)? as u64,
            })
        },
    )
    .optional()
    .map_err(db)
}

impl super::Store for SqliteStore {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn put_records<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        records: &'a [NewRecord],
        now_ms: i64,
    ) -> StoreFuture<'a, Pushed> {
        let (user, sid, records) = (user.to_string(), sid.to_string(), records.to_vec());
        self.with(move |conn| {
            let tx = conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .map_err(db)?;
            let (head, mark) = match session_state(&tx, &user, &sid)? {
                Some(s) if s.deleted => return Err(StoreError::Deleted),
                Some(s) => (s.head, s.mark),
                None => (0, 0),
            };
            let mut existing = HashMap::new();
            {
                let mut find = tx
                    .prepare_cached(
                        "SELECT seq, data FROM sync_records WHERE user_id = ?1 AND sid = ?2 AND id = ?3",
                    )
                    .map_err(db)?;
                for r in &records {
                    if let Some((seq, data)) = find
                        .query_row(params![user, sid, r.id], |row| {
                            Ok((row.get::<_, i64>(0)? as u64, row.get::<_, Vec<u8>>(1)?))
                        })
                        .optional()
                        .map_err(db)?
                    {
                        existing.insert(r.id.clone(), (seq, data));
                    }
                }
            }
            let plan = plan_push(head, mark, &existing, &records)?;
            {
                let mut insert = tx
                    .prepare_cached(
                        "INSERT INTO sync_records (user_id, sid, seq, id, data) VALUES (?1, ?2, ?3, ?4, ?5)",
                    )
                    .map_err(db)?;
                for (seq, r) in &plan.inserts {
                    insert
                        .execute(params![user, sid, *seq as i64, r.id, r.data])
                        .map_err(db)?;
                }
            }
            tx.execute(
                "INSERT INTO sync_sessions (user_id, sid, head, deleted, updated_at)
                 VALUES (?1, ?2, ?3, 0, ?4)
                 ON CONFLICT (user_id, sid) DO UPDATE SET head = excluded.head,
                   updated_at = CASE WHEN excluded.head > sync_sessions.head
                     THEN excluded.updated_at ELSE sync_sessions.updated_at END",
                params![user, sid, plan.pushed.head as i64, now_ms],
            )
            .map_err(db)?;
            tx.commit().map_err(db)?;
            Ok(plan.pushed)
        })
    }

    fn records_after<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        after: u64,
        limit: usize,
        max_bytes: usize,
    ) -> StoreFuture<'a, Page> {
        let (user, sid) = (user.to_string(), sid.to_string());
        self.with(move |conn| {
            let tx = conn.transaction().map_err(db)?;
            let head = match session_state(&tx, &user, &sid)? {
                None => return Err(StoreError::NotFound),
                Some(s) if s.deleted => return Err(StoreError::Deleted),
                Some(s) => s.head,
            };
            let mut stmt = tx
                .prepare_cached(
                    "SELECT id, seq, data FROM sync_records WHERE user_id = ?1 AND sid = ?2 AND seq > ?3
                     ORDER BY seq LIMIT ?4",
                )
                .map_err(db)?;
            let mut rows = stmt
                .query(params![user, sid, after.min(i64::MAX as u64) as i64, limit as i64])
                .map_err(db)?;
            // Rows are read one at a time, so a page of large records stops at the byte budget
            // without loading the rest.
            let (mut page, mut bytes) = (Vec::new(), 0);
            while let Some(row) = rows.next().map_err(db)? {
                let data: Vec<u8> = row.get(2).map_err(db)?;
                if !page.is_empty() && bytes + data.len() > max_bytes {
                    break;
                }
                bytes += data.len();
                page.push(StoredRecord {
                    id: row.get(0).map_err(db)?,
                    seq: row.get::<_, i64>(1).map_err(db)? as u64,
                    data,
                });
            }
            Ok(cut_page(page, limit, max_bytes, head))
        })
    }

    fn compact<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        upto: u64,
        records: &'a [NewRecord],
    ) -> StoreFuture<'a, Compacted> {
        let (user, sid, records) = (user.to_string(), sid.to_string(), records.to_vec());
        self.with(move |conn| {
            let tx = conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .map_err(db)?;
            let (head, mark) = match session_state(&tx, &user, &sid)? {
                None => return Err(StoreError::NotFound),
                Some(s) if s.deleted => return Err(StoreError::Deleted),
                Some(s) => (s.head, s.mark),
            };
            let mut stored = HashMap::new();
            {
                let mut find = tx
                    .prepare_cached(
                        "SELECT seq FROM sync_records WHERE user_id = ?1 AND sid = ?2 AND id = ?3",
                    )
                    .map_err(db)?;
                for r in &records {
                    if let Some(seq) = find
                        .query_row(params![user, sid, r.id], |row| row.get::<_, i64>(0))
                        .optional()
                        .map_err(db)?
                    {
                        stored.insert(r.id.clone(), seq as u64);
                    }
                }
            }
            check_compaction(head, mark, upto, &stored, &records)?;
            {
                let mut rewrite = tx
                    .prepare_cached(
                        "UPDATE sync_records SET data = ?4 WHERE user_id = ?1 AND sid = ?2 AND id = ?3",
                    )
                    .map_err(db)?;
                for r in &records {
                    rewrite.execute(params![user, sid, r.id, r.data]).map_err(db)?;
                }
            }
            tx.execute(
                "UPDATE sync_sessions SET compacted = ?3 WHERE user_id = ?1 AND sid = ?2",
                params![user, sid, upto as i64],
            )
            .map_err(db)?;
            tx.commit().map_err(db)?;
            checkpoint(conn);
            Ok(Compacted {
                compacted: upto,
                rewritten: records.len(),
                head,
            })
        })
    }

    fn list_sessions<'a>(&'a self, user: &'a str) -> StoreFuture<'a, Vec<SessionInfo>> {
        let user = user.to_string();
        self.with(move |conn| {
            let mut stmt = conn
                .prepare_cached(
                    "SELECT sid, head, deleted, updated_at, compacted FROM sync_sessions
                     WHERE user_id = ?1 ORDER BY sid",
                )
                .map_err(db)?;
            let rows = stmt
                .query_map(params![user], |row| {
                    Ok(SessionInfo {
                        id: row.get(0)?,
                        seq: row.get::<_, i64>(1)? as u64,
                        deleted: row.get::<_, i64>(2)? != 0,
                        updated_at: row.get(3)?,
                        compacted: row.get::<_, i64>(4)? as u64,
                    })
                })
                .map_err(db)?
                .collect::<Result<Vec<_>, _>>()
                .map_err(db)?;
            Ok(rows)
        })
    }

    fn delete_session<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        now_ms: i64,
    ) -> StoreFuture<'a, ()> {
        let (user, sid) = (user.to_string(), sid.to_string());
        self.with(move |conn| {
            let tx = conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
                .map_err(db)?;
            match session_state(&tx, &user, &sid)? {
                None => return Err(StoreError::NotFound),
                Some(s) if s.deleted => return Ok(()),
                Some(_) => {}
            }
            tx.execute(
                "DELETE FROM sync_records WHERE user_id = ?1 AND sid = ?2",
                params![user, sid],
            )
            .map_err(db)?;
            tx.execute(
                "UPDATE sync_sessions SET deleted = 1, updated_at = ?3 WHERE user_id = ?1 AND sid = ?2",
                params![user, sid, now_ms],
            )
            .map_err(db)?;
            tx.commit().map_err(db)?;
            checkpoint(conn);
            Ok(())
        })
    }

    fn note_request<'a>(
        &'a self,
        user: &'a str,
        request_id: &'a str,
        now_ms: i64,
    ) -> StoreFuture<'a, bool> {
        let (user, rid) = (user.to_string(), request_id.to_string());
        self.with(move |conn| {
            let cutoff = now_ms - REPLAY_WINDOW_MS;
            // An id older than the window counts as new again (and takes the new time).
            let fresh = conn
                .execute(
                    "INSERT INTO sync_requests (user_id, rid, at) VALUES (?1, ?2, ?3)
                     ON CONFLICT (user_id, rid) DO UPDATE SET at = excluded.at
                     WHERE sync_requests.at < ?4",
                    params![user, rid, now_ms, cutoff],
                )
                .map_err(db)?
                == 1;
            // Forget expired ids now and then (one insert in 256) so the table stays small.
            if now_ms % 256 == 0 {
                conn.execute("DELETE FROM sync_requests WHERE at < ?1", params![cutoff])
                    .map_err(db)?;
            }
            Ok(fresh)
        })
    }
}
