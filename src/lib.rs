//! llm-memory: the conversation memory of an LLM web app, run in the user's browser.
//!
//! Everything outside `bindings` is a sans-IO core that builds and is tested natively: it reads
//! no clock, fetches nothing and stores nothing. The `bindings` module (wasm32 only) is the thin
//! JavaScript face that does the I/O: Date.now, the app's async summarizer, storage.

pub mod context;
pub mod error;
pub mod history;
pub mod llm;
pub mod memory;
pub mod message;
#[cfg(feature = "encoder")]
pub mod ner;
pub mod recall;
#[cfg(feature = "redact")]
pub mod redact;
pub mod store;
pub mod summary;
#[cfg(feature = "sync")]
pub mod sync;
pub mod time;
pub mod tokens;

#[cfg(target_arch = "wasm32")]
pub mod bindings;

pub use context::{BuiltContext, ContextReport, Strategy};
pub use error::{Error, ErrorCode, Result};
pub use history::{Entry, NewEntry, Role};
pub use memory::{Memory, MemoryConfig};
pub use message::ChatMessage;
pub use tokens::{ApproximateCounter, HfTokenizer, TokenCounter};
