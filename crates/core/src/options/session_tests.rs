use super::*;
use crate::error::ErrorCode;
use crate::options::value::{from_json, with};
use serde_json::json;

fn open(v: serde_json::Value) -> Result<SessionOptions> {
    SessionOptions::open(&from_json(v), BuildParts::ALL)
}

fn message(r: Result<impl std::fmt::Debug>) -> String {
    let e = r.unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidOption, "{}", e.message);
    e.message
}

#[test]
fn open_reads_the_memory_options_and_its_own() {
    let v = json!({
        "session": "chat-1", "storage": "memory", "ttlMs": 1000, "maxTokens": 50,
        "sync": { "url": "https://s", "token": "t", "key": { "passphrase": "p" }, "intervalMs": 0, "user": "u" },
        "encrypt": { "key": { "passphrase": "q" } },
    });
    let o = open(v).unwrap();
    assert_eq!(
        (o.session.as_deref(), o.storage.as_deref()),
        (Some("chat-1"), Some("memory"))
    );
    assert_eq!(
        (o.ttl_ms, o.memory.config.limits.max_tokens),
        (Some(1000.0), Some(50))
    );
    let s = o.sync.unwrap();
    assert_eq!(
        (
            s.url.as_str(),
            s.token.as_str(),
            s.interval_ms,
            s.user.as_deref()
        ),
        ("https://s", "t", Some(0.0), Some("u"))
    );
    assert!(s.key.is_some() && o.encrypt.is_some());
    let f = with(
        json!({ "session": "s" }),
        "onError",
        OptValue::Function(Handle(7)),
    );
    assert_eq!(
        SessionOptions::open(&f, BuildParts::ALL).unwrap().on_error,
        Some(Handle(7))
    );
}

#[test]
fn open_refuses_with_the_option_named() {
    let cases = [
        (json!({}), "Memory.open needs session: the name of the chat"),
        (json!({ "session": "s", "ttlMs": 0 }), "ttlMs must be a positive number of milliseconds"),
        (json!({ "session": "s", "onChange": 1 }), "onChange must be a function, got 1"),
        (json!({ "session": "s", "sync": { "token": "t" } }), "sync.url is missing: the sync server's base URL"),
        (json!({ "session": "s", "sync": { "url": "u" } }), "sync.token is missing: the account's bearer token"),
        (json!({ "session": "s", "sync": { "url": "u", "token": "t" } }), "sync.key is missing: the server only ever stores ciphertext, so sync needs a CryptoKey (AES-GCM, non-extractable) or { passphrase }"),
        (json!({ "session": "s", "sync": { "url": "u", "token": "t", "key": "k" } }), "sync.key must be a CryptoKey (AES-GCM, non-extractable) or { passphrase: string }, got string"),
        (json!({ "session": "s", "encrypt": {} }), "encrypt.key is missing: a CryptoKey or { passphrase }"),
        (json!({ "session": "s", "encrypt": { "key": [1] } }), "encrypt.key must be a CryptoKey (AES-GCM, non-extractable) or { passphrase: string }, got an array"),
        (json!(7), "Memory.open options must be an object"),
    ];
    for (input, expected) in cases {
        assert_eq!(message(open(input)), expected);
    }
    let m = message(open(json!({ "session": "s", "sesion": "t" })));
    assert!(
        m.starts_with("unknown option \"sesion\" in Memory options (did you mean session?)"),
        "{m}"
    );
    let m = message(open(
        json!({ "session": "s", "sync": { "url": "u", "token": "t", "key": {}, "interval": 1 } }),
    ));
    assert!(m.contains("in sync (did you mean intervalMs?)"), "{m}");
    assert_eq!(
        open(json!({ "session": "" })).unwrap_err().code,
        ErrorCode::InvalidOption
    );
}

#[test]
fn import_takes_overwrite_and_max_bytes_but_not_sync() {
    let v = from_json(json!({ "overwrite": true, "maxBytes": 10, "strategy": "window" }));
    let o = SessionOptions::import(&v, BuildParts::ALL).unwrap();
    assert_eq!(
        (o.overwrite, o.max_bytes, o.session),
        (true, Some(10), None)
    );
    let v = from_json(json!({ "sync": {} }));
    let m = message(SessionOptions::import(&v, BuildParts::ALL));
    assert!(
        m.starts_with("unknown option \"sync\" in Memory options"),
        "{m}"
    );
    assert!(!m.contains("encrypt"), "{m}");
    assert!(SessionOptions::import(&OptValue::Undefined, BuildParts::ALL).is_ok());
}

#[test]
fn delete_names_the_server_without_a_key() {
    let v = from_json(json!({ "storage": "memory", "sync": { "url": "u", "token": "t" } }));
    let (storage, sync) = delete_options(&v, BuildParts::ALL).unwrap();
    assert_eq!(
        (storage.as_deref(), sync.map(|s| s.key)),
        (Some("memory"), Some(None))
    );
    let v = from_json(json!({ "sync": { "url": "u" } }));
    assert_eq!(
        message(delete_options(&v, BuildParts::ALL)),
        "sync.token is missing"
    );
    let v = from_json(json!({ "storag": "memory" }));
    assert!(message(delete_options(&v, BuildParts::ALL)).contains("(did you mean storage?)"));
}

#[test]
fn sync_is_refused_by_a_build_without_it() {
    let sync = json!({ "url": "u", "token": "t", "key": { "passphrase": "p" } });
    let e = SessionOptions::open(
        &from_json(json!({ "session": "s", "sync": sync.clone() })),
        BuildParts::NONE,
    );
    assert_eq!(e.unwrap_err().code, ErrorCode::NotInBuild);
    let e = delete_options(&from_json(json!({ "sync": sync })), BuildParts::NONE);
    assert_eq!(e.unwrap_err().code, ErrorCode::NotInBuild);
}

#[test]
fn the_interfaces_extend_the_memory_options() {
    assert!(
        OpenOptionsSpec::TS.starts_with("export interface OpenOptions extends MemoryOptions {\n")
    );
    assert!(OpenOptionsSpec::TS.contains("\n  session: string;\n"));
    assert!(SyncOptionsSpec::TS.contains("\n  key: SyncKey;\n"));
    assert!(ImportOptionsSpec::TS
        .contains("extends Omit<Partial<OpenOptions>, \"sync\" | \"encrypt\"> {"));
}
