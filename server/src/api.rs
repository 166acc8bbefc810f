//! The HTTP face of docs/sync-protocol.md: routes, request checks and JSON answers. Each handler
//! authenticates, takes a token from the user's rate bucket, checks the whole request, notes
//! its replay id, and only then calls the store; anything malformed stops at a coded 4xx.

use crate::auth::Auth;
use crate::bodies::{parse_compact, parse_push};
use crate::error::{json_response, ApiError};
use crate::limits::{self, RateLimiter};
use crate::store::Store;
use axum::body::Body;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use base64::Engine;
use serde_json::json;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

pub struct AppState {
    pub store: Arc<dyn Store>,
    pub auth: Auth,
    pub limiter: RateLimiter,
    /// The `Access-Control-Allow-Origin` answered to browsers.
    pub allow_origin: HeaderValue,
}

type Shared = State<Arc<AppState>>;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The routes with their JSON fallbacks, the panic guard and CORS around them.
pub fn router(state: Arc<AppState>) -> Router {
    let method_not_allowed = || async {
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "this route does not take this method",
        )
    };
    let cors_state = state.clone();
    Router::new()
        .route("/v1/health", get(health).fallback(method_not_allowed))
        .route("/v1/sessions", get(list).fallback(method_not_allowed))
        .route(
            "/v1/sessions/{sid}",
            axum::routing::delete(delete_session).fallback(method_not_allowed),
        )
        .route(
            "/v1/sessions/{sid}/records",
            post(push).get(read).fallback(method_not_allowed),
        )
        .route(
            "/v1/sessions/{sid}/compact",
            post(compact).fallback(method_not_allowed),
        )
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such route") })
        .with_state(state)
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "the server failed on this request",
                )
                .into_response()
            },
        ))
        // Outermost: the answer to a panic, too, carries the headers a page needs to read it.
        .layer(middleware::from_fn_with_state(cors_state, cors))
}

/// Browsers call from the app's origin: answer preflights and mark every answer readable.
async fn cors(State(state): Shared, req: Request, next: Next) -> Response {
    let mut res = if req.method() == Method::OPTIONS {
        let mut res = StatusCode::NO_CONTENT.into_response();
        let h = res.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, POST, DELETE"),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("authorization, content-type, x-request-id"),
        );
        h.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
        res
    } else {
        next.run(req).await
    };
    let h = res.headers_mut();
    h.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        state.allow_origin.clone(),
    );
    h.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("retry-after"),
    );
    res
}

async fn health(State(state): Shared) -> Response {
    json_response(
        StatusCode::OK,
        &json!({ "ok": true, "store": state.store.kind() }),
    )
}

/// Authentication and the rate limit, which every route but health goes through first.
fn admit(state: &AppState, headers: &HeaderMap) -> Result<String, ApiError> {
    let user = state.auth.user(headers)?;
    state.limiter.check(&user, Instant::now())?;
    Ok(user)
}

/// The session id from the path, checked with the core's rule for session names.
fn session_id(path: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    let Path(sid) =
        path.map_err(|_| ApiError::bad("bad_id", "the session id is not valid UTF-8"))?;
    llm_memory_core::store::records::validate_session_name(&sid)
        .map_err(|e| ApiError::bad("bad_id", e.to_string()))?;
    Ok(sid)
}

/// Refuses a request whose `X-Request-Id` this user already sent (checked last, after the
/// request proved well formed, so a refused request does not use up its id).
async fn check_replay(state: &AppState, user: &str, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(value) = headers.get("x-request-id") else {
        return Ok(());
    };
    let rid = value
        .to_str()
        .ok()
        .filter(|r| limits::valid_id(r))
        .ok_or_else(|| {
            ApiError::bad(
                "bad_param",
                "X-Request-Id must be 1 to 128 of [A-Za-z0-9._:-]",
            )
        })?;
    if state.store.note_request(user, rid, now_ms()).await? {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::CONFLICT,
            "replayed",
            "this request id was already used; send a new one",
        ))
    }
}

async fn list(State(state): Shared, headers: HeaderMap) -> Result<Response, ApiError> {
    let user = admit(&state, &headers)?;
    check_replay(&state, &user, &headers).await?;
    let sessions = state.store.list_sessions(&user).await?;
    let sessions: Vec<_> = sessions
        .iter()
        .map(|s| {
            json!({ "id": s.id, "seq": s.seq, "deleted": s.deleted, "updatedAt": s.updated_at,
                    "compacted": s.compacted })
        })
        .collect();
    Ok(json_response(
        StatusCode::OK,
        &json!({ "sessions": sessions }),
    ))
}

async fn push(
    State(state): Shared,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let user = admit(&state, &headers)?;
    let sid = session_id(path)?;
    let records = parse_push(&headers, body).await?;
    check_replay(&state, &user, &headers).await?;
    let pushed = state
        .store
        .put_records(&user, &sid, &records, now_ms())
        .await?;
    let acked: Vec<_> = pushed
        .acked
        .iter()
        .map(|(id, seq)| json!({ "id": id, "seq": seq }))
        .collect();
    Ok(json_response(
        StatusCode::OK,
        &json!({ "acked": acked, "seq": pushed.head }),
    ))
}

/// Replaces the bytes of records at or below `upto` in place (docs/sync-protocol.md,
/// "Compaction"), so ciphertext of what the client forgot does not stay on the server.
async fn compact(
    State(state): Shared,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let user = admit(&state, &headers)?;
    let sid = session_id(path)?;
    let (upto, records) = parse_compact(&headers, body).await?;
    check_replay(&state, &user, &headers).await?;
    let done = state.store.compact(&user, &sid, upto, &records).await?;
    Ok(json_response(
        StatusCode::OK,
        &json!({ "compacted": done.compacted, "rewritten": done.rewritten, "seq": done.head }),
    ))
}

/// `after` (default 0) and `limit` (1 to 1000, default 1000) from the query string.
fn page_params(uri: &Uri) -> Result<(u64, usize), ApiError> {
    let (mut after, mut limit) = (0u64, limits::MAX_PAGE_RECORDS);
    for pair in uri
        .query()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let number = || {
            value.parse::<u64>().map_err(|_| {
                ApiError::bad("bad_param", format!("{key} must be a non-negative integer"))
            })
        };
        match key {
            "after" => after = number()?,
            "limit" => {
                let n = number()?;
                if n == 0 || n > limits::MAX_PAGE_RECORDS as u64 {
                    return Err(ApiError::bad(
                        "bad_param",
                        format!("limit must be 1 to {}", limits::MAX_PAGE_RECORDS),
                    ));
                }
                limit = n as usize;
            }
            _ => {}
        }
    }
    Ok((after, limit))
}

async fn read(
    State(state): Shared,
    path: Result<Path<String>, PathRejection>,
    uri: Uri,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let user = admit(&state, &headers)?;
    let sid = session_id(path)?;
    let (after, limit) = page_params(&uri)?;
    check_replay(&state, &user, &headers).await?;
    let page = state
        .store
        .records_after(&user, &sid, after, limit, limits::MAX_PAGE_BYTES)
        .await?;
    let b64 = base64::engine::general_purpose::STANDARD;
    let records: Vec<_> = page
        .records
        .iter()
        .map(|r| json!({ "id": r.id, "seq": r.seq, "data": b64.encode(&r.data) }))
        .collect();
    Ok(json_response(
        StatusCode::OK,
        &json!({ "records": records, "seq": page.head, "more": page.more }),
    ))
}

async fn delete_session(
    State(state): Shared,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let user = admit(&state, &headers)?;
    let sid = session_id(path)?;
    check_replay(&state, &user, &headers).await?;
    state.store.delete_session(&user, &sid, now_ms()).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Compacted, NewRecord, Page, Pushed, SessionInfo, StoreFuture};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A store that fails by panicking on listing (a bug in a handler or a driver): the
    /// request gets a JSON 500 and the server goes on serving.
    struct PanickingStore;

    impl Store for PanickingStore {
        fn kind(&self) -> &'static str {
            "panicking"
        }
        fn put_records<'a>(
            &'a self,
            _: &'a str,
            _: &'a str,
            _: &'a [NewRecord],
            _: i64,
        ) -> StoreFuture<'a, Pushed> {
            unimplemented!()
        }
        fn records_after<'a>(
            &'a self,
            _: &'a str,
            _: &'a str,
            _: u64,
            _: usize,
            _: usize,
        ) -> StoreFuture<'a, Page> {
            unimplemented!()
        }
        fn compact<'a>(
            &'a self,
            _: &'a str,
            _: &'a str,
            _: u64,
            _: &'a [NewRecord],
        ) -> StoreFuture<'a, Compacted> {
            unimplemented!()
        }
        fn list_sessions<'a>(&'a self, _: &'a str) -> StoreFuture<'a, Vec<SessionInfo>> {
            Box::pin(async { panic!("a bug while listing") })
        }
        fn delete_session<'a>(&'a self, _: &'a str, _: &'a str, _: i64) -> StoreFuture<'a, ()> {
            unimplemented!()
        }
        fn note_request<'a>(&'a self, _: &'a str, _: &'a str, _: i64) -> StoreFuture<'a, bool> {
            unimplemented!()
        }
    }

    async fn get(addr: std::net::SocketAddr, path: &str) -> String {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "GET {path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer t\r\nconnection: close\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    }

    #[tokio::test]
    async fn a_panic_in_a_handler_is_a_json_500_and_the_server_goes_on() {
        let state = Arc::new(AppState {
            store: Arc::new(PanickingStore),
            auth: Auth::Dev,
            limiter: RateLimiter::new(0.0, 1.0),
            allow_origin: HeaderValue::from_static("*"),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router(state)).await });
        for _ in 0..2 {
            let answer = get(addr, "/v1/sessions").await;
            assert!(answer.starts_with("HTTP/1.1 500"), "{answer}");
            assert!(answer.contains("\"code\":\"internal\""), "{answer}");
            assert!(
                answer.contains("access-control-allow-origin: *"),
                "{answer}"
            );
        }
        let health = get(addr, "/v1/health").await;
        assert!(health.starts_with("HTTP/1.1 200"), "{health}");
        assert!(health.contains("\"store\":\"panicking\""), "{health}");
    }

    #[test]
    fn page_params_default_and_refuse_bad_values() {
        let uri = |q: &str| q.parse::<Uri>().unwrap();
        assert_eq!(page_params(&uri("/x")).unwrap(), (0, 1000));
        assert_eq!(
            page_params(&uri("/x?after=5&limit=10&z=1")).unwrap(),
            (5, 10)
        );
        for bad in [
            "/x?after=-1",
            "/x?limit=0",
            "/x?limit=1001",
            "/x?after=a",
            "/x?after",
        ] {
            assert_eq!(
                page_params(&uri(bad)).unwrap_err().code,
                "bad_param",
                "{bad}"
            );
        }
    }
}
