//! The inbound part of the fold (docs/design.md §5 inbound, §7 rule 2): the stamp
//! fence records, one row of `inbound_fences` per `(sourcePath,
//! subscriptionKey)` this stream committed copies from, outside the
//! reduced-state document so one stream can take copies from 10,000 sources.
//!
//! Still part of the fold: [`fold_copy`] runs for each copy in the
//! transaction that commits it (and for each committed copy, in log order,
//! when a rebuild replays the log after [`reset_to_snapshot`]), so the rows are derived
//! from committed copies only and a rebuild gives identical rows. The fence
//! check of a copy batch is one point lookup ([`lookup`]); the bound is a row
//! count kept beside the table ([`count`]), never a scan of it.

use super::Mode;
use crate::copy::{chain_of_text, HopText};
use crate::event::StoredEvent;
use crate::limits::MAX_INBOUND_FENCE_RECORDS;
use crate::records::fence::{self, FenceRow, InboundFence};
use crate::schema::InboundFenceCountRow;
use crate::storage::{query_optional, Columns, Storage, StorageError};
use std::collections::HashMap;

/// Why folding a copy into the fence table failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InboundError {
    /// A copy from a new pair while the table holds this many records
    /// ([`MAX_INBOUND_FENCE_RECORDS`], §12); refused before commit.
    #[error("{0} inbound fence records already")]
    Full(u64),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// The tables one set of fence records lives in: the live ones, or those
/// of the retention snapshot (§16), which fold the trimmed copies.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FenceTables {
    select_one: &'static str,
    upsert: &'static str,
    select_count: &'static str,
    write_count: &'static str,
}

pub(crate) const LIVE: FenceTables = FenceTables {
    select_one: fence::SELECT_ONE,
    upsert: fence::UPSERT,
    select_count: "SELECT records FROM inbound_fence_count WHERE id = 1",
    write_count: "INSERT INTO inbound_fence_count (id, records) VALUES (1, ?) \
     ON CONFLICT (id) DO UPDATE SET records = excluded.records",
};

pub(crate) const SNAPSHOT: FenceTables = FenceTables {
    select_one: fence::SNAPSHOT_SELECT_ONE,
    upsert: fence::SNAPSHOT_UPSERT,
    select_count: "SELECT records FROM snapshot_inbound_fence_count WHERE id = 1",
    write_count: "INSERT INTO snapshot_inbound_fence_count (id, records) VALUES (1, ?) \
     ON CONFLICT (id) DO UPDATE SET records = excluded.records",
};

/// The pair a committed copy names and the run that produced it: its last
/// `source.copiedFrom` hop (§7). `None` for an event without one. Read
/// typed; what that refuses (a field twice, say) is read as before, through
/// [`chain_of`], so both give the same hop.
fn received_from(event: &StoredEvent) -> Option<HopText<'_>> {
    chain_of_text(event.source.as_ref()?.get()).pop()
}

/// [`InboundFence::received`] of one more copy of `hop`'s run, on a record
/// in place: the stamp is copied only when `hop` names another run.
fn receive_again(fence: &mut InboundFence, hop: &HopText<'_>, received_at_ms: i64) {
    if !hop.is_run(&fence.stamp) {
        fence.stamp = hop.run_stamp();
    }
    fence.num_events_received = fence.num_events_received.saturating_add(1);
    fence.last_event_received_at_ms = received_at_ms;
}

/// The fence record of one pair, if this stream received copies from it.
pub fn lookup<S: Storage + ?Sized>(
    storage: &S,
    source_path: &str,
    subscription_key: &str,
) -> Result<Option<InboundFence>, StorageError> {
    lookup_in(LIVE, storage, source_path, subscription_key)
}

fn lookup_in<S: Storage + ?Sized>(
    tables: FenceTables,
    storage: &S,
    source_path: &str,
    subscription_key: &str,
) -> Result<Option<InboundFence>, StorageError> {
    query_optional(
        storage,
        tables.select_one,
        &[source_path.into(), subscription_key.into()],
    )?
    .map(|row| FenceRow::decode(tables.select_one, &row).map(|row| row.fence))
    .transpose()
}

/// How many fence records this stream keeps (§11 `inboundFenceCount`).
pub fn count<S: Storage + ?Sized>(storage: &S) -> Result<u64, StorageError> {
    count_in(LIVE, storage)
}

fn count_in<S: Storage + ?Sized>(tables: FenceTables, storage: &S) -> Result<u64, StorageError> {
    let Some(row) = query_optional(storage, tables.select_count, &[])? else {
        return Ok(0);
    };
    let records = Columns {
        query: tables.select_count,
        row: &row,
    }
    .int(0)?
    .max(0) as u64;
    Ok(InboundFenceCountRow { records }.records)
}

/// At most `limit` records after the pair `after` (from the first when
/// `None`), in `(sourcePath, subscriptionKey)` order.
pub fn page<S: Storage + ?Sized>(
    storage: &S,
    after: Option<(&str, &str)>,
    limit: u64,
) -> Result<Vec<FenceRow>, StorageError> {
    let (sql, rows) = match after {
        Some((path, key)) => (
            fence::SELECT_PAGE_AFTER,
            storage.query(fence::SELECT_PAGE_AFTER, &[path.into(), key.into(), limit.into()])?,
        ),
        None => (
            fence::SELECT_FIRST_PAGE,
            storage.query(fence::SELECT_FIRST_PAGE, &[limit.into()])?,
        ),
    };
    rows.iter().map(|row| FenceRow::decode(sql, row)).collect()
}

/// Folds one committed copy (§5 inbound): the record of its pair moves to
/// the copy's stamp and counts it. A copy from a new pair opens a record;
/// committing (never replaying what was committed) past the bound refuses it.
/// Runs inside the caller's transaction.
pub fn fold_copy<S: Storage + ?Sized>(storage: &S, event: &StoredEvent, mode: Mode) -> Result<(), InboundError> {
    fold_copy_into(LIVE, storage, event, mode)
}

/// [`fold_copy`] into `tables` (the retention snapshot's, §16).
pub(crate) fn fold_copy_into<S: Storage + ?Sized>(
    tables: FenceTables,
    storage: &S,
    event: &StoredEvent,
    mode: Mode,
) -> Result<(), InboundError> {
    let mut received = Received::new(tables, mode);
    received.note(storage, event)?;
    received.write(storage)?;
    Ok(())
}

/// The fence fold of copies committed together (one append's batch): the
/// record of each pair is read once, when its first copy is noted, and
/// written once, by [`Received::write`]. Folding a run of copies this way
/// leaves the rows [`fold_copy`] would leave folding each in turn (§5
/// inbound): the fence at the pair's last stamp, every copy counted, the
/// last copy's time; a new pair past the bound is refused at the copy that
/// opens it.
pub(crate) struct Received {
    tables: FenceTables,
    mode: Mode,
    /// The pairs' records as folded so far, in the order first noted.
    rows: Vec<FenceRow>,
    /// Where each pair's record is in `rows`.
    index: HashMap<(String, String), usize>,
    /// The record count once a copy opened a new pair (to be written).
    records: Option<u64>,
}

impl Received {
    pub(crate) fn new(tables: FenceTables, mode: Mode) -> Received {
        Received {
            tables,
            mode,
            rows: Vec::new(),
            index: HashMap::new(),
            records: None,
        }
    }

    /// The live records' fold for an append (§7 rule 2).
    pub(crate) fn committing() -> Received {
        Received::new(LIVE, Mode::Commit)
    }

    /// Folds one committed copy into the pending records; an event without
    /// a `source.copiedFrom` hop changes nothing. Reads its pair's record
    /// (and, for a new pair, the record count) the first time the pair is
    /// seen.
    pub(crate) fn note<S: Storage + ?Sized>(&mut self, storage: &S, event: &StoredEvent) -> Result<(), InboundError> {
        let Some(hop) = received_from(event) else {
            return Ok(());
        };
        self.note_hop(storage, &hop, event.created_at_ms)
    }

    /// [`Self::note`] of a copy whose last hop the caller already read
    /// (`hop`), committed at `received_at_ms`.
    pub(crate) fn note_hop<S: Storage + ?Sized>(
        &mut self,
        storage: &S,
        hop: &HopText<'_>,
        received_at_ms: i64,
    ) -> Result<(), InboundError> {
        // A batch's copies share the pair noted last, mostly: it is matched
        // in place, with no key built.
        let last = self.rows.last_mut().filter(|row| {
            row.source_path == hop.path.as_ref() && row.subscription_key == hop.subscription_key.as_ref()
        });
        if let Some(row) = last {
            receive_again(&mut row.fence, hop, received_at_ms);
            return Ok(());
        }
        let pair = (hop.path.clone().into_owned(), hop.subscription_key.clone().into_owned());
        if let Some(row) = self.index.get(&pair).and_then(|at| self.rows.get_mut(*at)) {
            receive_again(&mut row.fence, hop, received_at_ms);
            return Ok(());
        }
        let (source_path, subscription_key) = pair;
        let stamp = hop.run_stamp();
        let previous = lookup_in(self.tables, storage, &source_path, &subscription_key)?;
        if previous.is_none() {
            let records = match self.records {
                Some(records) => records,
                None => count_in(self.tables, storage)?,
            };
            if self.mode == Mode::Commit && records >= MAX_INBOUND_FENCE_RECORDS {
                return Err(InboundError::Full(records));
            }
            self.records = Some(records.saturating_add(1));
        }
        self.index
            .insert((source_path.clone(), subscription_key.clone()), self.rows.len());
        self.rows.push(FenceRow {
            source_path,
            subscription_key,
            fence: InboundFence::received(previous.as_ref(), stamp, received_at_ms),
        });
        Ok(())
    }

    /// Writes the folded records (one upsert per pair) and, when a pair was
    /// opened, the record count; inside the caller's transaction.
    pub(crate) fn write<S: Storage + ?Sized>(self, storage: &S) -> Result<(), StorageError> {
        if let Some(records) = self.records {
            storage.execute(self.tables.write_count, &[records.into()])?;
        }
        for row in &self.rows {
            storage.execute(self.tables.upsert, &row.encode())?;
        }
        Ok(())
    }
}

/// Forgets every record, before a rebuild replays the log (§5), and starts
/// again from the retention snapshot's records (§16; none when nothing was
/// trimmed).
pub fn reset_to_snapshot<S: Storage + ?Sized>(storage: &S) -> Result<(), StorageError> {
    storage.execute("DELETE FROM inbound_fences", &[])?;
    storage.execute("DELETE FROM inbound_fence_count", &[])?;
    storage.execute("INSERT INTO inbound_fences SELECT * FROM snapshot_inbound_fences", &[])?;
    storage.execute(
        "INSERT INTO inbound_fence_count SELECT * FROM snapshot_inbound_fence_count",
        &[],
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    fn copy_from(source: &str) -> StoredEvent {
        StoredEvent {
            offset: 1,
            event_type: "x".to_owned(),
            payload: RawValue::from_string("{}".to_owned()).unwrap(),
            metadata: RawValue::from_string("{}".to_owned()).unwrap(),
            idempotency_key: None,
            ephemeral: false,
            created_at_ms: 0,
            source: Some(RawValue::from_string(source.to_owned()).unwrap()),
            encoding: None,
            body: None,
        }
    }

    fn hop(path: &str, generation: u64) -> String {
        format!(
            r#"{{"projectId":"p","path":"{path}","streamId":"s","streamCreatedAt":"2026-01-01T00:00:00.000Z","offset":1,"type":"x","createdAt":"2026-01-01T00:00:00.000Z","subscriptionKey":"k","cursorChangedAtSourceOffset":{generation}}}"#
        )
    }

    /// The hop as read through a JSON tree and `chain_of`, as before.
    fn through_tree(source: &str) -> Option<(String, String, crate::records::RunStamp)> {
        let value: serde_json::Value = serde_json::from_str(source).ok()?;
        let hop = crate::copy::chain_of(Some(&value)).pop()?;
        let stamp = hop.run_stamp();
        Some((hop.path, hop.subscription_key, stamp))
    }

    #[test]
    fn the_typed_read_of_the_last_hop_agrees_with_the_tree() {
        let sources = [
            format!(r#"{{"copiedFrom":[{},{}]}}"#, hop("/a", 1), hop("/b", 2)),
            format!(r#"{{"copiedFrom":[{}],"other":1}}"#, hop("/a", 3)),
            // A field twice: the typed read refuses it, the tree keeps the last.
            format!(r#"{{"copiedFrom":[],"copiedFrom":[{}]}}"#, hop("/c", 4)),
            r#"{"copiedFrom":[]}"#.to_owned(),
            r#"{"copiedFrom":[{"path":"/a"}]}"#.to_owned(),
            r#"{"other":1}"#.to_owned(),
            "[]".to_owned(),
        ];
        let typed = |source: &str| {
            received_from(&copy_from(source)).map(|hop| {
                (
                    hop.path.clone().into_owned(),
                    hop.subscription_key.clone().into_owned(),
                    hop.run_stamp(),
                )
            })
        };
        for source in &sources {
            assert_eq!(typed(source), through_tree(source), "{source}");
        }
        assert_eq!(typed(&sources[0]).unwrap().0, "/b");
        assert_eq!(typed(&sources[2]).unwrap().0, "/c");
    }
}
