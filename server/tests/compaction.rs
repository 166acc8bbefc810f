//! Compaction (`POST /v1/sessions/{sid}/compact`) against the real server binary, the same tests
//! on each store: records rewritten in place keep their ids and seqs, the mark only grows, a
//! refused compaction changes nothing, and a push retried after a compaction is acknowledged
//! with its seq. What the files keep after a compaction, and older databases, are in
//! compaction_storage.rs.

mod support;

use serde_json::json;
use support::{
    compact_body, compact_path, records, records_path, session_path, start, unique, Backend,
    Client, TempDir,
};

per_store!(
    a_compaction_rewrites_bytes_in_place,
    the_mark_only_grows_and_a_stale_compaction_gets_409,
    a_refused_compaction_changes_nothing,
    a_push_retried_after_a_compaction_is_acked_with_its_seq,
    compacting_a_missing_deleted_or_foreign_session,
    the_compact_route_takes_post_once_per_request_id,
);

fn rec(id: &str, data: &[u8]) -> (String, Vec<u8>) {
    (id.to_string(), data.to_vec())
}

async fn a_compaction_rewrites_bytes_in_place(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    let recs = records("r", 7, 48);
    assert_eq!(alice.push(&sid, &recs[..5]).await.status, 200);
    assert_eq!(alice.push(&sid, &recs[5..]).await.status, 200);
    let listed_before = alice.sessions().await;
    assert_eq!(listed_before[0]["compacted"], 0);

    // r-4 ends up with no ops: the client rewrites it to an (encrypted) empty batch.
    let rewrites = [
        rec("r-1", b"r-1 without its forgotten turn"),
        rec("r-3", b"r-3 rewritten"),
        rec("r-4", b"empty batch"),
    ];
    let r = alice.compact(&sid, 5, &rewrites).await;
    assert_eq!(r.status, 200, "{:?}", r.json());
    assert_eq!(
        r.json(),
        json!({ "compacted": 5, "rewritten": 3, "seq": 7 })
    );

    let all = alice.read_all(&sid).await;
    assert_eq!(all.len(), 7);
    for (i, (id, seq, data)) in all.iter().enumerate() {
        assert_eq!(
            (id, *seq),
            (&recs[i].0, i as u64 + 1),
            "ids keep their seqs"
        );
        let want = rewrites
            .iter()
            .find(|(rid, _)| rid == id)
            .map_or(&recs[i].1, |(_, d)| d);
        assert_eq!(data, want, "{id}");
    }
    // A page from the middle holds the new bytes too.
    let page = alice
        .get(&format!("{}?after=2&limit=2", records_path(&sid)))
        .await
        .json();
    assert_eq!(page["records"][0]["seq"], 3);
    assert_eq!(page["records"][1]["id"], "r-3");
    assert_eq!(
        support::b64_decode(page["records"][1]["data"].as_str().unwrap()),
        b"r-3 rewritten"
    );
    // The listing shows the mark; the head and updatedAt stay (nothing new to pull).
    let listed = alice.sessions().await;
    assert_eq!(listed[0]["compacted"], 5);
    assert_eq!(listed[0]["seq"], 7);
    assert_eq!(listed[0]["updatedAt"], listed_before[0]["updatedAt"]);
    // Pushes go on after the head.
    let r = alice.push(&sid, &records("next", 1, 8)).await.json();
    assert_eq!(r["seq"], 8);
}

async fn the_mark_only_grows_and_a_stale_compaction_gets_409(
    _: Backend,
    url: String,
    _dir: TempDir,
) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    alice.push(&sid, &records("r", 6, 16)).await;
    assert_eq!(
        alice.compact(&sid, 4, &[rec("r-0", b"a")]).await.status,
        200
    );
    // The same mark again (a retry, or another device from the same read) is accepted.
    let again = alice.compact(&sid, 4, &[rec("r-0", b"b")]).await;
    assert_eq!(again.json()["compacted"], 4);
    // Below the mark: another device compacted further from a newer read.
    let stale = alice.compact(&sid, 3, &[rec("r-0", b"c")]).await;
    assert_eq!((stale.status, stale.code()), (409, "compact_stale".into()));
    assert_eq!(stale.json()["compacted"], 4);
    assert_eq!(alice.read_all(&sid).await[0].2, b"b", "nothing changed");
    // No records: only the mark moves.
    let r = alice.compact(&sid, 6, &[]).await;
    assert_eq!(
        r.json(),
        json!({ "compacted": 6, "rewritten": 0, "seq": 6 })
    );
    assert_eq!(alice.sessions().await[0]["compacted"], 6);
    let stale = alice.compact(&sid, 5, &[]).await;
    assert_eq!(
        (stale.status, stale.json()["compacted"].clone()),
        (409, json!(6))
    );
}

async fn a_refused_compaction_changes_nothing(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let (sid, other) = (unique("s"), unique("other"));
    alice.push(&sid, &records("r", 4, 16)).await;
    alice.push(&other, &[rec("elsewhere", b"x")]).await;
    let before = alice.read_all(&sid).await;
    let new = |id: &str| rec(id, b"new bytes");

    // (upto, records, the id at fault): store checks, a valid record before the bad one.
    let refusals = [
        (5, vec![new("r-0")], None),
        (u64::MAX, vec![], None),
        (4, vec![new("r-0"), new("nope")], Some("nope")),
        (3, vec![new("r-0"), new("r-3")], Some("r-3")),
        (4, vec![new("r-1"), new("elsewhere")], Some("elsewhere")),
        (4, vec![new("r-1"), new("r-2"), new("r-1")], Some("r-1")),
    ];
    for (upto, recs, id) in refusals {
        let r = alice.compact(&sid, upto, &recs).await;
        assert_eq!(
            (r.status, r.code()),
            (400, "bad_param".into()),
            "{upto} {id:?}"
        );
        assert_eq!(r.json()["id"].as_str(), id, "{upto}");
    }
    // The push route's body checks, with its codes.
    let path = compact_path(&sid);
    let raw = |s: &str| Some(s.as_bytes().to_vec());
    let cases = [
        (raw("not json"), 400, "bad_json"),
        (raw("{\"records\": []}"), 400, "bad_json"),
        (raw("{\"upto\": -1, \"records\": []}"), 400, "bad_json"),
        (raw("{\"upto\": 1}"), 400, "bad_json"),
        (
            raw("{\"upto\": 1, \"records\": [{\"id\": \"a b\", \"data\": \"AA==\"}]}"),
            400,
            "bad_id",
        ),
        (
            raw("{\"upto\": 1, \"records\": [{\"id\": \"r-0\", \"data\": \"AA\"}]}"),
            400,
            "bad_base64",
        ),
        (
            Some(compact_body(1, &[rec("r-0", &vec![1; 256 * 1024 + 1])])),
            413,
            "too_large",
        ),
        (
            Some(compact_body(4, &records("r", 501, 1))),
            413,
            "too_large",
        ),
    ];
    for (body, status, code) in cases {
        let r = alice.send("POST", &path, &[], body).await.unwrap();
        assert_eq!((r.status, r.code()), (status, code.to_string()));
    }
    assert_eq!(alice.read_all(&sid).await, before);
    assert!(alice.sessions().await.iter().all(|s| s["compacted"] == 0));
}

async fn a_push_retried_after_a_compaction_is_acked_with_its_seq(
    _: Backend,
    url: String,
    _dir: TempDir,
) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    let recs = records("r", 4, 32);
    alice.push(&sid, &recs).await;
    let rewrites = [rec("r-0", b"c0"), rec("r-1", b"c1"), rec("r-2", b"c2")];
    assert_eq!(alice.compact(&sid, 3, &rewrites).await.status, 200);

    // A device whose answer was lost retries its original push: acked, not stored again.
    let retry = vec![recs[1].clone(), recs[2].clone(), rec("n-0", b"new")];
    let r = alice.push(&sid, &retry).await;
    assert_eq!(r.status, 200, "{:?}", r.json());
    assert_eq!(
        r.json(),
        json!({ "acked": [{ "id": "r-1", "seq": 2 }, { "id": "r-2", "seq": 3 },
                          { "id": "n-0", "seq": 5 }], "seq": 5 })
    );
    // At or below the mark any bytes are acknowledged; above it the old rule holds.
    let r = alice.push(&sid, &[rec("r-0", b"whatever")]).await;
    assert_eq!(r.json()["acked"][0]["seq"], 1);
    let r = alice.push(&sid, &[rec("r-3", b"other bytes")]).await;
    assert_eq!((r.status, r.code()), (409, "record_conflict".into()));
    assert_eq!(alice.push(&sid, &recs[3..]).await.status, 200);

    let all = alice.read_all(&sid).await;
    assert_eq!(all.len(), 5);
    let data: Vec<&[u8]> = all.iter().map(|(_, _, d)| d.as_slice()).collect();
    let want: [&[u8]; 5] = [b"c0", b"c1", b"c2", &recs[3].1, b"new"];
    assert_eq!(data, want);
}

async fn compacting_a_missing_deleted_or_foreign_session(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let mallory = server.client(&unique("mallory"));
    let sid = unique("s");
    let recs = records("r", 3, 16);
    alice.push(&sid, &recs).await;

    let never = alice.compact(&unique("never"), 0, &[]).await;
    assert_eq!((never.status, never.code()), (404, "not_found".into()));
    let theirs = mallory.compact(&sid, 1, &[rec("r-0", b"forged")]).await;
    assert_eq!(theirs.status, 404);
    assert_eq!(theirs.body, never.body, "as a session nobody has");
    assert_eq!(alice.read_all(&sid).await[0].2, recs[0].1);

    assert_eq!(alice.delete(&session_path(&sid)).await.status, 204);
    let gone = alice.compact(&sid, 1, &[rec("r-0", b"late")]).await;
    assert_eq!((gone.status, gone.code()), (410, "session_deleted".into()));
    let listed = alice.sessions().await;
    assert_eq!(listed[0]["deleted"], true);
    assert!(listed[0]["compacted"].is_u64());
}

async fn the_compact_route_takes_post_once_per_request_id(_: Backend, url: String, _dir: TempDir) {
    let server = start(&url);
    let alice = server.client(&unique("alice"));
    let sid = unique("s");
    alice.push(&sid, &records("r", 2, 16)).await;
    let path = compact_path(&sid);
    for method in ["GET", "PUT", "DELETE", "PATCH"] {
        let r = alice.send(method, &path, &[], None).await.unwrap();
        assert_eq!((r.status, r.code()), (405, "method_not_allowed".into()));
    }
    let nobody = Client {
        addr: server.addr,
        token: None,
    };
    let r = nobody
        .send("POST", &path, &[], Some(compact_body(1, &[])))
        .await
        .unwrap();
    assert_eq!(r.status, 401);

    let send = |rid: &str| {
        let body = compact_body(2, &[rec("r-1", b"c1")]);
        let alice = alice.clone();
        let (path, rid) = (path.clone(), rid.to_string());
        async move {
            alice
                .send("POST", &path, &[("x-request-id", &rid)], Some(body))
                .await
                .unwrap()
        }
    };
    let rid = unique("req");
    assert_eq!(send(&rid).await.status, 200);
    let replay = send(&rid).await;
    assert_eq!((replay.status, replay.code()), (409, "replayed".into()));
    assert_eq!(send(&unique("req")).await.status, 200);
    let bad = send("has space").await;
    assert_eq!((bad.status, bad.code()), (400, "bad_param".into()));

    // Browsers: the preflight of the new route allows POST.
    let pre = nobody
        .send(
            "OPTIONS",
            &path,
            &[
                ("origin", "https://app.example"),
                ("access-control-request-method", "POST"),
            ],
            None,
        )
        .await
        .unwrap();
    assert_eq!(pre.status, 204);
    let methods = pre.headers["access-control-allow-methods"]
        .to_str()
        .unwrap();
    assert!(methods.contains("POST"), "{methods}");
    assert!(pre.headers.contains_key("access-control-allow-origin"));
}
