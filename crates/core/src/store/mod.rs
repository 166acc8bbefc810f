//! What persistence needs from the core, without doing any I/O: the record model a backend
//! stores, the export document, schema migrations and import checks, how a session opens.

pub mod document;
pub mod failure;
pub mod layout;
pub mod migrate;
pub mod open_job;
pub mod opening;
pub mod records;
pub mod sealing;
pub mod sizes;
pub mod write_queue;
pub mod writer;

pub use document::{parse_document, SessionDocument};
pub use failure::StorageFailure;
pub use records::{Record, RecordOp, SessionMeta, SCHEMA_VERSION};
pub use sizes::StoredSizes;
pub use write_queue::WriteQueue;
pub use writer::Writer;
