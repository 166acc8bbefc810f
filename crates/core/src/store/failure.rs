//! What a storage backend's failure means. The JS face's backends only report the step that
//! failed and the JS error's name and message; the code a caller catches and the message a user
//! reads are decided here, so each failure is worded once and tested natively.

use super::layout::StorageKind;
use crate::error::{Error, ErrorCode};
use serde::Deserialize;

/// A failed storage step, as a backend reports it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct StorageFailure {
    /// `unavailable` (no such storage here), `refused` (opening threw), `blocked` (another tab
    /// holds an older version open), or the operation that failed: `open`, `read`, `write`,
    /// `delete`.
    pub step: String,
    /// The JS error's `name` (`QuotaExceededError`, `InvalidStateError`, ...).
    pub name: String,
    pub message: String,
    /// The size of the value a failed write was storing (localStorage).
    pub bytes: usize,
}

impl StorageFailure {
    /// The coded error of this failure of `kind`'s backend while storing `session`.
    pub fn error(&self, kind: StorageKind, session: &str) -> Error {
        let (step, name) = (self.step.as_str(), self.name.as_str());
        let quota = name.contains("Quota");
        match (kind, step) {
            (StorageKind::IndexedDb, "unavailable") => Error::new(
                ErrorCode::StorageUnavailable,
                "IndexedDB is not available here (Node, or a browser mode that disables it): \
                 use storage \"localstorage\" or \"memory\"",
            ),
            (StorageKind::IndexedDb, "refused") => Error::new(
                ErrorCode::StorageUnavailable,
                format!(
                    "IndexedDB cannot be opened here: {}",
                    self.failed("open", "IndexedDB").message
                ),
            ),
            (_, "blocked") => Error::new(
                ErrorCode::StorageBlocked,
                "IndexedDB is blocked by another tab holding an older version open: close other \
                 tabs of this app and retry",
            ),
            (StorageKind::LocalStorage, "unavailable") => Error::new(
                ErrorCode::StorageUnavailable,
                "localStorage is not available here (no window, or blocked by the browser's \
                 privacy settings): use storage \"indexeddb\" or \"memory\"",
            ),
            (StorageKind::LocalStorage, _) if quota => Error::new(
                ErrorCode::QuotaExceeded,
                format!(
                    "localStorage is full: session {session:?} needs about {} more bytes; what \
                     was stored before is intact. Delete old sessions, or use storage \
                     \"indexeddb\", which allows far more",
                    self.bytes
                ),
            ),
            (StorageKind::LocalStorage, _) => Error::new(
                ErrorCode::StorageFailed,
                format!("localStorage write for session {session:?} failed ({name})"),
            ),
            (StorageKind::IndexedDb, _) => self.failed(step, "IndexedDB"),
            (StorageKind::Memory, _) => self.failed(step, "memory storage"),
        }
    }

    /// `QuotaExceeded` with what it means when the name says so, else `StorageFailed`.
    fn failed(&self, step: &str, store: &str) -> Error {
        let (name, message) = (&self.name, &self.message);
        match name.contains("Quota") {
            true => Error::new(
                ErrorCode::QuotaExceeded,
                format!(
                    "{store} {step} failed: {name} {message}; the browser's storage quota is \
                     used up (what was stored before is intact)"
                ),
            ),
            false => Error::new(
                ErrorCode::StorageFailed,
                format!("{store} {step} failed: {name} {message}"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(step: &str, name: &str) -> StorageFailure {
        StorageFailure {
            step: step.into(),
            name: name.into(),
            message: "it broke".into(),
            bytes: 120,
        }
    }

    #[test]
    fn a_quota_name_is_quota_exceeded_with_what_it_means() {
        let e = failure("write", "QuotaExceededError").error(StorageKind::IndexedDb, "s");
        assert_eq!(e.code, ErrorCode::QuotaExceeded);
        assert!(e
            .message
            .starts_with("IndexedDB write failed: QuotaExceededError it broke"));
        assert!(e.message.contains("quota is used up"), "{}", e.message);
        let e = failure("write", "QuotaExceededError").error(StorageKind::LocalStorage, "chat");
        assert_eq!(e.code, ErrorCode::QuotaExceeded);
        assert!(e
            .message
            .contains("session \"chat\" needs about 120 more bytes"));
    }

    #[test]
    fn other_failures_are_storage_failed_naming_the_step() {
        let e = failure("read", "InvalidStateError").error(StorageKind::IndexedDb, "s");
        assert_eq!(e.code, ErrorCode::StorageFailed);
        assert_eq!(
            e.message,
            "IndexedDB read failed: InvalidStateError it broke"
        );
        let e = failure("write", "SecurityError").error(StorageKind::LocalStorage, "s");
        assert_eq!(e.code, ErrorCode::StorageFailed);
        assert_eq!(
            e.message,
            "localStorage write for session \"s\" failed (SecurityError)"
        );
    }

    #[test]
    fn opening_failures_say_what_to_use_instead() {
        let codes = |step: &str, kind| failure(step, "").error(kind, "s");
        let e = codes("unavailable", StorageKind::IndexedDb);
        assert_eq!(e.code, ErrorCode::StorageUnavailable);
        assert!(e
            .message
            .contains("use storage \"localstorage\" or \"memory\""));
        let e = codes("unavailable", StorageKind::LocalStorage);
        assert_eq!(e.code, ErrorCode::StorageUnavailable);
        assert!(e
            .message
            .contains("use storage \"indexeddb\" or \"memory\""));
        let e = codes("refused", StorageKind::IndexedDb);
        assert_eq!(e.code, ErrorCode::StorageUnavailable);
        assert!(e
            .message
            .starts_with("IndexedDB cannot be opened here: IndexedDB open failed"));
        assert_eq!(
            codes("blocked", StorageKind::IndexedDb).code,
            ErrorCode::StorageBlocked
        );
    }
}
