//! llm-memory's core: the conversation memory without any I/O. It reads no clock, fetches
//! nothing and stores nothing: time comes in as arguments, and what the app's callbacks compute
//! goes out as requests the caller answers. Redaction (`llm-memory-redact`), the BERT encoder
//! (`llm-memory-encoder`) and sync (`llm-memory-sync`) build on it; the JavaScript face
//! (`llm-memory`) runs the requests.

pub mod context;
pub mod driver;
pub mod error;
pub mod history;
pub mod js_types;
pub mod llm;
pub mod memory;
pub mod message;
pub mod options;
pub mod recall;
pub mod store;
pub mod summary;
pub mod time;
pub mod tokens;

pub use context::{BuiltContext, ContextReport, Strategy};
pub use error::{Error, ErrorCode, Result};
pub use history::{Entry, NewEntry, Role};
pub use memory::{Memory, MemoryConfig};
pub use message::ChatMessage;
pub use tokens::{ApproximateCounter, HfTokenizer, TokenCounter};
