//! The persistence face of `Memory`: `Memory.open`, `Memory.import`, `Memory.sessions`,
//! `Memory.delete`, and on an instance `export`, `flush` and `close`. The storage I/O runs
//! here; what opening and importing do comes from the core's open job, what to store from its
//! change log.

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
use crate::store::document::import_document;
use crate::store::open_job::{first_pull_refuses, ImportPlan, OpenAnswer, OpenJob, OpenStep};
use crate::store::opening::instance_prefix;
use crate::store::records::{session_list, validate_session_name};
use crate::store::sealing::rest_key_label;
use crate::store::SessionDocument;
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
            let label = rest_key_label(session);
            Some(Cipher::resolve(key, &label, "encrypt.key").await?)
        }
        None => sync_cipher.clone(),
    };
    Ok((rest, sync_cipher))
}

/// Runs an open or import job (`crate::store::open_job`): makes each step's request and
/// hands back the answer, then binds the memory to its stored session and, with sync, waits
/// for the first pull, which the job's rule may make refuse the open.
async fn run(
    mut job: OpenJob<Core>,
    open: OpenOptions,
    backend: Backend,
) -> Result<Memory, JsValue> {
    let session = job.session().to_string();
    let (mut keys, mut inbox, mut answer) = ((None, None), None, OpenAnswer::Start);
    let bound = loop {
        answer = match job.step(answer).js()? {
            OpenStep::ListMetas => OpenAnswer::Metas(backend.metas().await),
            OpenStep::Delete(s) => OpenAnswer::Done(backend.delete(&s).await),
            OpenStep::Announce(s) => {
                announce_deleted(&backend, &s);
                OpenAnswer::Done(Ok(()))
            }
            OpenStep::Prepare => {
                let mut memory = open.parsed.core()?;
                memory.set_id_prefix(&instance_prefix(js_sys::Math::random()));
                keys = resolve_ciphers(&open, &session).await?;
                let keyed = keys.0.is_some();
                OpenAnswer::Prepared { memory, keyed }
            }
            OpenStep::Listen => {
                inbox = Inbox::open(&backend, &session);
                OpenAnswer::Done(Ok(()))
            }
            OpenStep::Load => OpenAnswer::Loaded(backend.load(&session).await),
            OpenStep::OpenSealed(records) => OpenAnswer::Opened(match &keys.0 {
                Some(c) => c.open_stored(&session, records).await,
                None => Ok(records),
            }),
            OpenStep::WriteMeta(meta) => OpenAnswer::Done(backend.write(&meta, &[]).await),
            OpenStep::FirstPush(records, now) => OpenAnswer::Pushed(
                open.sync
                    .as_ref()
                    .map(|s| s.first_push(records, now))
                    .unwrap_or_default(),
            ),
            OpenStep::Replace(meta, ops) => OpenAnswer::Done(backend.replace(&meta, &ops).await),
            OpenStep::Bind(bound) => break bound,
        };
    };
    let (cipher, sync_cipher) = keys;
    let mut memory = Memory::from_parts(bound.memory, open.parsed);
    let store = Store::new(
        backend,
        bound.meta,
        &memory.core,
        open.on_error,
        open.on_change,
        inbox,
        cipher,
    );
    (memory.store, memory.read_only) = (Some(store.clone()), bound.read_only);
    store.enqueue_local(bound.reseal);
    if let (Some(spec), Some(c), Some(stored)) = (&open.sync, sync_cipher, &bound.link) {
        let link = store.attach_sync(spec, &session, c, stored);
        store.enqueue_changes(bound.push);
        if let Err(e) = JsFuture::from(link.run_now()).await {
            if first_pull_refuses(error_code(&e).as_deref()) {
                link.stop();
                return Err(e);
            }
        }
    }
    Ok(memory)
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
        let job = OpenJob::open(&session, open.ttl_ms, open.sync.is_some(), now);
        run(job, open, backend).await
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
        let takes = "Memory.import takes the exported document (object or JSON text)";
        let text = text_or_json(&document, ErrorCode::InvalidDocument, takes)?;
        let now = js_sys::Date::now();
        let (checks, session) = (super::build_parts::RECORD_CHECKS, open.session.as_deref());
        let doc = import_document(&text, open.max_bytes, checks, session, now).js()?;
        let mut core = open.parsed.core()?;
        core.load_records(doc.records.clone()).js()?;
        core.set_id_prefix(&instance_prefix(js_sys::Math::random()));
        let backend = Backend::connect(open.storage).await.js()?;
        let plan = ImportPlan {
            ttl_ms: open.ttl_ms,
            overwrite: open.overwrite,
            storage: open.storage.as_str().to_string(),
        };
        run(OpenJob::import(core, &doc, plan, now), open, backend).await
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
        let meta = self.store.as_ref().map(|s| s.meta.borrow().clone());
        let records = self.core.borrow().records();
        let doc = SessionDocument::export(meta.as_ref(), records, js_sys::Date::now());
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
        let store = self.store.clone();
        let link = store.as_ref().and_then(|s| s.sync.borrow().clone());
        let (Some(store), Some(link)) = (store, link) else {
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
