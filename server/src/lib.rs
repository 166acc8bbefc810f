//! The reference sync server of llm-memory (docs/sync-protocol.md): it keeps each user's
//! end-to-end encrypted session records, as opaque bytes, on SQLite, Postgres or Redis, and hands
//! them to the user's other devices. The binary (`src/main.rs`) reads its options (`config`) and
//! serves `api::router`.

pub mod api;
pub mod auth;
pub mod bodies;
pub mod config;
pub mod error;
pub mod limits;
pub mod store;
