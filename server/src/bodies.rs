//! The JSON bodies of the write routes, read and checked before anything reaches the store: a
//! push (`{ "records" }`) and a compaction (`{ "upto", "records" }`) share the body limits and
//! the record checks (ids, base64, sizes), so both refuse the same input with the same codes.

use crate::error::ApiError;
use crate::limits;
use crate::store::NewRecord;
use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, StatusCode};
use base64::Engine;
use serde::Deserialize;
use std::collections::HashSet;

#[derive(Deserialize)]
struct PushBody {
    records: Vec<WireRecord>,
}

#[derive(Deserialize)]
struct CompactBody {
    upto: u64,
    records: Vec<WireRecord>,
}

#[derive(Deserialize)]
struct WireRecord {
    id: String,
    data: String,
}

/// Reads and checks a push body: JSON shape, counts, ids, base64 and sizes.
pub async fn parse_push(headers: &HeaderMap, body: Body) -> Result<Vec<NewRecord>, ApiError> {
    let bytes = read_body(headers, body).await?;
    let parsed: PushBody = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad("bad_json", format!("the body is not a push: {e}")))?;
    if parsed.records.is_empty() {
        return Err(ApiError::bad("bad_param", "records is empty"));
    }
    check_records(parsed.records)
}

/// Reads and checks a compaction body: `upto` and the records as in a push, but possibly none
/// (a compaction may only raise the mark) and each id at most once (it replaces one record).
pub async fn parse_compact(
    headers: &HeaderMap,
    body: Body,
) -> Result<(u64, Vec<NewRecord>), ApiError> {
    let bytes = read_body(headers, body).await?;
    let parsed: CompactBody = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad("bad_json", format!("the body is not a compaction: {e}")))?;
    let records = check_records(parsed.records)?;
    let mut ids = HashSet::new();
    if let Some(twice) = records.iter().find(|r| !ids.insert(r.id.as_str())) {
        return Err(
            ApiError::bad("bad_param", "a compaction names each record id once").with_id(&twice.id),
        );
    }
    Ok((parsed.upto, records))
}

/// The body, at most `MAX_BODY_BYTES`, arrived within `BODY_TIMEOUT`.
async fn read_body(headers: &HeaderMap, body: Body) -> Result<Bytes, ApiError> {
    let too_large = || {
        ApiError::too_large(format!(
            "a request body is at most {} bytes",
            limits::MAX_BODY_BYTES
        ))
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits::MAX_BODY_BYTES as u64) {
        return Err(too_large());
    }
    // A client that stops sending mid-body would otherwise hold its connection open forever.
    tokio::time::timeout(
        limits::BODY_TIMEOUT,
        axum::body::to_bytes(body, limits::MAX_BODY_BYTES),
    )
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            "the body did not arrive in time",
        )
    })?
    .map_err(|_| too_large())
}

/// At most `MAX_RECORDS_PER_PUSH` records, each with a valid id and standard padded base64 of at
/// most `MAX_RECORD_BYTES`, decoded.
fn check_records(records: Vec<WireRecord>) -> Result<Vec<NewRecord>, ApiError> {
    if records.len() > limits::MAX_RECORDS_PER_PUSH {
        return Err(ApiError::too_large(format!(
            "a request holds at most {} records",
            limits::MAX_RECORDS_PER_PUSH
        )));
    }
    let too_large = |id: &str| {
        ApiError::too_large(format!(
            "a record is at most {} bytes",
            limits::MAX_RECORD_BYTES
        ))
        .with_id(id)
    };
    let b64 = base64::engine::general_purpose::STANDARD;
    records
        .into_iter()
        .map(|r| {
            if !limits::valid_id(&r.id) {
                return Err(
                    ApiError::bad("bad_id", "a record id is 1 to 128 of [A-Za-z0-9._:-]")
                        .with_id(&r.id.chars().take(limits::MAX_ID_LEN).collect::<String>()),
                );
            }
            // Base64 is 4 characters per 3 bytes: refuse before decoding what cannot fit.
            if r.data.len() / 4 * 3 > limits::MAX_RECORD_BYTES + 3 {
                return Err(too_large(&r.id));
            }
            let data = b64.decode(r.data.as_bytes()).map_err(|_| {
                ApiError::bad("bad_base64", "data is not standard padded base64").with_id(&r.id)
            })?;
            if data.len() > limits::MAX_RECORD_BYTES {
                return Err(too_large(&r.id));
            }
            Ok(NewRecord { id: r.id, data })
        })
        .collect()
}
