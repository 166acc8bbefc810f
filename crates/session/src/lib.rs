//! What a memory *does* across storage, sync, models and callbacks, in order, with the I/O
//! left to the caller. Each operation is an async function over a small trait (`Storage`,
//! `OpenIo`, `Started`, `ServerDelete`): the JS face implements the traits with IndexedDB,
//! BroadcastChannel, WebCrypto and `fetch`; the tests here implement them in memory and check
//! the orderings and the failure paths natively.
//!
//! - `asset_cache`: the one cache policy of every asset (revive what was kept, else make and keep);
//! - `open`: the open or import job run to its end, then the session started in its order
//!   (sealed again → sync linked → first push → first pull, refused opens stop the link);
//! - `keys`: which key seals records at rest (`encrypt.key`, else the sync key);
//! - `mailbox`: other tabs' messages kept until the session's store exists;
//! - `delete`: here first, then the other tabs, then the server;
//! - `flow`: `sync()` stores first, a forget receipt waits for the store;
//! - `turns`: one episode at a time;
//! - `write`: the writer's pump (store → keep → tell the tabs → sync; a failure stops it);
//! - `tools`: a model's tool call on the memory, with every failure as a JSON answer;
//! - `storage`: the backend trait and the default backend of a realm;
//! - `key_value`: the `localstorage` and `memory` backends over a key-value store.

pub mod asset_cache;
pub mod delete;
pub mod flow;
pub mod key_value;
pub mod keys;
pub mod mailbox;
pub mod open;
pub mod storage;
pub mod tools;
pub mod turns;
pub mod write;

pub use asset_cache::{through_cache, AssetCache};
pub use delete::{delete_session, deleted_on_server, ServerDelete};
pub use flow::{receipt_after, sync_now, Stored};
pub use key_value::{KeyValue, KeyValueStorage, MemoryMap};
pub use keys::{resolve_keys, Keys};
pub use mailbox::{shared_with_tabs, Mailbox};
pub use open::{open_session, start_session, OpenIo, Started};
pub use storage::{default_storage, Storage};
pub use tools::{call_tool, Refusal};
pub use turns::OneAtATime;
pub use write::{arrived, pump, WriterIo};

#[cfg(test)]
mod tests;
