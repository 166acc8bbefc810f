//! The wire side of sync (docs/sync-protocol.md): option checks, request bodies, and what a
//! server answer means for the device: go on, retry later, the session is gone, or stop.

use llm_memory_core::error::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};

pub use crate::limits::{MAX_BODY_BYTES, MAX_PAGE_RECORDS, MAX_RECORDS_PER_PUSH, MAX_RECORD_BYTES};

/// Pull interval when the app gives none.
pub const DEFAULT_INTERVAL_MS: f64 = 30_000.0;

/// The checked `sync` option, minus the key (the bindings check that it is a CryptoKey or a
/// passphrase; the core never sees key material).
#[derive(Debug, Clone, PartialEq)]
pub struct SyncOptions {
    /// Base URL without a trailing slash.
    pub url: String,
    pub token: String,
    /// 0 turns the interval off.
    pub interval_ms: f64,
    /// The label the passphrase salt is derived from (see `salt_label`).
    pub user: Option<String>,
}

fn bad(message: impl Into<String>) -> Error {
    Error::option(message)
}

impl SyncOptions {
    pub fn new(
        url: &str,
        token: &str,
        interval_ms: Option<f64>,
        user: Option<String>,
    ) -> Result<Self> {
        Ok(SyncOptions {
            url: check_url(url)?,
            token: check_token(token)?,
            interval_ms: match interval_ms {
                None => DEFAULT_INTERVAL_MS,
                Some(n) if n.is_finite() && n >= 0.0 => n,
                Some(n) => {
                    return Err(bad(format!(
                    "sync.intervalMs must be 0 (off) or a positive number of milliseconds, got {n}"
                )))
                }
            },
            user,
        })
    }

    pub fn session_url(&self, session: &str) -> String {
        format!("{}/v1/sessions/{}", self.url, percent_encode(session))
    }

    pub fn records_url(&self, session: &str) -> String {
        format!("{}/records", self.session_url(session))
    }

    pub fn compact_url(&self, session: &str) -> String {
        format!("{}/compact", self.session_url(session))
    }

    pub fn pull_url(&self, session: &str, after: u64) -> String {
        format!(
            "{}?after={after}&limit={MAX_PAGE_RECORDS}",
            self.records_url(session)
        )
    }

    /// What PBKDF2's salt is made from: `"llm-memory sync v1\n" + (sync.user or the session)`,
    /// so every device of one account derives the same key from the same passphrase.
    pub fn salt_label(&self, session: &str) -> String {
        format!(
            "llm-memory sync v1\n{}",
            self.user.as_deref().unwrap_or(session)
        )
    }
}

/// `http://` or `https://`, a host, no spaces, no query or fragment; the trailing `/` dropped.
pub fn check_url(url: &str) -> Result<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let ok = rest.is_some_and(|r| {
        let host = r.split('/').next().unwrap_or("");
        !host.is_empty()
            && !host.contains('@')
            && !r.contains(['?', '#'])
            && !r.chars().any(|c| c.is_whitespace() || c.is_control())
    });
    if !ok {
        return Err(bad(format!(
            "sync.url must be the server's base URL, http:// or https:// with a host and no \
             query (e.g. \"https://sync.example.com\"), got {:?}",
            llm_memory_core::error::truncate(url, 80)
        )));
    }
    Ok(url.trim_end_matches('/').to_string())
}

/// A bearer token goes into a header: printable ASCII, no spaces.
pub fn check_token(token: &str) -> Result<String> {
    if token.is_empty() || token.len() > 4096 || !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(bad(
            "sync.token must be the account's bearer token: a non-empty string of printable \
             ASCII without spaces",
        ));
    }
    Ok(token.to_string())
}

/// Session names may hold any printable character; in a URL path they are percent-encoded as
/// one segment (a name of `.` or `..` too, which URL parsers would otherwise drop).
pub fn percent_encode(s: &str) -> String {
    if s == "." || s == ".." {
        return s.replace('.', "%2E");
    }
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The associated data that binds a ciphertext to its session and record id.
pub fn aad(session: &str, id: &str) -> String {
    format!("{session}\n{id}")
}

/// One acknowledged record of a push.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PushAck {
    pub id: String,
    pub seq: u64,
}

#[derive(Debug, Deserialize)]
pub struct PushReply {
    pub acked: Vec<PushAck>,
}

/// A pulled record before decryption.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireRecord {
    pub id: String,
    pub seq: u64,
    pub data: String,
}

/// One page of a pull.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PullPage {
    pub records: Vec<WireRecord>,
    pub seq: u64,
    #[serde(default)]
    pub more: bool,
}

#[derive(Debug, Default, Deserialize)]
struct ErrorBody {
    #[serde(default)]
    code: String,
    #[serde(default)]
    message: String,
    #[serde(default)]
    id: Option<String>,
}

/// What an HTTP answer means for the device.
#[derive(Debug, Clone, PartialEq)]
pub enum Response<T> {
    Ok(T),
    /// The session was deleted (on this device or another): delete it here too.
    Deleted,
    /// Worth trying again later (network down, 5xx, 429); `after_ms` from Retry-After.
    Retry {
        error: Error,
        after_ms: Option<f64>,
    },
    /// One record the server refuses for good (409 record_conflict, 413 for a single record):
    /// retrying the same bytes cannot succeed.
    Refused {
        id: Option<String>,
        error: Error,
    },
    /// Trying again cannot help until the app changes something (401, 404, 400).
    Fatal(Error),
}

fn sync_error(message: String) -> Error {
    Error::new(ErrorCode::SyncFailed, message)
}

/// Classifies an answer: `status` 0 is a network failure (offline, refused connection).
pub fn classify<T: serde::de::DeserializeOwned>(
    what: &str,
    status: u16,
    body: &str,
    retry_after_s: Option<f64>,
) -> Response<T> {
    if (200..300).contains(&status) {
        return match serde_json::from_str::<T>(if body.is_empty() { "null" } else { body }) {
            Ok(v) => Response::Ok(v),
            Err(e) => Response::Retry {
                error: sync_error(format!("{what}: the server's answer cannot be read ({e})")),
                after_ms: None,
            },
        };
    }
    let err: ErrorBody = serde_json::from_str(body).unwrap_or_default();
    let said = if err.code.is_empty() {
        format!("HTTP {status}")
    } else {
        format!("HTTP {status} {}: {}", err.code, err.message)
    };
    let error = sync_error(format!("{what} failed: {said}"));
    match status {
        0 => Response::Retry {
            error: sync_error(format!(
                "{what} failed: the server cannot be reached (offline?); retrying"
            )),
            after_ms: None,
        },
        410 => Response::Deleted,
        409 if err.code == "record_conflict" => Response::Refused { id: err.id, error },
        // A replayed request id only happens if the same request went out twice; the next
        // attempt carries a new one.
        409 | 408 | 425 | 429 | 500..=599 => Response::Retry {
            error,
            after_ms: retry_after_s
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map(|s| s * 1000.0),
        },
        413 => Response::Refused { id: None, error },
        401 | 403 => Response::Fatal(sync_error(format!(
            "{what} failed: the server refused the token (HTTP {status}); check sync.token"
        ))),
        _ => Response::Fatal(error),
    }
}

/// `classify` for a pull: a session nobody pushed yet (404) is an empty one.
pub fn classify_pull(status: u16, body: &str, retry_after_s: Option<f64>) -> Response<PullPage> {
    if status == 404 {
        return Response::Ok(PullPage {
            records: Vec::new(),
            seq: 0,
            more: false,
        });
    }
    classify("pull", status, body, retry_after_s)
}
