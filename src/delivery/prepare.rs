//! Shaping one scanned event for its receiver (docs/design.md §5, §7 rule 3, §12):
//! the filter decides whether it is sent, the transform what is sent, and a
//! copy adds its provenance chain and idempotency key.

use crate::copy::{chain_of_text, CopyKeyForm, CopyKeys, HopText, Stamp};
use crate::event::{CommittedEvent, ControlType, StoredEvent};
use crate::invalidation::Invalidation;
use crate::json_field::JsonField;
use crate::jsonata::{JsonataError, StepBudget};
use crate::limits::MAX_STREAM_SUBSCRIPTIONS;
use crate::storage::{Columns, Storage, StorageError};
use crate::stream::Stream;
use crate::subscription::{Configuration, Receiver};
use crate::time::rfc3339_millis;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// This stream's own `events-invalidated` (a copied one is data here, §4).
pub(super) fn local_invalidation(event: &StoredEvent) -> Option<Invalidation> {
    if event.source.is_some() || !ControlType::EventsInvalidated.is(&event.event_type) {
        return None;
    }
    let payload: Value = serde_json::from_str(event.payload.get()).ok()?;
    Invalidation::parse(&payload, event.offset).ok()
}

/// Audit facts this stream appended itself are never delivered onward (§7 rule 3).
fn is_local_audit(event: &StoredEvent) -> bool {
    event.source.is_none() && ControlType::ErrorOccurred.is(&event.event_type)
}

pub(super) enum Prepared {
    Send(JsonField),
    Skip,
    /// The filter or transform failed on this event: it is a permanent
    /// failure of the event (§5), carried in the plan so that `skip` mode
    /// dead-letters it (§6 rule 11) and `halt` mode halts on it.
    Fail {
        message: String,
        body: Value,
    },
    /// The scan's JSONata step budget ran out on this event (§12 "JSONata
    /// per engine call"): not a failure; the scan stops before it and the
    /// next call evaluates it again with a fresh budget.
    OutOfSteps,
}

impl<S: Storage> Stream<S> {
    /// The key form of the run `stamp` names when it copies (§7 rule 4): the
    /// first form for a run this stream had when the ordered form came
    /// (`copy_key_first_form_runs`, read once per object and lifetime), the
    /// ordered form for every other run and receiver.
    pub(super) fn copy_key_form(
        &mut self,
        configuration: &Configuration,
        stamp: &Stamp,
    ) -> Result<CopyKeyForm, StorageError> {
        if !matches!(configuration.receiver, Receiver::CopyToStream { .. }) {
            return Ok(CopyKeyForm::Ordered);
        }
        if self.memory.copy_key_first_form_runs.is_none() {
            // One row per runtime row the stream had when the table was
            // written: at most the subscriptions a stream holds (§12).
            let sql = "SELECT subscription_key, run_offset FROM copy_key_first_form_runs LIMIT +?";
            let mut runs: BTreeMap<String, BTreeSet<u64>> = BTreeMap::new();
            for row in self.storage.query(sql, &[(MAX_STREAM_SUBSCRIPTIONS as u64).into()])? {
                let columns = Columns { query: sql, row: &row };
                runs.entry(columns.text(0)?)
                    .or_default()
                    .insert(columns.int(1)?.max(0) as u64);
            }
            self.memory.copy_key_first_form_runs = Some(runs);
        }
        let first = self
            .memory
            .copy_key_first_form_runs
            .as_ref()
            .and_then(|runs| runs.get(&stamp.subscription_key))
            .is_some_and(|runs| runs.contains(&stamp.cursor_changed_at_source_offset));
        Ok(if first {
            CopyKeyForm::First
        } else {
            CopyKeyForm::Ordered
        })
    }

    pub(super) fn prepare(
        &mut self,
        configuration: &Configuration,
        stamp: &Stamp,
        keys: &CopyKeys,
        event: &StoredEvent,
        steps: &mut StepBudget,
    ) -> Prepared {
        if is_local_audit(event) {
            return Prepared::Skip;
        }
        if let Some(types) = configuration
            .filter
            .as_ref()
            .and_then(|filter| filter.event_types.as_ref())
        {
            if !types.contains(&event.event_type) {
                return Prepared::Skip;
            }
        }
        let condition = configuration
            .filter
            .as_ref()
            .and_then(|filter| filter.jsonata_condition.as_deref());
        let transform = configuration.receiver.jsonata_transform();
        let copies = matches!(configuration.receiver, Receiver::CopyToStream { .. });
        if condition.is_none() && transform.is_none() && copies {
            // A plain copy takes the event's type, payload and metadata
            // (§7) as they are stored: no JSON tree of it is built.
            return copy_shaped(stamp, keys, event, (&event.event_type, &event.payload, &event.metadata));
        }
        if condition.is_none() && transform.is_none() && matches!(configuration.receiver, Receiver::WebhookPost { .. })
        {
            // A plain webhook sends the committed event as a read returns
            // it (§9): its stored text, with no tree of it built.
            if let Ok(text) = serde_json::value::to_raw_value(&CommittedEvent::from(event.clone())) {
                return Prepared::Send(JsonField::Wire(text));
            }
        }
        let committed = serde_json::to_value(CommittedEvent::from(event.clone())).unwrap_or(Value::Null);
        if let Some(condition) = condition {
            if let Some(rejected) = self.condition(condition, event.offset, &committed, steps) {
                return rejected;
            }
        }
        let mut shaped = Map::new();
        shaped.insert("type".to_owned(), json!(event.event_type));
        for name in ["payload", "metadata"] {
            shaped.insert(name.to_owned(), committed.get(name).cloned().unwrap_or(Value::Null));
        }
        if let Some(transform) = transform {
            if let Some(failed) = self.transform(transform, event.offset, &committed, &mut shaped, steps) {
                return failed;
            }
        }
        if !copies {
            let mut delivered = match committed {
                Value::Object(fields) => fields,
                _ => Map::new(),
            };
            delivered.extend(shaped);
            return Prepared::Send(Value::Object(delivered).into());
        }
        let field = |name: &str| shaped.get(name).unwrap_or(&Value::Null);
        copy_shaped(stamp, keys, event, (field("type"), field("payload"), field("metadata")))
    }

    /// The filter's JSONata condition on one event: `None` when it matches.
    fn condition(
        &mut self,
        condition: &str,
        offset: u64,
        committed: &Value,
        steps: &mut StepBudget,
    ) -> Option<Prepared> {
        match self
            .compiled(condition)
            .and_then(|compiled| compiled.matches_metered(committed, steps))
        {
            Ok(true) => None,
            Ok(false) => Some(Prepared::Skip),
            Err(JsonataError::CallBudgetSpent) => Some(Prepared::OutOfSteps),
            Err(error) => Some(Prepared::Fail {
                message: format!("filter failed on offset {offset}: {error}"),
                body: committed.clone(),
            }),
        }
    }

    /// The receiver's JSONata transform, overriding `shaped`'s fields: `None`
    /// when it produced an object.
    fn transform(
        &mut self,
        transform: &str,
        offset: u64,
        committed: &Value,
        shaped: &mut Map<String, Value>,
        steps: &mut StepBudget,
    ) -> Option<Prepared> {
        match self
            .compiled(transform)
            .and_then(|compiled| compiled.evaluate_metered(Some(committed), steps))
        {
            Err(JsonataError::CallBudgetSpent) => Some(Prepared::OutOfSteps),
            Ok(Some(Value::Object(fields))) => {
                for name in ["type", "payload", "metadata"] {
                    if let Some(value) = fields.get(name) {
                        shaped.insert(name.to_owned(), value.clone());
                    }
                }
                None
            }
            Ok(other) => {
                let got = crate::text::excerpt(&other.map_or("undefined".to_owned(), |v| v.to_string()));
                Some(Prepared::Fail {
                    message: format!("transform on offset {offset} must produce an object, got {got}"),
                    body: committed.clone(),
                })
            }
            Err(error) => Some(Prepared::Fail {
                message: format!("transform failed on offset {offset}: {error}"),
                body: committed.clone(),
            }),
        }
    }
}

/// A copied event: its shaped fields, the provenance chain with this hop
/// appended, and the idempotency key the receiving stream dedupes on,
/// written once as the text the receiving stream stores
/// (`stream::copy_wire`); no tree of it is built.
fn copy_shaped<T, P, M>(stamp: &Stamp, keys: &CopyKeys, event: &StoredEvent, shaped: (T, P, M)) -> Prepared
where
    T: Serialize,
    P: Serialize,
    M: Serialize,
{
    #[derive(Serialize)]
    struct Copy<'a, T, P, M> {
        #[serde(rename = "type")]
        event_type: T,
        payload: P,
        metadata: M,
        source: Provenance<'a>,
        #[serde(rename = "idempotencyKey")]
        idempotency_key: String,
    }
    #[derive(Serialize)]
    struct Provenance<'a> {
        #[serde(rename = "copiedFrom")]
        copied_from: Vec<HopText<'a>>,
    }
    let mut chain = event
        .source
        .as_ref()
        .map(|raw| chain_of_text(raw.get()))
        .unwrap_or_default();
    chain.push(HopText {
        project_id: Cow::Borrowed(&stamp.source_project_id),
        path: Cow::Borrowed(&stamp.source_path),
        stream_id: Cow::Borrowed(&stamp.stream_id),
        stream_created_at: Cow::Borrowed(&stamp.stream_created_at),
        offset: event.offset,
        event_type: Cow::Borrowed(&event.event_type),
        created_at: Cow::Owned(rfc3339_millis(event.created_at_ms)),
        subscription_key: Cow::Borrowed(&stamp.subscription_key),
        cursor_changed_at_source_offset: stamp.cursor_changed_at_source_offset,
    });
    let (event_type, payload, metadata) = shaped;
    let copy = Copy {
        event_type,
        payload,
        metadata,
        source: Provenance { copied_from: chain },
        idempotency_key: keys.key(event.offset),
    };
    match serde_json::value::to_raw_value(&copy) {
        Ok(text) => Prepared::Send(JsonField::Wire(text)),
        Err(error) => Prepared::Fail {
            message: format!("the copy of offset {} could not be written: {error}", event.offset),
            body: Value::Null,
        },
    }
}
