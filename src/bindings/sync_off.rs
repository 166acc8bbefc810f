//! The sync face of a build without sync (pkg-core): the `sync` options are refused with
//! `NOT_IN_BUILD`, and the types the rest of the bindings name have no values, so the paths
//! that would use them cannot run.

use super::build_parts::not_in_build;
use super::cipher::Cipher;
use super::options::Opts;
use crate::store::{Record, RecordOp};
use std::rc::Rc;
use wasm_bindgen::JsValue;

pub enum SyncSpec {}

pub fn sync_spec(o: &Opts) -> Result<Option<SyncSpec>, JsValue> {
    match o.has("sync") {
        true => Err(not_in_build("sync")),
        false => Ok(None),
    }
}

impl SyncSpec {
    pub async fn resolve_key(&self, _session: &str) -> Result<Cipher, JsValue> {
        match *self {}
    }

    pub fn first_push(&self, _records: Vec<Record>, _now: f64) -> Vec<RecordOp> {
        match *self {}
    }

    pub fn link(&self, _session: &str, _cipher: Cipher, _stored: &[Record]) -> Rc<SyncLink> {
        match *self {}
    }
}

pub enum SyncServer {}

pub fn sync_server(o: &Opts) -> Result<Option<SyncServer>, JsValue> {
    sync_spec(o).map(|_| None)
}

impl SyncServer {
    pub async fn delete_session(&self, _session: &str) -> Result<(), JsValue> {
        match *self {}
    }
}

pub mod link {
    use super::*;

    pub enum SyncLink {}

    impl SyncLink {
        pub fn run_now(self: &Rc<Self>) -> js_sys::Promise {
            match **self {}
        }

        pub fn stop(&self) {
            match *self {}
        }
    }
}

use link::SyncLink;
