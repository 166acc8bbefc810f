//! `Memory.delete`: here first, then the other tabs, then the server. Deleting here first
//! means a failure leaves everything as it was; the tabs hear of it only once it is gone
//! (telling them earlier would stop their writes for a session still stored); the server
//! comes last because every device deletes its copy at its next pull, and a server failure
//! must not leave this device's copy behind. A server failure after the local delete says
//! so in its message.

use crate::storage::Storage;
use llm_memory_core::error::{Error, Result};

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
