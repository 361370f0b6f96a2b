//! Runtime rows (docs/design.md §6): after every commit and on open, the rows of
//! `subscription_runtime` are repaired from the reduced state — created at
//! the subscription's start, dropped on removal, moved by a cursor-set — so an
//! interruption after committing a control event cannot lose it. Also the
//! debug card of §11, which pages the inbound fence records (`fences.rs`).

use super::fences::{CardQuery, InboundCursor};
use super::Stream;
use crate::delivery::concurrent::concurrent;
use crate::records::runtime_row::{RuntimeRow, SELECT as SELECT_RUNTIME, SELECT_ONE as SELECT_RUNTIME_ROW};
use crate::state::{OutboundSubscription, ReducedState};
use crate::storage::{Storage, StorageError};
use crate::subscription::Start;
use crate::time::rfc3339_millis;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Where a new run's cursor starts (exclusive offset).
fn start_cursor(subscription: &OutboundSubscription) -> u64 {
    if let Some(set) = subscription.cursor_set {
        return set.after_offset;
    }
    match subscription
        .configuration
        .valid()
        .and_then(|configuration| configuration.receiver.delivery())
        .map(|delivery| delivery.start)
    {
        Some(Start::Now) => subscription.configured_at_offset,
        Some(Start::Beginning) | None => 0,
    }
}

fn decode_all(rows: &[crate::storage::Row]) -> Result<BTreeMap<String, RuntimeRow>, StorageError> {
    rows.iter()
        .map(|row| RuntimeRow::decode(SELECT_RUNTIME, row).map(|r| (r.subscription_key.clone(), r)))
        .collect()
}

/// Where reads are checked (native tests), rows kept in memory that
/// storage no longer holds are an error, never an answer.
fn check_kept(stored: &BTreeMap<String, RuntimeRow>, kept: &BTreeMap<String, RuntimeRow>) -> Result<(), StorageError> {
    if stored == kept {
        return Ok(());
    }
    Err(diverged(stored, kept))
}

fn diverged(stored: &impl std::fmt::Debug, kept: &impl std::fmt::Debug) -> StorageError {
    StorageError::Sql(format!(
        "runtime rows kept in memory diverged from storage: kept {kept:?}, stored {stored:?}"
    ))
}

impl<S: Storage> Stream<S> {
    /// Every runtime row, by key. Read again only when the storage may have
    /// changed since the last read ([`Storage::generation`]): a delivery
    /// asks for them when it plans, and again when it arms the alarm.
    pub fn runtime_rows(&self) -> Result<BTreeMap<String, RuntimeRow>, StorageError> {
        if self.lifetime.is_none() {
            return Ok(BTreeMap::new());
        }
        let generation = self.storage.generation();
        if let Some((read_at, rows)) = &*self.memory.runtime_rows.borrow() {
            if *read_at == generation {
                if let Some(stored) = self.storage.check_read(SELECT_RUNTIME, &[]) {
                    check_kept(&decode_all(&stored?)?, rows)?;
                }
                return Ok(rows.clone());
            }
        }
        let rows = decode_all(&self.storage.query(SELECT_RUNTIME, &[])?)?;
        *self.memory.runtime_rows.borrow_mut() = Some((generation, rows.clone()));
        Ok(rows)
    }

    /// Runs `sql`, a statement that writes no runtime row (the journal's,
    /// §13), keeping the runtime rows held in memory when they were true
    /// just before it and nothing else wrote since; returns its rows.
    pub(crate) fn write_beside_runtime_rows(
        &self,
        sql: &str,
        params: &[crate::storage::SqlValue],
    ) -> Result<Vec<crate::storage::Row>, StorageError> {
        self.beside_runtime_rows(sql, || self.storage.query(sql, params))
    }

    /// [`Self::write_beside_runtime_rows`] for a statement whose rows no one reads.
    pub(crate) fn execute_beside_runtime_rows(
        &self,
        sql: &str,
        params: &[crate::storage::SqlValue],
    ) -> Result<(), StorageError> {
        self.beside_runtime_rows(sql, || self.storage.execute(sql, params))
    }

    fn beside_runtime_rows<T>(
        &self,
        sql: &str,
        write: impl FnOnce() -> Result<T, StorageError>,
    ) -> Result<T, StorageError> {
        debug_assert!(!sql.contains("subscription_runtime"));
        let before = self.storage.generation();
        let written = write()?;
        let after = self.storage.generation();
        if let Some((read_at, _)) = self.memory.runtime_rows.borrow_mut().as_mut() {
            if *read_at == before && after == before.wrapping_add(1) {
                *read_at = after;
            }
        }
        Ok(written)
    }

    /// Runs `sql`, one statement changing `key`'s runtime row, and applies
    /// `change` (the same change) to the rows kept in memory when they were
    /// true just before it and nothing else wrote since; otherwise they are
    /// read again when next asked. A delivery's two writes (the send marked
    /// in flight, the cursor moved) keep them, so it reads them once.
    pub(crate) fn write_runtime_row(
        &self,
        key: &str,
        sql: &str,
        params: &[crate::storage::SqlValue],
        change: impl FnOnce(&mut RuntimeRow),
    ) -> Result<(), StorageError> {
        let before = self.storage.generation();
        self.storage.execute(sql, params)?;
        let after = self.storage.generation();
        let mut memory = self.memory.runtime_rows.borrow_mut();
        if let Some((read_at, rows)) = memory.as_mut() {
            if *read_at == before && after == before.wrapping_add(1) {
                if let Some(row) = rows.get_mut(key) {
                    change(row);
                    *read_at = after;
                }
            }
        }
        Ok(())
    }

    /// The runtime row of `key`, if the stream has one (from the rows read
    /// whole, while they are still true).
    pub fn runtime_row(&self, key: &str) -> Result<Option<RuntimeRow>, StorageError> {
        if self.lifetime.is_none() {
            return Ok(None);
        }
        if let Some((read_at, rows)) = &*self.memory.runtime_rows.borrow() {
            if *read_at == self.storage.generation() {
                let kept = rows.get(key).cloned();
                if let Some(stored) = self.storage.check_read(SELECT_RUNTIME_ROW, &[key.into()]) {
                    let stored = stored?
                        .first()
                        .map(|row| RuntimeRow::decode(SELECT_RUNTIME_ROW, row))
                        .transpose()?;
                    if stored != kept {
                        return Err(diverged(&stored, &kept));
                    }
                }
                return Ok(kept);
            }
        }
        let rows = self.storage.query(SELECT_RUNTIME_ROW, &[key.into()])?;
        rows.first()
            .map(|row| RuntimeRow::decode(SELECT_RUNTIME_ROW, row))
            .transpose()
    }

    /// Makes `subscription_runtime` agree with `state`. Idempotent.
    pub(super) fn repair_runtime_rows(&self, state: &ReducedState, head: u64) -> Result<(), StorageError> {
        let by_key = &state.subscriptions.outbound.by_key;
        let rows = self.runtime_rows()?;
        for key in rows.keys().filter(|key| !by_key.contains_key(*key)) {
            self.memory.journal_heads.forget(key);
            for table in [
                "subscription_runtime",
                "delivery_journal",
                "gate_hits",
                "delivery_window",
                "retention_passes",
            ] {
                self.storage.execute(
                    &format!("DELETE FROM {table} WHERE subscription_key = ?"),
                    &[key.as_str().into()],
                )?;
            }
        }
        for (key, subscription) in by_key {
            let generation = subscription.cursor_changed_at_source_offset();
            if rows
                .get(key)
                .is_some_and(|row| row.cursor_changed_at_source_offset == generation)
            {
                continue;
            }
            // Nothing before the trim point can be delivered (§16): a run
            // from the beginning starts at the first retained event.
            let cursor = start_cursor(subscription)
                .min(head)
                .max(self.retention.saved.trimmed_through);
            self.storage.execute(
                "INSERT INTO subscription_runtime (subscription_key, run_offset, acknowledged_offset) VALUES (?, ?, ?) \
                 ON CONFLICT (subscription_key) DO UPDATE SET run_offset = excluded.run_offset, \
                 acknowledged_offset = excluded.acknowledged_offset, attempt = 0, next_attempt_at_ms = NULL, \
                 in_flight_deadline_at_ms = NULL, last_error = NULL, isolating = 0, retry_through_offset = NULL, \
                 gate_anchor_ms = NULL, window_scanned_through = NULL, window_barrier_at = NULL",
                &[key.as_str().into(), generation.into(), cursor.into()],
            )?;
            // A new run starts its gate and its concurrent window afresh
            // (§8, §13); the journal stays: what was delivered can still be
            // retracted.
            for table in ["gate_hits", "delivery_window"] {
                self.storage.execute(
                    &format!("DELETE FROM {table} WHERE subscription_key = ?"),
                    &[key.as_str().into()],
                )?;
            }
        }
        Ok(())
    }

    /// The debug card (§11) with the first page of inbound fence records.
    pub fn subscriptions_card(&self) -> Result<Value, StorageError> {
        self.subscriptions_card_page(&CardQuery::default())
    }

    /// The debug card (§11): configuration, halt state and runtime row of
    /// every subscription, plus one page of the inbound fence records (§7
    /// rule 2) — `inbound.bySourcePath`, their `inboundFenceCount` and the
    /// `nextInboundAfter` that continues them (`null`: no more).
    pub fn subscriptions_card_page(&self, query: &CardQuery) -> Result<Value, StorageError> {
        let rows = self.runtime_rows()?;
        let passes = match self.lifetime {
            Some(_) => crate::retention::passes::PassRow::all(&self.storage)?,
            None => BTreeMap::new(),
        };
        let dead_letters = self.dead_letter_counts();
        let head = self.lifetime.as_ref().map_or(0, |meta| meta.head);
        let subscriptions: Vec<Value> = self
            .state
            .subscriptions
            .outbound
            .by_key
            .iter()
            .map(|(key, subscription)| {
                let runtime = rows
                    .get(key)
                    .map(|row| self.runtime_card(row, head, dead_letters.get(key).copied().unwrap_or(0)));
                let mut card = json!({
                    "subscriptionKey": key,
                    "configuration": subscription.configuration,
                    "configuredAtOffset": subscription.configured_at_offset,
                    "configuredAt": subscription.configured_at,
                    "runtime": runtime,
                });
                if let (Some(halted), Some(fields)) = (&subscription.delivery_halted, card.as_object_mut()) {
                    fields.insert("deliveryHalted".to_owned(), json!(halted));
                }
                if let (Some(problem), Some(fields)) = (self.memory.invalid(key), card.as_object_mut()) {
                    fields.insert("invalid".to_owned(), json!(problem));
                }
                if let (Some(set), Some(fields)) = (&subscription.cursor_set, card.as_object_mut()) {
                    fields.insert("cursorSet".to_owned(), json!(set));
                }
                // What retention trimmed past it (§16 trimPastSubscribers).
                if let (Some(pass), Some(fields)) = (passes.get(key), card.as_object_mut()) {
                    fields.insert("trimmed".to_owned(), json!(pass));
                }
                let concurrent = subscription.configuration.valid().and_then(concurrent);
                if let (Some(delivery), Some(row), Some(runtime)) = (
                    concurrent,
                    rows.get(key),
                    card.get_mut("runtime").and_then(Value::as_object_mut),
                ) {
                    runtime.insert("window".to_owned(), self.window_card(row, delivery));
                }
                card
            })
            .collect();
        let inbound = self.inbound_page(query.inbound_after.as_ref(), query.inbound_limit)?;
        Ok(json!({
            "firstOffset": self.first_offset(),
            "subscriptions": subscriptions,
            "inbound": inbound.records,
            "inboundFenceCount": self.inbound_fence_count()?,
            "nextInboundAfter": inbound.next_after.as_ref().map(InboundCursor::render),
            "connections": self.live.cards(),
        }))
    }

    /// The `runtime` of one subscription's card (§6, §11): its row, its
    /// in-memory figures, its journal and gate.
    fn runtime_card(&self, row: &RuntimeRow, head: u64, dead_letters: u64) -> Value {
        let key = &row.subscription_key;
        let time = |ms: Option<i64>| ms.map(rfc3339_millis);
        let stats = self
            .memory
            .subscriptions
            .get(key)
            .map(|memory| memory.stats.clone())
            .unwrap_or_default();
        let journal = self.journal_summary(key);
        json!({
            "completionLatencyMs": stats.completion_latency_ms.summary(),
            "deliveryDurationMs": stats.delivery_duration_ms.summary(),
            "runOffset": row.cursor_changed_at_source_offset,
            "acknowledgedOffset": row.acknowledged_offset,
            "lag": head.saturating_sub(row.acknowledged_offset),
            "attempt": row.attempt,
            "nextAttemptAt": time(row.next_attempt_at_ms),
            "inFlightDeadlineAt": time(row.in_flight_deadline_at_ms),
            "lastError": row.last_error,
            "bytesSent": row.bytes_sent,
            "deadLetters": dead_letters,
            "journal": {
                "size": journal.0,
                "oldestRetainedOffset": journal.1,
                "prunedThroughOffset": row.journal_pruned_through,
            },
            "gate": {
                "heldHits": self.gate_held_count(key),
                "windowStartedAt": time(row.gate_anchor_ms),
            },
        })
    }
}

#[cfg(all(test, feature = "native-sqlite"))]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::event::Authority;
    use crate::path::StreamPath;
    use crate::storage::rusqlite_driver::RusqliteStorage;
    use crate::stream::Stream;
    use crate::Inputs;

    #[test]
    fn runtime_rows_kept_in_memory_that_storage_does_not_hold_are_an_error_where_reads_are_checked() {
        let storage = RusqliteStorage::in_memory().unwrap();
        let mut stream = Stream::open(storage, "p", StreamPath::parse("/kept").unwrap()).unwrap();
        let configure = br#"{"type": "events.iterate.com/stream/subscription-configured", "payload": {"subscriptionKey": "k",
            "receiver": {"action": "copy-to-stream", "receivingStreamPath": "/elsewhere", "delivery": {"start": "now", "onFailingEvent": "halt"}}}}"#;
        let inputs = Inputs {
            now_ms: 1_000,
            entropy: [7; 16],
        };
        stream.append_body(configure, Authority::Public, &inputs).unwrap();
        let rows = stream.runtime_rows().unwrap();
        assert_eq!(
            stream.runtime_row("k").unwrap().as_ref(),
            rows.get("k"),
            "a kept row is the stored one"
        );
        if let Some((_, kept)) = stream.memory.runtime_rows.borrow_mut().as_mut() {
            kept.get_mut("k").unwrap().attempt += 1;
        }
        let error = stream.runtime_row("k").unwrap_err().to_string();
        assert!(error.contains("diverged"), "{error}");
        assert!(stream.runtime_rows().is_err());
    }
}
