use super::{block_on, Log};
use crate::keys::{resolve_keys, Keys};

async fn key(log: &Log, name: &'static str, fails: bool) -> Result<&'static str, String> {
    log.push(name);
    match fails {
        true => Err(format!("{name} failed")),
        false => Ok(name),
    }
}

#[test]
fn rest_key_falls_back_to_the_sync_key() {
    let log = Log::default();
    let keys = block_on(resolve_keys(
        Some(key(&log, "sync", false)),
        None::<std::future::Ready<_>>,
    ));
    assert_eq!(
        keys,
        Ok(Keys {
            rest: Some("sync"),
            sync: Some("sync")
        })
    );
}

#[test]
fn encrypt_key_seals_at_rest_when_both_are_given() {
    let log = Log::default();
    let keys = block_on(resolve_keys(
        Some(key(&log, "sync", false)),
        Some(key(&log, "encrypt", false)),
    ));
    assert_eq!(
        keys,
        Ok(Keys {
            rest: Some("encrypt"),
            sync: Some("sync")
        })
    );
    assert_eq!(
        log.take(),
        ["sync", "encrypt"],
        "each key resolved once, sync first"
    );
}

#[test]
fn no_key_seals_nothing() {
    let none = None::<std::future::Ready<Result<&str, String>>>;
    let keys = block_on(resolve_keys(none.clone(), none));
    assert_eq!(
        keys,
        Ok(Keys {
            rest: None,
            sync: None
        })
    );
}

#[test]
fn a_failed_sync_key_ends_before_the_other_is_derived() {
    let log = Log::default();
    let keys = block_on(resolve_keys(
        Some(key(&log, "sync", true)),
        Some(key(&log, "encrypt", false)),
    ));
    assert_eq!(keys, Err("sync failed".to_string()));
    assert_eq!(log.take(), ["sync"]);
}
