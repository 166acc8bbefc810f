use super::{block_on, Log};
use crate::asset_cache::{through_cache, AssetCache, Loaded};
use std::cell::RefCell;
use std::collections::HashMap;

/// A cache in memory whose writes fail when `full`.
#[derive(Default)]
struct Cache {
    log: Log,
    kept: RefCell<HashMap<String, Vec<u8>>>,
    full: bool,
}

impl AssetCache for &Cache {
    async fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.log.push(format!("get {key}"));
        self.kept.borrow().get(key).cloned()
    }
    async fn put(&self, key: &str, bytes: &[u8]) {
        self.log.push(format!("put {key}"));
        if !self.full {
            self.kept.borrow_mut().insert(key.into(), bytes.to_vec());
        }
    }
}

/// The asset is its text; a kept form revives unless it reads "damaged".
fn load(cache: &Cache, wanted: bool, opens: bool) -> Result<Loaded<String>, String> {
    let open = async move {
        cache.log.push("open");
        opens.then_some(cache)
    };
    let revive = |kept: &[u8]| {
        let text = String::from_utf8(kept.to_vec()).ok()?;
        (text != "damaged").then_some(text)
    };
    let make = async {
        cache.log.push("make");
        Ok::<_, String>(("tokenizer".to_string(), Some(b"tokenizer".to_vec())))
    };
    block_on(through_cache(wanted, open, "tok:url", revive, make))
}

#[test]
fn the_second_load_is_revived_from_what_the_first_kept() {
    let cache = Cache::default();
    let first = load(&cache, true, true).unwrap();
    assert!(!first.from_cache);
    assert_eq!(
        cache.log.take(),
        ["open", "get tok:url", "make", "put tok:url"]
    );
    let second = load(&cache, true, true).unwrap();
    assert_eq!(
        (second.value.as_str(), second.from_cache, second.kept),
        ("tokenizer", true, 9)
    );
    assert_eq!(cache.log.take(), ["open", "get tok:url"]);
}

#[test]
fn without_the_cache_wanted_it_is_never_opened() {
    let cache = Cache::default();
    load(&cache, false, true).unwrap();
    assert_eq!(cache.log.take(), ["make"]);
    assert!(cache.kept.borrow().is_empty());
}

#[test]
fn a_cache_that_does_not_open_or_take_the_write_costs_only_the_head_start() {
    let cache = Cache::default();
    assert!(!load(&cache, true, false).unwrap().from_cache);
    assert_eq!(cache.log.take(), ["open", "make"]);
    let full = Cache {
        full: true,
        ..Cache::default()
    };
    assert!(!load(&full, true, true).unwrap().from_cache);
    assert!(!load(&full, true, true).unwrap().from_cache, "made again");
}

#[test]
fn a_damaged_kept_form_is_made_again_and_replaced() {
    let cache = Cache::default();
    cache
        .kept
        .borrow_mut()
        .insert("tok:url".into(), b"damaged".to_vec());
    let loaded = load(&cache, true, true).unwrap();
    assert!(!loaded.from_cache);
    assert_eq!(cache.kept.borrow()["tok:url"], b"tokenizer");
}
