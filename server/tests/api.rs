//! The sync API against the real server binary, the same tests on each store (SQLite, Postgres,
//! Redis): round trips of opaque bytes, pages, idempotent pushes and conflicts, isolation
//! between users, tombstones, what the database holds, and Redis expiry. Refused requests are
//! in refusals.rs.

mod support;

use support::{
    records, records_path, session_path, start, unique, Backend, Client, Server, TempDir,
};

per_store!(
    health_names_the_store,
    pushed_bytes_come_back_verbatim_in_seq_order,
    a_page_stops_at_4_mib_of_data,
    a_repeated_push_is_acknowledged_with_the_first_seqs,
    other_bytes_under_a_stored_id_refuse_the_whole_push,
    another_user_cannot_see_list_delete_or_overwrite,
    a_deleted_session_answers_410_everywhere,
    the_database_holds_the_bytes_and_no_token,
);

async fn health_names_the_store(backend: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let anonymous = Client {
        addr: server.addr,
        token: None,
    };
    let r = anonymous.get("/v1/health").await;
    assert_eq!(r.status, 200);
    let expected = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
        Backend::Redis => "redis",
    };
    assert_eq!(r.json()["store"], expected);
    assert_eq!(r.json()["ok"], true);
}

async fn pushed_bytes_come_back_verbatim_in_seq_order(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    // A session name as the core allows it: spaces, slashes, non-ASCII.
    let sid = format!("{} / chat é", unique("s"));
    let mut recs = records("r", 250, 40);
    recs.push(("every-byte".into(), (0..=255u8).collect()));
    let r = alice.push(&sid, &recs[..120]).await;
    assert_eq!(r.status, 200, "{:?}", r.json());
    assert_eq!(r.json()["seq"], 120);
    let r = alice.push(&sid, &recs[120..]).await;
    let acked = r.json()["acked"].as_array().unwrap().clone();
    assert_eq!(acked.len(), 131);
    assert_eq!(acked[0]["id"], "r-120");
    assert_eq!(acked[0]["seq"], 121);
    assert_eq!(r.json()["seq"], 251);

    let all = alice.read_all(&sid).await;
    assert_eq!(all.len(), 251);
    for (i, ((id, seq, data), (want_id, want_data))) in all.iter().zip(&recs).enumerate() {
        assert_eq!((id, data), (want_id, want_data));
        assert_eq!(*seq, i as u64 + 1, "gap-free seqs from 1");
    }
    let page = alice
        .get(&format!("{}?after=249&limit=5", records_path(&sid)))
        .await
        .json();
    assert_eq!(page["records"].as_array().unwrap().len(), 2);
    assert_eq!(page["more"], false);
    assert_eq!(page["seq"], 251);
    let page = alice
        .get(&format!("{}?after=10&limit=3", records_path(&sid)))
        .await
        .json();
    assert_eq!(page["records"][0]["seq"], 11);
    assert_eq!(page["more"], true);

    let listed = alice.get("/v1/sessions").await.json();
    let sessions = listed["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0]["id"], sid.as_str());
    assert_eq!(sessions[0]["seq"], 251);
    assert_eq!(sessions[0]["deleted"], false);
    assert!(sessions[0]["updatedAt"].as_i64().unwrap() > 1_600_000_000_000);
}

async fn a_page_stops_at_4_mib_of_data(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    let recs = records("big", 20, 256 * 1024);
    for half in recs.chunks(10) {
        assert_eq!(alice.push(&sid, half).await.status, 200);
    }
    let page = alice.get(&records_path(&sid)).await.json();
    let got = page["records"].as_array().unwrap();
    assert_eq!(got.len(), 16, "16 records of 256 KiB make 4 MiB");
    assert_eq!(page["more"], true);
    let rest = alice
        .get(&format!("{}?after=16", records_path(&sid)))
        .await
        .json();
    assert_eq!(rest["records"].as_array().unwrap().len(), 4);
    assert_eq!(rest["more"], false);
    assert_eq!(alice.read_all(&sid).await.len(), 20);
}

async fn a_repeated_push_is_acknowledged_with_the_first_seqs(
    _: Backend,
    url: String,
    _dir: TempDir,
) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    let recs = records("r", 5, 64);
    let first = alice.push(&sid, &recs[..3]).await.json();
    let again = alice.push(&sid, &recs[..3]).await.json();
    assert_eq!(first, again);
    // Old and new mixed, an id repeated with the same bytes: old keep their seqs.
    let mixed = vec![
        recs[3].clone(),
        recs[1].clone(),
        recs[4].clone(),
        recs[3].clone(),
    ];
    let r = alice.push(&sid, &mixed).await.json();
    let seqs: Vec<u64> = r["acked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, [4, 2, 5, 4]);
    assert_eq!(r["seq"], 5);
    assert_eq!(alice.read_all(&sid).await.len(), 5);
}

async fn other_bytes_under_a_stored_id_refuse_the_whole_push(
    _: Backend,
    url: String,
    _dir: TempDir,
) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    let recs = records("r", 3, 32);
    alice.push(&sid, &recs[..2]).await;
    let changed = vec![
        recs[2].clone(),
        (recs[1].0.clone(), b"other bytes".to_vec()),
    ];
    let r = alice.push(&sid, &changed).await;
    assert_eq!(r.status, 409);
    assert_eq!(r.code(), "record_conflict");
    assert_eq!(r.json()["id"], recs[1].0.as_str());
    // Nothing of the refused push was stored, not even its new record.
    let all = alice.read_all(&sid).await;
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].2, recs[1].1);
    // A conflict on a session's first push leaves no session behind.
    let fresh = unique("s");
    let dup = vec![recs[0].clone(), (recs[0].0.clone(), b"x".to_vec())];
    assert_eq!(alice.push(&fresh, &dup).await.status, 409);
    assert_eq!(alice.get(&records_path(&fresh)).await.status, 404);
    let listed = alice.get("/v1/sessions").await.json();
    assert_eq!(listed["sessions"].as_array().unwrap().len(), 1);
}

async fn another_user_cannot_see_list_delete_or_overwrite(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let mallory = server.client(&unique("mallory"));
    let sid = unique("s");
    let recs = records("r", 4, 48);
    assert_eq!(alice.push(&sid, &recs).await.status, 200);

    // Alice's session answers Mallory exactly as a session nobody has.
    let never = unique("never");
    for (method, path) in [
        ("GET", records_path(&sid)),
        ("GET", format!("{}?after=0&limit=1", records_path(&sid))),
        ("DELETE", session_path(&sid)),
    ] {
        let theirs = mallory.send(method, &path, &[], None).await.unwrap();
        let missing_path = path.replace(&sid, &never);
        let missing = mallory
            .send(method, &missing_path, &[], None)
            .await
            .unwrap();
        assert_eq!(theirs.status, 404, "{method} {path}");
        assert_eq!(theirs.body, missing.body, "{method} {path}");
    }
    assert_eq!(
        mallory.get("/v1/sessions").await.json()["sessions"],
        serde_json::json!([])
    );
    // Mallory pushing under the same session id writes a session of Mallory's own.
    let forged = vec![(recs[0].0.clone(), b"forged".to_vec())];
    let r = mallory.push(&sid, &forged).await.json();
    assert_eq!(r["seq"], 1);
    assert_eq!(
        mallory.read_all(&sid).await,
        [(recs[0].0.clone(), 1, b"forged".to_vec())]
    );
    let alices = alice.read_all(&sid).await;
    assert_eq!(alices.len(), 4);
    assert_eq!(alices[0].2, recs[0].1);
    // Without a valid token nothing but health answers.
    let nobody = Client {
        addr: server.addr,
        token: None,
    };
    for (method, path) in [
        ("GET", "/v1/sessions".to_string()),
        ("GET", records_path(&sid)),
        ("POST", records_path(&sid)),
        ("DELETE", session_path(&sid)),
    ] {
        let r = nobody.send(method, &path, &[], None).await.unwrap();
        assert_eq!(
            (r.status, r.code()),
            (401, "unauthorized".into()),
            "{method} {path}"
        );
        let basic = nobody
            .send(method, &path, &[("authorization", "Basic YTpi")], None)
            .await
            .unwrap();
        assert_eq!(basic.status, 401);
    }
}

async fn a_deleted_session_answers_410_everywhere(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    let recs = records("r", 3, 16);
    alice.push(&sid, &recs).await;
    assert_eq!(alice.delete(&session_path(&sid)).await.status, 204);
    let push = alice.push(&sid, &records("late", 1, 8)).await;
    assert_eq!((push.status, push.code()), (410, "session_deleted".into()));
    // Even a record it already held.
    assert_eq!(alice.push(&sid, &recs[..1]).await.status, 410);
    let read = alice.get(&records_path(&sid)).await;
    assert_eq!((read.status, read.code()), (410, "session_deleted".into()));
    let listed = alice.get("/v1/sessions").await.json();
    assert_eq!(listed["sessions"][0]["id"], sid.as_str());
    assert_eq!(listed["sessions"][0]["deleted"], true);
    // A retried delete succeeds; a session never pushed is not found.
    assert_eq!(alice.delete(&session_path(&sid)).await.status, 204);
    assert_eq!(
        alice.delete(&session_path(&unique("never"))).await.status,
        404
    );
}

async fn the_database_holds_the_bytes_and_no_token(backend: Backend, url: String, dir: TempDir) {
    let server = start(&url);
    let token = unique("secret-token-canary");
    let alice = server.client(&token);
    let sid = unique("s");
    let recs = records("r", 20, 300);
    assert_eq!(alice.push(&sid, &recs).await.status, 200);
    drop(server); // SQLite: the data is in the file and its WAL
    let dump = dump_store(backend, &url, &dir).await;
    let contains = |needle: &[u8]| dump.windows(needle.len()).any(|w| w == needle);
    let hex = |b: &[u8]| {
        b.iter()
            .map(|x| format!("{x:02x}"))
            .collect::<String>()
            .into_bytes()
    };
    for (_, data) in &recs {
        assert!(
            contains(data) || contains(&hex(data)),
            "a record's bytes are stored verbatim"
        );
    }
    assert!(
        !contains(token.as_bytes()),
        "the bearer token is not stored"
    );
    assert!(!contains(&hex(token.as_bytes())));
    assert!(
        !contains(support::b64_encode(recs[0].1.as_slice()).as_bytes()),
        "bytes, not base64"
    );
}

/// Everything the store holds, as bytes: the SQLite files, `pg_dump`'s output, or every Redis
/// key with its values.
async fn dump_store(backend: Backend, url: &str, dir: &TempDir) -> Vec<u8> {
    match backend {
        Backend::Sqlite => {
            let mut out = Vec::new();
            for entry in std::fs::read_dir(&dir.0).unwrap() {
                out.extend(std::fs::read(entry.unwrap().path()).unwrap());
            }
            out
        }
        Backend::Postgres => {
            let out = std::process::Command::new("pg_dump")
                .args(["--data-only", url])
                .output()
                .expect("pg_dump on PATH");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            out.stdout
        }
        Backend::Redis => {
            let client = ::redis::Client::open(url).unwrap();
            let mut conn = client.get_multiplexed_async_connection().await.unwrap();
            let keys: Vec<Vec<u8>> = ::redis::cmd("KEYS")
                .arg("*")
                .query_async(&mut conn)
                .await
                .unwrap();
            let mut out = Vec::new();
            for key in keys {
                let kind: String = ::redis::cmd("TYPE")
                    .arg(&key)
                    .query_async(&mut conn)
                    .await
                    .unwrap();
                let values: Vec<Vec<u8>> = match kind.as_str() {
                    "hash" => ::redis::cmd("HGETALL")
                        .arg(&key)
                        .query_async(&mut conn)
                        .await
                        .unwrap(),
                    "list" => ::redis::cmd("LRANGE")
                        .arg(&key)
                        .arg(0)
                        .arg(-1)
                        .query_async(&mut conn)
                        .await
                        .unwrap(),
                    "set" => ::redis::cmd("SMEMBERS")
                        .arg(&key)
                        .query_async(&mut conn)
                        .await
                        .unwrap(),
                    "string" => vec![::redis::cmd("GET")
                        .arg(&key)
                        .query_async(&mut conn)
                        .await
                        .unwrap()],
                    _ => vec![],
                };
                out.extend(key);
                values.into_iter().for_each(|v| out.extend(v));
            }
            out
        }
    }
}

/// Redis drops a session `--redis-ttl` after its last change, as a cache-like store keeps chats.
#[tokio::test]
async fn redis_sessions_expire_after_the_ttl() {
    let dir = TempDir::new();
    let Some(url) = Backend::Redis.store_url(&dir) else {
        return;
    };
    let server = Server::start(&url, &["--redis-ttl", "1s"]);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    assert_eq!(alice.push(&sid, &records("r", 2, 8)).await.status, 200);
    assert_eq!(alice.read_all(&sid).await.len(), 2);
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(alice.get(&records_path(&sid)).await.status, 404);
    assert_eq!(
        alice.get("/v1/sessions").await.json()["sessions"],
        serde_json::json!([])
    );
}
