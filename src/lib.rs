//! llm-memory: the conversation memory of an LLM web app, run in the user's browser.
//!
//! This crate is the JavaScript face (`bindings`, wasm32 only): it runs the requests of the
//! sans-IO crates below it and does the I/O (Date.now, the app's async callbacks, storage). The
//! crates, each built and tested natively, with their arrows pointing down:
//!
//! - `llm-memory-core`: history, tokens, context, recall, memory, store, LLM prompts;
//! - `llm-memory-encoder` -> core: the BERT engine, WordPiece, the PII tagger and the embedder;
//! - `llm-memory-redact` -> core, encoder: redaction and its vault;
//! - `llm-memory-sync` -> core: end-to-end encrypted sync across devices;
//! - `llm-memory-session` -> core: what a session does across storage, sync and callbacks,
//!   in order (open, delete, sync now, forget receipts, episodes one at a time, tool calls),
//!   behind I/O traits the bindings implement.
//!
//! Their modules are re-exported here under the names they had in one crate, so
//! `llm_memory::memory::Memory` and `llm_memory::redact::Redactor` keep working.

pub use llm_memory_core::{
    context, driver, error, history, js_types, llm, memory, message, options, recall, store,
    summary, time, tokens,
};
#[cfg(feature = "encoder")]
pub use llm_memory_encoder as ner;
#[cfg(feature = "redact")]
pub use llm_memory_redact as redact;
pub use llm_memory_session as session;
#[cfg(feature = "sync")]
pub use llm_memory_sync as sync;

#[cfg(target_arch = "wasm32")]
pub mod bindings;

pub use context::{BuiltContext, ContextReport, Strategy};
pub use error::{Error, ErrorCode, Result};
pub use history::{Entry, NewEntry, Role};
pub use memory::{Memory, MemoryConfig};
pub use message::ChatMessage;
pub use tokens::{ApproximateCounter, HfTokenizer, TokenCounter};
