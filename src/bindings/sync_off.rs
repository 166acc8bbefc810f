//! The sync face of a build without sync (pkg-core): the `sync` options are refused with
//! `NOT_IN_BUILD`, and the types the rest of the bindings name have no values, so the paths
//! that would use them cannot run.

use super::build_parts::not_in_build;
use super::cipher::Cipher;
use super::option_tree::JsOptions;
use crate::options::session::SyncSettings;
use crate::store::{Record, RecordOp};
use std::rc::Rc;
use wasm_bindgen::JsValue;

pub enum SyncSpec {}

/// Never reached: the core refuses `sync` in this build (`BuildParts`).
pub fn sync_spec(_: &JsOptions, _: &SyncSettings) -> Result<SyncSpec, JsValue> {
    Err(not_in_build("sync"))
}

impl SyncSpec {
    pub async fn resolve_key(&self, _session: &str) -> Result<Cipher, JsValue> {
        match *self {}
    }

    pub fn first_push(&self, _records: Vec<Record>, _now: f64) -> Vec<RecordOp> {
        match *self {}
    }
}

pub enum SyncServer {}

pub fn sync_server(_: &SyncSettings) -> Result<SyncServer, JsValue> {
    Err(not_in_build("sync"))
}

impl crate::session::ServerDelete for SyncServer {
    async fn delete_session(&self, _session: &str) -> crate::error::Result<()> {
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

        pub async fn pack(&self, _fresh: &[RecordOp]) -> crate::error::Result<Vec<RecordOp>> {
            match *self {}
        }

        pub fn stored(self: &Rc<Self>, _ops: &[RecordOp]) {
            match **self {}
        }
    }
}
