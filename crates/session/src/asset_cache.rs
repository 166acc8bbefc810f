//! The one cache policy of every asset (a tokenizer, the PII model, the embedder): with the
//! cache wanted and one to open, what was kept under the asset's key is revived; otherwise, or
//! when it does not revive (stale, damaged), the asset is made (downloaded, parsed) and what it
//! says to keep is stored. A cache that does not open, does not read or does not take the write
//! (quota) costs the next load its head start, never this load.

use std::future::Future;

/// Where assets keep what they need to load again (IndexedDB's `prepared` store in the face).
#[allow(async_fn_in_trait)]
pub trait AssetCache {
    /// What was kept under `key`; a failed read is a miss.
    async fn get(&self, key: &str) -> Option<Vec<u8>>;
    /// Keeps `bytes` under `key`; a failure is ignored (the next load makes the asset again).
    async fn put(&self, key: &str, bytes: &[u8]);
}

/// An asset and where it came from.
#[derive(Debug)]
pub struct Loaded<T> {
    pub value: T,
    pub from_cache: bool,
    /// Bytes read from the cache (0 when made).
    pub kept: usize,
}

/// Loads an asset through the cache. `open` is awaited only when the cache is `wanted`;
/// `revive` makes the asset from what was kept (`None`: make it again); `make` makes it and
/// says what to keep.
pub async fn through_cache<T, C: AssetCache, E>(
    wanted: bool,
    open: impl Future<Output = Option<C>>,
    key: &str,
    revive: impl Fn(&[u8]) -> Option<T>,
    make: impl Future<Output = Result<(T, Option<Vec<u8>>), E>>,
) -> Result<Loaded<T>, E> {
    let cache = match wanted {
        true => open.await,
        false => None,
    };
    if let Some(cache) = &cache {
        if let Some(kept) = cache.get(key).await {
            if let Some(value) = revive(&kept) {
                return Ok(Loaded {
                    value,
                    from_cache: true,
                    kept: kept.len(),
                });
            }
        }
    }
    let (value, keep) = make.await?;
    if let (Some(cache), Some(keep)) = (&cache, keep) {
        cache.put(key, &keep).await;
    }
    Ok(Loaded {
        value,
        from_cache: false,
        kept: 0,
    })
}
