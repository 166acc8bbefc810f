//! The one error type of the core. Every failure carries a stable machine-readable `code`
//! (what JS callers switch on) and a message that says what to fix.

use std::fmt;

/// Declares the error codes once: the enum, its JS strings, the list of all of them and the
/// TypeScript union the `.d.ts` shows (`ErrorCode`), so no second copy can drift.
macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, )*) => {
        /// Stable error codes. They are part of the public contract: JS sees them as
        /// `error.code`, and `LlmMemoryError.codes` lists them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
        }

        impl ErrorCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[ $(ErrorCode::$variant,)* ];

            pub fn as_str(self) -> &'static str {
                match self {
                    $( ErrorCode::$variant => $code, )*
                }
            }
        }

        /// The TypeScript union of the codes, for the `.d.ts`.
        pub const ERROR_CODE_TS: &str = concat!(
            "/** Stable error codes, found on thrown errors as `err.code`. */\nexport type ErrorCode =",
            $( "\n  | \"", $code, "\"", )*
            ";\n"
        );
    };
}

error_codes! {
    /// An option has the wrong type or an out-of-range value.
    InvalidOption = "INVALID_OPTION",
    /// A role other than system, user, assistant or tool.
    InvalidRole = "INVALID_ROLE",
    /// An entry that cannot be stored as given (e.g. a tool result without its call id).
    InvalidEntry = "INVALID_ENTRY",
    /// A single entry is larger than `maxEntryChars`.
    EntryTooLarge = "ENTRY_TOO_LARGE",
    /// A tokenizer.json that cannot be parsed or used.
    InvalidTokenizer = "INVALID_TOKENIZER",
    /// A valid tokenizer.json of a kind this build does not include (WordPiece, Unigram, BPE
    /// with other pre-tokenizers): the full build (cargo feature `all-tokenizers`) loads it.
    UnsupportedTokenizer = "UNSUPPORTED_TOKENIZER",
    /// An option or class of a part this build leaves out (pkg-core has no redaction, PII
    /// model, in-page embedder or sync): the full build (pkg/) has it.
    NotInBuild = "NOT_IN_BUILD",
    /// The mandatory part of the context (system prompt + latest user turn) exceeds the budget.
    ContextOverflow = "CONTEXT_OVERFLOW",
    /// No entry, fact or session with that id.
    NotFound = "NOT_FOUND",
    /// A pattern or recognizer configuration that cannot be compiled.
    InvalidPattern = "INVALID_PATTERN",
    /// A document (export, stored record, tool arguments) that does not have the expected shape.
    InvalidDocument = "INVALID_DOCUMENT",
    /// Data written by a newer schema: readable at most, never overwritten.
    ReadOnly = "READ_ONLY",
    /// The storage backend cannot be used here (no IndexedDB in this context, private mode).
    StorageUnavailable = "STORAGE_UNAVAILABLE",
    /// Another tab holds the database in a way that blocks opening it.
    StorageBlocked = "STORAGE_BLOCKED",
    /// The browser refused to store more data.
    QuotaExceeded = "QUOTA_EXCEEDED",
    /// A stored record that cannot be read back; nothing was changed.
    CorruptStorage = "CORRUPT_STORAGE",
    /// A storage operation failed for another reason.
    StorageFailed = "STORAGE_FAILED",
    /// An app callback (`summarize` writing an episode) threw, rejected, or did not answer
    /// within `callbackTimeoutMs`.
    CallbackFailed = "CALLBACK_FAILED",
    /// A method called on an object after its `free()` (thrown by the JS glue, which
    /// `scripts/finish-pkg.mjs` teaches the code).
    Freed = "FREED",
    /// A model file (`models/pii-ner.bin`) that is truncated, corrupt, of another format
    /// version, or whose tensors do not have the shapes its header announces.
    InvalidModel = "INVALID_MODEL",
    /// `fromUrl` (`Tokenizer`, `NerModel`, `EmbedModel`) could not download the file (network,
    /// HTTP status), thrown by the JS side of the download (`src/bindings/fetch_asset.js`).
    ModelUnavailable = "MODEL_UNAVAILABLE",
    /// A download stopped by the caller's `AbortSignal` (`fromUrl`'s `signal`).
    Aborted = "ABORTED",
    /// Sync with the server failed (offline, refused token, server error); local storage is
    /// unaffected and the push is retried.
    SyncFailed = "SYNC_FAILED",
    /// Stored or pulled records that the given key cannot decrypt (a wrong key or passphrase,
    /// or an encrypted session opened without one); nothing was changed.
    WrongKey = "WRONG_KEY",
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
pub fn truncate(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
