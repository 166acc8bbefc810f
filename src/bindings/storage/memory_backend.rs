//! The `memory` backend: records live in this JS realm only (gone on reload). It still goes
//! through the same record model, so Node apps and tests exercise the real write path.

use super::{Loaded, RecordOp};
use crate::error::Result;
use crate::store::records::Stored;
use crate::store::{Record, SessionMeta};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

type Session = (SessionMeta, BTreeMap<(String, String), Record>);

thread_local! {
    static SESSIONS: RefCell<HashMap<String, Session>> = RefCell::new(HashMap::new());
}

pub struct MemoryBackend;

impl MemoryBackend {
    pub fn load(&self, session: &str) -> Result<Option<Loaded>> {
        Ok(SESSIONS.with(|s| {
            s.borrow().get(session).map(|(meta, records)| Loaded {
                meta: meta.clone(),
                records: records.values().cloned().map(Stored::Other).collect(),
            })
        }))
    }

    pub fn write(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        SESSIONS.with(|s| {
            let mut s = s.borrow_mut();
            let entry = s
                .entry(meta.session.clone())
                .or_insert_with(|| (meta.clone(), BTreeMap::new()));
            entry.0 = meta.clone();
            for op in ops {
                match op {
                    RecordOp::Put(r) => {
                        entry.1.insert((r.kind.clone(), r.id.clone()), r.clone());
                    }
                    RecordOp::Delete { kind, id } => {
                        entry.1.remove(&(kind.clone(), id.clone()));
                    }
                    RecordOp::DeleteKinds { kinds } => {
                        entry.1.retain(|(k, _), _| !kinds.contains(k))
                    }
                }
            }
        });
        Ok(())
    }

    pub fn replace(&self, meta: &SessionMeta, ops: &[RecordOp]) -> Result<()> {
        self.delete(&meta.session)?;
        self.write(meta, ops)
    }

    pub fn metas(&self) -> Result<Vec<Result<SessionMeta>>> {
        Ok(SESSIONS.with(|s| s.borrow().values().map(|(m, _)| Ok(m.clone())).collect()))
    }

    pub fn delete(&self, session: &str) -> Result<()> {
        SESSIONS.with(|s| s.borrow_mut().remove(session));
        Ok(())
    }
}
