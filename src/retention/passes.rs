//! What trimming passed, per subscription (docs/design.md §16
//! `trimPastSubscribers`): the `retention_passes` rows of migration 0009,
//! written in the trim transaction that moves the cursor, shown on the
//! debug card and counted in metrics (§11). Dropped with the subscription.

use crate::storage::{Columns, Storage, StorageError};
use serde::Serialize;
use std::collections::BTreeMap;

/// A row of `retention_passes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PassRow {
    #[serde(skip)]
    pub subscription_key: String,
    /// Events it never received, over all passes.
    pub events_passed: u64,
    /// The last pass: its cursor before, the trim point, its fact's offset.
    pub last_after_offset: u64,
    pub last_through_offset: u64,
    pub last_fact_offset: u64,
}

const UPSERT: &str = "INSERT INTO retention_passes (subscription_key, events_passed, last_after_offset, \
     last_through_offset, last_fact_offset) VALUES (?, ?, ?, ?, ?) ON CONFLICT (subscription_key) DO UPDATE SET \
     events_passed = events_passed + excluded.events_passed, last_after_offset = excluded.last_after_offset, \
     last_through_offset = excluded.last_through_offset, last_fact_offset = excluded.last_fact_offset";
const SELECT: &str = "SELECT subscription_key, events_passed, last_after_offset, last_through_offset, \
     last_fact_offset FROM retention_passes ORDER BY subscription_key";

impl PassRow {
    /// Adds one pass (its `events_passed` is this pass's count).
    pub fn record<S: Storage + ?Sized>(&self, storage: &S) -> Result<(), StorageError> {
        storage.execute(
            UPSERT,
            &[
                self.subscription_key.as_str().into(),
                self.events_passed.into(),
                self.last_after_offset.into(),
                self.last_through_offset.into(),
                self.last_fact_offset.into(),
            ],
        )
    }

    /// Every subscription's passes, by key (at most one row per
    /// subscription, so bounded by §5's subscription count).
    pub fn all<S: Storage + ?Sized>(storage: &S) -> Result<BTreeMap<String, PassRow>, StorageError> {
        storage
            .query(SELECT, &[])?
            .iter()
            .map(|row| {
                let columns = Columns { query: SELECT, row };
                let int = |index| columns.int(index).map(|n| n.max(0) as u64);
                let pass = PassRow {
                    subscription_key: columns.text(0)?,
                    events_passed: int(1)?,
                    last_after_offset: int(2)?,
                    last_through_offset: int(3)?,
                    last_fact_offset: int(4)?,
                };
                Ok((pass.subscription_key.clone(), pass))
            })
            .collect()
    }
}
