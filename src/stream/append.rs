//! The append commit point (docs/design.md §3 rule 3): validate every event →
//! assign offsets → reduce → persist events, reduced state and meta together.

use super::{rows, Stream};
use crate::copy::HopText;
use crate::error::{details, ApiFailure, ErrorCode};
use crate::event::{Authority, CommittedEvent, ControlType, EventError, InputEvent, StoredEvent};
use crate::json_limits::raw_depth;
use crate::limits::{
    MAX_APPEND_BATCH_BYTES as MAX_BATCH_BYTES, MAX_APPEND_BATCH_EVENTS as MAX_BATCH_EVENTS, MAX_EVENT_DEPTH,
    MAX_REDUCED_STATE_BYTES,
};
use crate::state::inbound::{self, InboundError};
use crate::state::ReduceError;
use crate::storage::{Storage, StorageError};
use crate::subscription::Configuration;
use crate::Inputs;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    #[error("request body is {0} bytes; the limit is {MAX_BATCH_BYTES}")]
    BodyTooLarge(usize),
    #[error("request body nests JSON {0} levels deep; an event may nest at most {MAX_EVENT_DEPTH}")]
    BodyTooDeep(usize),
    #[error("request body is not valid JSON: {0}")]
    MalformedJson(String),
    #[error("a batch append is {{\"events\": [...]}} with no other fields")]
    BatchShape,
    #[error("a batch must contain at least one event")]
    EmptyBatch,
    #[error("a batch holds {0} events; the limit is {MAX_BATCH_EVENTS}")]
    TooManyEvents(usize),
    #[error("event {index}: {error}")]
    Event { index: usize, error: EventError },
    #[error("idempotency key '{key}' was already used for different content (offset {offset})")]
    IdempotencyKeyReused { key: String, offset: u64 },
    #[error("event {index}: {error}")]
    Reduce { index: usize, error: ReduceError },
    #[error("event {index}: subscription key '{key}' is held by an open live connection; connection and subscription keys never collide")]
    KeyIsConnection { index: usize, key: String },
    #[error("event {index}: offset {after_offset} was trimmed by retention; the first retained offset is {first_offset} (set the cursor to at least {} )", first_offset.saturating_sub(1))]
    Trimmed {
        index: usize,
        after_offset: u64,
        first_offset: u64,
    },
    #[error("the stream holds {database_bytes} bytes and its storage budget is {budget_bytes}; appends are refused until retention trims it (configure events.iterate.com/stream/retention-configured {{maxAgeMs, maxEvents, maxBytes}}; current retention: {})", retention.as_ref().and_then(|r| serde_json::to_string(r).ok()).unwrap_or_else(|| "none, keep everything".to_owned()))]
    StreamFull {
        database_bytes: u64,
        budget_bytes: u64,
        retention: Option<crate::retention::Retention>,
    },
    #[error("event {index}: the stream was closed at offset {closed_at}; no data event commits after it (control events still do)")]
    StreamClosed { index: usize, closed_at: u64 },
    #[error(transparent)]
    Scope(#[from] crate::route::scope::ScopeError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ApiFailure for AppendError {
    fn error_code(&self) -> ErrorCode {
        match self {
            AppendError::BodyTooLarge(_) | AppendError::TooManyEvents(_) => ErrorCode::BatchTooLarge,
            AppendError::BodyTooDeep(_) => ErrorCode::EventTooDeep,
            AppendError::MalformedJson(_) => ErrorCode::MalformedJson,
            AppendError::BatchShape | AppendError::EmptyBatch => ErrorCode::InvalidBatch,
            AppendError::Event { error, .. } => error.error_code(),
            AppendError::IdempotencyKeyReused { .. } => ErrorCode::IdempotencyKeyReused,
            AppendError::KeyIsConnection { .. } => ErrorCode::SubscriptionKeyConflict,
            AppendError::Reduce { error, .. } => error.error_code(),
            AppendError::Trimmed { .. } => ErrorCode::Trimmed,
            AppendError::StreamFull { .. } => ErrorCode::StreamFull,
            AppendError::StreamClosed { .. } => ErrorCode::StreamClosed,
            AppendError::Scope(error) => error.error_code(),
            AppendError::Storage(_) => ErrorCode::Internal,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            AppendError::Event { index, error } => {
                let mut fields = error.details();
                fields.insert("index".to_owned(), json!(index));
                fields
            }
            AppendError::Reduce { index, error } => {
                let mut fields = error.details();
                fields.insert("index".to_owned(), json!(index));
                fields
            }
            AppendError::StreamClosed { index, closed_at } => {
                details([("index", json!(index)), ("closedAt", json!(closed_at))])
            }
            AppendError::KeyIsConnection { index, key } => {
                details([("index", json!(index)), ("subscriptionKey", json!(key))])
            }
            AppendError::IdempotencyKeyReused { key, offset } => {
                details([("idempotencyKey", json!(key)), ("offset", json!(offset))])
            }
            AppendError::Trimmed {
                index,
                after_offset,
                first_offset,
            } => details([
                ("index", json!(index)),
                ("afterOffset", json!(after_offset)),
                ("firstOffset", json!(first_offset)),
            ]),
            AppendError::StreamFull {
                database_bytes,
                budget_bytes,
                retention,
            } => details([
                ("databaseBytes", json!(database_bytes)),
                ("budgetBytes", json!(budget_bytes)),
                ("retention", json!(retention)),
            ]),
            AppendError::Scope(error) => error.details(),
            _ => Map::new(),
        }
    }
}

/// The events a request body carries, and whether it used the batch form.
pub struct ParsedBody {
    pub events: Vec<InputEvent>,
    pub is_batch: bool,
}

/// Parses and validates a whole append body; nothing is committed on error.
pub fn parse_body(body: &[u8], authority: Authority) -> Result<ParsedBody, AppendError> {
    if body.len() > MAX_BATCH_BYTES {
        return Err(AppendError::BodyTooLarge(body.len()));
    }
    // A batch wraps each event two levels deeper than a single append.
    let depth = raw_depth(body);
    if depth > MAX_EVENT_DEPTH + 2 {
        return Err(AppendError::BodyTooDeep(depth));
    }
    let value: Value = serde_json::from_slice(body).map_err(|error| AppendError::MalformedJson(error.to_string()))?;
    let (raw_events, is_batch) = match value {
        Value::Object(mut fields) if fields.contains_key("events") && !fields.contains_key("type") => {
            match (fields.remove("events"), fields.is_empty()) {
                (Some(Value::Array(events)), true) => (events, true),
                _ => return Err(AppendError::BatchShape),
            }
        }
        single => (vec![single], false),
    };
    if raw_events.is_empty() {
        return Err(AppendError::EmptyBatch);
    }
    if raw_events.len() > MAX_BATCH_EVENTS {
        return Err(AppendError::TooManyEvents(raw_events.len()));
    }
    let events = raw_events
        .into_iter()
        .enumerate()
        .map(|(index, raw)| InputEvent::from_json(raw, authority).map_err(|error| AppendError::Event { index, error }))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ParsedBody { events, is_batch })
}

/// What one append committed (or found already committed).
#[derive(Debug)]
pub struct AppendOutcome {
    pub events: Vec<CommittedEvent>,
    pub deduplicated: Vec<bool>,
    pub is_batch: bool,
}

impl<S: Storage> Stream<S> {
    /// Appends a request body (§3): single event or `{"events": [...]}`.
    pub fn append_body(
        &mut self,
        body: &[u8],
        authority: Authority,
        inputs: &Inputs,
    ) -> Result<AppendOutcome, AppendError> {
        self.append_body_within(body, authority, None, inputs)
    }

    /// [`Self::append_body`] for a token limited to `prefix` (§2, `None`:
    /// the whole project): a cursor-set or resume of a copy into a stream
    /// outside the prefix is refused (403 `forbidden_scope`) before
    /// anything is committed.
    pub fn append_body_within(
        &mut self,
        body: &[u8],
        authority: Authority,
        prefix: Option<&str>,
        inputs: &Inputs,
    ) -> Result<AppendOutcome, AppendError> {
        let parsed = parse_body(body, authority)?;
        crate::route::scope::authorize_restarts(prefix, &parsed.events, |key| self.copy_target(key))?;
        self.check_storage_budget(&parsed.events, body.len())?;
        let (events, deduplicated) = self.append(parsed.events, inputs)?;
        Ok(AppendOutcome {
            events,
            deduplicated,
            is_batch: parsed.is_batch,
        })
    }

    /// Commits validated events all-or-nothing. Returns each event as
    /// committed, and whether it was an idempotent duplicate (§3 rule 4).
    pub fn append(
        &mut self,
        inputs_events: Vec<InputEvent>,
        inputs: &Inputs,
    ) -> Result<(Vec<CommittedEvent>, Vec<bool>), AppendError> {
        self.append_within(inputs_events, inputs, &|_| Ok(()))
    }

    /// [`Self::append`], writing `within` in the same transaction.
    pub(crate) fn append_within(
        &mut self,
        inputs_events: Vec<InputEvent>,
        inputs: &Inputs,
        within: &dyn Fn(&S) -> Result<(), StorageError>,
    ) -> Result<(Vec<CommittedEvent>, Vec<bool>), AppendError> {
        let nothing = FollowUp {
            first: &|_| Ok(()),
            ends_segment: &|_| false,
            derive: &|_, _| Ok(Vec::new()),
            within,
            received_from: None,
        };
        self.append_then(inputs_events, inputs, &nothing)
    }

    /// Commits `inputs_events`, then — in the same commit — whatever
    /// `follow` derives from what was just written (a receiving stream's own
    /// invalidation of its copies, §13). The batch is written in segments,
    /// each ending after an event `follow` names as a boundary, and each
    /// segment's derived events are written right after it: they take the
    /// offsets before any later event of the batch ("Copies and invalidation
    /// order").
    pub(crate) fn append_then<E: From<AppendError> + From<StorageError>>(
        &mut self,
        inputs_events: Vec<InputEvent>,
        inputs: &Inputs,
        follow: &FollowUp<S, E>,
    ) -> Result<(Vec<CommittedEvent>, Vec<bool>), E> {
        let mut staged = None;
        let result = self.storage.atomically(&mut || {
            (follow.first)(self)?;
            let mut done: Option<Staged> = None;
            // One segment per boundary plus the rest: at most one per event
            // of the (already bounded) batch, and at least one.
            let segments: Vec<&[InputEvent]> = if inputs_events.is_empty() {
                vec![&[]]
            } else {
                inputs_events
                    .split_inclusive(|input| (follow.ends_segment)(input))
                    .collect()
            };
            for segment in segments {
                let written = self.stage_and_write(segment, inputs, done.as_ref(), follow.received_from)?;
                let derived = (follow.derive)(self, &written.results)?;
                let mut merged = written.after(done.take());
                if !derived.is_empty() {
                    let more = self.stage_and_write(&derived, inputs, Some(&merged), None)?;
                    merged = more.after(Some(merged));
                }
                done = Some(merged);
            }
            let Some(outcome) = done else {
                return Ok(Vec::new());
            };
            (follow.within)(&self.storage)?;
            if let Some(state) = outcome.state.as_ref().filter(|state| state.expiry != self.state.expiry) {
                // A new expiry (§17) starts its stored deadline now.
                let deadline = crate::durable_streams::expiry::StoredExpiry::create(state.expiry, inputs.now_ms);
                crate::durable_streams::face::store::set_deadline(&self.storage, deadline.deadline_ms)?;
            }
            let added: u64 = new_rows(&outcome.results)
                .map(crate::retention::progress::row_bytes)
                .sum();
            let checkpoint = self.retention.checkpoint_due(outcome.meta.head, added);
            if let Some(row) = &checkpoint {
                row.save(&self.storage)?;
            }
            staged = Some((outcome.meta, outcome.state, checkpoint));
            Ok::<_, E>(outcome.results)
        })?;
        if let Some((meta, state, checkpoint)) = staged {
            let written: Vec<&StoredEvent> = new_rows(&result).collect();
            self.retention.appended(&written, checkpoint);
            self.lifetime = Some(meta);
            if let Some(state) = state {
                self.state = state;
                self.revalidate_configurations();
            }
        }
        self.counters.record_append(&result);
        if !self.live.is_empty() {
            // Fan-out at commit time (§10): the shell takes these next.
            self.committed.extend(
                result
                    .iter()
                    .filter(|(_, duplicate)| !duplicate)
                    .map(|(event, _)| CommittedEvent::from(event.clone())),
            );
        }
        let (events, flags) = result
            .into_iter()
            .map(|(event, dup)| (CommittedEvent::from(event), dup))
            .unzip();
        Ok((events, flags))
    }

    /// Stages `batch` on top of `base` (or of what is committed) and writes
    /// it, inside the caller's transaction (§3 rule 3): per event, an
    /// idempotent duplicate is answered from the earlier one; otherwise the
    /// event takes the next offset, is checked and folded — a copy folds
    /// into its fence record (§7 rule 2). The new rows are then inserted, a
    /// few to a statement; a changed reduced state is checked against its
    /// budget and written.
    fn stage_and_write(
        &self,
        batch: &[InputEvent],
        inputs: &Inputs,
        base: Option<&Staged>,
        received_from: Option<&HopText<'_>>,
    ) -> Result<Staged, AppendError> {
        let mut meta = match (base, &self.lifetime) {
            (Some(base), _) => base.meta.clone(),
            (None, Some(meta)) => meta.clone(),
            (None, None) => self.start_lifetime(inputs)?,
        };
        // Only control events change the reduced-state document (§5): a
        // batch of plain events or copies never copies it.
        let mut state = batch.iter().any(folds).then(|| {
            base.and_then(|base| base.state.clone())
                .unwrap_or_else(|| self.state.clone())
        });
        let mut state_changed = false;
        let mut results: Vec<(StoredEvent, bool)> = Vec::with_capacity(batch.len());
        let mut keys = BatchKeys {
            committed: rows::by_idempotency_keys(
                &self.storage,
                batch.iter().filter_map(|input| input.idempotency_key.as_deref()),
            )?,
            written: HashMap::new(),
        };
        let mut received = inbound::Received::committing();
        for (index, input) in batch.iter().enumerate() {
            if let Some(earlier) = self.duplicate_of(input, &keys, &results)? {
                results.push((earlier, true));
                continue;
            }
            let closed = state.as_ref().unwrap_or(&self.state).closed.as_ref();
            if let (Some(closed), None) = (closed, input.control_type()) {
                return Err(AppendError::StreamClosed {
                    index,
                    closed_at: closed.at_offset,
                });
            }
            let offset = meta.head + 1;
            let event = rows::stored_from_input(input, offset, inputs.now_ms)?;
            self.check_configured(index, input)?;
            self.check_cursor_set(index, input)?;
            state_changed |= fold_staged(state.as_mut(), index, input, &event)?;
            if event.source.is_some() {
                let noted = match received_from {
                    Some(hop) => received.note_hop(&self.storage, hop, event.created_at_ms),
                    None => received.note(&self.storage, &event),
                };
                noted.map_err(|error| match error {
                    InboundError::Full(records) => AppendError::Reduce {
                        index,
                        error: ReduceError::InboundFenceFull(records),
                    },
                    InboundError::Storage(error) => AppendError::Storage(error),
                })?;
            }
            meta.head = offset;
            meta.event_count += 1;
            if let Some(key) = &event.idempotency_key {
                keys.written.insert(key.clone(), results.len());
            }
            results.push((event, false));
        }
        // The new rows, a few to a statement (issue 33): nothing above reads
        // `events` (duplicates inside the batch are found by `keys.written`),
        // and an error above commits nothing, as the caller's transaction
        // rolls back.
        rows::insert_all(&self.storage, new_rows(&results))?;
        received.write(&self.storage)?;
        let state = state.filter(|_| state_changed);
        if let Some(state) = &state {
            let state_json = self.check_state_budget(batch, state)?;
            self.write_state_json(&state_json)?;
            self.repair_runtime_rows(state, meta.head)?;
        }
        Ok(Staged { meta, state, results })
    }

    /// The earlier event an input with an idempotency key duplicates (§3
    /// rule 4): one written earlier in this batch, else one in storage. The
    /// same key for different content is refused, except an engine fact's:
    /// the first fact under its key stands (`stream::facts`).
    fn duplicate_of(
        &self,
        input: &InputEvent,
        keys: &BatchKeys,
        results: &[(StoredEvent, bool)],
    ) -> Result<Option<StoredEvent>, AppendError> {
        let Some(key) = &input.idempotency_key else {
            return Ok(None);
        };
        let earlier = match keys.written.get(key).and_then(|at| results.get(*at)) {
            Some((event, _)) => Some(event),
            None => keys.committed.get(key),
        };
        match earlier {
            Some(earlier) if !input.same_content_as(earlier) && !input.restates_fact(earlier) => {
                Err(AppendError::IdempotencyKeyReused {
                    key: key.clone(),
                    offset: earlier.offset,
                })
            }
            earlier => Ok(earlier.cloned()),
        }
    }

    /// Deployment rules (§9) for a `subscription-configured` input: they
    /// apply when configuring, never on replay. A key held by an open live
    /// connection is refused. A payload that does not parse is left to the
    /// fold, which refuses it with its own error.
    fn check_configured(&self, index: usize, input: &InputEvent) -> Result<(), AppendError> {
        if input.control_type() != Some(ControlType::SubscriptionConfigured) {
            return Ok(());
        }
        let Ok(configuration) = Configuration::parse(&input.payload.tree()) else {
            return Ok(());
        };
        if let Some(key) = configuration
            .subscription_key
            .as_ref()
            .filter(|key| self.live.contains(key))
        {
            return Err(AppendError::KeyIsConnection {
                index,
                key: key.clone(),
            });
        }
        self.deployment
            .check(&configuration)
            .map_err(|error| AppendError::Reduce {
                index,
                error: ReduceError::Config(error),
            })
    }

    /// A cursor-set before `firstOffset` (§16) would skip trimmed events
    /// silently: refused with 410 `trimmed`. Setting it to `firstOffset − 1`
    /// (deliver from the first retained event) is allowed.
    fn check_cursor_set(&self, index: usize, input: &InputEvent) -> Result<(), AppendError> {
        if input.control_type() != Some(ControlType::SubscriptionCursorSet) {
            return Ok(());
        }
        let first_offset = self.retention.first_offset();
        match input.payload.tree().get("afterOffset").and_then(Value::as_u64) {
            Some(after_offset) if after_offset.saturating_add(1) < first_offset => Err(AppendError::Trimmed {
                index,
                after_offset,
                first_offset,
            }),
            _ => Ok(()),
        }
    }

    /// The storage budget (§16): near it, a body is refused with 507
    /// `stream_full` before SQLite could fail mid-commit. Only what lets
    /// retention make room still commits (`retention-configured`, and
    /// `subscription-removed`, which unpins the log); a retry of what was
    /// already committed answers as the duplicate it is.
    pub(crate) fn check_storage_budget(&self, events: &[InputEvent], body_bytes: usize) -> Result<(), AppendError> {
        if events.iter().all(frees_storage) {
            return Ok(());
        }
        let budget_bytes = self.deployment.storage_budget_bytes();
        let appended = self.retention.bytes;
        let known = self.retention.database_bytes_read.get().filter(|(size, at)| {
            let since = appended.saturating_sub(*at);
            since < crate::limits::BUDGET_RECHECK_BYTES
                && size
                    .saturating_add(since)
                    .saturating_add(body_bytes as u64)
                    .saturating_add(crate::limits::BUDGET_RECHECK_MARGIN_BYTES)
                    <= budget_bytes
        });
        if known.is_some() {
            return Ok(());
        }
        let database_bytes = self.storage.database_bytes()?;
        self.retention.database_bytes_read.set(Some((database_bytes, appended)));
        if database_bytes.saturating_add(body_bytes as u64) <= budget_bytes || self.all_committed(events)? {
            return Ok(());
        }
        Err(AppendError::StreamFull {
            database_bytes,
            budget_bytes,
            retention: self.state.retention.clone(),
        })
    }

    /// Whether every event of a body that needs room is an idempotent
    /// duplicate of one already committed (§3 rule 4): then nothing new
    /// would be written. One key lookup per event of the (bounded) body.
    fn all_committed(&self, events: &[InputEvent]) -> Result<bool, AppendError> {
        for event in events.iter().filter(|event| !frees_storage(event)) {
            let Some(key) = &event.idempotency_key else {
                return Ok(false);
            };
            match rows::by_idempotency_key(&self.storage, key)? {
                Some(earlier) if event.same_content_as(&earlier) => {}
                _ => return Ok(false),
            }
        }
        Ok(true)
    }

    /// The reduced-state bound (§5, §12): the document stays within its
    /// budget. Fence records are rows of their own table, bounded by count
    /// when a copy opens one (`state::inbound`), so copies from many sources
    /// never crowd out this stream's own subscriptions.
    fn check_state_budget(
        &self,
        batch: &[InputEvent],
        state: &crate::state::ReducedState,
    ) -> Result<String, AppendError> {
        let index = batch.len().saturating_sub(1);
        let state_json = state.to_json();
        if state_json.len() > MAX_REDUCED_STATE_BYTES {
            return Err(AppendError::Reduce {
                index,
                error: ReduceError::StateTooLarge(state_json.len()),
            });
        }
        Ok(state_json)
    }
}

/// The rows an append wrote (not its idempotent duplicates).
fn new_rows(results: &[(StoredEvent, bool)]) -> impl Iterator<Item = &StoredEvent> {
    results
        .iter()
        .filter(|(_, duplicate)| !duplicate)
        .map(|(event, _)| event)
}

/// Whether an input folds into the reduced-state document (§5): a control
/// event. Plain events never touch it; a copy (whose control events are data
/// here, §4) folds into its fence record instead.
fn folds(input: &InputEvent) -> bool {
    input.control_type().is_some()
}

/// Folds one written event into the staged state, when there is one and
/// the input folds; whether that changed the state. An audit fact changes
/// nothing; every other control event does.
fn fold_staged(
    state: Option<&mut crate::state::ReducedState>,
    index: usize,
    input: &InputEvent,
    event: &StoredEvent,
) -> Result<bool, AppendError> {
    let Some(state) = state.filter(|_| folds(input)) else {
        return Ok(false);
    };
    state
        .apply(event)
        .map_err(|error| AppendError::Reduce { index, error })?;
    Ok(input.control_type().is_some_and(ControlType::changes_state))
}

/// Events derived, in the same commit, from what an append just wrote.
pub(crate) type Derive<S> = dyn Fn(&Stream<S>, &[(StoredEvent, bool)]) -> Result<Vec<InputEvent>, AppendError>;

/// What an append checks first and derives, and where: `first` runs at the
/// start of the append's transaction, before anything is written (a
/// receiving stream's stamp fence, §7 rule 2), and refuses the whole batch
/// with its own error; `derive` runs after each segment of the batch, a
/// segment ending after each event `ends_segment` accepts.
pub(crate) struct FollowUp<'a, S: Storage, E = AppendError> {
    pub first: &'a dyn Fn(&Stream<S>) -> Result<(), E>,
    pub ends_segment: &'a dyn Fn(&InputEvent) -> bool,
    pub derive: &'a Derive<S>,
    /// Rows written in the same transaction once the events are (the
    /// protocol face's writer state, §17).
    pub within: &'a dyn Fn(&S) -> Result<(), StorageError>,
    /// The last hop every copy of the batch carries, when its reader found
    /// them all naming one pair and run (a copy batch, §7): the fence fold
    /// takes it instead of reading each copy's provenance again.
    pub received_from: Option<&'a HopText<'a>>,
}

/// The earlier events one batch's idempotency keys can name (§3 rule 4):
/// those committed before it, read in one query for the whole batch, and
/// those it wrote itself, by their place in the batch's results.
struct BatchKeys {
    committed: HashMap<String, StoredEvent>,
    written: HashMap<String, usize>,
}

struct Staged {
    meta: crate::schema::StreamMetaRow,
    /// The new reduced state, when the batch changed it.
    state: Option<crate::state::ReducedState>,
    results: Vec<(StoredEvent, bool)>,
}

impl Staged {
    /// This stage written after `earlier` (staged on top of it): the later
    /// meta, the latest changed state, all results in order.
    fn after(self, earlier: Option<Staged>) -> Staged {
        let Some(earlier) = earlier else { return self };
        let mut results = earlier.results;
        results.extend(self.results);
        Staged {
            meta: self.meta,
            state: self.state.or(earlier.state),
            results,
        }
    }
}

/// What a full stream still commits (§16): what lets retention make room.
fn frees_storage(event: &InputEvent) -> bool {
    matches!(
        event.control_type(),
        Some(ControlType::RetentionConfigured | ControlType::SubscriptionRemoved)
    )
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::state::ReducedState;

    fn input(value: Value) -> InputEvent {
        InputEvent::from_json(value, Authority::Trusted).unwrap()
    }

    fn written(input: &InputEvent) -> StoredEvent {
        rows::stored_from_input(input, 1, 0).unwrap()
    }

    #[test]
    fn only_control_events_fold_into_the_document() {
        assert!(!folds(&input(json!({"type": "order-placed"}))));
        assert!(folds(&input(
            json!({"type": ControlType::SubscriptionRemoved.as_str()})
        )));
    }

    #[test]
    fn a_plain_event_or_no_staged_state_changes_nothing() {
        let plain = input(json!({"type": "order-placed"}));
        let mut state = ReducedState::default();
        assert!(!fold_staged(Some(&mut state), 0, &plain, &written(&plain)).unwrap());
        let removed =
            input(json!({"type": ControlType::SubscriptionRemoved.as_str(), "payload": {"subscriptionKey": "a"}}));
        assert!(!fold_staged(None, 0, &removed, &written(&removed)).unwrap());
        assert_eq!(state, ReducedState::default());
    }

    #[test]
    fn a_refused_fold_names_its_index() {
        let removed =
            input(json!({"type": ControlType::SubscriptionRemoved.as_str(), "payload": {"subscriptionKey": "a"}}));
        let mut state = ReducedState::default();
        let error = fold_staged(Some(&mut state), 3, &removed, &written(&removed)).unwrap_err();
        assert!(
            matches!(&error, AppendError::Reduce { index: 3, error: ReduceError::UnknownSubscription(key) } if key == "a"),
            "{error:?}"
        );
    }
}
