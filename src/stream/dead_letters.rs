//! The dead-letter queue (docs/design.md §8): rows written before a cursor passes
//! an event it gave up on, listed in insertion order, replayed through the
//! subscription's current receiver, or discarded. Replay is the only route
//! that resends.

use super::Stream;
use crate::delivery::{DeliveryPlan, Outcome, PlannedEvent};
use crate::error::{details, ApiFailure, ErrorCode};
use crate::event::ControlType;
use crate::invalidation::Invalidation;
use crate::limits::{
    DEFAULT_DEAD_LETTER_PAGE, MAX_DEAD_LETTER_PAGE, MAX_REPLAY_INVALIDATIONS_CHECKED, REPLAY_INVALIDATION_PAGE,
};
use crate::schema::DeadLetterRow;
use crate::storage::{Columns, SqlValue, Storage, StorageError};
use crate::stream::read::parse_offset;
use crate::subscription::Receiver;
use crate::time::rfc3339_millis;
use serde_json::{json, Map, Value};

#[derive(Debug, thiserror::Error)]
pub enum DeadLetterError {
    #[error("no dead letter with id {0}")]
    NotFound(u64),
    #[error("subscription '{0}' no longer exists or cannot receive replays")]
    NoReceiver(String),
    #[error("dead letter {0} is a retraction; a retraction cannot be replayed (its event was invalidated)")]
    RetractionNotReplayable(u64),
    #[error("dead letter {id} is of event {offset}, which events-invalidated at offset {invalidated_at} declared invalid; an invalidated event is not replayed (its retraction is what the receiver gets)")]
    EventInvalidated { id: u64, offset: u64, invalidated_at: u64 },
    #[error("more than {MAX_REPLAY_INVALIDATIONS_CHECKED} invalidations follow event {offset}; dead letter {id} cannot be checked for one naming it, so it is not replayed")]
    InvalidationCheckTooLong { id: u64, offset: u64 },
    #[error("the stream lifetime dead letter {id} was replayed in has ended (the stream was deleted, and perhaps created again); nothing was changed")]
    LifetimeEnded { id: u64 },
    #[error("query parameter '{name}' {problem}")]
    InvalidParameter { name: &'static str, problem: String },
    #[error(transparent)]
    Read(#[from] crate::stream::ReadError),
    #[error(transparent)]
    Scope(#[from] crate::route::scope::ScopeError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ApiFailure for DeadLetterError {
    fn error_code(&self) -> ErrorCode {
        match self {
            DeadLetterError::NotFound(_) => ErrorCode::DeadLetterNotFound,
            DeadLetterError::NoReceiver(_) => ErrorCode::ReplayReceiverGone,
            DeadLetterError::RetractionNotReplayable(_) => ErrorCode::NoReplayRetracted,
            DeadLetterError::EventInvalidated { .. } => ErrorCode::NoReplayInvalidated,
            DeadLetterError::InvalidationCheckTooLong { .. } => ErrorCode::ReplayCheckTooLong,
            DeadLetterError::LifetimeEnded { .. } => ErrorCode::StreamLifetimeEnded,
            DeadLetterError::InvalidParameter { .. } => ErrorCode::InvalidParameter,
            DeadLetterError::Read(error) => error.error_code(),
            DeadLetterError::Scope(error) => error.error_code(),
            DeadLetterError::Storage(_) => ErrorCode::Internal,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            DeadLetterError::InvalidParameter { name, .. } => details([("parameter", json!(name))]),
            DeadLetterError::EventInvalidated {
                id,
                offset,
                invalidated_at,
            } => details([
                ("id", json!(id)),
                ("offset", json!(offset)),
                ("invalidatedAtOffset", json!(invalidated_at)),
            ]),
            DeadLetterError::InvalidationCheckTooLong { id, .. } | DeadLetterError::LifetimeEnded { id } => {
                details([("id", json!(id))])
            }
            DeadLetterError::Scope(error) => error.details(),
            _ => Map::new(),
        }
    }
}

const COLUMNS: &str = "id, subscription_key, event_offset, delivery_id, attempts, reason, payload, created_at_ms, kind";

fn decode(sql: &str, row: &[SqlValue]) -> Result<DeadLetterRow, StorageError> {
    let columns = Columns { query: sql, row };
    Ok(DeadLetterRow {
        id: columns.int(0)?.max(0) as u64,
        subscription_key: columns.text(1)?,
        offset: columns.int(2)?.max(0) as u64,
        delivery_id: columns.text(3)?,
        attempts: columns.int(4)?.max(0) as u64,
        reason: columns.text(5)?,
        payload: serde_json::from_str(&columns.text(6)?).unwrap_or(Value::Null),
        created_at: rfc3339_millis(columns.int(7)?),
        kind: columns.text(8)?,
    })
}

/// `?subscriptionKey=&after=&limit=` of the dead-letter list.
#[derive(Debug, Default)]
pub struct DeadLetterQuery {
    pub subscription_key: Option<String>,
    pub after: u64,
    pub limit: u64,
}

impl DeadLetterQuery {
    pub fn parse(query: &str) -> Result<Self, DeadLetterError> {
        let mut parsed = DeadLetterQuery {
            subscription_key: None,
            after: 0,
            limit: DEFAULT_DEAD_LETTER_PAGE,
        };
        let invalid = |name: &'static str, problem: &str| DeadLetterError::InvalidParameter {
            name,
            problem: problem.to_owned(),
        };
        for pair in query.split('&').filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match name {
                "subscriptionKey" => {
                    parsed.subscription_key = Some(
                        crate::route::percent_decode(&value.replace('+', " "))
                            .ok_or_else(|| invalid("subscriptionKey", "is not valid percent-encoding"))?,
                    )
                }
                "after" => parsed.after = parse_offset("after", value)?,
                "limit" => {
                    parsed.limit = parse_offset("limit", value)?;
                    if !(1..=MAX_DEAD_LETTER_PAGE).contains(&parsed.limit) {
                        return Err(invalid(
                            "limit",
                            &format!("must be between 1 and {MAX_DEAD_LETTER_PAGE}"),
                        ));
                    }
                }
                _ => return Err(invalid("query", "has an unknown parameter")),
            }
        }
        Ok(parsed)
    }
}

impl<S: Storage> Stream<S> {
    /// Writes one dead letter per event of `plan` (idempotent per delivery id
    /// and offset), before the caller moves the cursor (§8 write-then-advance).
    pub(crate) fn record_dead_letters(
        &mut self,
        plan: &DeliveryPlan,
        attempts: u64,
        reason: &str,
        now_ms: i64,
    ) -> Result<(), StorageError> {
        for event in &plan.events {
            // A letter from a digest gets the id a single-event delivery of its
            // offset would have: its replay must not share the digest's id, or
            // a consumer deduplicating on webhook-id would drop it (§8, §9).
            let delivery_id = match plan.events.len() {
                1 => plan.delivery_id.clone(),
                _ => crate::copy::delivery_id(
                    &plan.stamp.stream_id,
                    &plan.subscription_key,
                    event.offset.saturating_sub(1),
                    event.offset,
                ),
            };
            let kind = if plan.retraction.is_some() {
                "retraction"
            } else {
                "event"
            };
            self.storage.execute(
                "INSERT OR IGNORE INTO dead_letters (subscription_key, event_offset, delivery_id, attempts, reason, payload, created_at_ms, kind) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                &[
                    plan.subscription_key.as_str().into(),
                    event.offset.into(),
                    delivery_id.into(),
                    attempts.into(),
                    reason.into(),
                    event.body.to_string().into(),
                    SqlValue::Integer(now_ms),
                    kind.into(),
                ],
            )?;
        }
        self.counters.dead_letters += plan.events.len() as u64;
        Ok(())
    }

    /// Dead letters in insertion order, paged by id (§8).
    pub fn dead_letters(&self, query: &DeadLetterQuery) -> Result<Value, DeadLetterError> {
        self.existing()?;
        let sql = format!(
            "SELECT {COLUMNS} FROM dead_letters WHERE id > ? AND (? IS NULL OR subscription_key = ?) ORDER BY id LIMIT +?"
        );
        let key: SqlValue = query.subscription_key.clone().into();
        let rows = self
            .storage
            .query(&sql, &[query.after.into(), key.clone(), key, query.limit.into()])?;
        let letters = rows
            .iter()
            .map(|row| decode(&sql, row))
            .collect::<Result<Vec<_>, _>>()?;
        let next_after = letters.last().map_or(query.after, |letter| letter.id);
        Ok(json!({ "deadLetters": letters, "nextAfter": next_after }))
    }

    fn dead_letter(&self, id: u64) -> Result<DeadLetterRow, DeadLetterError> {
        self.existing()?;
        let sql = format!("SELECT {COLUMNS} FROM dead_letters WHERE id = ?");
        let rows = self.storage.query(&sql, &[id.into()])?;
        let row = rows.first().ok_or(DeadLetterError::NotFound(id))?;
        Ok(decode(&sql, row)?)
    }

    pub fn discard_dead_letter(&mut self, id: u64) -> Result<(), DeadLetterError> {
        self.dead_letter(id)?;
        self.storage
            .execute("DELETE FROM dead_letters WHERE id = ?", &[id.into()])?;
        Ok(())
    }

    /// Discards every dead letter of one subscription (or all, without a key).
    pub fn discard_dead_letters(&mut self, query: &DeadLetterQuery) -> Result<Value, DeadLetterError> {
        self.existing()?;
        let key: SqlValue = query.subscription_key.clone().into();
        let sql = "SELECT COUNT(*) FROM dead_letters WHERE (? IS NULL OR subscription_key = ?)";
        let count = match self.storage.query(sql, &[key.clone(), key.clone()])?.first() {
            Some(row) => Columns { query: sql, row }.int(0)?,
            None => 0,
        };
        self.storage.execute(
            "DELETE FROM dead_letters WHERE (? IS NULL OR subscription_key = ?)",
            &[key.clone(), key],
        )?;
        Ok(json!({ "discarded": count }))
    }

    /// A plan that resends one dead letter to the subscription's *current*
    /// receiver, under its original delivery id (§8 replay).
    pub fn plan_replay(&self, id: u64, now_ms: i64) -> Result<DeliveryPlan, DeadLetterError> {
        self.plan_replay_within(id, now_ms, None)
    }

    /// [`Self::plan_replay`] asked by a token limited to `prefix` (§2,
    /// `None`: the whole project): a letter whose subscription now copies
    /// into a stream outside the prefix is refused (403 `forbidden_scope`).
    pub fn plan_replay_within(
        &self,
        id: u64,
        now_ms: i64,
        prefix: Option<&str>,
    ) -> Result<DeliveryPlan, DeadLetterError> {
        let letter = self.dead_letter(id)?;
        if let Some(target) = self.copy_target(&letter.subscription_key) {
            crate::route::scope::copy_within(prefix, target)?;
        }
        if letter.kind == "retraction" {
            return Err(DeadLetterError::RetractionNotReplayable(id));
        }
        if let Some(invalidated_at) = self.invalidated_at(&letter)? {
            return Err(DeadLetterError::EventInvalidated {
                id,
                offset: letter.offset,
                invalidated_at,
            });
        }
        let no_receiver = || DeadLetterError::NoReceiver(letter.subscription_key.clone());
        let subscription = self
            .state
            .subscriptions
            .outbound
            .by_key
            .get(&letter.subscription_key)
            .ok_or_else(no_receiver)?;
        let configuration = subscription
            .configuration
            .valid()
            .filter(|configuration| {
                matches!(
                    configuration.receiver,
                    Receiver::WebhookPost { .. } | Receiver::ItxCall { .. } | Receiver::Log { .. }
                )
            })
            .ok_or_else(no_receiver)?;
        let stamp = self
            .stamp_for(&letter.subscription_key, subscription)
            .ok_or_else(no_receiver)?;
        let created_at_ms =
            crate::stream::rows::by_offset(&self.storage, letter.offset)?.map_or(now_ms, |event| event.created_at_ms);
        let prepared_failure = self
            .deployment
            .check(configuration)
            .err()
            .map(|error| Outcome::permanent(format!("this deployment no longer allows the receiver: {error}")));
        let mut plan = DeliveryPlan {
            subscription_key: letter.subscription_key.clone(),
            receiver: configuration.receiver.clone(),
            stamp,
            after_offset: letter.offset.saturating_sub(1),
            through_offset: letter.offset,
            attempt: letter.attempts + 1,
            lease: 0,
            delivery_id: letter.delivery_id.clone(),
            started_at_ms: now_ms,
            events: vec![PlannedEvent {
                offset: letter.offset,
                created_at_ms,
                body: letter.payload.clone().into(),
            }],
            prepared_failure,
            throttled: false,
            timeout_ms: crate::limits::SEND_TIMEOUT_MS,
            retraction: None,
        };
        if matches!(plan.receiver, Receiver::Log { .. }) && plan.prepared_failure.is_none() {
            // A line no invocation may write is never written (§15.1, §12).
            let cost = crate::delivery::log_lines::cost_of(&plan);
            plan.prepared_failure = crate::delivery::log_lines::too_large(cost).map(Outcome::permanent);
        }
        Ok(plan)
    }

    /// The offset of this stream's own `events-invalidated` naming the
    /// letter's event, if one does (§13): its retraction went out, or goes
    /// out when the cursor reaches it, so the event itself is never resent.
    /// Reads only invalidations after the event, in pages, at most
    /// [`MAX_REPLAY_INVALIDATIONS_CHECKED`] of them.
    fn invalidated_at(&self, letter: &DeadLetterRow) -> Result<Option<u64>, DeadLetterError> {
        let sql = "SELECT event_offset, payload FROM events WHERE event_offset > ? AND type = ? \
                   AND source IS NULL ORDER BY event_offset LIMIT +?";
        let kind = ControlType::EventsInvalidated.as_str();
        let mut after = letter.offset;
        let mut checked = 0;
        while checked < MAX_REPLAY_INVALIDATIONS_CHECKED {
            let rows = self
                .storage
                .query(sql, &[after.into(), kind.into(), REPLAY_INVALIDATION_PAGE.into()])?;
            for row in &rows {
                let columns = Columns { query: sql, row };
                let at = columns.int(0)?.max(0) as u64;
                let payload: Value = serde_json::from_str(&columns.text(1)?).unwrap_or(Value::Null);
                if Invalidation::parse(&payload, at).is_ok_and(|invalidation| invalidation.covers(letter.offset)) {
                    return Ok(Some(at));
                }
                after = at;
            }
            if (rows.len() as u64) < REPLAY_INVALIDATION_PAGE {
                return Ok(None);
            }
            checked += REPLAY_INVALIDATION_PAGE;
        }
        Err(DeadLetterError::InvalidationCheckTooLong {
            id: letter.id,
            offset: letter.offset,
        })
    }

    /// Applies the outcome of `plan`, a replay of letter `id`: success
    /// deletes the letter; failure bumps its attempts and records the
    /// reason, keeping it. Returns whether it was delivered. Fenced by the
    /// lifetime the replay was planned in and by the letter itself (§8, §3
    /// rule 6): a replay finishing after the stream was deleted and created
    /// again (its ids start over) or after its letter was discarded changes
    /// no other letter.
    pub fn complete_replay(
        &mut self,
        id: u64,
        plan: &DeliveryPlan,
        attempts: u64,
        outcome: &Outcome,
    ) -> Result<bool, DeadLetterError> {
        let current = self.lifetime.as_ref().map(|meta| meta.stream_id.as_str());
        if current != Some(plan.stamp.stream_id.as_str()) {
            return Err(DeadLetterError::LifetimeEnded { id });
        }
        let (offset, delivery_id) = match plan.events.as_slice() {
            [event] => (event.offset, plan.delivery_id.as_str()),
            _ => return Err(DeadLetterError::NotFound(id)),
        };
        let letter: [SqlValue; 4] = [
            id.into(),
            plan.subscription_key.as_str().into(),
            offset.into(),
            delivery_id.into(),
        ];
        const THIS_LETTER: &str = "id = ? AND subscription_key = ? AND event_offset = ? AND delivery_id = ?";
        match outcome {
            Outcome::Delivered | Outcome::Checkpointed { .. } => {
                self.storage
                    .execute(&format!("DELETE FROM dead_letters WHERE {THIS_LETTER}"), &letter)?;
                Ok(true)
            }
            Outcome::Failed { kind, message, .. } => {
                let reason = match kind {
                    crate::delivery::FailureKind::Permanent => format!("permanent: {message}"),
                    crate::delivery::FailureKind::Transient => format!("transient: {message}"),
                };
                let [id, key, offset, delivery_id] = letter;
                self.storage.execute(
                    &format!("UPDATE dead_letters SET attempts = ?, reason = ? WHERE {THIS_LETTER}"),
                    &[attempts.into(), reason.into(), id, key, offset, delivery_id],
                )?;
                Ok(false)
            }
        }
    }

    /// Dead letters per subscription, for the debug card.
    pub(crate) fn dead_letter_counts(&self) -> std::collections::BTreeMap<String, u64> {
        let sql = "SELECT subscription_key, COUNT(*) FROM dead_letters GROUP BY subscription_key";
        let Ok(rows) = self.storage.query(sql, &[]) else {
            return Default::default();
        };
        rows.iter()
            .filter_map(|row| {
                let columns = Columns { query: sql, row };
                Some((columns.text(0).ok()?, columns.int(1).ok()?.max(0) as u64))
            })
            .collect()
    }
}
