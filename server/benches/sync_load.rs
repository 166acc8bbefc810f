//! Load on loopback, bounded: `CLIENTS` clients (one user and session each) push `RECORDS`
//! records each, `PER_PUSH` per request on a kept-alive connection, all at once, against the
//! server binary on Postgres (`LLM_MEMORY_TEST_POSTGRES`), then on SQLite and Redis
//! (`LLM_MEMORY_TEST_REDIS`) for comparison. Then every client reads its session back: all
//! records stored, once, byte for byte. Prints the push latencies and rewrites BENCHMARKS.md's
//! "Sync server" section. `make bench-sync` runs it (through server/scripts/with-stores.sh,
//! which starts the Postgres and Redis it uses). With `SYNC_LOAD_CHECK=1` (what `make
//! test-server` sets) it runs on Postgres only and checks, without touching BENCHMARKS.md.

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};
use support::{push_body, records_path, unique, Connection, Server};

const CLIENTS: usize = 200;
const RECORDS: usize = 200;
const PER_PUSH: usize = 10;
/// About one chat turn, encrypted.
const RECORD_BYTES: usize = 400;

fn client_records(client: usize) -> Vec<(String, Vec<u8>)> {
    (0..RECORDS)
        .map(|i| {
            let seed = (client * RECORDS + i) as u64;
            (
                format!("rec-{i}"),
                support::opaque_bytes(seed, RECORD_BYTES),
            )
        })
        .collect()
}

/// One client's pushes; the latency of each.
async fn client(addr: std::net::SocketAddr, n: usize, token: String, sid: String) -> Vec<Duration> {
    let recs = client_records(n);
    let mut conn = Connection::open(addr).await.expect("connect");
    let mut latencies = Vec::new();
    for batch in recs.chunks(PER_PUSH) {
        let body = push_body(batch);
        let t = Instant::now();
        let r = conn
            .send("POST", &records_path(&sid), Some(&token), &[], Some(body))
            .await
            .expect("push");
        latencies.push(t.elapsed());
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    }
    latencies
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// Replaces `## title` (up to the next `## `) in BENCHMARKS.md, or appends it.
fn write_section(title: &str, body: &str) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../BENCHMARKS.md");
    let text = std::fs::read_to_string(path).expect("BENCHMARKS.md");
    let heading = format!("## {title}\n");
    let section = format!("{heading}\n{body}\n");
    let out = match text.find(&heading) {
        Some(start) => {
            let rest = &text[start + heading.len()..];
            let end = rest
                .find("\n## ")
                .map_or(text.len(), |i| start + heading.len() + i + 1);
            format!("{}{section}{}", &text[..start], &text[end..])
        }
        None => format!(
            "{}\n{section}",
            text.trim_end_matches('\n').to_string() + "\n"
        ),
    };
    std::fs::write(path, out).expect("write BENCHMARKS.md");
}

/// One store's run: the table row.
async fn run(store: &str, url: &str) -> String {
    let server = Server::start(url, &["--rate", "0"]);
    let users: Vec<(String, String)> = (0..CLIENTS)
        .map(|_| (unique("load"), unique("s")))
        .collect();
    let started = Instant::now();
    let tasks: Vec<_> = users
        .iter()
        .enumerate()
        .map(|(n, (token, sid))| tokio::spawn(client(server.addr, n, token.clone(), sid.clone())))
        .collect();
    let mut latencies = Vec::new();
    for t in tasks {
        latencies.extend(t.await.expect("client"));
    }
    let wall = started.elapsed();
    latencies.sort();

    // Every record of every client, read back.
    let mut stored = 0;
    for (n, (token, sid)) in users.iter().enumerate() {
        let back = server.client(token).read_all(sid).await;
        let want = client_records(n);
        assert_eq!(
            back.len(),
            want.len(),
            "client {n}: all records stored once"
        );
        for ((id, seq, data), (want_id, want_data)) in back.iter().zip(&want) {
            assert_eq!((id, data), (want_id, want_data));
            assert!(*seq >= 1);
        }
        stored += back.len();
    }

    let pushes = latencies.len();
    let (p50, p99, max) = (
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        *latencies.last().unwrap(),
    );
    let rate = stored as f64 / wall.as_secs_f64();
    println!(
        "sync_load {store}: {CLIENTS} clients x {RECORDS} records, {pushes} pushes in {:.1} s: \
         p50 {} ms, p99 {} ms, max {} ms, {rate:.0} records/s; {stored} stored",
        wall.as_secs_f64(),
        ms(p50),
        ms(p99),
        ms(max)
    );
    format!(
        "| {store} | {CLIENTS} × {RECORDS} | {PER_PUSH} | {pushes} | {stored} | {} | {} | {} | {:.1} | {rate:.0} |",
        ms(p50),
        ms(p99),
        ms(max),
        wall.as_secs_f64()
    )
}

#[tokio::main]
async fn main() {
    let env = |name: &str| {
        std::env::var(name).unwrap_or_else(|_| {
            eprintln!("sync_load: set {name} (make bench-sync does)");
            std::process::exit(1);
        })
    };
    let (postgres, redis) = (
        env("LLM_MEMORY_TEST_POSTGRES"),
        env("LLM_MEMORY_TEST_REDIS"),
    );
    let dir = support::TempDir::new();
    let sqlite = format!("sqlite:{}", dir.0.join("load.db").display());
    // The machine is shared: the load before the run says how busy it was.
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into());
    let check_only = std::env::var("SYNC_LOAD_CHECK").is_ok_and(|v| v == "1");
    let mut rows = Vec::new();
    for (store, url) in [
        ("Postgres", &postgres),
        ("SQLite", &sqlite),
        ("Redis", &redis),
    ] {
        rows.push(run(store, url).await);
        if check_only {
            return;
        }
    }
    let body = format!(
        "Measured by `make bench-sync` (`server/benches/sync_load.rs`, part of `make bench`): the \
server binary (`--profile server`, `--rate 0`) on each store in turn, loopback only, on the \
machine above: a throwaway PostgreSQL cluster (`server/scripts/with-stores.sh`, default \
settings, fsync on; 16 connections), SQLite (one file, WAL, `synchronous = FULL`), Redis \
(no persistence). {CLIENTS} clients start together, each its own user and session, each \
pushing {RECORDS} records of {RECORD_BYTES} opaque bytes, {PER_PUSH} per request, on one \
kept-alive connection; latency is request sent to answer read. Afterwards every client reads its \
session back: all records stored once, byte for byte. Load average when the runs started: \
{load} (other work on the 2 cores). With every client pushing at once, a push's latency is mostly \
its wait for the store and the CPU: pushes per second × latency ≈ {CLIENTS}.

| store | clients × records | records per push | pushes | stored | push p50 (ms) | push p99 (ms) | max (ms) | wall (s) | records/s |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
{}
",
        rows.join("\n")
    );
    write_section("Sync server", &body);
}
