//! The persistence face of `Memory`: `Memory.open`, `Memory.import`, `Memory.sessions`,
//! `Memory.delete`, and on an instance `export`, `flush` and `close`. The storage I/O runs
//! here; what to store comes from the core's change log.

use super::build_parts::BUILD_PARTS;
use super::cipher::Cipher;
use super::errors::invalid_option;
use super::memory::Memory;
use super::memory_options::{self, ParsedOptions};
use super::option_tree::JsOptions;
use super::options::{string_arg, text_or_json};
use super::storage::writer::{announce_deleted, Inbox, Store};
use super::storage::{Backend, StorageKind};
use super::sync::{sync_server, sync_spec, SyncSpec};
use super::to_js;
use crate::bindings::errors::OrThrow;
use crate::error::ErrorCode;
use crate::memory::Memory as Core;
use crate::options::session::{self, delete_options, SessionOptions};
use crate::options::{BuildParts, OptValue};
use crate::store::opening::{expired_sessions, instance_prefix, split_sync, stored_already};
use crate::store::opening::{Import, Opening};
use crate::store::records::{session_list, validate_session_name};
use crate::store::{parse_document, RecordOp, SessionDocument, SessionMeta};
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(typescript_custom_section)]
const OPEN_OPTIONS_TS: &str = session::OpenOptionsSpec::TS;
#[wasm_bindgen(typescript_custom_section)]
const SYNC_OPTIONS_TS: &str = session::SyncOptionsSpec::TS;
#[wasm_bindgen(typescript_custom_section)]
const DELETE_OPTIONS_TS: &str = session::DeleteOptionsSpec::TS;
#[wasm_bindgen(typescript_custom_section)]
const IMPORT_OPTIONS_TS: &str = session::ImportOptionsSpec::TS;

/// The checked options of `open` and `import`, with their JS-side parts.
struct OpenOptions {
    session: Option<String>,
    storage: StorageKind,
    ttl_ms: Option<f64>,
    on_error: Option<Function>,
    on_change: Option<Function>,
    sync: Option<SyncSpec>,
    encrypt: Option<JsValue>,
    overwrite: bool,
    max_bytes: Option<usize>,
    parsed: ParsedOptions,
}

/// Reads `Memory.open`'s or `Memory.import`'s options (`parse` checks them) and resolves the
/// storage backend, the callbacks, the keys and the Memory options.
fn read_options(
    value: &JsValue,
    what: &str,
    parse: fn(&OptValue, BuildParts) -> crate::error::Result<SessionOptions>,
) -> Result<OpenOptions, JsValue> {
    let js = JsOptions::read(value, what)?;
    let o = parse(&js.tree, BUILD_PARTS).js()?;
    Ok(OpenOptions {
        storage: storage_kind(o.storage.as_deref())?,
        on_error: js.function(o.on_error),
        on_change: js.function(o.on_change),
        sync: match &o.sync {
            Some(s) => Some(sync_spec(&js, s)?),
            None => None,
        },
        encrypt: o.encrypt.map(|h| js.value(h).clone()),
        parsed: memory_options::resolve(&js, o.memory)?,
        session: o.session,
        ttl_ms: o.ttl_ms,
        overwrite: o.overwrite,
        max_bytes: o.max_bytes,
    })
}

fn storage_kind(name: Option<&str>) -> Result<StorageKind, JsValue> {
    match name {
        Some(s) => StorageKind::parse(s).js(),
        None => Ok(super::storage::default_here()),
    }
}

/// The Memory over `core`, bound to its stored session (`open` and `import`).
fn bind(
    core: Core,
    backend: Backend,
    meta: SessionMeta,
    open: OpenOptions,
    cipher: Option<Cipher>,
    inbox: Option<Inbox>,
    read_only: bool,
) -> Memory {
    let memory = Memory::from_parts(core, open.parsed);
    let store = Store::new(
        backend,
        meta,
        &memory.core,
        open.on_error,
        open.on_change,
        inbox,
        cipher,
    );
    memory.attach(store, read_only)
}

/// The key that encrypts records at rest: `encrypt.key`, else the sync key (resolved once:
/// a passphrase costs a PBKDF2 derivation).
async fn resolve_ciphers(
    open: &OpenOptions,
    session: &str,
) -> Result<(Option<Cipher>, Option<Cipher>), JsValue> {
    let sync_cipher = match &open.sync {
        Some(spec) => Some(spec.resolve_key(session).await?),
        None => None,
    };
    let rest = match &open.encrypt {
        Some(key) => {
            let label = format!("llm-memory local v1\n{session}");
            Some(Cipher::resolve(key, &label, "encrypt.key").await?)
        }
        None => sync_cipher.clone(),
    };
    Ok((rest, sync_cipher))
}

/// Removes sessions whose time to live has passed, as `open` does before loading.
async fn sweep_expired(backend: &Backend, now: f64) -> Result<(), JsValue> {
    for session in expired_sessions(backend.metas().await.js()?, now) {
        backend.delete(&session).await.js()?;
        announce_deleted(backend, &session);
    }
    Ok(())
}

impl Memory {
    fn attach(mut self, store: std::rc::Rc<Store>, read_only: bool) -> Memory {
        // A session a newer version stored is never written: what the memory changes while it
        // is open (a fact extracted, a vault value a redaction learned) stays in this tab.
        if !read_only {
            self.core.borrow_mut().track_changes();
        }
        self.store = Some(store);
        self.read_only = read_only;
        self
    }
}

#[wasm_bindgen]
impl Memory {
    #[wasm_bindgen(js_name = open, unchecked_return_type = "Memory")]
    pub async fn open(
        #[wasm_bindgen(unchecked_param_type = "OpenOptions")] options: JsValue,
    ) -> Result<Memory, JsValue> {
        let open = read_options(&options, "Memory.open options", SessionOptions::open)?;
        // `SessionOptions::open` refuses options without a session.
        let session = open.session.clone().unwrap_or_default();
        let now = js_sys::Date::now();
        let backend = Backend::connect(open.storage).await.js()?;
        sweep_expired(&backend, now).await?;
        let mut core = open.parsed.core()?;
        core.set_id_prefix(&instance_prefix(js_sys::Math::random()));
        let (cipher, sync_cipher) = resolve_ciphers(&open, &session).await?;
        let inbox = Inbox::open(&backend, &session);
        let loaded = backend.load(&session).await.js()?;
        let found = loaded.as_ref().map(|l| (l.meta.clone(), &l.records[..]));
        let mut opening = Opening::of(found, &session, cipher.is_some(), open.ttl_ms, now).js()?;
        let records = match (loaded, &cipher) {
            (Some(loaded), Some(c)) => c.open_stored(&session, loaded.records).await.js()?,
            (Some(loaded), None) => loaded.records,
            (None, _) => Vec::new(),
        };
        let (records, sync_records) = split_sync(records);
        core.load_stored(records).js()?;
        if opening.new {
            backend.write(&opening.meta, &[]).await.js()?;
        }
        let initial: Vec<RecordOp> = match &open.sync {
            Some(spec) if opening.first_push(true, &sync_records) => {
                spec.first_push(core.records(), now)
            }
            _ => Vec::new(),
        };
        let resealed = opening.resealed(core.records(), &sync_records);
        let sync = match (open.sync.as_ref(), sync_cipher) {
            (Some(spec), Some(c)) if opening.links(true) => {
                Some(spec.link(&session, c, &sync_records))
            }
            _ => None,
        };
        let (meta, read_only) = (opening.meta, opening.read_only);
        let memory = bind(core, backend, meta, open, cipher, inbox, read_only);
        let store = memory.store.clone();
        if let Some(store) = &store {
            store.enqueue_local(resealed);
            if let Some(link) = &sync {
                store.attach_sync(link);
                store.enqueue_changes(initial);
                // The first pull before the memory is handed out; offline, the local copy
                // opens as it is and the link retries (onError hears of the failure). A
                // session deleted on the server, or records this key cannot read, refuse.
                if let Err(e) = JsFuture::from(link.run_now()).await {
                    if matches!(error_code(&e).as_deref(), Some("NOT_FOUND" | "WRONG_KEY")) {
                        link.stop();
                        return Err(e);
                    }
                }
            }
        }
        Ok(memory)
    }

    #[wasm_bindgen(js_name = import, unchecked_return_type = "Memory")]
    pub async fn import_document(
        #[wasm_bindgen(unchecked_param_type = "SessionDocument | string")] document: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ImportOptions | undefined")] options: Option<
            JsValue,
        >,
    ) -> Result<Memory, JsValue> {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let open = read_options(&options, "Memory.import options", SessionOptions::import)?;
        let max_bytes = open
            .max_bytes
            .unwrap_or(crate::store::document::DEFAULT_MAX_IMPORT_BYTES);
        let takes = "Memory.import takes the exported document (object or JSON text)";
        let text = text_or_json(&document, ErrorCode::InvalidDocument, takes)?;
        let now = js_sys::Date::now();
        let fallback = open.session.clone().unwrap_or_else(|| "imported".into());
        let mut doc = parse_document(
            &text,
            max_bytes,
            super::build_parts::RECORD_CHECKS,
            &fallback,
            now,
        )
        .js()?;
        if let Some(s) = &open.session {
            doc.session = s.clone();
        }
        let mut core = open.parsed.core()?;
        core.load_records(doc.records.clone()).js()?;
        core.set_id_prefix(&instance_prefix(js_sys::Math::random()));
        let backend = Backend::connect(open.storage).await.js()?;
        let loaded = backend.load(&doc.session).await.map(|l| l.is_some());
        let import = Import {
            session: &doc.session,
            created_at: doc.created_at,
            ttl_ms: open.ttl_ms.or(doc.ttl_ms),
            exists: stored_already(loaded).js()?,
            overwrite: open.overwrite,
            storage: open.storage.as_str(),
        };
        let (meta, ops) = import
            .plan(core.entries().len(), core.records(), now)
            .js()?;
        let exists = import.exists;
        // One step: a failed import (the quota) leaves the old session, or none, as it was.
        backend.replace(&meta, &ops).await.js()?;
        if exists {
            // Tabs that had the old session open stop storing into the new one.
            announce_deleted(&backend, &meta.session);
        }
        let inbox = Inbox::open(&backend, &meta.session);
        Ok(bind(core, backend, meta, open, None, inbox, false))
    }

    #[wasm_bindgen(js_name = sessions, unchecked_return_type = "SessionInfo[]")]
    pub async fn list_sessions(
        #[wasm_bindgen(unchecked_param_type = "StorageName | undefined")] storage: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let backend = Backend::connect(storage_arg(&storage)?).await.js()?;
        to_js(&session_list(backend.sessions().await.js()?))
    }

    #[wasm_bindgen(js_name = delete)]
    pub async fn delete_session(
        #[wasm_bindgen(unchecked_param_type = "string")] session: JsValue,
        #[wasm_bindgen(unchecked_param_type = "DeleteTarget | undefined")] storage: Option<JsValue>,
    ) -> Result<(), JsValue> {
        let session = string_arg(&session, "session")?;
        validate_session_name(&session).js()?;
        let (kind, sync) = match &storage {
            Some(v) if v.is_object() => {
                let js = JsOptions::read(v, "Memory.delete options")?;
                let (storage, sync) = delete_options(&js.tree, BUILD_PARTS).js()?;
                let server = match &sync {
                    Some(s) => Some(sync_server(s)?),
                    None => None,
                };
                (storage_kind(storage.as_deref())?, server)
            }
            other => (storage_arg(other)?, None),
        };
        let backend = Backend::connect(kind).await.js()?;
        backend.delete(&session).await.js()?;
        announce_deleted(&backend, &session);
        if let Some(server) = sync {
            server.delete_session(&session).await?;
        }
        Ok(())
    }

    #[wasm_bindgen(unchecked_return_type = "SessionDocument")]
    pub fn export(&self) -> Result<JsValue, JsValue> {
        let meta = match &self.store {
            Some(s) => s.meta.borrow().clone(),
            None => SessionMeta::new("unsaved", js_sys::Date::now(), None),
        };
        let doc = SessionDocument::new(&meta, self.core.borrow().records());
        to_js(&doc)
    }

    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn flush(&self) -> js_sys::Promise {
        match &self.store {
            Some(store) => store.flush(),
            None => js_sys::Promise::resolve(&JsValue::UNDEFINED),
        }
    }

    #[wasm_bindgen(unchecked_return_type = "Promise<SyncResult>")]
    pub fn sync(&self) -> js_sys::Promise {
        let Some(store) = self.store.clone() else {
            return js_sys::Promise::reject(&invalid_option(
                "this memory has no sync: open it with Memory.open({ session, sync: { url, token, key } })",
            ));
        };
        let link = store.sync.borrow().clone();
        let Some(link) = link else {
            return js_sys::Promise::reject(&invalid_option(
                "this memory has no sync: open it with Memory.open({ session, sync: { url, token, key } })",
            ));
        };
        wasm_bindgen_futures::future_to_promise(async move {
            JsFuture::from(store.flush()).await?;
            JsFuture::from(link.run_now()).await
        })
    }

    pub fn close(&self) {
        if let Some(store) = &self.store {
            store.close();
        }
    }

    #[wasm_bindgen(getter)]
    pub fn session(&self) -> Option<String> {
        self.store.as_ref().map(|s| s.meta.borrow().session.clone())
    }

    #[wasm_bindgen(getter, js_name = readOnly)]
    pub fn read_only(&self) -> bool {
        self.read_only
    }
}

/// The storage a static method was asked for: a name, or the default when left out. Taken as
/// a `JsValue` because wasm-bindgen's string glue faults on a number or an object.
fn storage_arg(storage: &Option<JsValue>) -> Result<StorageKind, JsValue> {
    let name = storage
        .as_ref()
        .map(|s| string_arg(s, "storage"))
        .transpose()?;
    storage_kind(name.as_deref())
}

/// The `code` of a thrown error, if it has one.
fn error_code(e: &JsValue) -> Option<String> {
    js_sys::Reflect::get(e, &"code".into()).ok()?.as_string()
}
