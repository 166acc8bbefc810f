//! Crash safety on the durable stores (SQLite, Postgres): the server is killed with SIGKILL
//! while clients push as fast as they can, then restarted on the same database. Every record it
//! acknowledged is there exactly once with its seq, seqs have no gaps, and a client that retries
//! the push that failed (a new request id, the same records) converges.

mod support;

use std::time::Duration;
use support::{
    opaque_bytes, push_body, records_path, unique, Backend, Connection, Server, TempDir,
};

const CLIENTS: usize = 8;
const PER_PUSH: usize = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_killed_mid_burst_keeps_acknowledged_records_once() {
    killed_mid_burst(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_killed_mid_burst_keeps_acknowledged_records_once() {
    killed_mid_burst(Backend::Postgres).await;
}

struct Outcome {
    token: String,
    sid: String,
    /// (id, seq, bytes) of every acknowledged record.
    acked: Vec<(String, u64, Vec<u8>)>,
    /// The push that got no answer.
    failed: Vec<(String, Vec<u8>)>,
}

fn batch(client: usize, n: usize) -> Vec<(String, Vec<u8>)> {
    (0..PER_PUSH)
        .map(|i| {
            let id = format!("c{client}-b{n}-r{i}");
            let seed = (client * 1_000_000 + n * 100 + i) as u64;
            (id, opaque_bytes(seed, 64 + (seed % 200) as usize))
        })
        .collect()
}

/// Pushes batches on one connection until one fails.
async fn burst(addr: std::net::SocketAddr, client: usize) -> Outcome {
    let token = unique("burst");
    let sid = unique("s");
    let mut acked = Vec::new();
    let mut conn = Connection::open(addr).await.unwrap();
    for n in 0.. {
        let recs = batch(client, n);
        let rid = unique("req");
        let reply = conn
            .send(
                "POST",
                &records_path(&sid),
                Some(&token),
                &[("x-request-id", &rid)],
                Some(push_body(&recs)),
            )
            .await;
        match reply {
            Ok(r) if r.status == 200 => {
                for (a, (id, data)) in r.json()["acked"].as_array().unwrap().iter().zip(recs) {
                    assert_eq!(a["id"], id.as_str());
                    acked.push((id, a["seq"].as_u64().unwrap(), data));
                }
            }
            Ok(r) => panic!(
                "push answered {}: {:?}",
                r.status,
                String::from_utf8_lossy(&r.body)
            ),
            Err(_) => {
                return Outcome {
                    token,
                    sid,
                    acked,
                    failed: recs,
                }
            }
        }
    }
    unreachable!()
}

async fn killed_mid_burst(backend: Backend) {
    let dir = TempDir::new();
    let Some(url) = backend.store_url(&dir) else {
        return;
    };
    let mut server = Server::start(&url, &["--rate", "0"]);
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|c| tokio::spawn(burst(server.addr, c)))
        .collect();
    tokio::time::sleep(Duration::from_millis(600)).await;
    server.kill();
    let mut outcomes = Vec::new();
    for t in tasks {
        outcomes.push(t.await.unwrap());
    }
    let total: usize = outcomes.iter().map(|o| o.acked.len()).sum();
    assert!(
        total > 0,
        "the burst had pushes acknowledged before the kill"
    );
    eprintln!("{backend:?}: {total} records acknowledged before SIGKILL");

    let server = Server::start(&url, &["--rate", "0"]);
    for o in &outcomes {
        let client = server.client(&o.token);
        let stored = client.read_all(&o.sid).await;
        for (i, (_, seq, _)) in stored.iter().enumerate() {
            assert_eq!(*seq, i as u64 + 1, "seqs without gaps");
        }
        let mut ids: Vec<&str> = stored.iter().map(|(id, _, _)| id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), stored.len(), "each record once");
        for acked in &o.acked {
            assert!(
                stored.contains(acked),
                "acknowledged {} is stored as acked",
                acked.0
            );
        }
        // At most the unanswered push was stored beyond what was acknowledged.
        assert!(stored.len() == o.acked.len() || stored.len() == o.acked.len() + PER_PUSH);

        // The client retries its failed push with a new request id and converges.
        let rid = unique("retry");
        let retry = client
            .send(
                "POST",
                &records_path(&o.sid),
                &[("x-request-id", &rid)],
                Some(push_body(&o.failed)),
            )
            .await
            .unwrap();
        assert_eq!(retry.status, 200);
        let after = client.read_all(&o.sid).await;
        assert_eq!(after.len(), o.acked.len() + PER_PUSH);
        assert_eq!(&after[..o.acked.len()], &o.acked[..]);
        for (id, data) in &o.failed {
            assert_eq!(
                after
                    .iter()
                    .filter(|(i, _, d)| i == id && d == data)
                    .count(),
                1
            );
        }
        // Retrying once more changes nothing.
        let again = client.push(&o.sid, &o.failed).await;
        assert_eq!(again.json()["acked"], retry.json()["acked"]);
        assert_eq!(client.read_all(&o.sid).await, after);
    }
}
