//! The store with expiry: Redis, each operation one Lua script (Redis runs a script alone, which
//! makes a push atomic and its sequence numbers gap-free). A session's keys expire `ttl` after
//! its last push or delete, as a cache-like deployment keeps chats for a day; `ttl` 0 keeps them.
//!
//! Keys, for user U and session S (U never holds ':'; S is cut at the last ':' when read back):
//! `lm:U:s:S:meta` (hash: head, deleted, updated, compacted: the mark, absent in sessions made
//! before compaction and read as 0), `lm:U:s:S:ids` (id → seq),
//! `lm:U:s:S:data` (id → bytes), `lm:U:s:S:log` (ids in seq order: seq n at index n-1),
//! `lm:U:sessions` (the set of S), `lm:U:r:R` (a seen request id R).

use super::{
    cut_page, Compacted, NewRecord, Page, Pushed, SessionInfo, StoreError, StoreFuture,
    StoreResult, StoredRecord, REPLAY_WINDOW_MS,
};
use redis::aio::ConnectionManager;
use redis::{Script, Value};

// The rules of store::plan_push, the mark included.
const PUT: &str = r"
local meta, ids, data, log, set = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local m = redis.call('HMGET', meta, 'head', 'deleted', 'compacted')
if m[2] == '1' then return {'deleted'} end
local head = tonumber(m[1] or '0')
local mark = tonumber(m[3] or '0')
local nextseq = head
local seen, acked, new = {}, {'ok', 0}, {}
for i = 4, #ARGV, 2 do
  local id, d = ARGV[i], ARGV[i + 1]
  local known = seen[id]
  if not known then
    local s = redis.call('HGET', ids, id)
    if s then known = {tonumber(s), redis.call('HGET', data, id)} end
  end
  if known then
    if known[1] > mark and known[2] ~= d then return {'conflict', id} end
  else
    nextseq = nextseq + 1
    known = {nextseq, d}
    new[#new + 1] = id
  end
  seen[id] = known
  acked[#acked + 1] = known[1]
end
for _, id in ipairs(new) do
  redis.call('HSET', ids, id, seen[id][1])
  redis.call('HSET', data, id, seen[id][2])
  redis.call('RPUSH', log, id)
end
if nextseq > head then
  redis.call('HSET', meta, 'head', nextseq, 'deleted', '0', 'updated', ARGV[1])
end
redis.call('SADD', set, ARGV[3])
local ttl = tonumber(ARGV[2])
if ttl > 0 then
  for k = 1, 5 do redis.call('PEXPIRE', KEYS[k], ttl) end
end
acked[2] = nextseq
return acked
";

const READ: &str = r"
local m = redis.call('HMGET', KEYS[1], 'head', 'deleted')
if not m[1] then return {'notfound'} end
if m[2] == '1' then return {'deleted'} end
local after, limit, budget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local ids = redis.call('LRANGE', KEYS[2], after, after + limit - 1)
local out, bytes = {'ok', tonumber(m[1])}, 0
for _, id in ipairs(ids) do
  local d = redis.call('HGET', KEYS[3], id)
  if #out > 2 and bytes + #d > budget then break end
  bytes = bytes + #d
  out[#out + 1] = id
  out[#out + 1] = d
end
return out
";

// The checks of store::check_compaction, in its order, then the rewrite. The keys keep their
// expiry: a compaction is not a change of the session's content.
const COMPACT: &str = r"
local meta, ids, data = KEYS[1], KEYS[2], KEYS[3]
local m = redis.call('HMGET', meta, 'head', 'deleted', 'compacted')
if not m[1] then return {'notfound'} end
if m[2] == '1' then return {'deleted'} end
local head, mark, upto = tonumber(m[1]), tonumber(m[3] or '0'), tonumber(ARGV[1])
if upto > head then return {'pasthead', head} end
for i = 2, #ARGV, 2 do
  local s = redis.call('HGET', ids, ARGV[i])
  if not s or tonumber(s) > upto then return {'notcompactable', ARGV[i]} end
end
if upto < mark then return {'stale', mark} end
for i = 2, #ARGV, 2 do
  redis.call('HSET', data, ARGV[i], ARGV[i + 1])
end
redis.call('HSET', meta, 'compacted', ARGV[1])
return {'ok', head}
";

const LIST: &str = r"
local out = {}
for _, sid in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local m = redis.call('HMGET', ARGV[1] .. sid .. ':meta', 'head', 'deleted', 'updated',
    'compacted')
  if m[1] then
    out[#out + 1] = sid
    out[#out + 1] = tonumber(m[1])
    out[#out + 1] = tonumber(m[2])
    out[#out + 1] = tonumber(m[3])
    out[#out + 1] = tonumber(m[4] or '0')
  else
    redis.call('SREM', KEYS[1], sid)
  end
end
return out
";

const DELETE: &str = r"
local m = redis.call('HMGET', KEYS[1], 'head', 'deleted')
if not m[1] then return 'notfound' end
if m[2] == '1' then return 'ok' end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('HSET', KEYS[1], 'deleted', '1', 'updated', ARGV[1])
local ttl = tonumber(ARGV[2])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[5], ttl)
end
return 'ok'
";

pub struct RedisStore {
    conn: ConnectionManager,
    ttl_ms: u64,
    put: Script,
    read: Script,
    compact: Script,
    list: Script,
    delete: Script,
}

fn db(e: redis::RedisError) -> StoreError {
    StoreError::unavailable(e)
}

/// The keys of one session, in the order the scripts take them.
fn session_keys(user: &str, sid: &str) -> [String; 5] {
    let base = format!("lm:{user}:s:{sid}");
    [
        format!("{base}:meta"),
        format!("{base}:ids"),
        format!("{base}:data"),
        format!("{base}:log"),
        format!("lm:{user}:sessions"),
    ]
}

fn bytes(v: &Value) -> StoreResult<Vec<u8>> {
    match v {
        Value::BulkString(b) => Ok(b.clone()),
        Value::SimpleString(s) => Ok(s.clone().into_bytes()),
        other => Err(StoreError::unavailable(format!(
            "redis: expected a string, got {other:?}"
        ))),
    }
}

fn int(v: &Value) -> StoreResult<i64> {
    match v {
        Value::Int(n) => Ok(*n),
        Value::Nil => Ok(0),
        other => Err(StoreError::unavailable(format!(
            "redis: expected an integer, got {other:?}"
        ))),
    }
}

fn text(v: &Value) -> StoreResult<String> {
    String::from_utf8(bytes(v)?).map_err(StoreError::unavailable)
}

/// A script's array reply, its first element (the status) apart.
fn reply(v: Value) -> StoreResult<(String, Vec<Value>)> {
    match v {
        Value::Array(mut items) if !items.is_empty() => {
            let status = text(&items[0])?;
            items.remove(0);
            Ok((status, items))
        }
        other => Err(StoreError::unavailable(format!(
            "redis: unexpected reply {other:?}"
        ))),
    }
}

impl RedisStore {
    /// `ttl_ms`: how long a session is kept after its last change (0: until deleted).
    pub async fn open(url: &str, ttl_ms: u64) -> StoreResult<RedisStore> {
        let client = redis::Client::open(url).map_err(db)?;
        let conn = ConnectionManager::new(client).await.map_err(db)?;
        Ok(RedisStore {
            conn,
            ttl_ms,
            put: Script::new(PUT),
            read: Script::new(READ),
            compact: Script::new(COMPACT),
            list: Script::new(LIST),
            delete: Script::new(DELETE),
        })
    }
}

impl super::Store for RedisStore {
    fn kind(&self) -> &'static str {
        "redis"
    }

    fn put_records<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        records: &'a [NewRecord],
        now_ms: i64,
    ) -> StoreFuture<'a, Pushed> {
        Box::pin(async move {
            let mut inv = self.put.prepare_invoke();
            for k in session_keys(user, sid) {
                inv.key(k);
            }
            inv.arg(now_ms).arg(self.ttl_ms).arg(sid);
            for r in records {
                inv.arg(&r.id).arg(&r.data[..]);
            }
            let (status, items) = reply(
                inv.invoke_async::<Value>(&mut self.conn.clone())
                    .await
                    .map_err(db)?,
            )?;
            match status.as_str() {
                "ok" => {
                    let head = int(&items[0])? as u64;
                    let seqs = &items[1..];
                    if seqs.len() != records.len() {
                        return Err(StoreError::unavailable("redis: short push reply"));
                    }
                    let acked = records
                        .iter()
                        .zip(seqs)
                        .map(|(r, s)| Ok((r.id.clone(), int(s)? as u64)))
                        .collect::<StoreResult<_>>()?;
                    Ok(Pushed { acked, head })
                }
                "deleted" => Err(StoreError::Deleted),
                "conflict" => Err(StoreError::Conflict(text(&items[0])?)),
                other => Err(StoreError::unavailable(format!("redis: push said {other}"))),
            }
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
            let [meta, _, data, log, _] = session_keys(user, sid);
            // Lua numbers are doubles: a larger `after` than 2^50 is past any head anyway.
            let after = after.min(1 << 50);
            let (status, items) = reply(
                self.read
                    .key(meta)
                    .key(log)
                    .key(data)
                    .arg(after)
                    .arg(limit)
                    .arg(max_bytes)
                    .invoke_async::<Value>(&mut self.conn.clone())
                    .await
                    .map_err(db)?,
            )?;
            match status.as_str() {
                "ok" => {}
                "notfound" => return Err(StoreError::NotFound),
                "deleted" => return Err(StoreError::Deleted),
                other => return Err(StoreError::unavailable(format!("redis: read said {other}"))),
            }
            let head = int(&items[0])? as u64;
            let records = items[1..]
                .chunks(2)
                .enumerate()
                .map(|(i, pair)| {
                    Ok(StoredRecord {
                        id: text(&pair[0])?,
                        seq: after + 1 + i as u64,
                        data: bytes(pair.get(1).unwrap_or(&Value::Nil))?,
                    })
                })
                .collect::<StoreResult<Vec<_>>>()?;
            Ok(cut_page(records, limit, max_bytes, head))
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
            let [meta, ids, data, _, _] = session_keys(user, sid);
            let mut inv = self.compact.prepare_invoke();
            inv.key(meta).key(ids).key(data);
            // Lua numbers are doubles: any `upto` past 2^50 is past the head all the same.
            inv.arg(upto.min(1 << 50));
            for r in records {
                inv.arg(&r.id).arg(&r.data[..]);
            }
            let (status, items) = reply(
                inv.invoke_async::<Value>(&mut self.conn.clone())
                    .await
                    .map_err(db)?,
            )?;
            let first = || items.first().unwrap_or(&Value::Nil);
            match status.as_str() {
                "ok" => Ok(Compacted {
                    compacted: upto,
                    rewritten: records.len(),
                    head: int(first())? as u64,
                }),
                "notfound" => Err(StoreError::NotFound),
                "deleted" => Err(StoreError::Deleted),
                "pasthead" => Err(StoreError::PastHead(int(first())? as u64)),
                "notcompactable" => Err(StoreError::NotCompactable(text(first())?)),
                "stale" => Err(StoreError::Stale(int(first())? as u64)),
                other => Err(StoreError::unavailable(format!(
                    "redis: compact said {other}"
                ))),
            }
        })
    }

    fn list_sessions<'a>(&'a self, user: &'a str) -> StoreFuture<'a, Vec<SessionInfo>> {
        Box::pin(async move {
            let reply = self
                .list
                .key(format!("lm:{user}:sessions"))
                .arg(format!("lm:{user}:s:"))
                .invoke_async::<Value>(&mut self.conn.clone())
                .await
                .map_err(db)?;
            let Value::Array(items) = reply else {
                return Err(StoreError::unavailable("redis: list reply is not an array"));
            };
            let mut sessions = items
                .chunks(5)
                .filter(|c| c.len() == 5)
                .map(|c| {
                    Ok(SessionInfo {
                        id: text(&c[0])?,
                        seq: int(&c[1])? as u64,
                        deleted: int(&c[2])? == 1,
                        updated_at: int(&c[3])?,
                        compacted: int(&c[4])? as u64,
                    })
                })
                .collect::<StoreResult<Vec<_>>>()?;
            sessions.sort_by(|a, b| a.id.cmp(&b.id));
            Ok(sessions)
        })
    }

    fn delete_session<'a>(
        &'a self,
        user: &'a str,
        sid: &'a str,
        now_ms: i64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut inv = self.delete.prepare_invoke();
            for k in session_keys(user, sid) {
                inv.key(k);
            }
            let status: String = inv
                .arg(now_ms)
                .arg(self.ttl_ms)
                .invoke_async(&mut self.conn.clone())
                .await
                .map_err(db)?;
            match status.as_str() {
                "ok" => Ok(()),
                "notfound" => Err(StoreError::NotFound),
                other => Err(StoreError::unavailable(format!(
                    "redis: delete said {other}"
                ))),
            }
        })
    }

    fn note_request<'a>(
        &'a self,
        user: &'a str,
        request_id: &'a str,
        _now_ms: i64,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let set: Value = redis::cmd("SET")
                .arg(format!("lm:{user}:r:{request_id}"))
                .arg(1)
                .arg("NX")
                .arg("PX")
                .arg(REPLAY_WINDOW_MS)
                .query_async(&mut self.conn.clone())
                .await
                .map_err(db)?;
            Ok(!matches!(set, Value::Nil))
        })
    }
}
