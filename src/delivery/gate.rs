//! Gate decisions during one scan (docs/design.md §13 Gates). A gate decides once
//! per hit, when the scan first admits it, and the decision is persisted:
//! a threshold gate's held hits are rows of `gate_hits`, and a minted
//! digest's range is pinned in the runtime row (`retry_through_offset`), so
//! retrying, isolating or re-planning it re-reads the same digest instead of
//! re-running the gate. A maxOnce gate's anchor moves only when a delivery
//! succeeds, so a retried hit is judged against the same anchor and admitted
//! again.
//!
//! One scan works on an in-memory summary of the held hits (offset, time,
//! body size), loaded once with one query and kept up to date as it goes, so
//! a plan is linear in the hits it scans; the bodies are read only when a
//! digest is minted.

use super::PlannedEvent;
use crate::delivery::journal::GateHit;
use crate::invalidation::Invalidation;
use crate::limits::{MAX_AGGREGATE_BATCH, MAX_DELIVERY_BATCH_BYTES};
use crate::records::gate_hit;
use crate::storage::{query_optional, Columns, Storage, StorageError};
use crate::stream::Stream;
use std::collections::{BTreeMap, BTreeSet};

/// What a threshold gate holds, as one scan sees it: never more than the
/// gate's `count` (≤ [`MAX_AGGREGATE_BATCH`]) hits.
#[derive(Debug, Default)]
pub(crate) struct Held {
    /// offset → (event time, body bytes).
    by_offset: BTreeMap<u64, (i64, usize)>,
    /// (event time, offset), oldest first: what leaves the window first.
    by_time: BTreeSet<(i64, u64)>,
    bytes: usize,
}

impl Held {
    fn insert(&mut self, offset: u64, created_at_ms: i64, size: usize) {
        if self.by_offset.insert(offset, (created_at_ms, size)).is_none() {
            self.by_time.insert((created_at_ms, offset));
            self.bytes = self.bytes.saturating_add(size);
        }
    }

    fn remove(&mut self, offset: u64) {
        if let Some((created_at_ms, size)) = self.by_offset.remove(&offset) {
            self.by_time.remove(&(created_at_ms, offset));
            self.bytes = self.bytes.saturating_sub(size);
        }
    }

    fn len(&self) -> u64 {
        self.by_offset.len() as u64
    }
}

/// What admitting one hit to a threshold gate decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ThresholdStep {
    /// Held; the gate waits for more.
    Held,
    /// The hit completed the count: the held hits (it included) mint a digest
    /// at its position.
    Mint,
    /// Holding the hit would take the digest past 1 MiB (§12): the hits held
    /// so far mint a digest now, before it, and the hit is scanned again
    /// after that digest is done.
    MintBefore,
}

impl<S: Storage> Stream<S> {
    /// The held-hit summary of `key`, loaded once per scan (no bodies).
    fn gate_held(&self, key: &str) -> Result<Held, StorageError> {
        let sql = "SELECT event_offset, created_at_ms, LENGTH(CAST(body AS BLOB)) FROM gate_hits \
                   WHERE subscription_key = ? ORDER BY event_offset LIMIT +?";
        let mut held = Held::default();
        for row in self.storage.query(sql, &[key.into(), MAX_AGGREGATE_BATCH.into()])? {
            let columns = Columns { query: sql, row: &row };
            let size = usize::try_from(columns.int(2)?.max(0)).unwrap_or(usize::MAX);
            held.insert(columns.int(0)?.max(0) as u64, columns.int(1)?, size);
        }
        Ok(held)
    }

    fn gate_forget(&self, key: &str, held: &mut Held, offset: u64) -> Result<(), StorageError> {
        held.remove(offset);
        self.storage.execute(
            "DELETE FROM gate_hits WHERE subscription_key = ? AND event_offset = ?",
            &[key.into(), offset.into()],
        )
    }

    /// Admits one hit to `key`'s threshold gate (§13): first drops the held
    /// hits that left its window (counted, no dead letter), then holds it
    /// and says whether the count is reached. A hit already held (a scan
    /// after a halt was resumed) keeps the decision it got.
    pub(crate) fn threshold_admit(
        &mut self,
        key: &str,
        held: &mut Option<Held>,
        hit: GateHit,
        count: u64,
        window_ms: u64,
    ) -> Result<ThresholdStep, StorageError> {
        if held.is_none() {
            *held = Some(self.gate_held(key)?);
        }
        let Some(held) = held.as_mut() else {
            return Ok(ThresholdStep::Held);
        };
        let oldest_ms = hit
            .created_at_ms
            .saturating_sub(i64::try_from(window_ms).unwrap_or(i64::MAX));
        // Each turn drops one held hit; at most the gate's count are held.
        for _ in 0..=MAX_AGGREGATE_BATCH {
            match held.by_time.first().copied() {
                Some((created_at_ms, offset)) if created_at_ms < oldest_ms => {
                    self.gate_forget(key, held, offset)?;
                    self.counters.gate_dropped += 1;
                }
                _ => break,
            }
        }
        if held.by_offset.contains_key(&hit.offset) {
            // Decided when first admitted: it minted only if it completed the count.
            let last = held.by_offset.keys().next_back().copied();
            return Ok(if held.len() >= count && last == Some(hit.offset) {
                ThresholdStep::Mint
            } else {
                ThresholdStep::Held
            });
        }
        if held.len() > 0 && held.bytes.saturating_add(hit.body_bytes()) > MAX_DELIVERY_BATCH_BYTES {
            return Ok(ThresholdStep::MintBefore);
        }
        self.storage.execute(gate_hit::INSERT, &hit.encode(key))?;
        held.insert(hit.offset, hit.created_at_ms, hit.body_bytes());
        Ok(if held.len() >= count {
            ThresholdStep::Mint
        } else {
            ThresholdStep::Held
        })
    }

    /// Drops the held hits `invalidation` names (§13): counted, never
    /// delivered, so there is nothing to retract. Idempotent.
    pub(crate) fn gate_drop_invalidated(
        &mut self,
        key: &str,
        held: &mut Option<Held>,
        invalidation: &Invalidation,
    ) -> Result<(), StorageError> {
        if held.is_none() {
            *held = Some(self.gate_held(key)?);
        }
        let Some(held) = held.as_mut() else {
            return Ok(());
        };
        let named: Vec<u64> = held
            .by_offset
            .keys()
            .copied()
            .filter(|offset| invalidation.covers(*offset))
            .collect();
        for offset in named {
            self.gate_forget(key, held, offset)?;
            self.counters.gate_invalidated += 1;
        }
        Ok(())
    }

    /// The digest a threshold gate minted at `through`: its held hits up to
    /// there, oldest first (§13).
    pub(crate) fn gate_digest(&self, key: &str, through: u64) -> Result<Vec<PlannedEvent>, StorageError> {
        let sql = format!(
            "SELECT {} FROM gate_hits WHERE subscription_key = ? AND event_offset <= ? ORDER BY event_offset LIMIT +?",
            gate_hit::COLUMNS
        );
        let rows = self
            .storage
            .query(&sql, &[key.into(), through.into(), MAX_AGGREGATE_BATCH.into()])?;
        rows.iter()
            .map(|row| {
                let hit = GateHit::decode(&sql, row)?;
                Ok(PlannedEvent {
                    offset: hit.offset,
                    created_at_ms: hit.created_at_ms,
                    body: hit.body_value().into(),
                })
            })
            .collect()
    }

    /// How many hits `key`'s threshold gate holds (the debug card, §11).
    pub(crate) fn gate_held_count(&self, key: &str) -> u64 {
        let sql = "SELECT COUNT(*) FROM gate_hits WHERE subscription_key = ?";
        match query_optional(&self.storage, sql, &[key.into()]) {
            Ok(Some(row)) => Columns { query: sql, row: &row }
                .int(0)
                .map_or(0, |count| count.max(0) as u64),
            _ => 0,
        }
    }
}
