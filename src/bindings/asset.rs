//! One loader shape for every asset the package loads: `Tokenizer`, `NerModel` and
//! `EmbedModel` each have `fromUrl(url, { onProgress({ loaded, total }), cache, signal })` and
//! `fromBytes(bytes)`. Downloads go through one helper (fetch_asset.js); with `cache` (the
//! default) what the asset needs to load again is kept in IndexedDB under its kind and URL, and
//! the next page load reads it from there instead of the network.

use super::errors::{invalid_option, js_error};
use super::option_tree::JsOptions;
use super::options::describe;
use super::storage::idb::{self, IdbBackend};
use crate::bindings::errors::OrThrow;
use crate::error::ErrorCode;
use crate::options::assets::{LoadOptions as CoreLoadOptions, LoadOptionsSpec};
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const LOAD_OPTIONS_TS: &str = LoadOptionsSpec::TS;

#[wasm_bindgen(module = "/src/bindings/fetch_asset.js")]
extern "C" {
    #[wasm_bindgen(js_name = fetchAsset, catch)]
    async fn fetch_asset(
        url: &str,
        on_progress: &JsValue,
        signal: &JsValue,
    ) -> Result<JsValue, JsValue>;
}

/// The checked options of a `fromUrl`.
pub struct LoadOptions {
    on_progress: Option<Function>,
    cache: bool,
    signal: JsValue,
}

impl LoadOptions {
    pub fn read(options: &JsValue, what: &'static str) -> Result<LoadOptions, JsValue> {
        let js = JsOptions::read(options, what)?;
        let o = CoreLoadOptions::parse(&js.tree, what).js()?;
        let signal = match o.signal.map(|h| js.value(h).clone()) {
            None => JsValue::UNDEFINED,
            // An AbortSignal's `aborted` is inherited: the tree sees own keys only.
            Some(s) if js_sys::Reflect::has(&s, &"aborted".into()).unwrap_or(false) => s,
            Some(s) => {
                return Err(invalid_option(format!(
                    "signal must be an AbortSignal, got {}",
                    describe(&s)
                )))
            }
        };
        Ok(LoadOptions {
            on_progress: js.function(o.on_progress),
            cache: o.cache,
            signal,
        })
    }

    fn report(&self, loaded: usize, total: usize) {
        if let Some(f) = &self.on_progress {
            let o = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&o, &"loaded".into(), &(loaded as f64).into());
            let _ = js_sys::Reflect::set(&o, &"total".into(), &(total as f64).into());
            let _ = f.call1(&JsValue::NULL, &o);
        }
    }
}

pub use crate::session::asset_cache::Loaded;

/// Loads `url` as an asset of `kind` (the cache key's prefix). `revive` makes the asset from
/// what the cache kept (`None`: stale or damaged, download again); `parse` makes it from the
/// downloaded file and says what to keep (its prepared form, the file, or nothing).
pub async fn load<T>(
    url: &str,
    kind: &str,
    options: &LoadOptions,
    revive: impl Fn(&[u8]) -> Option<T>,
    parse: impl Fn(Vec<u8>) -> Result<(T, Option<Vec<u8>>), JsValue>,
) -> Result<Loaded<T>, JsValue> {
    let progress = options
        .on_progress
        .clone()
        .map(JsValue::from)
        .unwrap_or(JsValue::UNDEFINED);
    let key = format!("{kind}:{url}");
    let make = async {
        let downloaded = fetch_asset(url, &progress, &options.signal).await?;
        parse(js_sys::Uint8Array::new(&downloaded).to_vec())
    };
    let loaded = through_cache(&key, options.cache, revive, make).await?;
    if loaded.from_cache {
        options.report(loaded.kept, loaded.kept);
    }
    Ok(loaded)
}

/// Loads through the one cache policy of every asset (`crate::session::through_cache`),
/// with IndexedDB's `prepared` store as the cache.
pub async fn through_cache<T>(
    key: &str,
    cache: bool,
    revive: impl Fn(&[u8]) -> Option<T>,
    make: impl std::future::Future<Output = Result<(T, Option<Vec<u8>>), JsValue>>,
) -> Result<Loaded<T>, JsValue> {
    let open = async {
        match idb::available() {
            true => IdbBackend::connect().await.ok(),
            false => None,
        }
    };
    crate::session::through_cache(cache, open, key, revive, make).await
}

impl crate::session::AssetCache for IdbBackend {
    async fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.get_prepared(key).await.ok().flatten()
    }

    async fn put(&self, key: &str, bytes: &[u8]) {
        let _ = self.put_prepared(key, bytes).await;
    }
}

/// The bytes of a file given as `Uint8Array` or `ArrayBuffer`; `code` for anything else.
pub fn bytes_of(value: &JsValue, what: &str, code: ErrorCode) -> Result<Vec<u8>, JsValue> {
    if let Some(a) = value.dyn_ref::<js_sys::Uint8Array>() {
        Ok(a.to_vec())
    } else if let Some(b) = value.dyn_ref::<js_sys::ArrayBuffer>() {
        Ok(js_sys::Uint8Array::new(b).to_vec())
    } else {
        Err(js_error(
            code,
            &format!(
                "{what} takes the file as a Uint8Array or an ArrayBuffer, got {}",
                describe(value)
            ),
        ))
    }
}
