//! The sync API against the real server binary, the same tests on each store (SQLite, Postgres,
//! Redis): round trips of opaque bytes, idempotent pushes and conflicts, isolation between
//! users, tombstones, replay ids, and coded 4xx answers to malformed, oversized and
//! wrongly-routed requests.

mod support;

use support::{records, records_path, session_path, unique, Backend, Client, Server, TempDir};

/// Runs each named test once per store (`sqlite::name`, `postgres::name`, `redis::name`).
macro_rules! per_store {
    ($($name:ident),* $(,)?) => {
        mod sqlite { $( #[tokio::test] async fn $name() { super::run(super::Backend::Sqlite, super::$name).await } )* }
        mod postgres { $( #[tokio::test] async fn $name() { super::run(super::Backend::Postgres, super::$name).await } )* }
        mod redis { $( #[tokio::test] async fn $name() { super::run(super::Backend::Redis, super::$name).await } )* }
    };
}

per_store!(
    health_names_the_store,
    pushed_bytes_come_back_verbatim_in_seq_order,
    a_repeated_push_is_acknowledged_with_the_first_seqs,
    other_bytes_under_a_stored_id_refuse_the_whole_push,
    another_user_cannot_see_list_delete_or_overwrite,
    a_deleted_session_answers_410_everywhere,
    malformed_requests_get_coded_4xx,
    oversized_requests_get_413,
    a_replayed_request_id_is_refused,
    a_user_past_the_rate_gets_429,
    the_database_holds_the_bytes_and_no_token,
);

async fn run<F, Fut>(backend: Backend, test: F)
where
    F: FnOnce(Backend, String, TempDir) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let dir = TempDir::new();
    if let Some(url) = backend.store_url(&dir) {
        test(backend, url, dir).await;
    }
}

fn start(url: &str) -> Server {
    // Generous rate: these tests send bursts; the rate test starts its own server.
    Server::start(url, &["--rate", "1000", "--burst", "1000"])
}

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

async fn malformed_requests_get_coded_4xx(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    let path = records_path(&sid);
    let body = |s: &str| Some(s.as_bytes().to_vec());
    // (method, path, body, status, code)
    type Case<'a> = (&'a str, String, Option<Vec<u8>>, u16, &'a str);
    let cases: Vec<Case> = vec![
        ("POST", path.clone(), body("not json"), 400, "bad_json"),
        (
            "POST",
            path.clone(),
            Some(vec![0xff, 0xfe, b'{']),
            400,
            "bad_json",
        ),
        (
            "POST",
            path.clone(),
            body("{\"records\": {}}"),
            400,
            "bad_json",
        ),
        (
            "POST",
            path.clone(),
            body("{\"records\": [{\"id\": \"a\"}]}"),
            400,
            "bad_json",
        ),
        (
            "POST",
            path.clone(),
            body("{\"records\": [{\"id\": 1, \"data\": \"\"}]}"),
            400,
            "bad_json",
        ),
        ("POST", path.clone(), None, 400, "bad_json"),
        (
            "POST",
            path.clone(),
            body("{\"records\": []}"),
            400,
            "bad_param",
        ),
        (
            "POST",
            path.clone(),
            body("{\"records\": [{\"id\": \"a b\", \"data\": \"AA==\"}]}"),
            400,
            "bad_id",
        ),
        (
            "POST",
            path.clone(),
            body("{\"records\": [{\"id\": \"\", \"data\": \"AA==\"}]}"),
            400,
            "bad_id",
        ),
        (
            "POST",
            path.clone(),
            Some(
                format!(
                    "{{\"records\": [{{\"id\": \"{}\", \"data\": \"AA==\"}}]}}",
                    "x".repeat(129)
                )
                .into_bytes(),
            ),
            400,
            "bad_id",
        ),
        (
            "POST",
            path.clone(),
            body("{\"records\": [{\"id\": \"a\", \"data\": \"not base64!\"}]}"),
            400,
            "bad_base64",
        ),
        (
            "POST",
            path.clone(),
            body("{\"records\": [{\"id\": \"a\", \"data\": \"AA\"}]}"),
            400,
            "bad_base64",
        ),
        // Session ids the core refuses: control characters, over 200 characters, only spaces.
        (
            "POST",
            records_path("a\u{1}b"),
            body("{\"records\": [{\"id\": \"a\", \"data\": \"AA==\"}]}"),
            400,
            "bad_id",
        ),
        ("GET", records_path(&"s".repeat(201)), None, 400, "bad_id"),
        ("GET", records_path("   "), None, 400, "bad_id"),
        (
            "GET",
            "/v1/sessions/%FF%FE/records".into(),
            None,
            400,
            "bad_id",
        ),
        ("GET", format!("{path}?after=-1"), None, 400, "bad_param"),
        ("GET", format!("{path}?limit=5000"), None, 400, "bad_param"),
        ("GET", format!("{path}?limit=0"), None, 400, "bad_param"),
        // Wrong methods and routes.
        ("PUT", path.clone(), body("{}"), 405, "method_not_allowed"),
        ("PATCH", session_path(&sid), None, 405, "method_not_allowed"),
        (
            "POST",
            "/v1/sessions".into(),
            body("{}"),
            405,
            "method_not_allowed",
        ),
        (
            "DELETE",
            "/v1/health".into(),
            None,
            405,
            "method_not_allowed",
        ),
        ("GET", "/v1/nothing".into(), None, 404, "not_found"),
        ("GET", "/".into(), None, 404, "not_found"),
    ];
    for (method, p, b, status, code) in cases {
        let r = alice.send(method, &p, &[], b).await.unwrap();
        assert_eq!(
            (r.status, r.code()),
            (status, code.to_string()),
            "{method} {p}"
        );
        assert!(r.json()["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    // None of that stored anything.
    assert_eq!(alice.get(&path).await.status, 404);
    // A bad request id is refused before anything is stored.
    let r = alice
        .send(
            "POST",
            &path,
            &[("x-request-id", "has space")],
            Some(support::push_body(&records("r", 1, 4))),
        )
        .await
        .unwrap();
    assert_eq!((r.status, r.code()), (400, "bad_param".into()));
    assert_eq!(alice.get(&path).await.status, 404);
}

async fn oversized_requests_get_413(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    let huge_record = vec![("big".to_string(), vec![7u8; 256 * 1024 + 1])];
    let r = alice.push(&sid, &huge_record).await;
    assert_eq!((r.status, r.code()), (413, "too_large".into()));
    assert_eq!(r.json()["id"], "big");
    let at_limit = vec![("max".to_string(), vec![7u8; 256 * 1024])];
    assert_eq!(alice.push(&sid, &at_limit).await.status, 200);
    let r = alice.push(&sid, &records("many", 501, 1)).await;
    assert_eq!((r.status, r.code()), (413, "too_large".into()));
    // 17 records of 255 KiB: each fits, the body (over 4 MiB as base64) does not.
    let token = alice.token.clone().unwrap();
    let wide = support::push_body(&records("wide", 17, 255 * 1024));
    let head = raw_post(&server, &token, &sid, wide, false).await;
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    // A body without a length (chunked) is cut at the limit too.
    let head = raw_post(&server, &token, &sid, vec![b' '; 5 * 1024 * 1024], true).await;
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    assert_eq!(alice.read_all(&sid).await.len(), 1);
}

/// Posts `body` over a raw socket (with a length, or chunked) and returns the response head.
/// The body is written while the response is read: the server answers 413 without reading it.
async fn raw_post(server: &Server, token: &str, sid: &str, body: Vec<u8>, chunked: bool) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let (mut rd, mut wr) = stream.into_split();
    let framing = if chunked {
        "transfer-encoding: chunked".to_string()
    } else {
        format!("content-length: {}", body.len())
    };
    let head = format!(
        "POST {} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {token}\r\n{framing}\r\n\r\n",
        records_path(sid)
    );
    let writer = tokio::spawn(async move {
        wr.write_all(head.as_bytes()).await?;
        for piece in body.chunks(64 * 1024) {
            if chunked {
                wr.write_all(format!("{:x}\r\n", piece.len()).as_bytes())
                    .await?;
                wr.write_all(piece).await?;
                wr.write_all(b"\r\n").await?;
            } else {
                wr.write_all(piece).await?;
            }
        }
        if chunked {
            wr.write_all(b"0\r\n\r\n").await?;
        }
        std::io::Result::Ok(())
    });
    let mut got = Vec::new();
    let mut buf = vec![0; 4096];
    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
        match rd.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    writer.abort();
    String::from_utf8_lossy(&got).to_string()
}

async fn a_replayed_request_id_is_refused(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let bob = server.client(&unique("bob"));
    let sid = unique("s");
    let recs = records("r", 2, 16);
    let rid = unique("req");
    let send = |c: &Client, rid: String, recs: Vec<(String, Vec<u8>)>| {
        let c = c.clone();
        let sid = sid.clone();
        async move {
            c.send(
                "POST",
                &records_path(&sid),
                &[("x-request-id", &rid)],
                Some(support::push_body(&recs)),
            )
            .await
            .unwrap()
        }
    };
    let first = send(&alice, rid.clone(), recs.clone()).await;
    assert_eq!(first.status, 200);
    let replay = send(&alice, rid.clone(), recs.clone()).await;
    assert_eq!((replay.status, replay.code()), (409, "replayed".into()));
    // Replaying a request id on a read is refused as well.
    let read = alice
        .send("GET", &records_path(&sid), &[("x-request-id", &rid)], None)
        .await
        .unwrap();
    assert_eq!(read.status, 409);
    // The retry the protocol asks for: a new request id, the same records.
    let retry = send(&alice, unique("req"), recs.clone()).await;
    assert_eq!(retry.json()["acked"], first.json()["acked"]);
    // Request ids are per user.
    assert_eq!(send(&bob, rid, recs).await.status, 200);
}

async fn a_user_past_the_rate_gets_429(_: Backend, url: String, _dir: TempDir) {
    let server = Server::start(&url, &["--rate", "1", "--burst", "3"]);
    let alice = server.client(&unique("alice"));
    let bob = server.client(&unique("bob"));
    for _ in 0..3 {
        assert_eq!(alice.get("/v1/sessions").await.status, 200);
    }
    let r = alice.get("/v1/sessions").await;
    assert_eq!((r.status, r.code()), (429, "rate_limited".into()));
    let wait: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&wait));
    assert_eq!(bob.get("/v1/sessions").await.status, 200);
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
