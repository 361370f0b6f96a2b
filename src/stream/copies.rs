//! The receiving side of copy-to-stream (docs/design.md §7): copy authority is the
//! caller's (only the internal route reaches this), then the stamp fence,
//! the cycle and hop guard, and the append with derived identities.

use super::append::FollowUp;
use super::copy_wire::{self, WireCopy};
use super::{AppendError, Stream};
use crate::copy::{chain_of, origin_is_invalidation, CopyBatch, Hop, HopText, Stamp};
use crate::error::{ApiFailure, ErrorCode};
use crate::event::StoredEvent;
use crate::event::{Authority, CommittedEvent, InputEvent, CONTROL_PREFIX};
use crate::invalidation::{is_invalidation_type, Invalidated, Invalidation};
use crate::limits::MAX_COPY_HOPS;
use crate::limits::{
    MAX_INVALIDATED_OFFSETS, MAX_OVERLAP_CHECKED_INVALIDATIONS, MAX_PROPAGATED_INVALIDATIONS, MAX_SAFE_INTEGER,
    OVERLAP_CHECK_PAGE,
};
use crate::records::RunStamp;
use crate::state::inbound;
use crate::storage::{Columns, SqlValue, Storage, StorageError};
use crate::Inputs;
use serde_json::{json, Map, Value};

#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("copy batch is malformed: {0}")]
    Malformed(String),
    #[error(
        "stamp of run {} from lifetime {} is older than the last accepted ({} from {})",
        .stamp.cursor_changed_at_source_offset,
        .stamp.stream_created_at,
        .accepted.cursor_changed_at_source_offset,
        .accepted.stream_created_at
    )]
    StaleStamp { stamp: RunStamp, accepted: RunStamp },
    #[error(transparent)]
    Append(#[from] AppendError),
}

impl From<StorageError> for CopyError {
    fn from(error: StorageError) -> Self {
        CopyError::Append(AppendError::Storage(error))
    }
}

impl ApiFailure for CopyError {
    fn error_code(&self) -> ErrorCode {
        match self {
            CopyError::Malformed(_) => ErrorCode::InvalidCopyBatch,
            CopyError::StaleStamp { .. } => ErrorCode::StaleStamp,
            CopyError::Append(error) => error.error_code(),
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            CopyError::Append(error) => error.details(),
            _ => Map::new(),
        }
    }
}

/// What a copy batch did on this stream.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CopyAccepted {
    pub appended: Vec<CommittedEvent>,
    pub deduplicated: usize,
    pub dropped: usize,
}

/// What the receiving stream answers the source over the internal route
/// (§7): counts only. The source acts on the status alone, so the events
/// it sent are not serialized back.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CopyAnswer {
    /// Events the batch committed (its drop audit included).
    pub committed: usize,
    pub deduplicated: usize,
    pub dropped: usize,
}

impl CopyAccepted {
    /// The internal route's answer for this batch.
    pub fn answer(&self) -> CopyAnswer {
        CopyAnswer {
            committed: self.appended.len().saturating_sub(self.deduplicated),
            deduplicated: self.deduplicated,
            dropped: self.dropped,
        }
    }
}

impl<S: Storage> Stream<S> {
    /// Commits a copy batch (trusted path). Parses the body itself so the
    /// shell stays thin.
    pub fn accept_copy_body(&mut self, body: &[u8], inputs: &Inputs) -> Result<CopyAccepted, CopyError> {
        let (stamp, copies) = copy_wire::read_batch(body).map_err(|error| CopyError::Malformed(error.to_string()))?;
        self.accept_wire(&stamp, copies, inputs)
    }

    /// Commits a copy batch given as trees: each event is written to the
    /// text the source sends, and read as [`Stream::accept_copy_body`] reads it.
    pub fn accept_copies(&mut self, batch: CopyBatch, inputs: &Inputs) -> Result<CopyAccepted, CopyError> {
        let texts = batch
            .events
            .iter()
            .map(serde_json::value::to_raw_value)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| CopyError::Malformed(error.to_string()))?;
        let copies = texts.iter().map(|text| copy_wire::read(text)).collect();
        self.accept_wire(&batch.stamp, copies, inputs)
    }

    /// The stamp fence (§7 rule 2): one point lookup of the batch's pair.
    /// A batch that commits runs it first in the append's own transaction
    /// (a read outside one opens and closes a read transaction of its own).
    fn check_fence(&self, stamp: &Stamp) -> Result<(), CopyError> {
        if self.lifetime.is_none() {
            // No lifetime, no committed copies: nothing to fence.
            return Ok(());
        }
        let record = inbound::lookup(&self.storage, &stamp.source_path, &stamp.subscription_key)?;
        let Some(record) = record else { return Ok(()) };
        // §7 rule 2: strictly older (lifetime as a time, then generation as
        // an integer) is rejected; equal is redelivery, newer is accepted.
        let run = stamp.run_stamp();
        if run.is_older_than(&record.stamp) {
            return Err(CopyError::StaleStamp {
                stamp: run,
                accepted: record.stamp,
            });
        }
        Ok(())
    }

    /// The fence, then each copy read off its text (`copy_wire`): a cycle or
    /// a chain at its hop limit is dropped (and audited), the rest appended.
    /// The fence answers first: a stale batch is refused as stale, whatever
    /// else is wrong with it.
    fn accept_wire(
        &mut self,
        stamp: &Stamp,
        copies: Vec<WireCopy>,
        inputs: &Inputs,
    ) -> Result<CopyAccepted, CopyError> {
        let result = self.accept_fenced(stamp, copies, inputs);
        if matches!(result, Err(CopyError::StaleStamp { .. })) {
            self.counters.fence_rejections += 1;
        }
        result
    }

    /// [`Self::accept_wire`] before counting a refusal. A batch that will
    /// not reach the append (malformed, empty, over the storage budget)
    /// checks the fence on its own first.
    fn accept_fenced(
        &mut self,
        stamp: &Stamp,
        copies: Vec<WireCopy>,
        inputs: &Inputs,
    ) -> Result<CopyAccepted, CopyError> {
        let (accepted, dropped, received_from) = match self.read_copies(stamp, copies) {
            Ok(read) => read,
            Err(error) => {
                self.check_fence(stamp)?;
                return Err(error);
            }
        };
        if accepted.is_empty() {
            self.check_fence(stamp)?;
            return Ok(CopyAccepted {
                appended: Vec::new(),
                deduplicated: 0,
                dropped: 0,
            });
        }
        // A full stream (§16) refuses copies too: the source retries them
        // with backoff (507 is transient) until retention makes room.
        if let Err(error) = self.check_storage_budget(&accepted, 0) {
            self.check_fence(stamp)?;
            return Err(error.into());
        }
        // Each copied invalidation ends a segment: its derived invalidation
        // is committed right after it, before any later copy (§13).
        let follow = FollowUp {
            first: &|stream: &Stream<S>| stream.check_fence(stamp),
            ends_segment: &|input: &InputEvent| origin_is_invalidation(input.source.as_ref()),
            derive: &|stream: &Stream<S>, written: &[(StoredEvent, bool)]| stream.propagate_invalidations(written),
            within: &|_| Ok(()),
            received_from: received_from.as_ref(),
        };
        let (events, duplicates) = self.append_then(accepted, inputs, &follow)?;
        let deduplicated = duplicates.iter().filter(|duplicate| **duplicate).count();
        // The drop audit is not a copy: count only new events carrying a source.
        let new_copies = events
            .iter()
            .zip(&duplicates)
            .filter(|(event, duplicate)| !**duplicate && event.source.is_some())
            .count();
        self.counters.copies_accepted += new_copies as u64;
        self.counters.copies_dropped += dropped as u64;
        Ok(CopyAccepted {
            appended: events,
            deduplicated,
            dropped,
        })
    }

    /// Each copy read off its text: the inputs to append (the drop audit
    /// last, if any copy was dropped), how many were dropped, and the last
    /// hop the accepted copies share when they all name one pair and run
    /// (what the fence fold reads of each, §7 rule 2).
    fn read_copies<'a>(
        &self,
        stamp: &Stamp,
        copies: Vec<WireCopy<'a>>,
    ) -> Result<(Vec<InputEvent>, usize, Option<HopText<'a>>), CopyError> {
        let (project, path) = (self.project_id.as_str(), self.path.as_str());
        let mut accepted = Vec::new();
        let mut dropped: Vec<(u64, &'static str)> = Vec::new();
        let mut shared: Option<Option<HopText<'a>>> = None;
        for WireCopy { mut chain, input } in copies {
            let Some(last) = chain.last() else {
                return Err(CopyError::Malformed("an event without source.copiedFrom".to_owned()));
            };
            let cycle = chain.iter().any(|hop| hop.project_id == project && hop.path == path);
            if cycle || chain.len() > MAX_COPY_HOPS {
                dropped.push((last.offset, if cycle { "cycle" } else { "hop-limit" }));
                continue;
            }
            let input = input.map_err(|error| AppendError::Event {
                index: accepted.len(),
                error,
            })?;
            accepted.push(input);
            match (&shared, chain.pop()) {
                (None, last) => shared = Some(last),
                (Some(Some(first)), Some(last)) if first.same_pair_and_run(&last) => {}
                _ => shared = Some(None),
            }
        }
        if !dropped.is_empty() {
            accepted.push(self.drop_audit(stamp, &dropped)?);
        }
        Ok((accepted, dropped.len(), shared.flatten()))
    }

    /// For each copied `events-invalidated` just written, this stream's own
    /// `events-invalidated {offsets}` naming its copies of the invalidated
    /// source events (§13), so retraction flows down copy chains. Committed
    /// with the copies; idempotent per copy; a copy some earlier invalidation
    /// of this stream already names is not named again, so each copy is
    /// retracted once however many invalidations of one event arrive (the
    /// origin's, copied, and each hop's derived one).
    fn propagate_invalidations(&self, written: &[(StoredEvent, bool)]) -> Result<Vec<InputEvent>, AppendError> {
        let mut derived = Vec::new();
        for (event, duplicate) in written {
            // A cheap look before parsing provenance: only a chain naming an
            // invalidation can derive one.
            let names_invalidation = event
                .source
                .as_ref()
                .is_some_and(|raw| raw.get().contains("events-invalidated"));
            if *duplicate || !names_invalidation {
                continue;
            }
            let source: Option<Value> = event
                .source
                .as_ref()
                .and_then(|raw| serde_json::from_str(raw.get()).ok());
            // Its offsets belong to the stream that appended it: the first
            // hop of its provenance ("Copies and invalidation order").
            let Some(origin) = chain_of(source.as_ref()).into_iter().next() else {
                continue;
            };
            if !is_invalidation_type(&origin.event_type) {
                continue;
            }
            let payload: Value = serde_json::from_str(event.payload.get()).unwrap_or(Value::Null);
            // A transform that reshaped the payload leaves nothing to map.
            let Ok(invalidation) = Invalidation::parse(&payload, origin.offset) else {
                continue;
            };
            let copies = self
                .local_copies(&origin, &invalidation)
                .map_err(AppendError::Storage)?;
            let copies = self.not_yet_invalidated(copies).map_err(AppendError::Storage)?;
            for (chunk, offsets) in copies.chunks(MAX_INVALIDATED_OFFSETS).enumerate() {
                let mut payload = json!({ "offsets": offsets });
                if let (Some(reason), Some(fields)) = (&invalidation.reason, payload.as_object_mut()) {
                    fields.insert("reason".to_owned(), json!(reason));
                }
                let key = format!(
                    "invalidated-copies:{}:{chunk}",
                    event.idempotency_key.as_deref().unwrap_or_default()
                );
                let input = json!({"type": format!("{CONTROL_PREFIX}events-invalidated"), "payload": payload, "idempotencyKey": key});
                derived.push(
                    InputEvent::from_json(input, Authority::Trusted)
                        .map_err(|error| AppendError::Event { index: 0, error })?,
                );
            }
        }
        Ok(derived)
    }

    /// Local offsets of this stream's copies of the offsets `invalidation`
    /// names in the lifetime of `origin`'s stream: each copy is matched
    /// through its own hop for that stream, however many hops away (§13). A
    /// scan of the copies (no index: it would cost every copy an index
    /// entry, and invalidations are rare), bounded by its limit.
    fn local_copies(&self, origin: &Hop, invalidation: &Invalidation) -> Result<Vec<u64>, StorageError> {
        let (condition, bound) = match &invalidation.invalidated {
            Invalidated::After(after) => (
                "json_extract(hop.value, '$.offset') > ? AND json_extract(hop.value, '$.offset') < ?",
                vec![SqlValue::from(*after), SqlValue::from(invalidation.at)],
            ),
            Invalidated::Offsets(offsets) => (
                "json_extract(hop.value, '$.offset') IN (SELECT value FROM json_each(?))",
                vec![SqlValue::from(serde_json::to_string(offsets).unwrap_or_default())],
            ),
        };
        // A chain never holds one stream twice (§7 rule 3), so at most one
        // hop of a copy can match.
        let sql = format!(
            "SELECT event_offset FROM events WHERE source IS NOT NULL AND EXISTS (\
             SELECT 1 FROM json_each(events.source, '$.copiedFrom') AS hop \
             WHERE json_extract(hop.value, '$.projectId') = ? AND json_extract(hop.value, '$.path') = ? \
             AND json_extract(hop.value, '$.streamId') = ? AND {condition}) \
             ORDER BY event_offset LIMIT +?"
        );
        let mut params: Vec<SqlValue> = vec![
            origin.project_id.as_str().into(),
            origin.path.as_str().into(),
            origin.stream_id.as_str().into(),
        ];
        params.extend(bound);
        params.push(MAX_PROPAGATED_INVALIDATIONS.into());
        let rows = self.storage.query(&sql, &params)?;
        rows.iter()
            .map(|row| Columns { query: &sql, row }.int(0).map(|offset| offset.max(0) as u64))
            .collect()
    }

    /// `copies` without those an invalidation of this stream already names
    /// (only an invalidation after the lowest copy can). Looks at the latest
    /// [`MAX_OVERLAP_CHECKED_INVALIDATIONS`] of them, a page at a time.
    fn not_yet_invalidated(&self, mut copies: Vec<u64>) -> Result<Vec<u64>, StorageError> {
        let Some(lowest) = copies.first().copied() else {
            return Ok(copies);
        };
        let sql = "SELECT event_offset, payload FROM events WHERE event_offset > ? AND event_offset < ? \
                   AND source IS NULL AND type = ? ORDER BY event_offset DESC LIMIT +?";
        let invalidated_type = format!("{CONTROL_PREFIX}events-invalidated");
        // Offsets stay below 2^53 (§1).
        let mut before = MAX_SAFE_INTEGER;
        let pages = MAX_OVERLAP_CHECKED_INVALIDATIONS.div_ceil(OVERLAP_CHECK_PAGE);
        for _page in 0..pages {
            let rows = self.storage.query(
                sql,
                &[
                    lowest.into(),
                    before.into(),
                    invalidated_type.as_str().into(),
                    OVERLAP_CHECK_PAGE.into(),
                ],
            )?;
            for row in &rows {
                let columns = Columns { query: sql, row };
                let at = columns.int(0)?.max(0) as u64;
                before = at;
                let payload: Value = serde_json::from_str(&columns.text(1)?).unwrap_or(Value::Null);
                if let Ok(earlier) = Invalidation::parse(&payload, at) {
                    copies.retain(|copy| !earlier.covers(*copy));
                }
            }
            if (rows.len() as u64) < OVERLAP_CHECK_PAGE || copies.is_empty() {
                break;
            }
        }
        Ok(copies)
    }

    /// One idempotent `error-occurred` describing dropped copies (§7 rule 3).
    fn drop_audit(&self, stamp: &Stamp, dropped: &[(u64, &'static str)]) -> Result<InputEvent, CopyError> {
        let offsets: Vec<u64> = dropped.iter().map(|(offset, _)| *offset).collect();
        let reason = dropped.first().map_or("cycle", |(_, reason)| *reason);
        let identity = format!(
            "{}\n{}\n{}\n{}\n{offsets:?}",
            stamp.source_path, stamp.stream_id, stamp.subscription_key, stamp.cursor_changed_at_source_offset
        );
        let audit = json!({
            "type": format!("{CONTROL_PREFIX}error-occurred"),
            "payload": {
                "kind": "copy-dropped",
                "reason": reason,
                "sourcePath": stamp.source_path,
                "subscriptionKey": stamp.subscription_key,
                "count": offsets.len(),
                "offsets": offsets,
            },
            "idempotencyKey": format!("copy-dropped:{}", blake3::hash(identity.as_bytes()).to_hex()),
        });
        InputEvent::from_json(audit, Authority::Trusted).map_err(|error| CopyError::Malformed(error.to_string()))
    }
}
