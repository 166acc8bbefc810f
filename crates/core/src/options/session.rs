//! The options of stored sessions: `Memory.open` and `Memory.import` (the Memory options and
//! their own), their `sync` and `encrypt`, and `Memory.delete`'s. What the face alone can
//! check stays there: the storage name (its backends), and the key's algorithm (WebCrypto).

use super::memory::MemoryOptions;
use super::reader::Opts;
use super::value::{Handle, OptValue};
use super::{not_in_build, BuildParts};
use crate::error::{Error, Result};
use crate::memory::MemoryConfig;
use crate::store::records::validate_session_name;

js_options! {
    pub struct SyncOptionsSpec as "SyncOptions" {
        /// The server's base URL, e.g. "https://sync.example.com" (`make serve` prints one).
        url: "string" required,
        /// The account's bearer token.
        token: "string" required,
        /// Encrypts everything the server stores; every device of the account needs the same key.
        key: "SyncKey" required,
        /// Pull every this many ms (default 30 000; 0: only on open, after writes and `mem.sync()`).
        intervalMs: "number",
        /// The label a passphrase's salt is made from: the same on every device (default the session).
        user: "string",
    }
}

js_options! {
    pub struct OpenOptionsSpec as "OpenOptions" extends "MemoryOptions" {
        /// The chat's name; opening it again (after a reload, in another tab) finds it.
        session: "string" required,
        /// Default "indexeddb" where available (browsers, workers), else "memory".
        storage: "StorageName",
        /// Remove the session this long after its last change (checked when any session opens).
        ttlMs: "number",
        /// Called with a coded Error when a background write fails (default: console.error).
        onError: "(error: LlmMemoryError) => void",
        /// Called after another tab's (or, with `sync`, another device's) changes to this session
        /// were applied here (the one way to listen; the `onchange` setter is deprecated).
        onChange: "() => void",
        /// Keep the session in step with the user's other devices through a sync server
        /// (docs/sync-protocol.md). The server stores ciphertext only; the same key also encrypts
        /// the records at rest here (unless `encrypt` gives another).
        sync: "SyncOptions",
        /// Encrypt the records at rest (IndexedDB, localStorage), the redaction vault included.
        encrypt: "{ key: SyncKey }",
    }
}

js_options! {
    pub struct ImportOptionsSpec as "ImportOptions" extends "Omit<Partial<OpenOptions>, \"sync\" | \"encrypt\">" {
        /// Replace a stored session of the same name (default false: an error).
        overwrite: "boolean",
        /// Largest document accepted, in bytes (default 64 MiB).
        maxBytes: "number",
    }
}

js_options! {
    /// `Memory.delete`'s options: the storage, and `sync` to delete it on the server (every device).
    pub struct DeleteOptionsSpec as "DeleteOptions" {
        storage: "StorageName",
        sync: "Pick<SyncOptions, \"url\" | \"token\">",
    }
}

/// The keys of `encrypt`.
const ENCRYPT_KEYS: &[&str] = &["key"];

/// `Memory.open`'s or `Memory.import`'s options, checked; the face resolves the handles.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionOptions {
    pub memory: MemoryOptions,
    /// A valid session name; `Memory.open` needs one, `Memory.import` takes the document's.
    pub session: Option<String>,
    /// The storage name as given, for the face's backends to parse.
    pub storage: Option<String>,
    pub ttl_ms: Option<f64>,
    pub on_error: Option<Handle>,
    pub on_change: Option<Handle>,
    pub sync: Option<SyncSettings>,
    /// `encrypt.key`: a CryptoKey or `{ passphrase }`.
    pub encrypt: Option<Handle>,
    pub overwrite: bool,
    pub max_bytes: Option<usize>,
}

/// The `sync` option; the sync crate checks the URL and the interval (`SyncOptions::new`).
#[derive(Debug, Clone, PartialEq)]
pub struct SyncSettings {
    pub url: String,
    pub token: String,
    /// A CryptoKey or `{ passphrase }` (`None` for `Memory.delete`, which needs no key).
    pub key: Option<Handle>,
    pub interval_ms: Option<f64>,
    pub user: Option<String>,
}

impl SessionOptions {
    /// `Memory.open(options)`.
    pub fn open(value: &OptValue, parts: BuildParts) -> Result<Self> {
        Opts::new(value, "Memory.open options")?;
        let o = Opts::new(value, "Memory options")?;
        let memory = o_memory(&o, OpenOptionsSpec::KEYS, parts)?;
        let opened = Self::read(&o, memory, Some(parts))?;
        if opened.session.is_none() {
            return Err(Error::option(
                "Memory.open needs session: the name of the chat",
            ));
        }
        Ok(opened)
    }

    /// `Memory.import(document, options)`: the open options but `sync` and `encrypt`.
    pub fn import(value: &OptValue, parts: BuildParts) -> Result<Self> {
        Opts::new(value, "Memory.import options")?;
        let o = Opts::new(value, "Memory options")?;
        let mut own: Vec<&str> = OpenOptionsSpec::KEYS
            .iter()
            .copied()
            .filter(|k| !matches!(*k, "sync" | "encrypt"))
            .collect();
        own.extend_from_slice(ImportOptionsSpec::KEYS);
        let memory = o_memory(&o, &own, parts)?;
        let mut imported = Self::read(&o, memory, None)?;
        imported.overwrite = o.boolean("overwrite")?.unwrap_or(false);
        imported.max_bytes = o.uint("maxBytes")?;
        Ok(imported)
    }

    /// `sync_parts`: `None` where `sync` and `encrypt` are not options (`Memory.import`).
    fn read(o: &Opts, memory: MemoryOptions, sync_parts: Option<BuildParts>) -> Result<Self> {
        let session = o.string("session")?;
        if let Some(s) = &session {
            validate_session_name(s)?;
        }
        Ok(SessionOptions {
            memory,
            session,
            storage: o.string("storage")?,
            ttl_ms: o.positive("ttlMs", "ttlMs must be a positive number of milliseconds")?,
            on_error: o.function("onError")?,
            on_change: o.function("onChange")?,
            sync: match sync_parts {
                Some(parts) => sync_settings(o, parts, true)?,
                None => None,
            },
            encrypt: match sync_parts {
                Some(_) => encrypt_key(o)?,
                None => None,
            },
            overwrite: false,
            max_bytes: None,
        })
    }
}

/// The Memory options of an object that also holds `own` keys (an unknown key is reported
/// "in Memory options", where most keys are).
fn o_memory<'a>(o: &Opts<'a>, own: &[&'a str], parts: BuildParts) -> Result<MemoryOptions> {
    let mut known = super::memory::MemoryOptionsSpec::KEYS.to_vec();
    known.extend_from_slice(own);
    o.check_keys(&known)?;
    MemoryOptions::read(o, &MemoryConfig::default(), parts)
}

/// `Memory.delete(session, options)`'s options: the storage name and the server to delete on.
pub fn delete_options(
    value: &OptValue,
    parts: BuildParts,
) -> Result<(Option<String>, Option<SyncSettings>)> {
    let o = Opts::new(value, "Memory.delete options")?;
    o.check_keys(DeleteOptionsSpec::KEYS)?;
    Ok((o.string("storage")?, sync_settings(&o, parts, false)?))
}

/// Reads `sync` (`{ url, token, key, intervalMs?, user? }`); `with_key` false for
/// `Memory.delete`'s, which only names the server.
fn sync_settings(o: &Opts, parts: BuildParts, with_key: bool) -> Result<Option<SyncSettings>> {
    if !o.has("sync") {
        return Ok(None);
    }
    if !parts.sync {
        return Err(not_in_build("sync"));
    }
    let s = o.object("sync")?;
    s.check_keys(SyncOptionsSpec::KEYS)?;
    let (url_hint, token_hint) = match with_key {
        true => (
            ": the sync server's base URL",
            ": the account's bearer token",
        ),
        false => ("", ""),
    };
    let url = s
        .string("url")?
        .ok_or_else(|| Error::option(format!("sync.url is missing{url_hint}")))?;
    let token = s
        .string("token")?
        .ok_or_else(|| Error::option(format!("sync.token is missing{token_hint}")))?;
    if !with_key {
        return Ok(Some(SyncSettings {
            url,
            token,
            key: None,
            interval_ms: None,
            user: None,
        }));
    }
    if !s.has("key") {
        return Err(Error::option(
            "sync.key is missing: the server only ever stores ciphertext, so sync needs a \
             CryptoKey (AES-GCM, non-extractable) or { passphrase }",
        ));
    }
    Ok(Some(SyncSettings {
        url,
        token,
        key: Some(key(&s, "sync.key")?),
        interval_ms: s.number("intervalMs")?,
        user: s.string("user")?,
    }))
}

/// Reads `encrypt` (`{ key }`); None when absent.
fn encrypt_key(o: &Opts) -> Result<Option<Handle>> {
    if !o.has("encrypt") {
        return Ok(None);
    }
    let e = o.object("encrypt")?;
    e.check_keys(ENCRYPT_KEYS)?;
    if !e.has("key") {
        return Err(Error::option(
            "encrypt.key is missing: a CryptoKey or { passphrase }",
        ));
    }
    key(&e, "encrypt.key").map(Some)
}

/// A key: an object (a CryptoKey or `{ passphrase }`, which the face checks further).
fn key(o: &Opts, what: &str) -> Result<Handle> {
    let got = match o.get("key") {
        Some(OptValue::Object(h, _)) => return Ok(*h),
        Some(OptValue::Array(_)) => "an array".to_string(),
        Some(v) => v.type_of().to_string(),
        None => "undefined".to_string(),
    };
    Err(Error::option(format!(
        "{what} must be a CryptoKey (AES-GCM, non-extractable) or {{ passphrase: string }}, got {got}"
    )))
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
