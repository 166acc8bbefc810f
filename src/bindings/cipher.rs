//! Encryption at rest (the `encrypt` option of `Memory.open`, or the sync key): an AES-GCM
//! CryptoKey resolved once and the WebCrypto calls (`crypto.js`) that seal and open records.

use crate::error::{Error, ErrorCode};
use crate::store::records::{sealed_data, Stored, SEALED_FIELD};
use crate::store::{Record, RecordOp};
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

/// Associated data of a record at rest: its session, kind and id.
fn rest_aad(session: &str, kind: &str, id: &str) -> String {
    format!("llm-memory local\n{session}\n{kind}\n{id}")
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
        let puts: Vec<&Record> = ops
            .iter()
            .filter_map(|op| match op {
                RecordOp::Put(r) => Some(r),
                _ => None,
            })
            .collect();
        let aads = puts
            .iter()
            .map(|r| rest_aad(session, &r.kind, &r.id))
            .collect();
        let plains = puts.iter().map(|r| r.data.to_string()).collect();
        let mut sealed = self.seal(aads, plains).await?.into_iter();
        Ok(ops
            .iter()
            .map(|op| match op {
                RecordOp::Put(r) => RecordOp::Put(Record {
                    kind: r.kind.clone(),
                    id: r.id.clone(),
                    order: r.order,
                    data: serde_json::json!({ SEALED_FIELD: sealed.next().unwrap_or_default() }),
                }),
                other => other.clone(),
            })
            .collect())
    }

    /// Decrypts the sealed records among those loaded; the others stay as they are.
    pub async fn open_stored(
        &self,
        session: &str,
        records: Vec<Stored>,
    ) -> Result<Vec<Stored>, Error> {
        let mut aads = Vec::new();
        let mut datas = Vec::new();
        for s in &records {
            if let Stored::Other(r) = s {
                if let Some(d) = sealed_data(&r.data) {
                    aads.push(rest_aad(session, &r.kind, &r.id));
                    datas.push(d.to_string());
                }
            }
        }
        let place = format!("opening session {session:?}");
        let mut plains = self.open(aads, datas, &place).await?.into_iter();
        let mut out = Vec::with_capacity(records.len());
        for s in records {
            match s {
                Stored::Other(r) if sealed_data(&r.data).is_some() => {
                    let data = plains.next().unwrap_or_default();
                    let text = format!(
                        "{{\"kind\":{},\"id\":{},\"order\":{},\"data\":{data}}}",
                        serde_json::Value::from(r.kind.as_str()),
                        serde_json::Value::from(r.id.as_str()),
                        serde_json::to_string(&r.order).unwrap_or_else(|_| "0".into()),
                    );
                    let parsed = crate::store::records::parse_stored(&text).map_err(|e| {
                        Error::new(
                            ErrorCode::CorruptStorage,
                            format!("stored {} {:?} of session {session:?} cannot be read after decryption ({e})", r.kind, r.id),
                        )
                    })?;
                    out.push(parsed);
                }
                other => out.push(other),
            }
        }
        Ok(out)
    }
}
