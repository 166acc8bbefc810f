//! The browser side of sync: the `sync` option of `Memory.open` and the link that pushes and
//! pulls (`link.rs`). What to send and what a pulled record changes is decided by `crate::sync`;
//! the key and the WebCrypto calls are shared with encryption at rest (`bindings::cipher`).

pub mod link;

use super::cipher::Cipher;
use super::option_tree::JsOptions;
use crate::bindings::errors::OrThrow;
use crate::options::session::SyncSettings;
use crate::store::{Record, RecordOp};
use crate::sync::cycle::{LinkState, Local};
use crate::sync::{instance_prefix, SyncEngine, SyncOptions};
use link::SyncLink;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The `sync` option, checked (its key resolved separately).
pub struct SyncSpec {
    pub options: SyncOptions,
    pub key: JsValue,
}

/// The `sync` option the core checked, with the sync crate's checks of the URL and interval.
pub fn sync_spec(js: &JsOptions, s: &SyncSettings) -> Result<SyncSpec, JsValue> {
    let options = SyncOptions::new(&s.url, &s.token, s.interval_ms, s.user.clone()).js()?;
    let key = s.key.map(|h| js.value(h).clone()).unwrap_or_default();
    Ok(SyncSpec { options, key })
}

impl SyncSpec {
    /// The sync key, resolved (a passphrase is derived with a salt of the account and session).
    pub async fn resolve_key(&self, session: &str) -> Result<Cipher, JsValue> {
        Cipher::resolve(&self.key, &self.options.salt_label(session), "sync.key").await
    }

    /// What a session that never synced from this browser sends first.
    pub fn first_push(&self, records: Vec<Record>, now: f64) -> Vec<RecordOp> {
        crate::sync::first_push(records, now)
    }

    /// The link of an opened session, its engine restored from the stored sync records; what
    /// it pulls or acknowledges is stored through `local`.
    pub fn link(
        &self,
        session: &str,
        cipher: Cipher,
        stored: &[Record],
        local: Box<dyn Local>,
    ) -> Rc<SyncLink> {
        let mut engine = SyncEngine::new(&instance_prefix(js_sys::Math::random));
        engine.reload(stored);
        let state = LinkState::new(self.options.clone(), session, engine);
        SyncLink::new(state, cipher, local)
    }
}

/// The sync server of `Memory.delete`'s `sync` option (`{ url, token }`).
pub struct SyncServer(SyncOptions);

/// `Memory.delete`'s `sync` option (`{ url, token }`), checked by the core.
pub fn sync_server(s: &SyncSettings) -> Result<SyncServer, JsValue> {
    Ok(SyncServer(
        SyncOptions::new(&s.url, &s.token, None, None).js()?,
    ))
}

impl crate::session::ServerDelete for SyncServer {
    /// Deletes the session on the server: every device deletes it at its next pull.
    async fn delete_session(&self, session: &str) -> crate::error::Result<()> {
        let url = self.0.session_url(session);
        let reply = link::call("DELETE", &url, &self.0.token, None).await;
        crate::sync::cycle::deleted_on_server(&reply)
    }
}
