//! The protocol's limits (docs/sync-protocol.md), one name each: the server enforces them and
//! the client packs its pushes and asks for its pages within them.

/// Most records in one push.
pub const MAX_RECORDS_PER_PUSH: usize = 500;
/// Largest request body.
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;
/// Largest record, decoded.
pub const MAX_RECORD_BYTES: usize = 256 * 1024;
/// Longest record or request id.
pub const MAX_ID_LEN: usize = 128;
/// Most records in one page, and the default; the page a pull asks for.
pub const MAX_PAGE_RECORDS: usize = 1000;
/// A page stops once its records hold this many bytes (one record always fits).
pub const MAX_PAGE_BYTES: usize = 4 * 1024 * 1024;

/// A record or request id: 1 to 128 of `[A-Za-z0-9._:-]`.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

/// Fills push bodies with `{ id, data }` items within one request's limits: its count and its
/// body size, with room for the body's other fields (`upto`, the braces).
#[derive(Default)]
pub struct PushBatcher {
    items: Vec<serde_json::Value>,
    size: usize,
}

/// What a body holds besides its records, at most.
const BODY_OVERHEAD: usize = 64;

impl PushBatcher {
    /// Adds a record; when it does not fit, returns the full batch before it (and starts the
    /// next one with it). A record alone always fits: the server judges its size.
    pub fn add(&mut self, id: &str, data: &str) -> Option<Vec<serde_json::Value>> {
        let item = serde_json::json!({ "id": id, "data": data });
        let n = item.to_string().len() + 1;
        let full = !self.items.is_empty()
            && (self.items.len() >= MAX_RECORDS_PER_PUSH
                || BODY_OVERHEAD + self.size + n > MAX_BODY_BYTES - 1024);
        let done = full.then(|| {
            self.size = 0;
            std::mem::take(&mut self.items)
        });
        self.size += n;
        self.items.push(item);
        done
    }

    /// The last batch, if it holds any record.
    pub fn finish(self) -> Option<Vec<serde_json::Value>> {
        (!self.items.is_empty()).then_some(self.items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_short_and_plain() {
        assert!(valid_id("r-1.a_b:C"));
        assert!(valid_id(&"x".repeat(MAX_ID_LEN)));
        assert!(!valid_id(&"x".repeat(MAX_ID_LEN + 1)));
        assert!(!valid_id(""));
        assert!(!valid_id("a b"));
        assert!(!valid_id("a/b"));
        assert!(!valid_id("é"));
    }

    /// The protocol document states the limits these constants are.
    #[test]
    fn the_protocol_document_states_these_limits() {
        let doc = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/sync-protocol.md"
        ))
        .unwrap();
        let mib = |n: usize| n / (1024 * 1024);
        for stated in [
            format!(
                "1–{MAX_RECORDS_PER_PUSH} records and ≤ {} MiB of body",
                mib(MAX_BODY_BYTES)
            ),
            format!("≤ {} KiB per decoded record", MAX_RECORD_BYTES / 1024),
            format!("1–{MAX_ID_LEN} chars [A-Za-z0-9._:-]"),
            format!("limit=<1–{MAX_PAGE_RECORDS}, default {MAX_PAGE_RECORDS}>"),
            format!("page also stops after {} MiB of data", mib(MAX_PAGE_BYTES)),
        ] {
            assert!(
                doc.contains(&stated),
                "docs/sync-protocol.md does not say {stated:?}"
            );
        }
    }
}
