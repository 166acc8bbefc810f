//! The store for many clients: Postgres through tokio-postgres and a small pool of connections.
//! A push locks its session's row (`SELECT … FOR UPDATE`), so two pushes to one session take
//! sequence numbers one after the other and readers never see a gap; pushes to different
//! sessions run side by side. Records are keyed (user, session, seq) with a unique
//! (user, session, id): the index per user and session that reads and id checks use.
//!
//! A compaction locks the session's row the same way and UPDATEs the records' bytes in place.
//! The old bytes stay in the dead row versions until (auto)vacuum reclaims them.

use super::{
    check_compaction, cut_page, plan_push, Compacted, NewRecord, Page, Pushed, SessionInfo,
    StoreError, StoreFuture, StoreResult, StoredRecord, REPLAY_WINDOW_MS,
};
use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_postgres::{Client, NoTls, Statement};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sync_sessions (
  user_id TEXT NOT NULL, sid TEXT NOT NULL, head BIGINT NOT NULL, deleted BOOLEAN NOT NULL,
  updated_at BIGINT NOT NULL, compacted BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (user_id, sid));
-- Tables made before compaction: the mark of every existing session starts at 0.
ALTER TABLE sync_sessions ADD COLUMN IF NOT EXISTS compacted BIGINT NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS sync_records (
  user_id TEXT NOT NULL, sid TEXT NOT NULL, seq BIGINT NOT NULL, id TEXT NOT NULL,
  data BYTEA NOT NULL, PRIMARY KEY (user_id, sid, seq), UNIQUE (user_id, sid, id));
CREATE TABLE IF NOT EXISTS sync_requests (
  user_id TEXT NOT NULL, rid TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (user_id, rid));
CREATE INDEX IF NOT EXISTS sync_requests_at ON sync_requests (at);
";

/// The statements of every operation, prepared once per connection: a query given as text
/// costs a round trip to prepare each time.
struct Statements {
    lock_session: Statement,
    existing: Statement,
    insert_records: Statement,
    set_head: Statement,
    session: Statement,
    page: Statement,
    list: Statement,
    lock_existing: Statement,
    stored_seqs: Statement,
    rewrite_records: Statement,
    set_mark: Statement,
    drop_records: Statement,
    tombstone: Statement,
    note_request: Statement,
    purge_requests: Statement,
}

/// A connection with its prepared statements.
pub(crate) struct Conn {
    client: Client,
    st: Statements,
}

impl Conn {
    async fn open(url: &str) -> StoreResult<Conn> {
        let (client, connection) = tokio_postgres::connect(url, NoTls)
            .await
            .map_err(StoreError::unavailable)?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                eprintln!("postgres connection closed: {e}");
            }
        });
        let p = |sql: &'static str| client.prepare(sql);
        let st = Statements {
            // An upsert that changes nothing still locks the row and returns it: one round
            // trip creates the session if needed and serializes pushes to it.
            lock_session: p("INSERT INTO sync_sessions (user_id, sid, head, deleted, updated_at)
                 VALUES ($1, $2, 0, false, $3)
                 ON CONFLICT (user_id, sid) DO UPDATE SET head = sync_sessions.head
                 RETURNING head, deleted, compacted")
            .await
            .map_err(db)?,
            existing: p("SELECT id, seq, data FROM sync_records
                 WHERE user_id = $1 AND sid = $2 AND id = ANY($3)")
            .await
            .map_err(db)?,
            insert_records: p("INSERT INTO sync_records (user_id, sid, seq, id, data)
                 SELECT $1, $2, s, i, d FROM UNNEST($3::BIGINT[], $4::TEXT[], $5::BYTEA[]) AS t(s, i, d)")
            .await
            .map_err(db)?,
            set_head: p("UPDATE sync_sessions SET head = $3, updated_at = $4
                 WHERE user_id = $1 AND sid = $2")
            .await
            .map_err(db)?,
            session: p("SELECT head, deleted FROM sync_sessions WHERE user_id = $1 AND sid = $2")
                .await
                .map_err(db)?,
            // Only rows whose preceding data fits the byte budget are sent (the first always
            // is), so a page of large records is not read whole.
            page: p("SELECT id, seq, data FROM (
                   SELECT id, seq, data, SUM(octet_length(data)) OVER (ORDER BY seq) AS upto
                   FROM sync_records WHERE user_id = $1 AND sid = $2 AND seq > $3
                   ORDER BY seq LIMIT $4) page
                 WHERE upto - octet_length(data) = 0 OR upto <= $5 ORDER BY seq")
            .await
            .map_err(db)?,
            // head = 0: a first push refused (conflict) was rolled back with its row; one in
            // flight is not listed until it commits.
            list: p("SELECT sid, head, deleted, updated_at, compacted FROM sync_sessions
                 WHERE user_id = $1 AND (head > 0 OR deleted) ORDER BY sid")
            .await
            .map_err(db)?,
            // Delete and compaction: a session that exists, locked against pushes.
            lock_existing: p("SELECT head, deleted, compacted FROM sync_sessions
                 WHERE user_id = $1 AND sid = $2 FOR UPDATE")
            .await
            .map_err(db)?,
            stored_seqs: p("SELECT id, seq FROM sync_records
                 WHERE user_id = $1 AND sid = $2 AND id = ANY($3)")
            .await
            .map_err(db)?,
            rewrite_records: p("UPDATE sync_records AS r SET data = t.d
                 FROM UNNEST($3::TEXT[], $4::BYTEA[]) AS t(i, d)
                 WHERE r.user_id = $1 AND r.sid = $2 AND r.id = t.i")
            .await
            .map_err(db)?,
            set_mark: p("UPDATE sync_sessions SET compacted = $3 WHERE user_id = $1 AND sid = $2")
                .await
                .map_err(db)?,
            drop_records: p("DELETE FROM sync_records WHERE user_id = $1 AND sid = $2")
                .await
                .map_err(db)?,
            tombstone: p("UPDATE sync_sessions SET deleted = true, updated_at = $3
                 WHERE user_id = $1 AND sid = $2")
            .await
            .map_err(db)?,
            // An id older than the window counts as new again (and takes the new time).
            note_request: p("INSERT INTO sync_requests (user_id, rid, at) VALUES ($1, $2, $3)
                 ON CONFLICT (user_id, rid) DO UPDATE SET at = excluded.at
                 WHERE sync_requests.at < $4")
            .await
            .map_err(db)?,
            purge_requests: p("DELETE FROM sync_requests WHERE at < $1")
                .await
                .map_err(db)?,
        };
        Ok(Conn { client, st })
    }
}

/// Connections opened on demand up to a bound, reused while they stay open.
struct Pool {
    url: String,
    idle: Mutex<Vec<Conn>>,
    permits: Arc<Semaphore>,
}

struct Pooled<'p> {
    conn: Option<Conn>,
    pool: &'p Pool,
    _permit: OwnedSemaphorePermit,
}

impl Deref for Pooled<'_> {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        self.conn.as_ref().expect("present until drop")
    }
}

impl DerefMut for Pooled<'_> {
    fn deref_mut(&mut self) -> &mut Conn {
        self.conn.as_mut().expect("present until drop")
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        if let Some(c) = self.conn.take().filter(|c| !c.client.is_closed()) {
            self.pool
                .idle
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(c);
        }
    }
}

impl Pool {
    async fn get(&self) -> StoreResult<Pooled<'_>> {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(StoreError::unavailable)?;
        let reused = {
            let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
            std::iter::from_fn(|| idle.pop()).find(|c| !c.client.is_closed())
        };
        let conn = match reused {
            Some(c) => c,
            None => Conn::open(&self.url).await?,
        };
        Ok(Pooled {
            conn: Some(conn),
            pool: self,
            _permit: permit,
        })
    }
}

pub struct PostgresStore {
    pool: Pool,
}

fn db(e: tokio_postgres::Error) -> StoreError {
    StoreError::unavailable(e)
}

impl PostgresStore {
    /// Connects, creates the tables if missing (under an advisory lock: servers starting
    /// together on one database would otherwise race on `CREATE TABLE IF NOT EXISTS`).
    pub async fn open(url: &str, max_connections: usize) -> StoreResult<PostgresStore> {
        let pool = Pool {
            url: url.to_string(),
            idle: Mutex::new(Vec::new()),
            permits: Arc::new(Semaphore::new(max_connections.max(1))),
        };
        {
            let (mut client, connection) = tokio_postgres::connect(url, NoTls).await.map_err(db)?;
            let task = tokio::spawn(connection);
            let tx = client.transaction().await.map_err(db)?;
            tx.execute("SELECT pg_advisory_xact_lock(7365812)", &[])
                .await
                .map_err(db)?;
            tx.batch_execute(SCHEMA).await.map_err(db)?;
            tx.commit().await.map_err(db)?;
            drop(client);
            let _ = task.await;
        }
        // A first connection now: a wrong URL or missing rights fail at start, not later.
        drop(pool.get().await?);
        Ok(PostgresStore { pool })
    }
}

impl super::Store for PostgresStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn put_records<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        records: &'a [NewRecord],
        now_ms: i64,
    ) -> StoreFuture<'a, Pushed> {
        Box::pin(async move {
            let mut c = self.pool.get().await?;
            let Conn { client, st } = &mut *c;
            let tx = client.transaction().await.map_err(db)?;
            let row = tx
                .query_one(&st.lock_session, &[&user, &sid, &now_ms])
                .await
                .map_err(db)?;
            if row.get::<_, bool>(1) {
                return Err(StoreError::Deleted);
            }
            let head = row.get::<_, i64>(0) as u64;
            let mark = row.get::<_, i64>(2) as u64;
            let ids: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
            let existing: HashMap<String, (u64, Vec<u8>)> = tx
                .query(&st.existing, &[&user, &sid, &ids])
                .await
                .map_err(db)?
                .into_iter()
                .map(|r| (r.get(0), (r.get::<_, i64>(1) as u64, r.get(2))))
                .collect();
            let plan = plan_push(head, mark, &existing, records)?;
            if !plan.inserts.is_empty() {
                let seqs: Vec<i64> = plan.inserts.iter().map(|(s, _)| *s as i64).collect();
                let ids: Vec<&str> = plan.inserts.iter().map(|(_, r)| r.id.as_str()).collect();
                let data: Vec<&[u8]> = plan
                    .inserts
                    .iter()
                    .map(|(_, r)| r.data.as_slice())
                    .collect();
                tx.execute(&st.insert_records, &[&user, &sid, &seqs, &ids, &data])
                    .await
                    .map_err(db)?;
                let head = plan.pushed.head as i64;
                tx.execute(&st.set_head, &[&user, &sid, &head, &now_ms])
                    .await
                    .map_err(db)?;
            }
            tx.commit().await.map_err(db)?;
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
        Box::pin(async move {
            let mut c = self.pool.get().await?;
            let Conn { client, st } = &mut *c;
            // One snapshot for the head and the records, so `more` agrees with the page.
            let tx = client
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await
                .map_err(db)?;
            let head = match tx
                .query_opt(&st.session, &[&user, &sid])
                .await
                .map_err(db)?
            {
                None => return Err(StoreError::NotFound),
                Some(r) if r.get::<_, bool>(1) => return Err(StoreError::Deleted),
                Some(r) => r.get::<_, i64>(0) as u64,
            };
            if head == 0 {
                return Err(StoreError::NotFound);
            }
            let after = after.min(i64::MAX as u64) as i64;
            let (limit, max_bytes) = (limit as i64, max_bytes as i64);
            let rows = tx
                .query(&st.page, &[&user, &sid, &after, &limit, &max_bytes])
                .await
                .map_err(db)?;
            tx.commit().await.map_err(db)?;
            let records = rows
                .into_iter()
                .map(|r| StoredRecord {
                    id: r.get(0),
                    seq: r.get::<_, i64>(1) as u64,
                    data: r.get(2),
                })
                .collect();
            Ok(cut_page(records, limit as usize, max_bytes as usize, head))
        })
    }

    fn compact<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        upto: u64,
        records: &'a [NewRecord],
    ) -> StoreFuture<'a, Compacted> {
        Box::pin(async move {
            let mut c = self.pool.get().await?;
            let Conn { client, st } = &mut *c;
            let tx = client.transaction().await.map_err(db)?;
            // head 0: a first push still in flight (or rolled back), not yet a session.
            let (head, mark) = match tx
                .query_opt(&st.lock_existing, &[&user, &sid])
                .await
                .map_err(db)?
            {
                Some(r) if r.get::<_, bool>(1) => return Err(StoreError::Deleted),
                Some(r) if r.get::<_, i64>(0) > 0 => {
                    (r.get::<_, i64>(0) as u64, r.get::<_, i64>(2) as u64)
                }
                _ => return Err(StoreError::NotFound),
            };
            let ids: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
            let stored: HashMap<String, u64> = tx
                .query(&st.stored_seqs, &[&user, &sid, &ids])
                .await
                .map_err(db)?
                .into_iter()
                .map(|r| (r.get(0), r.get::<_, i64>(1) as u64))
                .collect();
            check_compaction(head, mark, upto, &stored, records)?;
            if !records.is_empty() {
                let data: Vec<&[u8]> = records.iter().map(|r| r.data.as_slice()).collect();
                tx.execute(&st.rewrite_records, &[&user, &sid, &ids, &data])
                    .await
                    .map_err(db)?;
            }
            // upto <= head, which fits an i64.
            tx.execute(&st.set_mark, &[&user, &sid, &(upto as i64)])
                .await
                .map_err(db)?;
            tx.commit().await.map_err(db)?;
            Ok(Compacted {
                compacted: upto,
                rewritten: records.len(),
                head,
            })
        })
    }

    fn list_sessions<'a>(&'a self, user: &'a str) -> StoreFuture<'a, Vec<SessionInfo>> {
        Box::pin(async move {
            let c = self.pool.get().await?;
            let rows = c.client.query(&c.st.list, &[&user]).await.map_err(db)?;
            Ok(rows
                .into_iter()
                .map(|r| SessionInfo {
                    id: r.get(0),
                    seq: r.get::<_, i64>(1) as u64,
                    deleted: r.get(2),
                    updated_at: r.get(3),
                    compacted: r.get::<_, i64>(4) as u64,
                })
                .collect())
        })
    }

    fn delete_session<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        now_ms: i64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut c = self.pool.get().await?;
            let Conn { client, st } = &mut *c;
            let tx = client.transaction().await.map_err(db)?;
            match tx
                .query_opt(&st.lock_existing, &[&user, &sid])
                .await
                .map_err(db)?
            {
                Some(r) if r.get::<_, bool>(1) => return Ok(()),
                Some(r) if r.get::<_, i64>(0) > 0 => {}
                _ => return Err(StoreError::NotFound),
            }
            tx.execute(&st.drop_records, &[&user, &sid])
                .await
                .map_err(db)?;
            tx.execute(&st.tombstone, &[&user, &sid, &now_ms])
                .await
                .map_err(db)?;
            tx.commit().await.map_err(db)
        })
    }

    fn note_request<'a>(
        &'a self,
        user: &'a str,
        request_id: &'a str,
        now_ms: i64,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let c = self.pool.get().await?;
            let cutoff = now_ms - REPLAY_WINDOW_MS;
            let fresh = c
                .client
                .execute(&c.st.note_request, &[&user, &request_id, &now_ms, &cutoff])
                .await
                .map_err(db)?
                == 1;
            // Forget expired ids now and then (one request in 256) so the table stays small.
            if now_ms % 256 == 0 {
                c.client
                    .execute(&c.st.purge_requests, &[&cutoff])
                    .await
                    .map_err(db)?;
            }
            Ok(fresh)
        })
    }
}
