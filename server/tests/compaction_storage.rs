//! What compaction means for the database itself: SQLite's files keep no bytes of a record a
//! compaction replaced or a delete dropped (secure_delete zeroes freed space, the WAL is
//! checkpointed and truncated), and SQLite and Postgres databases made before compaction get the
//! mark column on open, every existing session at 0. (A Redis session made before compaction has
//! no mark field and reads as 0: every per-store test lists such a session.) The same check for
//! Postgres's live rows and Redis's keys is in compaction_storage_live.rs.

mod support;

use serde_json::json;
use support::{
    carrier, holds, marker, opaque_bytes, session_path, start, unique, Backend, Server, TempDir,
};

/// The names of the files in `dir` (the database, its -wal and -shm) that hold `needle`.
fn files_holding(dir: &TempDir, needle: &[u8]) -> Vec<String> {
    std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| holds(&std::fs::read(p).unwrap(), needle))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

#[tokio::test]
async fn sqlite_files_keep_no_bytes_a_compaction_or_delete_replaced() {
    let dir = TempDir::new();
    let url = Backend::Sqlite.store_url(&dir).unwrap();
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    let (m1, m2, m3, m4) = (marker(1), marker(2), marker(3), marker(4));
    // A small record (in its table page) and a large one (on overflow pages) of each kind.
    let pushed = vec![
        ("small".to_string(), carrier(1, 200, &m1)),
        ("large".to_string(), carrier(2, 100_000, &m2)),
        ("kept".to_string(), opaque_bytes(3, 64)),
    ];
    assert_eq!(alice.push(&sid, &pushed).await.status, 200);
    for m in [&m1, &m2] {
        assert!(
            !files_holding(&dir, m).is_empty(),
            "the test reads the files"
        );
    }
    let rewritten = vec![
        ("small".to_string(), opaque_bytes(11, 150)),
        ("large".to_string(), opaque_bytes(12, 90_000)),
    ];
    let r = alice.compact(&sid, 3, &rewritten).await;
    assert_eq!(r.status, 200, "{:?}", r.json());
    for m in [&m1, &m2] {
        assert_eq!(
            files_holding(&dir, m),
            Vec::<String>::new(),
            "after compaction"
        );
    }
    assert_eq!(alice.read_all(&sid).await[1].2, rewritten[1].1);

    let more = vec![
        ("small-2".to_string(), carrier(4, 300, &m3)),
        ("large-2".to_string(), carrier(5, 120_000, &m4)),
    ];
    assert_eq!(alice.push(&sid, &more).await.status, 200);
    for m in [&m3, &m4] {
        assert!(
            !files_holding(&dir, m).is_empty(),
            "the test reads the files"
        );
    }
    assert_eq!(alice.delete(&session_path(&sid)).await.status, 204);
    for m in [&m3, &m4] {
        assert_eq!(files_holding(&dir, m), Vec::<String>::new(), "after delete");
    }
}

const TOKEN: &str = "old-device-token-0123456789";

/// A server with a token file naming `TOKEN`'s user `ann`, the owner of the old rows.
fn start_as_ann(dir: &TempDir, store: &str) -> Server {
    let tokens = dir.0.join("tokens.txt");
    std::fs::write(&tokens, format!("{TOKEN} ann\n")).unwrap();
    Server::start_with(&[
        "--tokens",
        tokens.to_str().unwrap(),
        "--port",
        "0",
        "--store",
        store,
    ])
}

/// The session the old schemas below hold: `old`, records a (seq 1) and b (seq 2).
async fn the_old_session_compacts(server: &Server) {
    let ann = server.client(TOKEN);
    assert_eq!(
        ann.sessions().await,
        [
            json!({ "id": "old", "seq": 2, "deleted": false, "updatedAt": 1_700_000_000_000i64,
                 "compacted": 0 })
        ]
    );
    let r = ann.compact("old", 2, &[("a".into(), b"1".to_vec())]).await;
    assert_eq!(r.status, 200, "{:?}", r.json());
    assert_eq!(ann.sessions().await[0]["compacted"], 2);
    assert_eq!(
        ann.read_all("old").await,
        [
            ("a".into(), 1, b"1".to_vec()),
            ("b".into(), 2, b"two".to_vec())
        ]
    );
    let retry = ann.push("old", &[("a".into(), b"one".to_vec())]).await;
    assert_eq!(retry.json()["acked"][0]["seq"], 1);
}

#[tokio::test]
async fn an_sqlite_database_from_before_compaction_gets_the_mark() {
    let dir = TempDir::new();
    let path = dir.0.join("sync.db");
    let old = rusqlite::Connection::open(&path).unwrap();
    old.execute_batch(
        "CREATE TABLE sync_sessions (
           user_id TEXT NOT NULL, sid TEXT NOT NULL, head INTEGER NOT NULL, deleted INTEGER NOT NULL,
           updated_at INTEGER NOT NULL, PRIMARY KEY (user_id, sid)) WITHOUT ROWID;
         CREATE TABLE sync_records (
           user_id TEXT NOT NULL, sid TEXT NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL,
           data BLOB NOT NULL, PRIMARY KEY (user_id, sid, seq), UNIQUE (user_id, sid, id));
         INSERT INTO sync_sessions VALUES ('ann', 'old', 2, 0, 1700000000000);
         INSERT INTO sync_records VALUES ('ann', 'old', 1, 'a', X'6f6e65'), ('ann', 'old', 2, 'b', X'74776f');",
    )
    .unwrap();
    drop(old);
    let server = start_as_ann(&dir, &format!("sqlite:{}", path.display()));
    the_old_session_compacts(&server).await;
}

#[tokio::test]
async fn a_postgres_database_from_before_compaction_gets_the_mark() {
    let dir = TempDir::new();
    let Some(base) = Backend::Postgres.store_url(&dir) else {
        return;
    };
    let connect = |url: String| async move {
        let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(conn);
        client
    };
    // A database of its own: the shared one already has the new schema.
    let name = unique("lm_old").replace('-', "_");
    let admin = connect(base.clone()).await;
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    let url = format!("{}/{name}", base.rsplit_once('/').unwrap().0);
    connect(url.clone())
        .await
        .batch_execute(
            "CREATE TABLE sync_sessions (
               user_id TEXT NOT NULL, sid TEXT NOT NULL, head BIGINT NOT NULL, deleted BOOLEAN NOT NULL,
               updated_at BIGINT NOT NULL, PRIMARY KEY (user_id, sid));
             CREATE TABLE sync_records (
               user_id TEXT NOT NULL, sid TEXT NOT NULL, seq BIGINT NOT NULL, id TEXT NOT NULL,
               data BYTEA NOT NULL, PRIMARY KEY (user_id, sid, seq), UNIQUE (user_id, sid, id));
             INSERT INTO sync_sessions VALUES ('ann', 'old', 2, false, 1700000000000);
             INSERT INTO sync_records VALUES ('ann', 'old', 1, 'a', '\\x6f6e65'), ('ann', 'old', 2, 'b', '\\x74776f');",
        )
        .await
        .unwrap();
    let server = start_as_ann(&dir, &url);
    the_old_session_compacts(&server).await;
    drop(server);
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .await
        .unwrap();
}
