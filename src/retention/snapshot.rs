//! The fold as of the trim point (docs/design.md §16 "The fold stays
//! rebuildable"): the `state_snapshot` row (the reduced-state document after
//! every trimmed event) and `snapshot_inbound_fences` (the fence records
//! after every trimmed copy), both of migration 0009.
//!
//! The trim step folds exactly the events it is about to delete into the
//! snapshot, in the transaction that deletes them ([`advance`]), so a rebuild
//! — the snapshot, then the fold of the retained events — equals the live
//! state. Only control events and copies are read: nothing else folds.

use crate::event::{StoredEvent, CONTROL_PREFIX};
use crate::state::inbound::{self, InboundError, SNAPSHOT};
use crate::state::{Mode, ReducedState, STATE_VERSION};
use crate::storage::{query_optional, Columns, Storage, StorageError};
use crate::stream::rows;

/// A row of `state_snapshot` (one row, `id = 1`; absent: nothing trimmed).
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotRow {
    /// The last offset folded into `state`.
    pub through_offset: u64,
    /// The fold version that wrote it ([`STATE_VERSION`]). A snapshot of an
    /// older version is still the only record of what was trimmed, so it is
    /// read as it is (the document's fields have defaults).
    pub version: i64,
    pub state: ReducedState,
}

const SELECT: &str = "SELECT through_offset, version, state FROM state_snapshot WHERE id = 1";
/// Moves an existing snapshot to `through` when nothing between folds (no
/// control event, no copy); returns a row when it did.
fn move_if_nothing_folds() -> String {
    format!(
        "UPDATE state_snapshot SET through_offset = ? WHERE id = 1 AND through_offset < ? \
         AND NOT EXISTS (SELECT 1 FROM events WHERE event_offset > state_snapshot.through_offset \
         AND event_offset <= ? AND (substr(type, 1, {}) = ? OR source IS NOT NULL)) RETURNING through_offset",
        CONTROL_PREFIX.len()
    )
}

const UPSERT: &str = "INSERT INTO state_snapshot (id, through_offset, version, state) VALUES (1, ?, ?, ?) \
     ON CONFLICT (id) DO UPDATE SET through_offset = excluded.through_offset, version = excluded.version, \
     state = excluded.state";

impl SnapshotRow {
    pub fn load<S: Storage + ?Sized>(storage: &S) -> Result<Option<SnapshotRow>, StorageError> {
        let Some(row) = query_optional(storage, SELECT, &[])? else {
            return Ok(None);
        };
        let columns = Columns {
            query: SELECT,
            row: &row,
        };
        let state = serde_json::from_str(&columns.text(2)?).map_err(|_| StorageError::Decode {
            query: SELECT.to_owned(),
            column: 2,
        })?;
        Ok(Some(SnapshotRow {
            through_offset: columns.int(0)?.max(0) as u64,
            version: columns.int(1)?,
            state,
        }))
    }

    fn save<S: Storage + ?Sized>(&self, storage: &S) -> Result<(), StorageError> {
        storage.execute(
            UPSERT,
            &[
                self.through_offset.into(),
                self.version.into(),
                self.state.to_json().into(),
            ],
        )
    }
}

/// Where a rebuild starts: the snapshot's state and the offset after which
/// the log is replayed (the empty state and 0 when nothing was trimmed).
pub fn rebuild_base<S: Storage + ?Sized>(storage: &S) -> Result<(ReducedState, u64), StorageError> {
    Ok(SnapshotRow::load(storage)?.map_or_else(
        || (ReducedState::default(), 0),
        |snapshot| (snapshot.state, snapshot.through_offset),
    ))
}

/// Folds every event in `(snapshot, through]` into the snapshot, inside the
/// caller's transaction (the one that deletes them). A no-op when the
/// snapshot is already there.
pub fn advance<S: Storage + ?Sized>(storage: &S, through: u64) -> Result<(), StorageError> {
    let moved = storage.query(
        &move_if_nothing_folds(),
        &[through.into(), through.into(), through.into(), CONTROL_PREFIX.into()],
    )?;
    if !moved.is_empty() {
        // Plain events only (the common trim): the document is unchanged
        // and only the snapshot's offset moves — nothing is parsed.
        return Ok(());
    }
    let (mut state, after) = rebuild_base(storage)?;
    if through <= after {
        return Ok(());
    }
    rows::for_each_fold_input(storage, after, through, |event: StoredEvent| {
        // Replaying what was committed: a refusal now means the fold changed
        // meaning, and the event is passed as the rebuild passes it.
        let _ = state.replay(&event);
        match inbound::fold_copy_into(SNAPSHOT, storage, &event, Mode::Replay) {
            Err(InboundError::Storage(error)) => Err(error),
            Ok(()) | Err(InboundError::Full(_)) => Ok(()),
        }
    })?;
    SnapshotRow {
        through_offset: through,
        version: STATE_VERSION,
        state,
    }
    .save(storage)
}
