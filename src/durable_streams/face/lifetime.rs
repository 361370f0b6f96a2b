//! Expiry on both faces (docs/design.md §17 "Expiry"): the configured expiry is
//! the reduced state's (`expiry-configured`); the stored deadline is the
//! face row's, never earlier than the true one; the last access is in
//! memory only ([`LastAccess`]), so a renewal writes at most once per slack.

use super::store::{self, FaceRow};
use crate::durable_streams::expiry::{ExpiryAlarm, LastAccess, StoredExpiry};
use crate::storage::{Storage, StorageError};
use crate::stream::Stream;

impl<S: Storage> Stream<S> {
    /// The expiry with its stored deadline (a stream whose expiry was set
    /// natively before any deadline was stored counts from its creation).
    pub(crate) fn stored_expiry(&self, face: Option<&FaceRow>) -> StoredExpiry {
        let expiry = self.state.expiry;
        let created = self.lifetime.as_ref().map_or(0, |meta| meta.created_at_ms);
        match face.and_then(|face| face.expiry_deadline_ms) {
            Some(deadline) => StoredExpiry {
                expiry,
                deadline_ms: Some(deadline),
            },
            None => StoredExpiry::create(expiry, created),
        }
    }

    /// Deletes the stream when its expiry passed (§17: as `DELETE` would,
    /// lazily at the next request and by the alarm). `true` when it did.
    pub fn expire_if_due(&mut self, now_ms: i64) -> Result<bool, StorageError> {
        if self.lifetime.is_none() || self.state.expiry == Default::default() {
            return Ok(false);
        }
        let face = store::load_face(&self.storage)?;
        if !self.stored_expiry(face.as_ref()).expired(self.last_access, now_ms) {
            return Ok(false);
        }
        // A stream forks still read is soft-deleted instead (§18).
        self.delete_or_soft_delete(now_ms)
    }

    /// A read or write at `now_ms` renews a sliding TTL (`HEAD` does not):
    /// in memory always, in SQLite only when the stored deadline would be
    /// passed (§17 "Renewal never costs a write per read").
    pub fn renew_expiry(&mut self, now_ms: i64) -> Result<(), StorageError> {
        if self.lifetime.is_none() || self.state.expiry == Default::default() {
            return Ok(());
        }
        self.last_access = LastAccess(Some(now_ms));
        let mut face = store::load_face(&self.storage)?.unwrap_or_else(native_face);
        if let Some(deadline) = self.stored_expiry(Some(&face)).renew(now_ms) {
            face.expiry_deadline_ms = Some(deadline);
            store::save_face(&self.storage, &face)?;
        }
        Ok(())
    }

    /// When the alarm must next look at expiry (`None`: never).
    pub fn expiry_due_at(&self) -> Result<Option<i64>, StorageError> {
        if self.lifetime.is_none() || self.state.expiry == Default::default() || self.is_soft_deleted()? {
            return Ok(None);
        }
        let face = store::load_face(&self.storage)?;
        Ok(self.stored_expiry(face.as_ref()).deadline(self.last_access))
    }

    /// What an alarm at `now_ms` does about expiry; deletes when due.
    pub fn expiry_on_alarm(&mut self, now_ms: i64) -> Result<ExpiryAlarm, StorageError> {
        if self.lifetime.is_none() || self.state.expiry == Default::default() || self.is_soft_deleted()? {
            return Ok(ExpiryAlarm::Nothing);
        }
        let face = store::load_face(&self.storage)?;
        let decision = self.stored_expiry(face.as_ref()).on_alarm(self.last_access, now_ms);
        if decision == ExpiryAlarm::Delete {
            self.delete_or_soft_delete(now_ms)?;
        }
        Ok(decision)
    }
}

/// The face row of a stream first written natively.
pub(crate) fn native_face() -> FaceRow {
    FaceRow {
        content_type: None,
        message_type: crate::durable_streams::headers::DEFAULT_MESSAGE_TYPE.to_owned(),
        last_stream_seq: None,
        expiry_deadline_ms: None,
    }
}
