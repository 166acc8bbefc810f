//! `llm-memory-server`: opens the store named by `--store`, then serves the sync API until
//! SIGINT or SIGTERM. Prints `listening on http://HOST:PORT` once it accepts connections (the
//! tests and `make serve` read that line).

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use llm_memory_server::api::{router, AppState};
use llm_memory_server::auth::Auth;
use llm_memory_server::config::{Config, USAGE};
use llm_memory_server::limits::RateLimiter;
use llm_memory_server::store::{
    postgres::PostgresStore, redis::RedisStore, sqlite::SqliteStore, Store,
};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

fn fail(message: &str) -> ! {
    eprintln!("llm-memory-server: {message}");
    std::process::exit(2);
}

async fn open_store(c: &Config) -> Result<Arc<dyn Store>, String> {
    let url = c.store.as_str();
    let store: Arc<dyn Store> = if let Some(path) = url.strip_prefix("sqlite:") {
        Arc::new(SqliteStore::open(std::path::Path::new(path)).map_err(|e| format!("{e:?}"))?)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Arc::new(
            PostgresStore::open(url, c.pg_pool)
                .await
                .map_err(|e| format!("{e:?}"))?,
        )
    } else if url.starts_with("redis://") || url.starts_with("unix://") {
        Arc::new(
            RedisStore::open(url, c.redis_ttl.as_millis() as u64)
                .await
                .map_err(|e| format!("{e:?}"))?,
        )
    } else {
        return Err(format!(
            "--store {url}: give sqlite:PATH, postgres://... or redis://..."
        ));
    };
    Ok(store)
}

async fn shutdown() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .unwrap_or_else(|e| fail(&format!("cannot watch SIGTERM: {e}")));
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

#[tokio::main]
async fn main() {
    let config = match Config::parse(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(e) if e.is_empty() => {
            print!("{USAGE}");
            return;
        }
        Err(e) => fail(&format!("{e}\n\n{USAGE}")),
    };
    let auth = match &config.tokens {
        None => Auth::Dev,
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .unwrap_or_else(|e| fail(&format!("--tokens {file}: {e}")));
            Auth::from_token_file(&text).unwrap_or_else(|e| fail(&format!("--tokens {file}: {e}")))
        }
    };
    let store = open_store(&config)
        .await
        .unwrap_or_else(|e| fail(&format!("cannot open the store: {e}")));
    let allow_origin = config
        .allow_origin
        .parse()
        .unwrap_or_else(|_| fail("--allow-origin: not a header value"));
    if config.dev && !matches!(config.host.as_str(), "127.0.0.1" | "::1" | "localhost") {
        eprintln!(
            "llm-memory-server: warning: --dev on {} lets anyone who reaches it in with any \
             token; use --tokens FILE beyond this machine",
            config.host
        );
    }
    let kind = store.kind();
    let state = Arc::new(AppState {
        store,
        auth,
        limiter: RateLimiter::new(config.rate, config.burst),
        allow_origin,
    });
    let listener = tokio::net::TcpListener::bind((config.host.as_str(), config.port))
        .await
        .unwrap_or_else(|e| {
            fail(&format!(
                "cannot listen on {}:{}: {e}",
                config.host, config.port
            ))
        });
    let addr = listener
        .local_addr()
        .unwrap_or_else(|e| fail(&format!("no local address: {e}")));
    println!(
        "listening on http://{addr} (store {kind}, {})",
        if config.dev {
            "dev tokens: every token is a user"
        } else {
            "token file"
        }
    );
    let _ = std::io::stdout().flush();
    serve(listener, router(state), config.header_timeout).await;
}

/// Accepts HTTP/1.1 connections until SIGINT or SIGTERM. A connection whose request headers do
/// not arrive within `header_timeout` is closed, so slow clients cannot hold connections open
/// (the body has its own limit, `limits::BODY_TIMEOUT`). Stopping drops requests in flight: a
/// push is stored whole or not at all, and clients retry.
async fn serve(listener: tokio::net::TcpListener, app: Router, header_timeout: Duration) {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let builder = Arc::new(builder.http1_only());
    let stop = shutdown();
    tokio::pin!(stop);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    eprintln!("llm-memory-server: accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = &mut stop => return,
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let builder = builder.clone();
        tokio::spawn(async move {
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
