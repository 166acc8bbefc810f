//! What compaction means for what Postgres and Redis hold, read with their own clients: no live
//! row of `sync_records` and no Redis key holds a byte of a record that a compaction replaced or
//! a session delete dropped. (compaction_storage.rs checks SQLite's files.) Postgres keeps old
//! bytes in dead row versions until (auto)vacuum reclaims them (see src/store/postgres.rs): out
//! of scope here, only live rows count.

mod support;

use sha2::{Digest, Sha256};
use support::{
    carrier, holds, marker, opaque_bytes, session_path, start, unique, Backend, Client, TempDir,
};

/// A store read directly, past the server.
enum Probe {
    /// The session's rows are read by (user, session); the whole table is searched as well.
    Postgres {
        client: tokio_postgres::Client,
        user: String,
        sid: String,
    },
    /// Every key is read, whoever's.
    Redis(redis::aio::MultiplexedConnection),
}

impl Probe {
    /// Where the store holds `needle`: the rows or keys, named.
    async fn holding(&mut self, needle: &[u8]) -> Vec<String> {
        match self {
            Probe::Postgres { client, user, sid } => {
                // Every row of the session, searched here; then the whole table, searched by
                // Postgres. Each row found by one read must be found by the other.
                let session: Vec<String> = client
                    .query(
                        "SELECT id, data FROM sync_records WHERE user_id = $1 AND sid = $2
                         ORDER BY id",
                        &[user, sid],
                    )
                    .await
                    .unwrap()
                    .iter()
                    .filter(|row| holds(row.get(1), needle))
                    .map(|row| row.get(0))
                    .collect();
                let table: Vec<(String, String, String)> = client
                    .query(
                        "SELECT user_id, sid, id FROM sync_records
                         WHERE position($1::bytea in data) > 0 ORDER BY user_id, sid, id",
                        &[&needle],
                    )
                    .await
                    .unwrap()
                    .iter()
                    .map(|row| (row.get(0), row.get(1), row.get(2)))
                    .collect();
                // By the session id alone (unique to the test): a wrong user id fails here.
                let in_session: Vec<(&String, &String)> = table
                    .iter()
                    .filter(|(_, s, _)| s == sid)
                    .map(|(u, _, id)| (u, id))
                    .collect();
                let by_user: Vec<(&String, &String)> =
                    session.iter().map(|id| (&*user, id)).collect();
                assert_eq!(in_session, by_user, "the two reads agree");
                table
                    .iter()
                    .map(|(u, s, id)| format!("sync_records ({u}, {s}, {id})"))
                    .collect()
            }
            Probe::Redis(conn) => {
                let mut found = Vec::new();
                let mut cursor = 0u64;
                loop {
                    let (next, keys): (u64, Vec<Vec<u8>>) = redis::cmd("SCAN")
                        .arg(cursor)
                        .arg("COUNT")
                        .arg(1000)
                        .query_async(conn)
                        .await
                        .unwrap();
                    for key in keys {
                        let values = redis_values(conn, &key).await;
                        if holds(&key, needle) || values.iter().any(|v| holds(v, needle)) {
                            found.push(String::from_utf8_lossy(&key).into_owned());
                        }
                    }
                    if next == 0 {
                        return found;
                    }
                    cursor = next;
                }
            }
        }
    }
}

/// Everything a Redis key holds: a string's value, a hash's fields and values, a list's, set's
/// or sorted set's members (and scores).
async fn redis_values(conn: &mut redis::aio::MultiplexedConnection, key: &[u8]) -> Vec<Vec<u8>> {
    let kind: String = redis::cmd("TYPE").arg(key).query_async(conn).await.unwrap();
    let mut cmd = match kind.as_str() {
        // Expired or deleted since SCAN named it.
        "none" => return Vec::new(),
        "string" => redis::cmd("GET"),
        "hash" => redis::cmd("HGETALL"),
        "set" => redis::cmd("SMEMBERS"),
        "list" => redis::cmd("LRANGE"),
        "zset" => redis::cmd("ZRANGE"),
        other => panic!(
            "{} is a {other}: read that type too",
            String::from_utf8_lossy(key)
        ),
    };
    cmd.arg(key);
    match kind.as_str() {
        "list" => cmd.arg(0).arg(-1),
        "zset" => cmd.arg(0).arg(-1).arg("WITHSCORES"),
        _ => &mut cmd,
    };
    if kind == "string" {
        let value: Option<Vec<u8>> = cmd.query_async(conn).await.unwrap();
        return value.into_iter().collect();
    }
    cmd.query_async(conn).await.unwrap()
}

/// Pushes records carrying markers to `sid` (a small one and a large one, kept by Postgres in
/// the row and in TOAST chunks), compacts them to other bytes, pushes more and deletes the
/// session: after the compaction and after the delete the store holds no marker. Returns the
/// markers.
async fn compact_then_delete(alice: &Client, sid: &str, probe: &mut Probe) -> [Vec<u8>; 4] {
    let (m1, m2, m3, m4) = (marker(1), marker(2), marker(3), marker(4));
    let pushed = vec![
        ("small".to_string(), carrier(1, 200, &m1)),
        ("large".to_string(), carrier(2, 100_000, &m2)),
        ("kept".to_string(), opaque_bytes(3, 64)),
    ];
    assert_eq!(alice.push(sid, &pushed).await.status, 200);
    for m in [&m1, &m2] {
        assert!(
            !probe.holding(m).await.is_empty(),
            "the test reads the store"
        );
    }
    let rewritten = vec![
        ("small".to_string(), opaque_bytes(11, 150)),
        ("large".to_string(), opaque_bytes(12, 90_000)),
    ];
    let r = alice.compact(sid, 3, &rewritten).await;
    assert_eq!(r.status, 200, "{:?}", r.json());
    for m in [&m1, &m2] {
        assert_eq!(
            probe.holding(m).await,
            Vec::<String>::new(),
            "after compaction"
        );
    }
    let stored: Vec<_> = alice.read_all(sid).await.into_iter().map(|r| r.2).collect();
    let expected = [&rewritten[0].1, &rewritten[1].1, &pushed[2].1];
    assert_eq!(stored.iter().collect::<Vec<_>>(), expected);

    let more = vec![
        ("small-2".to_string(), carrier(4, 300, &m3)),
        ("large-2".to_string(), carrier(5, 120_000, &m4)),
    ];
    assert_eq!(alice.push(sid, &more).await.status, 200);
    for m in [&m3, &m4] {
        assert!(
            !probe.holding(m).await.is_empty(),
            "the test reads the store"
        );
    }
    assert_eq!(alice.delete(&session_path(sid)).await.status, 204);
    for m in [&m1, &m2, &m3, &m4] {
        assert_eq!(probe.holding(m).await, Vec::<String>::new(), "after delete");
    }
    [m1, m2, m3, m4]
}

/// The user id `--dev` gives a token (src/auth.rs).
fn dev_user(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("dev-{hex}")
}

#[tokio::test]
async fn postgres_live_rows_keep_no_bytes_a_compaction_or_delete_replaced() {
    let dir = TempDir::new();
    let Some(url) = Backend::Postgres.store_url(&dir) else {
        return;
    };
    let server = start(&url);
    let token = unique("alice");
    let sid = unique("s");
    let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    let mut probe = Probe::Postgres {
        client,
        user: dev_user(&token),
        sid: sid.clone(),
    };
    let markers = compact_then_delete(&server.client(&token), &sid, &mut probe).await;

    // VACUUM removes the dead row versions the UPDATE and DELETE left, in the table and in its
    // TOAST table, once no open transaction can still see them; it does not zero the space they
    // held. Checked once by hand with pageinspect (Postgres 15; get_raw_page and heap_page_items
    // over every page, not part of this test): after a compaction and VACUUM no row version,
    // live or dead, held the old bytes, but the raw pages still did (the small record's in the
    // table's page, the large one's in 13 TOAST pages) until Postgres reuses the space. Only
    // when the relation emptied did VACUUM truncate it and the bytes leave the table. So the
    // bytes are not gone from the table's files after VACUUM; they are gone from every row.
    let Probe::Postgres { client, .. } = &probe else {
        unreachable!()
    };
    client.batch_execute("VACUUM sync_records").await.unwrap();
    for m in &markers {
        assert_eq!(probe.holding(m).await, Vec::<String>::new(), "after VACUUM");
    }
}

#[tokio::test]
async fn redis_keys_keep_no_bytes_a_compaction_or_delete_replaced() {
    let dir = TempDir::new();
    let Some(url) = Backend::Redis.store_url(&dir) else {
        return;
    };
    let server = start(&url);
    let conn = redis::Client::open(url.as_str())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();
    let alice = server.client(&unique("alice"));
    compact_then_delete(&alice, &unique("s"), &mut Probe::Redis(conn)).await;
}
