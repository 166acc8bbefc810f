//! What a session's records take in storage, kept record by record so that `bytes` in the
//! session's meta stays true as records are rewritten (a summary, a fact, the vault) and
//! deleted, instead of only growing with every write.

use super::records::{key, Record, RecordOp};
use std::collections::HashMap;

/// The stored size of each record, keyed by kind and id (see `key`).
#[derive(Debug, Default, Clone)]
pub struct StoredSizes {
    sizes: HashMap<String, usize>,
    total: usize,
}

/// Bytes one record takes: its JSON data plus its key and bookkeeping (an estimate of what a
/// backend stores around the data; the same for every backend).
pub fn record_size(r: &Record) -> usize {
    r.data.to_string().len() + r.kind.len() + r.id.len() + 40
}

impl StoredSizes {
    pub fn of(records: &[Record]) -> StoredSizes {
        let mut sizes = StoredSizes::default();
        for r in records {
            sizes.put(r);
        }
        sizes
    }

    /// Applies changes in order. Applying the same sequence again gives the same sizes, so a
    /// write that failed and is retried with more changes queued behind it counts right.
    pub fn apply(&mut self, ops: &[RecordOp]) {
        for op in ops {
            match op {
                RecordOp::Put(r) => self.put(r),
                RecordOp::Delete { kind, id } => {
                    if let Some(old) = self.sizes.remove(&key(kind, id)) {
                        self.total -= old;
                    }
                }
                RecordOp::DeleteKinds { kinds } => {
                    let total = &mut self.total;
                    self.sizes.retain(|k, size| {
                        let kind = k.split('\u{0}').next().unwrap_or_default();
                        let keep = !kinds.iter().any(|x| x == kind);
                        if !keep {
                            *total -= *size;
                        }
                        keep
                    });
                }
            }
        }
    }

    pub fn total(&self) -> usize {
        self.total
    }

    fn put(&mut self, r: &Record) {
        let size = record_size(r);
        if let Some(old) = self.sizes.insert(key(&r.kind, &r.id), size) {
            self.total -= old;
        }
        self.total += size;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(kind: &str, id: &str, data: serde_json::Value) -> Record {
        Record {
            kind: kind.into(),
            id: id.into(),
            order: 0.0,
            data,
        }
    }

    #[test]
    fn a_rewrite_replaces_the_old_size_and_a_delete_takes_it_away() {
        let a = rec("entry", "e1", json!({ "content": "hello" }));
        let s1 = rec("summary", "s1", json!({ "text": "short" }));
        let mut sizes = StoredSizes::of(&[a.clone(), s1.clone()]);
        assert_eq!(sizes.total(), record_size(&a) + record_size(&s1));

        let s1_long = rec(
            "summary",
            "s1",
            json!({ "text": "a much longer summary now" }),
        );
        sizes.apply(&[RecordOp::Put(s1_long.clone())]);
        assert_eq!(sizes.total(), record_size(&a) + record_size(&s1_long));

        sizes.apply(&[RecordOp::Delete {
            kind: "entry".into(),
            id: "e1".into(),
        }]);
        assert_eq!(sizes.total(), record_size(&s1_long));

        // Same id, other kind: a different record.
        let e_s1 = rec("entry", "s1", json!({}));
        sizes.apply(&[RecordOp::Put(e_s1.clone())]);
        sizes.apply(&[RecordOp::DeleteKinds {
            kinds: vec!["summary".into()],
        }]);
        assert_eq!(sizes.total(), record_size(&e_s1));
    }

    #[test]
    fn applying_the_same_changes_again_counts_them_once() {
        let ops = vec![
            RecordOp::Put(rec("entry", "e1", json!("x"))),
            RecordOp::Put(rec("entry", "e2", json!("yy"))),
            RecordOp::Delete {
                kind: "entry".into(),
                id: "e1".into(),
            },
        ];
        let mut once = StoredSizes::default();
        once.apply(&ops);
        let mut twice = once.clone();
        twice.apply(&ops);
        assert_eq!(once.total(), twice.total());
        assert_eq!(once.total(), record_size(&rec("entry", "e2", json!("yy"))));
    }
}
