//! The one error answer of the API: a status and a stable snake_case `code` in a JSON body
//! (`{ "code", "message" }`, plus the record `id` when one record is at fault, and the session's
//! `compacted` mark when a compaction came too late). Every refusal of
//! a request is a 4xx built here; only the store's own failure is a 5xx.

use crate::store::StoreError;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub id: Option<String>,
    /// The session's compaction mark, on `compact_stale`: what the client has to re-read past.
    pub compacted: Option<u64>,
    pub retry_after_s: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            id: None,
            compacted: None,
            retry_after_s: None,
        }
    }

    pub fn with_id(mut self, id: &str) -> ApiError {
        self.id = Some(id.to_string());
        self
    }

    pub fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", message)
    }

    pub fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such session")
    }

    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Conflict(id) => ApiError::new(
                StatusCode::CONFLICT,
                "record_conflict",
                "this record id is stored with other bytes; nothing of the push was stored",
            )
            .with_id(&id),
            StoreError::Deleted => ApiError::new(
                StatusCode::GONE,
                "session_deleted",
                "the session was deleted",
            ),
            StoreError::NotFound => ApiError::not_found(),
            StoreError::PastHead(head) => ApiError::bad(
                "bad_param",
                format!("upto is past the session's head ({head})"),
            ),
            StoreError::NotCompactable(id) => ApiError::bad(
                "bad_param",
                "this record id is not stored in the session at or below upto; nothing was changed",
            )
            .with_id(&id),
            StoreError::Stale(mark) => ApiError {
                compacted: Some(mark),
                ..ApiError::new(
                    StatusCode::CONFLICT,
                    "compact_stale",
                    "the session was compacted further; read it again and compact from there",
                )
            },
            StoreError::Unavailable(detail) => {
                // The detail (driver messages) stays in the server's log, not in the answer.
                eprintln!("store error: {detail}");
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "store_unavailable",
                    "the store failed; retry later",
                )
            }
        }
    }
}

/// A JSON response from a serializable value.
pub fn json_response(status: StatusCode, body: &serde_json::Value) -> Response {
    let mut res = (status, body.to_string()).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "code": self.code, "message": self.message });
        if let Some(id) = &self.id {
            body["id"] = serde_json::Value::String(id.clone());
        }
        if let Some(mark) = self.compacted {
            body["compacted"] = mark.into();
        }
        let mut res = json_response(self.status, &body);
        if let Some(s) = self.retry_after_s {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        if self.status == StatusCode::UNAUTHORIZED {
            res.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        res
    }
}
