//! The one error type of the core. Every failure carries a stable machine-readable `code`
//! (what JS callers switch on) and a message that says what to fix.

use std::fmt;

/// Stable error codes. They are part of the public contract: JS sees them as `error.code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// An option has the wrong type or an out-of-range value.
    InvalidOption,
    /// A role other than system, user, assistant or tool.
    InvalidRole,
    /// An entry that cannot be stored as given (e.g. a tool result without its call id).
    InvalidEntry,
    /// A single entry is larger than `maxEntryChars`.
    EntryTooLarge,
    /// A tokenizer.json that cannot be parsed or used.
    InvalidTokenizer,
    /// A valid tokenizer.json of a kind this build does not include (WordPiece, Unigram, BPE
    /// with other pre-tokenizers): the full build (cargo feature `all-tokenizers`) loads it.
    UnsupportedTokenizer,
    /// The mandatory part of the context (system prompt + latest user turn) exceeds the budget.
    ContextOverflow,
    /// No entry, fact or session with that id.
    NotFound,
    /// A pattern or recognizer configuration that cannot be compiled.
    InvalidPattern,
    /// A document (export, stored record, tool arguments) that does not have the expected shape.
    InvalidDocument,
    /// Data written by a newer schema: readable at most, never overwritten.
    ReadOnly,
    /// The storage backend cannot be used here (no IndexedDB in this context, private mode).
    StorageUnavailable,
    /// Another tab holds the database in a way that blocks opening it.
    StorageBlocked,
    /// The browser refused to store more data.
    QuotaExceeded,
    /// A stored record that cannot be read back; nothing was changed.
    CorruptStorage,
    /// A storage operation failed for another reason.
    StorageFailed,
    /// An app callback (`summarize` writing an episode) threw, rejected, or did not answer
    /// within `callbackTimeoutMs`.
    CallbackFailed,
    /// A method called on an object after its `free()` (thrown by the JS glue, which
    /// `scripts/finish-pkg.mjs` teaches the code).
    Freed,
    /// A model file (`models/pii-ner.bin`) that is truncated, corrupt, of another format
    /// version, or whose tensors do not have the shapes its header announces.
    InvalidModel,
    /// `NerModel.fromUrl` could not download the model file (network, HTTP status), thrown by
    /// the JS side of the download (`src/bindings/ner_fetch.js`).
    ModelUnavailable,
    /// Sync with the server failed (offline, refused token, server error); local storage is
    /// unaffected and the push is retried.
    SyncFailed,
    /// Stored or pulled records that the given key cannot decrypt (a wrong key or passphrase,
    /// or an encrypted session opened without one); nothing was changed.
    WrongKey,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidOption => "INVALID_OPTION",
            ErrorCode::InvalidRole => "INVALID_ROLE",
            ErrorCode::InvalidEntry => "INVALID_ENTRY",
            ErrorCode::EntryTooLarge => "ENTRY_TOO_LARGE",
            ErrorCode::InvalidTokenizer => "INVALID_TOKENIZER",
            ErrorCode::UnsupportedTokenizer => "UNSUPPORTED_TOKENIZER",
            ErrorCode::ContextOverflow => "CONTEXT_OVERFLOW",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::InvalidPattern => "INVALID_PATTERN",
            ErrorCode::InvalidDocument => "INVALID_DOCUMENT",
            ErrorCode::ReadOnly => "READ_ONLY",
            ErrorCode::StorageUnavailable => "STORAGE_UNAVAILABLE",
            ErrorCode::StorageBlocked => "STORAGE_BLOCKED",
            ErrorCode::QuotaExceeded => "QUOTA_EXCEEDED",
            ErrorCode::CorruptStorage => "CORRUPT_STORAGE",
            ErrorCode::StorageFailed => "STORAGE_FAILED",
            ErrorCode::CallbackFailed => "CALLBACK_FAILED",
            ErrorCode::Freed => "FREED",
            ErrorCode::InvalidModel => "INVALID_MODEL",
            ErrorCode::ModelUnavailable => "MODEL_UNAVAILABLE",
            ErrorCode::SyncFailed => "SYNC_FAILED",
            ErrorCode::WrongKey => "WRONG_KEY",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
        }
    }

    pub fn option(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::InvalidOption, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// Shortens user-supplied text quoted in an error message.
pub(crate) fn truncate(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
