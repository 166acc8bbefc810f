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
use super::storage::writer::{Inbox, Store};
use super::storage::{Backend, StorageKind};
use super::sync::link::SyncLink;
use super::sync::{sync_server, sync_spec, SyncSpec};
use super::to_js;
use crate::bindings::errors::{OrThrow, Thrown};
use crate::error::ErrorCode;
use crate::memory::Memory as Core;
use crate::memory::Persistence as _;
use crate::options::session::{self, delete_options, SessionOptions};
use crate::options::{BuildParts, OptValue};
use crate::session::{open_session, start_session, sync_now, OpenIo, Started};
use crate::store::document::import_document;
use crate::store::open_job::{ImportPlan, OpenJob};
use crate::store::opening::instance_prefix;
use crate::store::records::Stored;
use crate::store::records::{session_list, validate_session_name};
use crate::store::sealing::rest_key_label;
use crate::store::SessionDocument;
use crate::store::{Record, RecordOp};
use js_sys::Function;
use std::cell::RefCell;
use std::rc::Rc;
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

/// The I/O of an open or import job (`crate::session::open`): storage, the memory made from
/// the options, the keys, the other tabs and the first push.
struct Opening<'a> {
    open: &'a OpenOptions,
    backend: &'a Backend,
    session: String,
    inbox: Option<Inbox>,
}

impl OpenIo for Opening<'_> {
    type Memory = Core;
    type Key = Cipher;
    type Error = Thrown;
    type Storage = Backend;

    fn storage(&self) -> &Backend {
        self.backend
    }

    fn make_memory(&mut self) -> Result<Core, Thrown> {
        let mut memory = self.open.parsed.core()?;
        memory.set_id_prefix(&instance_prefix(js_sys::Math::random()));
        Ok(memory)
    }

    fn syncs(&self) -> bool {
        self.open.sync.is_some()
    }

    fn encrypts(&self) -> bool {
        self.open.encrypt.is_some()
    }

    async fn sync_key(&self) -> Result<Cipher, Thrown> {
        let spec = self.open.sync.as_ref().ok_or(JsValue::UNDEFINED)?;
        Ok(spec.resolve_key(&self.session).await?)
    }

    async fn encrypt_key(&self) -> Result<Cipher, Thrown> {
        let key = self.open.encrypt.as_ref().ok_or(JsValue::UNDEFINED)?;
        let label = rest_key_label(&self.session);
        Ok(Cipher::resolve(key, &label, "encrypt.key").await?)
    }

    fn listen(&mut self) {
        self.inbox = Inbox::open(self.backend, &self.session);
    }

    async fn unseal(
        &self,
        key: &Cipher,
        records: Vec<Stored>,
    ) -> crate::error::Result<Vec<Stored>> {
        key.open_stored(&self.session, records).await
    }

    fn first_push(&self, records: Vec<Record>, now: f64) -> Vec<RecordOp> {
        let spec = self.open.sync.as_ref();
        spec.map(|s| s.first_push(records, now)).unwrap_or_default()
    }
}

/// An opened session's writer and sync link, as `crate::session::start_session` starts them.
struct Starting<'a> {
    store: &'a Rc<Store>,
    spec: Option<&'a SyncSpec>,
    session: &'a str,
    link: RefCell<Option<Rc<SyncLink>>>,
}

impl Started for Starting<'_> {
    type Key = Cipher;
    type Error = JsValue;

    fn store_local(&self, ops: Vec<RecordOp>) {
        self.store.enqueue_local(ops);
    }

    fn link(&self, key: Cipher, stored: &[Record]) {
        if let Some(spec) = self.spec {
            let link = self.store.attach_sync(spec, self.session, key, stored);
            *self.link.borrow_mut() = Some(link);
        }
    }

    fn store_changes(&self, ops: Vec<RecordOp>) {
        self.store.enqueue_changes(ops);
    }

    async fn first_pull(&self) -> Result<(), JsValue> {
        let link = self.link.borrow().clone();
        match link {
            Some(link) => JsFuture::from(link.run_now()).await.map(drop),
            None => Ok(()),
        }
    }

    fn code(e: &JsValue) -> Option<String> {
        js_sys::Reflect::get(e, &"code".into()).ok()?.as_string()
    }

    fn stop_link(&self) {
        if let Some(link) = self.link.borrow().as_ref() {
            link.stop();
        }
    }
}

/// Runs an open or import job and starts the session; this face only converts.
async fn run(job: OpenJob<Core>, open: OpenOptions, backend: Backend) -> Result<Memory, JsValue> {
    let session = job.session().to_string();
    let mut io = Opening {
        open: &open,
        backend: &backend,
        session: session.clone(),
        inbox: None,
    };
    let (bound, keys) = open_session(job, &mut io).await?;
    let inbox = io.inbox.take();
    let (memory, meta, read_only) = (bound.memory, bound.meta, bound.read_only);
    let (reseal, link, push) = (bound.reseal, bound.link, bound.push);
    let (on_error, on_change, spec) = (open.on_error, open.on_change, open.sync);
    let mut memory = Memory::from_parts(memory, open.parsed);
    let store = Store::new(
        backend,
        meta,
        &memory.core,
        on_error,
        on_change,
        inbox,
        keys.rest,
    );
    (memory.store, memory.read_only) = (Some(store.clone()), read_only);
    let starting = Starting {
        store: &store,
        spec: spec.as_ref(),
        session: &session,
        link: RefCell::new(None),
    };
    start_session(&starting, reseal, link, push, keys.sync).await?;
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
        crate::session::delete_session(&backend, &session, sync.as_ref())
            .await
            .js()
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
            let flush = JsFuture::from(store.flush());
            sync_now(flush, || JsFuture::from(link.run_now())).await
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
