//! Records at rest under a key (`encrypt.key`, else the sync key): what of a change set or of a
//! loaded session is encrypted, bound to which associated data (the record's session, kind and
//! id, so a sealed value cannot be moved to another record), and how the results go back in
//! place. The JS face makes the WebCrypto calls.

use super::records::{parse_stored, sealed_data, Stored, SEALED_FIELD};
use super::{Record, RecordOp};
use crate::error::{Error, ErrorCode, Result};

/// The salt a passphrase given as `encrypt.key` is derived with: one key per session.
pub fn rest_key_label(session: &str) -> String {
    format!("llm-memory local v1\n{session}")
}

/// Associated data of a record at rest: its session, kind and id.
pub fn rest_aad(session: &str, kind: &str, id: &str) -> String {
    format!("llm-memory local\n{session}\n{kind}\n{id}")
}

/// What storing `ops` encrypts: the associated data and the JSON text of each put's data.
pub fn seal_inputs(session: &str, ops: &[RecordOp]) -> (Vec<String>, Vec<String>) {
    let puts = ops.iter().filter_map(|op| match op {
        RecordOp::Put(r) => Some((rest_aad(session, &r.kind, &r.id), r.data.to_string())),
        _ => None,
    });
    puts.unzip()
}

/// `ops` as they are stored: each put's data replaced, in order, by its sealed text.
pub fn sealed_ops(ops: &[RecordOp], sealed: Vec<String>) -> Vec<RecordOp> {
    let mut sealed = sealed.into_iter();
    let seal = |op: &RecordOp| match op {
        RecordOp::Put(r) => RecordOp::Put(Record {
            kind: r.kind.clone(),
            id: r.id.clone(),
            order: r.order,
            data: serde_json::json!({ SEALED_FIELD: sealed.next().unwrap_or_default() }),
        }),
        other => other.clone(),
    };
    ops.iter().map(seal).collect()
}

/// What opening a loaded session decrypts: the associated data and the sealed text of each
/// sealed record (the others were stored in clear).
pub fn open_inputs(session: &str, records: &[Stored]) -> (Vec<String>, Vec<String>) {
    let sealed = records.iter().filter_map(|s| match s {
        Stored::Other(r) => {
            let data = sealed_data(&r.data)?;
            Some((rest_aad(session, &r.kind, &r.id), data.to_string()))
        }
        Stored::Entry { .. } => None,
    });
    sealed.unzip()
}

/// `records` with each sealed one replaced, in order, by the record its decrypted text holds;
/// `CORRUPT_STORAGE` when that text is not a record's data.
pub fn opened(session: &str, records: Vec<Stored>, plains: Vec<String>) -> Result<Vec<Stored>> {
    let mut plains = plains.into_iter();
    let open = |s: Stored| match s {
        Stored::Other(r) if sealed_data(&r.data).is_some() => {
            let data = plains.next().unwrap_or_default();
            let text = format!(
                "{{\"kind\":{},\"id\":{},\"order\":{},\"data\":{data}}}",
                serde_json::Value::from(r.kind.as_str()),
                serde_json::Value::from(r.id.as_str()),
                serde_json::to_string(&r.order).unwrap_or_else(|_| "0".into()),
            );
            parse_stored(&text).map_err(|e| {
                Error::new(
                    ErrorCode::CorruptStorage,
                    format!(
                        "stored {} {:?} of session {session:?} cannot be read after decryption \
                         ({e})",
                        r.kind, r.id
                    ),
                )
            })
        }
        other => Ok(other),
    };
    records.into_iter().map(open).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fact(id: &str) -> Record {
        Record {
            kind: "fact".into(),
            id: id.into(),
            order: 2.0,
            data: json!({ "text": "likes tea" }),
        }
    }

    /// Sealing is the identity here: the face's WebCrypto does the real work.
    #[test]
    fn sealed_puts_open_to_the_records_they_were() {
        let ops = vec![
            RecordOp::Put(fact("f1")),
            RecordOp::Delete {
                kind: "fact".into(),
                id: "f0".into(),
            },
        ];
        let (aads, plains) = seal_inputs("chat", &ops);
        assert_eq!(aads, vec!["llm-memory local\nchat\nfact\nf1".to_string()]);
        let stored = sealed_ops(&ops, plains.clone());
        assert_eq!(stored[1], ops[1]);
        let RecordOp::Put(sealed) = &stored[0] else {
            panic!("a put stays a put")
        };
        assert!(sealed_data(&sealed.data).is_some());
        let loaded = vec![Stored::Other(sealed.clone()), Stored::Other(fact("clear"))];
        let (open_aads, datas) = open_inputs("chat", &loaded);
        assert_eq!((open_aads, &datas), (aads, &plains));
        let back = opened("chat", loaded, datas).unwrap();
        assert_eq!(back[0], Stored::Other(fact("f1")));
        assert_eq!(back[1], Stored::Other(fact("clear")));
    }

    #[test]
    fn a_decrypted_text_that_is_not_data_is_corrupt_storage() {
        let (_, plains) = seal_inputs("chat", &[RecordOp::Put(fact("f1"))]);
        let RecordOp::Put(sealed) = sealed_ops(&[RecordOp::Put(fact("f1"))], plains).remove(0)
        else {
            panic!("a put stays a put")
        };
        let e = opened("chat", vec![Stored::Other(sealed)], vec!["{oops".into()]).unwrap_err();
        assert_eq!(e.code, ErrorCode::CorruptStorage);
    }
}
