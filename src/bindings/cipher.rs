//! Encryption at rest (the `encrypt` option of `Memory.open`, or the sync key): an AES-GCM
//! CryptoKey resolved once and the WebCrypto calls (`crypto.js`) that seal and open records.

use crate::error::{Error, ErrorCode};
use crate::store::records::Stored;
use crate::store::sealing::{open_inputs, opened, seal_inputs, sealed_ops};
use crate::store::RecordOp;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/bindings/crypto.js")]
extern "C" {
    #[wasm_bindgen(js_name = resolveKey, catch)]
    async fn resolve_key(spec: &JsValue, salt_label: &str, what: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = sealAll, catch)]
    async fn seal_all(
        key: &JsValue,
        aads: Vec<String>,
        plains: Vec<String>,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = openAll, catch)]
    async fn open_all(
        key: &JsValue,
        aads: Vec<String>,
        datas: Vec<String>,
        place: &str,
    ) -> Result<JsValue, JsValue>;
}

/// A coded JS error (from the JS glue) as a core error.
pub fn error_of(e: &JsValue, fallback: ErrorCode) -> Error {
    let get = |k: &str| {
        js_sys::Reflect::get(e, &k.into())
            .ok()
            .and_then(|v| v.as_string())
    };
    let code = match get("code").as_deref() {
        Some("WRONG_KEY") => ErrorCode::WrongKey,
        Some("CORRUPT_STORAGE") => ErrorCode::CorruptStorage,
        Some("INVALID_OPTION") => ErrorCode::InvalidOption,
        _ => fallback,
    };
    Error::new(
        code,
        get("message").unwrap_or_else(|| "unknown failure".into()),
    )
}

fn strings(v: JsValue) -> Vec<String> {
    js_sys::Array::from(&v)
        .iter()
        .map(|s| s.as_string().unwrap_or_default())
        .collect()
}

/// An AES-GCM CryptoKey (never its bytes) and the calls that use it.
#[derive(Clone)]
pub struct Cipher {
    key: JsValue,
}

impl Cipher {
    /// The `key` option (a CryptoKey or `{ passphrase }`), checked, as a key.
    pub async fn resolve(spec: &JsValue, salt_label: &str, what: &str) -> Result<Cipher, JsValue> {
        let key = resolve_key(spec, salt_label, what).await?;
        Ok(Cipher { key })
    }

    pub async fn seal(&self, aads: Vec<String>, plains: Vec<String>) -> Result<Vec<String>, Error> {
        if plains.is_empty() {
            return Ok(Vec::new());
        }
        seal_all(&self.key, aads, plains)
            .await
            .map(strings)
            .map_err(|e| error_of(&e, ErrorCode::StorageFailed))
    }

    pub async fn open(
        &self,
        aads: Vec<String>,
        datas: Vec<String>,
        place: &str,
    ) -> Result<Vec<String>, Error> {
        if datas.is_empty() {
            return Ok(Vec::new());
        }
        open_all(&self.key, aads, datas, place)
            .await
            .map(strings)
            .map_err(|e| error_of(&e, ErrorCode::WrongKey))
    }

    /// The changes as they are stored: each put's data encrypted.
    pub async fn seal_ops(&self, session: &str, ops: &[RecordOp]) -> Result<Vec<RecordOp>, Error> {
        let (aads, plains) = seal_inputs(session, ops);
        Ok(sealed_ops(ops, self.seal(aads, plains).await?))
    }

    /// Decrypts the sealed records among those loaded; the others stay as they are.
    pub async fn open_stored(
        &self,
        session: &str,
        records: Vec<Stored>,
    ) -> Result<Vec<Stored>, Error> {
        let (aads, datas) = open_inputs(session, &records);
        let place = format!("opening session {session:?}");
        let plains = self.open(aads, datas, &place).await?;
        opened(session, records, plains)
    }
}
