//! Requests the server refuses, each with a coded 4xx and nothing stored, the same tests on each
//! store: malformed JSON, bad ids, bad base64, oversized bodies and records, wrong methods and
//! routes, replayed request ids, the rate limit; then the token file and browser (CORS) headers.

mod support;

use support::{
    records, records_path, session_path, start, unique, Backend, Client, Server, TempDir,
};

per_store!(
    malformed_requests_get_coded_4xx,
    oversized_requests_get_413,
    a_replayed_request_id_is_refused,
    a_user_past_the_rate_gets_429,
);

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

/// Production mode: the token file names users; two devices of one user share its sessions,
/// and a token the file does not list gets 401.
#[tokio::test]
async fn a_token_file_maps_devices_to_users() {
    let dir = TempDir::new();
    let tokens = dir.0.join("tokens.txt");
    std::fs::write(
        &tokens,
        "# token user\nphone-token-0123456789 ann\nlaptop-token-0123456789 ann\nbob-token-0123456789abc bob\n",
    )
    .unwrap();
    let store = format!("sqlite:{}", dir.0.join("sync.db").display());
    let server = Server::start_with(&[
        "--tokens",
        tokens.to_str().unwrap(),
        "--port",
        "0",
        "--store",
        &store,
    ]);
    let (phone, laptop) = (
        server.client("phone-token-0123456789"),
        server.client("laptop-token-0123456789"),
    );
    let bob = server.client("bob-token-0123456789abc");
    let sid = unique("s");
    let recs = records("r", 3, 16);
    assert_eq!(phone.push(&sid, &recs).await.status, 200);
    assert_eq!(laptop.read_all(&sid).await.len(), 3);
    assert_eq!(bob.get(&records_path(&sid)).await.status, 404);
    let stranger = server.client("dev-style-token-not-listed");
    let r = stranger.get("/v1/sessions").await;
    assert_eq!((r.status, r.code()), (401, "unauthorized".into()));
}

/// A page on another origin calls with a bearer header: the preflight is answered without a
/// token, and every answer, errors included, is readable by the page.
#[tokio::test]
async fn browsers_get_preflight_and_cors_headers() {
    let dir = TempDir::new();
    let url = Backend::Sqlite.store_url(&dir).unwrap();
    let server = Server::start(&url, &["--allow-origin", "https://app.example"]);
    let nobody = Client {
        addr: server.addr,
        token: None,
    };
    let pre = nobody
        .send(
            "OPTIONS",
            &records_path("s"),
            &[
                ("origin", "https://app.example"),
                ("access-control-request-method", "POST"),
                (
                    "access-control-request-headers",
                    "authorization, x-request-id",
                ),
            ],
            None,
        )
        .await
        .unwrap();
    assert_eq!(pre.status, 204);
    let header = |r: &support::Reply, name: &str| r.headers[name].to_str().unwrap().to_string();
    assert_eq!(
        header(&pre, "access-control-allow-origin"),
        "https://app.example"
    );
    assert!(header(&pre, "access-control-allow-methods").contains("POST"));
    assert!(header(&pre, "access-control-allow-headers").contains("x-request-id"));
    let refused = nobody.get("/v1/sessions").await;
    assert_eq!(refused.status, 401);
    assert_eq!(
        header(&refused, "access-control-allow-origin"),
        "https://app.example"
    );
    assert!(header(&refused, "access-control-expose-headers").contains("retry-after"));
}

/// A client that sends its request headers too slowly loses the connection; others are served.
#[tokio::test]
async fn slow_headers_lose_the_connection() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = TempDir::new();
    let url = Backend::Sqlite.store_url(&dir).unwrap();
    let server = Server::start(&url, &["--header-timeout", "1s"]);
    let mut slow = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    slow.write_all(b"GET /v1/health HTTP/1.1\r\nhost: x\r\n")
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let mut buf = [0u8; 256];
    let n = tokio::time::timeout(std::time::Duration::from_secs(10), slow.read(&mut buf))
        .await
        .expect("the server closes a connection whose headers stall")
        .unwrap_or(0);
    let answer = String::from_utf8_lossy(&buf[..n]).to_string();
    assert!(n == 0 || answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(started.elapsed() >= std::time::Duration::from_millis(900));
    let anyone = Client {
        addr: server.addr,
        token: None,
    };
    assert_eq!(anyone.get("/v1/health").await.status, 200);
}
