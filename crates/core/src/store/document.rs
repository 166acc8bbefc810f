//! The export format: a versioned JSON document holding a session's records, and the checks
//! an import must pass before anything is stored. Imports come from files users pick, so a
//! document is treated as hostile: bounded in size, typed field by field, and free of keys that
//! would rewrite a JS object's prototype when the data reaches JS again.

use super::migrate;
use super::records::{kind, Record, SessionMeta, FORMAT, SCHEMA_VERSION};
use crate::error::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};

/// Largest document `import` accepts unless told otherwise.
pub const DEFAULT_MAX_IMPORT_BYTES: usize = 64 << 20;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionDocument {
    pub format: String,
    pub version: u32,
    pub session: String,
    pub created_at: f64,
    pub updated_at: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<f64>,
    pub records: Vec<Record>,
}

impl SessionDocument {
    pub fn new(meta: &SessionMeta, records: Vec<Record>) -> Self {
        SessionDocument {
            format: FORMAT.to_string(),
            version: SCHEMA_VERSION,
            session: meta.session.clone(),
            created_at: meta.created_at,
            updated_at: meta.updated_at,
            ttl_ms: meta.ttl_ms,
            records,
        }
    }

    /// The export of a memory: its stored session's, or one named "unsaved" made `now`.
    pub fn export(meta: Option<&SessionMeta>, records: Vec<Record>, now: f64) -> Self {
        match meta {
            Some(meta) => SessionDocument::new(meta, records),
            None => SessionDocument::new(&SessionMeta::new("unsaved", now, None), records),
        }
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidDocument, message)
}

/// The document `Memory.import` takes: at most `max_bytes` (else the default limit), stored
/// as `session` when given, else under its own name. A v1 history has no name: importing one
/// without `session` is `INVALID_OPTION`, rather than a made-up name a second import collides on.
pub fn import_document(
    text: &str,
    max_bytes: Option<usize>,
    checks: &[RecordCheck],
    session: Option<&str>,
    now: f64,
) -> Result<SessionDocument> {
    let max_bytes = max_bytes.unwrap_or(DEFAULT_MAX_IMPORT_BYTES);
    let mut doc = parse_any(text, max_bytes, checks, session, now)?;
    if let Some(s) = session {
        doc.session = s.to_string();
    }
    Ok(doc)
}

/// Parses and checks an exported document (any supported version), migrating it to the
/// current schema. `fallback_session` names a v1 document, which has no session name.
pub fn parse_document(
    text: &str,
    max_bytes: usize,
    checks: &[RecordCheck],
    fallback_session: &str,
    now: f64,
) -> Result<SessionDocument> {
    parse_any(text, max_bytes, checks, Some(fallback_session), now)
}

fn parse_any(
    text: &str,
    max_bytes: usize,
    checks: &[RecordCheck],
    fallback_session: Option<&str>,
    now: f64,
) -> Result<SessionDocument> {
    if text.len() > max_bytes {
        return Err(invalid(format!(
            "the document is {} bytes, over the {max_bytes}-byte import limit (maxBytes)",
            text.len()
        )));
    }
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| invalid(format!("not valid JSON: {e}")))?;
    check_keys(&value, "$")?;
    let version = migrate::detect_version(&value)?;
    // Not READ_ONLY: nothing is open to be read; the document is one this version cannot take.
    if version > SCHEMA_VERSION {
        return Err(Error::new(
            ErrorCode::InvalidDocument,
            format!(
                "the document was written by a newer llm-memory (schema v{version}; this one \
                 reads up to v{SCHEMA_VERSION}): update the package to import it"
            ),
        ));
    }
    let value = migrate::to_current(value, version, fallback_session, now)?;
    let doc: SessionDocument = serde_json::from_value(value)
        .map_err(|e| invalid(format!("not an llm-memory session document: {e}")))?;
    if doc.format != FORMAT {
        return Err(invalid(format!(
            "format is {:?}, expected {FORMAT:?}",
            doc.format
        )));
    }
    super::records::validate_session_name(&doc.session)?;
    for (i, r) in doc.records.iter().enumerate() {
        validate_record(r, checks).map_err(|e| invalid(format!("records[{i}]: {}", e.message)))?;
    }
    Ok(doc)
}

/// How a record of a kind the store does not own is checked on import (the vault is the
/// redactor's): the kind, and a check of its data.
pub type RecordCheck = (&'static str, fn(&serde_json::Value) -> Result<()>);

/// Checks one record's shape: known kinds must hold their type, and kinds in `checks` pass
/// their check.
pub fn validate_record(r: &Record, checks: &[RecordCheck]) -> Result<()> {
    if r.kind.is_empty() || r.id.is_empty() || !r.order.is_finite() {
        return Err(invalid(
            "kind and id must be non-empty and order a finite number",
        ));
    }
    let check = |res: std::result::Result<(), serde_json::Error>| {
        res.map_err(|e| invalid(format!("{} {:?}: {e}", r.kind, r.id)))
    };
    match r.kind.as_str() {
        kind::ENTRY => {
            check(serde_json::from_value::<crate::history::Entry>(r.data.clone()).map(drop))
        }
        kind::SUMMARY => {
            check(serde_json::from_value::<crate::summary::SummaryRecord>(r.data.clone()).map(drop))
        }
        kind::STEP => check(
            serde_json::from_value::<crate::history::steps::StepRecord>(r.data.clone()).map(drop),
        ),
        kind::PINNED => {
            check(serde_json::from_value::<crate::context::PinnedFact>(r.data.clone()).map(drop))
        }
        kind::FACT => check(
            serde_json::from_value::<crate::recall::facts::StoredFact>(r.data.clone()).map(drop),
        ),
        kind::VECTORS => check(
            serde_json::from_value::<crate::recall::chunks::VectorChunk>(r.data.clone()).map(drop),
        ),
        kind::EPISODE => check(
            serde_json::from_value::<crate::recall::episodes::Episode>(r.data.clone()).map(drop),
        ),
        _ => match checks.iter().find(|(k, _)| *k == r.kind) {
            Some((_, check)) => {
                check(&r.data).map_err(|e| invalid(format!("{} {:?}: {}", r.kind, r.id, e.message)))
            }
            None => Ok(()),
        },
    }
}

/// Keys that, set on a JS object, change its prototype or shadow its constructor.
const FORBIDDEN_KEYS: [&str; 3] = ["__proto__", "constructor", "prototype"];

/// Refuses documents whose objects carry prototype-polluting keys, at any depth.
pub fn check_keys(value: &serde_json::Value, path: &str) -> Result<()> {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                if FORBIDDEN_KEYS.contains(&k.as_str()) {
                    return Err(invalid(format!("{path} has the forbidden key {k:?}")));
                }
                check_keys(v, &format!("{path}.{k}"))?;
            }
            Ok(())
        }
        serde_json::Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, v)| check_keys(v, &format!("{path}[{i}]"))),
        _ => Ok(()),
    }
}
