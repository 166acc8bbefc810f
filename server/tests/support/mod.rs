//! What the server's integration tests share: starting the real binary on a store, a small
//! HTTP/1.1 client, and unique names so tests sharing one Postgres or Redis never meet.
//!
//! Postgres and Redis come from `LLM_MEMORY_TEST_POSTGRES` / `LLM_MEMORY_TEST_REDIS` (URLs that
//! `make test-server` sets after starting throwaway servers). Without them a test of that store
//! is skipped, unless `CI` is set: then a missing store fails the run.
#![allow(dead_code)]

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
    Redis,
}

/// A name no other test (in this or another process) uses.
pub fn unique(prefix: &str) -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!(
        "{prefix}-{}-{nanos}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// A scratch directory removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> TempDir {
        let dir = std::env::temp_dir().join(unique("llm-memory-server-test"));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Backend {
    /// The store URL for a test, or None to skip (never with CI set).
    pub fn store_url(self, dir: &TempDir) -> Option<String> {
        let var = match self {
            Backend::Sqlite => return Some(format!("sqlite:{}", dir.0.join("sync.db").display())),
            Backend::Postgres => "LLM_MEMORY_TEST_POSTGRES",
            Backend::Redis => "LLM_MEMORY_TEST_REDIS",
        };
        match std::env::var(var) {
            Ok(url) if !url.is_empty() => Some(url),
            _ if std::env::var_os("CI").is_some() => {
                panic!("{var} is not set (CI): run the tests through `make test-server`")
            }
            _ => {
                eprintln!("skipped: {var} is not set (`make test-server` sets it)");
                None
            }
        }
    }
}

/// Runs each named test once per store (`sqlite::name`, `postgres::name`, `redis::name`); each
/// test is `async fn name(backend: Backend, store_url: String, dir: TempDir)`.
#[macro_export]
macro_rules! per_store {
    ($($name:ident),* $(,)?) => {
        mod sqlite { $( #[tokio::test] async fn $name() { $crate::support::run($crate::support::Backend::Sqlite, super::$name).await } )* }
        mod postgres { $( #[tokio::test] async fn $name() { $crate::support::run($crate::support::Backend::Postgres, super::$name).await } )* }
        mod redis { $( #[tokio::test] async fn $name() { $crate::support::run($crate::support::Backend::Redis, super::$name).await } )* }
    };
}

/// Runs a per-store test with a scratch directory and the store's URL (or skips it).
pub async fn run<F, Fut>(backend: Backend, test: F)
where
    F: FnOnce(Backend, String, TempDir) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let dir = TempDir::new();
    if let Some(url) = backend.store_url(&dir) {
        test(backend, url, dir).await;
    }
}

/// The binary on a store with a rate high enough for the bursts tests send.
pub fn start(url: &str) -> Server {
    Server::start(url, &["--rate", "1000", "--burst", "1000"])
}

/// The server binary running on a store; killed when dropped.
pub struct Server {
    child: Child,
    pub addr: std::net::SocketAddr,
    pub store: String,
}

impl Server {
    /// Starts the binary with `--dev --port 0` and the extra arguments, and waits for its
    /// `listening on` line.
    pub fn start(store: &str, extra: &[&str]) -> Server {
        let args = [&["--dev", "--port", "0", "--store", store], extra].concat();
        Server::start_with(&args)
    }

    /// Starts the binary with exactly these arguments (give `--port 0`).
    pub fn start_with(args: &[&str]) -> Server {
        let store = args
            .iter()
            .position(|a| *a == "--store")
            .and_then(|i| args.get(i + 1))
            .copied()
            .unwrap_or("")
            .to_string();
        let mut child = Command::new(env!("CARGO_BIN_EXE_llm-memory-server"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start llm-memory-server");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| {
                let _ = child.kill();
                panic!("the server did not start: {line:?}")
            })
            .parse()
            .unwrap();
        Server { child, addr, store }
    }

    /// SIGKILL: the process gets no chance to finish anything.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    pub fn client(&self, token: &str) -> Client {
        Client {
            addr: self.addr,
            token: Some(token.to_string()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: hyper::HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "status {}: body is not JSON ({e}): {:?}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The error code of a JSON error body.
    pub fn code(&self) -> String {
        self.json()["code"].as_str().unwrap_or("").to_string()
    }
}

/// One user's view of the server: every request on a fresh connection.
#[derive(Clone)]
pub struct Client {
    pub addr: std::net::SocketAddr,
    pub token: Option<String>,
}

pub type Header<'a> = (&'a str, &'a str);

impl Client {
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[Header<'_>],
        body: Option<Vec<u8>>,
    ) -> std::io::Result<Reply> {
        let mut conn = Connection::open(self.addr).await?;
        conn.send(method, path, self.token.as_deref(), headers, body)
            .await
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send("GET", path, &[], None).await.unwrap()
    }

    pub async fn delete(&self, path: &str) -> Reply {
        self.send("DELETE", path, &[], None).await.unwrap()
    }

    /// Pushes (id, bytes) records to a session.
    pub async fn push(&self, sid: &str, records: &[(String, Vec<u8>)]) -> Reply {
        self.send("POST", &records_path(sid), &[], Some(push_body(records)))
            .await
            .unwrap()
    }

    /// Compacts a session: replaces the bytes of (id, bytes) records at or below `upto`.
    pub async fn compact(&self, sid: &str, upto: u64, records: &[(String, Vec<u8>)]) -> Reply {
        let body = compact_body(upto, records);
        self.send("POST", &compact_path(sid), &[], Some(body))
            .await
            .unwrap()
    }

    /// The user's sessions as listed, by id.
    pub async fn sessions(&self) -> Vec<serde_json::Value> {
        let r = self.get("/v1/sessions").await;
        assert_eq!(r.status, 200, "{:?}", String::from_utf8_lossy(&r.body));
        r.json()["sessions"].as_array().unwrap().clone()
    }

    /// Every record of a session, page by page.
    pub async fn read_all(&self, sid: &str) -> Vec<(String, u64, Vec<u8>)> {
        let mut out = Vec::new();
        let mut after = 0;
        loop {
            let r = self
                .get(&format!("{}?after={after}&limit=100", records_path(sid)))
                .await;
            assert_eq!(r.status, 200, "{:?}", String::from_utf8_lossy(&r.body));
            let page = r.json();
            for rec in page["records"].as_array().unwrap() {
                let seq = rec["seq"].as_u64().unwrap();
                out.push((
                    rec["id"].as_str().unwrap().to_string(),
                    seq,
                    b64_decode(rec["data"].as_str().unwrap()),
                ));
                after = seq;
            }
            if !page["more"].as_bool().unwrap() {
                return out;
            }
        }
    }
}

/// A kept-alive HTTP/1.1 connection (the load test sends each client's pushes on one).
pub struct Connection {
    sender: SendRequest<Full<Bytes>>,
}

impl Connection {
    pub async fn open(addr: std::net::SocketAddr) -> std::io::Result<Connection> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(std::io::Error::other)?;
        tokio::spawn(async move {
            let _ = conn.await;
        });
        Ok(Connection { sender })
    }

    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        headers: &[Header<'_>],
        body: Option<Vec<u8>>,
    ) -> std::io::Result<Reply> {
        let mut req = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header("host", "127.0.0.1");
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = req
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(std::io::Error::other)?;
        let res = self
            .sender
            .send_request(req)
            .await
            .map_err(std::io::Error::other)?;
        let (parts, body) = res.into_parts();
        let body = body
            .collect()
            .await
            .map_err(std::io::Error::other)?
            .to_bytes()
            .to_vec();
        Ok(Reply {
            status: parts.status.as_u16(),
            headers: parts.headers,
            body,
        })
    }
}

/// The path of a session's records, the session id percent-encoded.
pub fn records_path(sid: &str) -> String {
    format!("/v1/sessions/{}/records", encode_segment(sid))
}

pub fn compact_path(sid: &str) -> String {
    format!("/v1/sessions/{}/compact", encode_segment(sid))
}

pub fn session_path(sid: &str) -> String {
    format!("/v1/sessions/{}", encode_segment(sid))
}

pub fn encode_segment(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

pub fn push_body(records: &[(String, Vec<u8>)]) -> Vec<u8> {
    let records: Vec<_> = records
        .iter()
        .map(|(id, data)| serde_json::json!({ "id": id, "data": b64_encode(data) }))
        .collect();
    serde_json::to_vec(&serde_json::json!({ "records": records })).unwrap()
}

pub fn compact_body(upto: u64, records: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut body: serde_json::Value = serde_json::from_slice(&push_body(records)).unwrap();
    body["upto"] = upto.into();
    serde_json::to_vec(&body).unwrap()
}

pub fn b64_encode(data: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(data)
}

pub fn b64_decode(text: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap()
}

/// Bytes that look like ciphertext (xorshift from a seed): what an encrypting client sends.
pub fn opaque_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Bytes found nowhere else, even in a Postgres or Redis that other tests and earlier runs
/// share: `n` and a unique tag.
pub fn marker(n: u8) -> Vec<u8> {
    format!("<<secret-marker-{n}-{}>>", unique("m")).into_bytes()
}

/// A record of `len` opaque bytes holding `marker` every 997 bytes: in a record on overflow
/// pages (or in TOAST chunks) some copy falls within one page, so a lingering page shows in a
/// byte search.
pub fn carrier(seed: u64, len: usize, marker: &[u8]) -> Vec<u8> {
    let mut data = opaque_bytes(seed, len);
    for at in (0..len.saturating_sub(marker.len())).step_by(997) {
        data[at..at + marker.len()].copy_from_slice(marker);
    }
    data
}

/// Whether `needle` occurs in `haystack`.
pub fn holds(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// `n` records `prefix-i` of opaque bytes.
pub fn records(prefix: &str, n: usize, len: usize) -> Vec<(String, Vec<u8>)> {
    (0..n)
        .map(|i| {
            (
                format!("{prefix}-{i}"),
                opaque_bytes(i as u64 + len as u64 * 7919, len),
            )
        })
        .collect()
}
