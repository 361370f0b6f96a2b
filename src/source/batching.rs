//! A source's pending work and its checkpoint (docs/design.md §15 "Checkpoint and
//! window"). What a read produced is staged as a [`Pending`] transition with
//! its append batches (at most [`MAX_SOURCE_APPEND_EVENTS`] events and
//! [`MAX_SOURCE_APPEND_BYTES`] each); an unfinalized block's batches and an
//! invalidation's are written ahead (`source_pending`) so a restart finishes
//! exactly that work. Once every batch landed, the transition is applied: the
//! checkpoint moves in one write. A target found with a new lifetime (§3 rule
//! 6) resets the offsets recorded for the old one.

use super::effect::Effect;
use super::machine::Source;
use super::store::{self, Batch, Pending, SourceRow, Transition, WindowBlock};
use crate::limits::{MAX_SOURCE_APPEND_BYTES, MAX_SOURCE_APPEND_EVENTS, SOURCE_APPEND_FRAMING_BYTES};
use crate::storage::{Storage, StorageError};
use serde_json::json;

/// Append bodies of at most [`MAX_SOURCE_APPEND_EVENTS`] events and
/// [`MAX_SOURCE_APPEND_BYTES`] each, in order.
pub(super) fn batches(events: Vec<(String, String)>) -> Vec<Batch> {
    let mut batches = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    let mut bytes = 0usize;
    let flush = |current: &mut Vec<String>, keys: &mut Vec<String>, batches: &mut Vec<Batch>| {
        if !current.is_empty() {
            batches.push(Batch {
                body: format!("{{\"events\":[{}]}}", current.join(",")),
                keys: std::mem::take(keys),
                offsets: None,
            });
            current.clear();
        }
    };
    for (key, text) in events {
        if current.len() >= MAX_SOURCE_APPEND_EVENTS
            || bytes + text.len() + SOURCE_APPEND_FRAMING_BYTES > MAX_SOURCE_APPEND_BYTES
        {
            flush(&mut current, &mut keys, &mut batches);
            bytes = 0;
        }
        bytes += text.len() + 1;
        current.push(text);
        keys.push(key);
    }
    flush(&mut current, &mut keys, &mut batches);
    batches
}

/// Forgets the offsets of the old lifetime in a pending transition (§15):
/// an invalidation with nothing landed in the new lifetime is dropped
/// (its offsets are of the old one); every batch but `landed` goes again.
/// Returns whether the invalidation was dropped.
fn forget_old_offsets(pending: &mut Pending, landed: Option<usize>) -> bool {
    let dropped_invalidation = matches!(pending.transition, Transition::Invalidate { .. }) && landed.is_none();
    if let Transition::Invalidate { events, .. } = &mut pending.transition {
        if dropped_invalidation {
            *events = 0;
        }
    }
    for (index, batch) in pending.batches.iter_mut().enumerate() {
        if landed == Some(index) {
            continue;
        }
        batch.offsets = if dropped_invalidation { Some(Vec::new()) } else { None };
    }
    dropped_invalidation
}

/// The offsets of the batches that have them, by index.
fn batch_offsets(pending: &Pending) -> Vec<(usize, Vec<u64>)> {
    pending
        .batches
        .iter()
        .enumerate()
        .filter_map(|(index, batch)| batch.offsets.clone().map(|offsets| (index, offsets)))
        .collect()
}

impl<S: Storage> Source<S> {
    /// Sets up a transition and its appends (written ahead when `durable`
    /// and there is anything to append); with nothing to append it applies
    /// at once.
    pub(super) fn stage(
        &mut self,
        transition: Transition,
        events: Vec<(String, String)>,
        durable: bool,
    ) -> Result<(), StorageError> {
        let appended = u64::try_from(events.len()).unwrap_or(u64::MAX);
        let batches = batches(events);
        let durable = durable && !batches.is_empty();
        if durable {
            let storage = &self.storage;
            storage.atomically(&mut || store::save_pending(storage, &transition, &batches))?;
        }
        let Some(run) = self.run.as_mut() else {
            return Ok(());
        };
        if matches!(transition, Transition::Block { .. } | Transition::Range { .. }) {
            run.kind.logs_left = run.kind.logs_left.saturating_sub(appended);
        }
        run.kind.pending = Some(Pending {
            transition,
            batches,
            durable,
        });
        Ok(())
    }

    /// Moves the checkpoint past a transition whose appends all landed.
    pub(super) fn apply(&mut self, pending: Pending) -> Result<(), StorageError> {
        let Some(mut row) = self.row.clone() else {
            return Ok(());
        };
        if pending.transition.generation() != row.generation {
            return store::clear_pending(&self.storage);
        }
        let offsets: Vec<u64> = pending
            .batches
            .iter()
            .flat_map(|batch| batch.offsets.iter().flatten().copied())
            .collect();
        let died = match &pending.transition {
            Transition::Block { .. } => self.apply_block(&mut row, &pending.transition, offsets)?,
            Transition::Range { to, to_hash, .. } => self.apply_range(&mut row, *to, to_hash, offsets.len())?,
            Transition::Invalidate { .. } => self.apply_invalidate(&mut row, &pending.transition)?,
        };
        if let Some(run) = self.run.as_mut() {
            for hash in died {
                *run.kind.deaths.entry(hash).or_insert(0) += 1;
            }
        }
        self.row = Some(row);
        Ok(())
    }

    /// An unfinalized block joins the window; the floor rises to the final
    /// tip, pruning what became final. Nothing died.
    fn apply_block(
        &self,
        row: &mut SourceRow,
        transition: &Transition,
        offsets: Vec<u64>,
    ) -> Result<Vec<String>, StorageError> {
        let Transition::Block {
            number,
            hash,
            parent_hash,
            final_tip,
            ..
        } = transition
        else {
            return Ok(Vec::new());
        };
        let storage = &self.storage;
        row.next_block = Some(number + 1);
        row.events_appended += u64::try_from(offsets.len()).unwrap_or(u64::MAX);
        let floor = final_tip.map(|final_tip| final_tip.min(*number));
        let raise = floor.filter(|floor| row.finalized_block.is_none_or(|current| *floor > current));
        if let Some(floor) = raise {
            row.anchor_hash = if floor == *number {
                Some(hash.clone())
            } else {
                store::window_block_at(storage, floor)?.map(|block| block.hash)
            };
            row.finalized_block = Some(floor);
        }
        let block = WindowBlock {
            number: *number,
            hash: hash.clone(),
            parent_hash: parent_hash.clone(),
            offsets,
        };
        let row: &SourceRow = row;
        storage.atomically(&mut || -> Result<(), StorageError> {
            store::insert_block(storage, &block)?;
            if let Some(floor) = raise {
                store::prune_through(storage, floor)?;
            }
            store::clear_pending(storage)?;
            store::save_state(storage, row)
        })?;
        Ok(Vec::new())
    }

    /// Finalized blocks through `to` were read: the floor moves to `to`.
    fn apply_range(
        &self,
        row: &mut SourceRow,
        to: u64,
        to_hash: &str,
        count: usize,
    ) -> Result<Vec<String>, StorageError> {
        let storage = &self.storage;
        row.next_block = Some(to + 1);
        row.finalized_block = Some(to);
        row.anchor_hash = Some(to_hash.to_owned());
        row.events_appended += u64::try_from(count).unwrap_or(u64::MAX);
        let row: &SourceRow = row;
        storage.atomically(&mut || -> Result<(), StorageError> {
            store::prune_through(storage, to)?;
            store::save_state(storage, row)
        })?;
        Ok(Vec::new())
    }

    /// A reorg's invalidations landed: the window above the ancestor goes,
    /// its dead hashes are counted, and reading rewinds. The hashes that died.
    fn apply_invalidate(&self, row: &mut SourceRow, transition: &Transition) -> Result<Vec<String>, StorageError> {
        let Transition::Invalidate {
            ancestor,
            deep,
            dead,
            events,
            ..
        } = transition
        else {
            return Ok(Vec::new());
        };
        let storage = &self.storage;
        row.next_block = Some(ancestor.map_or(0, |number| number + 1));
        if *deep {
            row.anchor_hash = None;
            row.deep_reorgs += 1;
        }
        row.reorgs += 1;
        row.invalidations += events;
        let row: &SourceRow = row;
        storage.atomically(&mut || -> Result<(), StorageError> {
            store::delete_window_above(storage, *ancestor)?;
            for (number, hash) in dead {
                store::record_death(storage, *number, hash)?;
            }
            store::clear_pending(storage)?;
            store::save_state(storage, row)
        })?;
        Ok(dead.iter().map(|(_, hash)| hash.clone()).collect())
    }

    /// The target has a new lifetime (§15, §3 rule 6): the offsets the
    /// window and the pending batches recorded name events that are gone.
    /// They are forgotten (the blocks stay, so reorgs are still seen); a
    /// pending invalidation is dropped (its offsets are of the old
    /// lifetime: nothing of the new one is invalidated); pending logs go
    /// again, into the new lifetime. `landed` is a batch that already
    /// landed in the new lifetime `(index, streamId)`, if one did; without
    /// it the next append learns the lifetime.
    pub(super) fn target_recreated(
        &mut self,
        stream: &str,
        landed: Option<(usize, String)>,
    ) -> Result<Effect, StorageError> {
        let Some(mut row) = self.row.clone() else {
            return Ok(Effect::Abandoned);
        };
        row.target_stream_id = landed.as_ref().map(|(_, stream_id)| stream_id.clone());
        let landed_index = landed.as_ref().map(|(index, _)| *index);
        let pending = self.run.as_mut().and_then(|run| run.kind.pending.as_mut());
        let (dropped_invalidation, durable, offsets_now) = match pending {
            Some(pending) => (
                forget_old_offsets(pending, landed_index),
                pending.durable,
                batch_offsets(pending),
            ),
            None => (false, false, Vec::new()),
        };
        let storage = &self.storage;
        storage.atomically(&mut || -> Result<(), StorageError> {
            store::clear_window_offsets(storage)?;
            if durable {
                store::clear_batch_offsets(storage)?;
                for (index, offsets) in &offsets_now {
                    store::save_batch_offsets(storage, *index, offsets)?;
                }
            }
            store::save_state(storage, &row)
        })?;
        self.logs.push(json!({
            "event": "source_target_recreated",
            "source": row.name,
            "targetStream": stream,
            "streamId": row.target_stream_id,
            "droppedInvalidation": dropped_invalidation,
        }));
        self.row = Some(row);
        self.advance()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(key: &str, bytes: usize) -> (String, String) {
        (key.to_owned(), "x".repeat(bytes))
    }

    #[test]
    fn section_15_batches_split_by_count_and_bytes_in_order() {
        let many: Vec<_> = (0..MAX_SOURCE_APPEND_EVENTS + 1)
            .map(|index| event(&format!("k{index}"), 2))
            .collect();
        let split = batches(many);
        assert_eq!(split.len(), 2);
        assert_eq!(
            split.first().map(|batch| batch.keys.len()),
            Some(MAX_SOURCE_APPEND_EVENTS)
        );
        assert_eq!(
            split.get(1).map(|batch| batch.keys.clone()),
            Some(vec![format!("k{MAX_SOURCE_APPEND_EVENTS}")])
        );
        let big = vec![
            event("a", MAX_SOURCE_APPEND_BYTES / 2),
            event("b", MAX_SOURCE_APPEND_BYTES / 2),
        ];
        let split = batches(big);
        assert_eq!(split.len(), 2);
        assert!(split.iter().all(|batch| batch.body.len() <= MAX_SOURCE_APPEND_BYTES));
        assert!(batches(Vec::new()).is_empty());
    }
}
