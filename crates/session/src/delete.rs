//! `Memory.delete`: here first, then the other tabs, then the server. Deleting here first
//! means a failure leaves everything as it was; the tabs hear of it only once it is gone
//! (telling them earlier would stop their writes for a session still stored); the server
//! comes last because every device deletes its copy at its next pull, and a server failure
//! must not leave this device's copy behind. A server failure after the local delete says
//! so in its message. A session the server deleted (another device's `Memory.delete`) goes
//! the same way here: the open store stops writing first, then the local copy goes, then the
//! tabs hear of it.

use crate::storage::Storage;
use llm_memory_core::error::{Error, Result};
use llm_memory_core::store::Writer;
use std::cell::RefCell;

/// The sync server's delete of a session.
#[allow(async_fn_in_trait)]
pub trait ServerDelete {
    async fn delete_session(&self, session: &str) -> Result<()>;
}

pub async fn delete_session<S: Storage, D: ServerDelete>(
    storage: &S,
    session: &str,
    server: Option<&D>,
) -> Result<()> {
    storage.delete(session).await?;
    storage.announce_deleted(session);
    let Some(server) = server else {
        return Ok(());
    };
    server.delete_session(session).await.map_err(|e| {
        let message = format!(
            "session \"{session}\" was deleted on this device but not on the sync server: {}",
            e.message
        );
        Error::new(e.code, message)
    })
}

/// The server deleted `session` while it was open here: the store stops writing (a later
/// write would bring part of it back), the local copy goes, then the other tabs hear of it.
/// A failed local delete is the caller's to report; the tabs are not told then.
pub async fn deleted_on_server<S: Storage, W>(
    storage: &S,
    writer: &RefCell<Writer<W>>,
    session: &str,
) -> Result<()> {
    writer.borrow_mut().deleted_on_server(session);
    storage.delete(session).await?;
    storage.announce_deleted(session);
    Ok(())
}
