//! copy-to-stream (docs/design.md §7): the stamp of a delivery run, the provenance
//! hop every copy carries, the batch that crosses from the source stream to
//! the receiving stream, and the derived identity that makes retries collapse.

use crate::event::StoredEvent;
use crate::invalidation::is_invalidation_type;
use crate::json_field::JsonField;
use crate::records::RunStamp;
use crate::subscription::Receiver;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;

/// The run that produced a batch: source lifetime plus config generation,
/// and the source coordinates it belongs to. The run part is a
/// [`RunStamp`] ([`Stamp::run_stamp`]), which orders numerically.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stamp {
    pub source_project_id: String,
    pub source_path: String,
    pub subscription_key: String,
    pub stream_id: String,
    /// RFC 3339 with milliseconds (§3); ordered as a time by [`RunStamp`].
    pub stream_created_at: String,
    /// The config generation (§7).
    pub cursor_changed_at_source_offset: u64,
}

impl Stamp {
    /// The run this stamp names (§7): what the fence compares.
    pub fn run_stamp(&self) -> RunStamp {
        RunStamp {
            stream_id: self.stream_id.clone(),
            stream_created_at: self.stream_created_at.clone(),
            cursor_changed_at_source_offset: self.cursor_changed_at_source_offset,
        }
    }
}

/// One hop of `source.copiedFrom` (§7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hop {
    pub project_id: String,
    pub path: String,
    pub stream_id: String,
    pub stream_created_at: String,
    pub offset: u64,
    #[serde(rename = "type")]
    pub event_type: String,
    pub created_at: String,
    pub subscription_key: String,
    /// The config generation (§7) of the run that copied it.
    pub cursor_changed_at_source_offset: u64,
}

impl Hop {
    /// The stamp of the run that made this hop (§7): the last hop of a
    /// committed copy carries the fence's record.
    pub fn run_stamp(&self) -> RunStamp {
        RunStamp {
            stream_id: self.stream_id.clone(),
            stream_created_at: self.stream_created_at.clone(),
            cursor_changed_at_source_offset: self.cursor_changed_at_source_offset,
        }
    }
}

/// What the source sends to the receiving stream's internal copy route.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CopyBatch {
    pub stamp: Stamp,
    /// Input events (trusted form: each carries `source.copiedFrom` and its
    /// derived `idempotencyKey`).
    pub events: Vec<Value>,
}

/// A [`CopyBatch`]'s JSON body, serialized from borrowed events: the
/// source sends a plan's events as they are, without copying each first.
pub fn copy_batch_json<'a>(
    stamp: &Stamp,
    events: impl Iterator<Item = &'a JsonField>,
) -> Result<String, serde_json::Error> {
    #[derive(Serialize)]
    struct Borrowed<'a> {
        stamp: &'a Stamp,
        events: Vec<&'a JsonField>,
    }
    serde_json::to_string(&Borrowed {
        stamp,
        events: events.collect(),
    })
}

/// The form of a copy's idempotency key (§7 rule 4). Both are derived from
/// the same coordinates; a run keeps the form it began with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyKeyForm {
    /// `copy:` + the blake3 of the source coordinates, subscription key,
    /// generation and offset (64 hex): runs begun before the ordered form
    /// (migration 0016).
    First,
    /// `copy:` + the first 32 hex of the blake3 of the source coordinates,
    /// subscription key and generation, then the offset in 16 hex: one
    /// run's keys sort in offset order, so the receiving stream's key index
    /// grows at one end instead of taking a random page per copy.
    Ordered,
}

/// A copy's idempotency key (§7 rule 4) in the ordered form: network retries
/// within one run collapse; a new run (recreated source, replaced key,
/// cursor-set) is a different identity.
pub fn copy_idempotency_key(stamp: &Stamp, offset: u64) -> String {
    copy_idempotency_key_in(CopyKeyForm::Ordered, stamp, offset)
}

/// A copy's idempotency key in `form`.
pub fn copy_idempotency_key_in(form: CopyKeyForm, stamp: &Stamp, offset: u64) -> String {
    CopyKeys::new(form, stamp).key(offset)
}

/// One run's copy keys (§7 rule 4): what every key of the run shares is
/// hashed once, so a batch does not hash the run again per event.
#[derive(Debug, Clone)]
pub enum CopyKeys {
    /// The run's hash state; each key hashes its offset after it.
    First(Box<blake3::Hasher>),
    /// `copy:` and the run's 32 hex digits; each key appends its offset.
    Ordered(String),
}

impl CopyKeys {
    pub fn new(form: CopyKeyForm, stamp: &Stamp) -> CopyKeys {
        let mut hasher = blake3::Hasher::new();
        for part in [
            stamp.source_project_id.as_str(),
            stamp.source_path.as_str(),
            stamp.stream_id.as_str(),
            stamp.subscription_key.as_str(),
        ] {
            hasher.update(part.as_bytes());
            hasher.update(&[0]);
        }
        hasher.update(&stamp.cursor_changed_at_source_offset.to_le_bytes());
        match form {
            CopyKeyForm::First => CopyKeys::First(Box::new(hasher)),
            CopyKeyForm::Ordered => {
                let run = hasher.finalize().to_hex();
                CopyKeys::Ordered(format!("copy:{}", run.as_str().get(..32).unwrap_or_default()))
            }
        }
    }

    /// The key of the copy of `offset`.
    pub fn key(&self, offset: u64) -> String {
        match self {
            CopyKeys::First(run) => {
                let mut hasher = run.as_ref().clone();
                hasher.update(&offset.to_le_bytes());
                format!("copy:{}", hasher.finalize().to_hex())
            }
            CopyKeys::Ordered(prefix) => format!("{prefix}{offset:016x}"),
        }
    }
}

/// Deterministic delivery id (§8): stream id, subscription key, offset range.
pub fn delivery_id(stream_id: &str, subscription_key: &str, after: u64, through: u64) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(stream_id.as_bytes());
    hasher.update(&[0]);
    hasher.update(subscription_key.as_bytes());
    hasher.update(&[0]);
    hasher.update(&after.to_le_bytes());
    hasher.update(&through.to_le_bytes());
    let hex = hasher.finalize().to_hex();
    format!("dlv_{}", hex.as_str().get(..32).unwrap_or_default())
}

/// Whether a copy batch ends after `event` (§13 "Copies and invalidation
/// order"): an `events-invalidated`, this stream's own or a copied one, is
/// the last event of its batch, so the receiver commits it and its derived
/// invalidation before any later event of the source.
pub fn ends_batch(receiver: &Receiver, event: &StoredEvent) -> bool {
    matches!(receiver, Receiver::CopyToStream { .. }) && is_invalidation_type(&event.event_type)
}

/// Whether a copy's provenance starts at an `events-invalidated`: the
/// origin (first hop) appended an invalidation, whose offsets are that
/// stream's (§13 "Copies and invalidation order"). A look without parsing
/// the chain; wire text (a copy as it arrived) is parsed only when it
/// names the type at all.
pub fn origin_is_invalidation(source: Option<&JsonField>) -> bool {
    let Some(source) = source else { return false };
    if let JsonField::Wire(raw) = source {
        if !raw.get().contains("events-invalidated") {
            return false;
        }
    }
    Some(source.tree())
        .as_deref()
        .and_then(|source| source.get("copiedFrom"))
        .and_then(|chain| chain.get(0))
        .and_then(|origin| origin.get("type"))
        .and_then(Value::as_str)
        .is_some_and(is_invalidation_type)
}

/// One hop of `source.copiedFrom` as the text of a `source` holds it: the
/// fields and kinds of [`Hop`], in its order, each string borrowed from
/// the text unless the text escapes it. A copy is read and written with
/// these, so no hop's strings are copied on the way (issue 33).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HopText<'a> {
    #[serde(borrow)]
    pub project_id: Cow<'a, str>,
    #[serde(borrow)]
    pub path: Cow<'a, str>,
    #[serde(borrow)]
    pub stream_id: Cow<'a, str>,
    #[serde(borrow)]
    pub stream_created_at: Cow<'a, str>,
    pub offset: u64,
    #[serde(rename = "type", borrow)]
    pub event_type: Cow<'a, str>,
    #[serde(borrow)]
    pub created_at: Cow<'a, str>,
    #[serde(borrow)]
    pub subscription_key: Cow<'a, str>,
    pub cursor_changed_at_source_offset: u64,
}

impl HopText<'_> {
    /// The stamp of the run that made this hop ([`Hop::run_stamp`]).
    pub fn run_stamp(&self) -> RunStamp {
        RunStamp {
            stream_id: self.stream_id.clone().into_owned(),
            stream_created_at: self.stream_created_at.clone().into_owned(),
            cursor_changed_at_source_offset: self.cursor_changed_at_source_offset,
        }
    }

    /// Whether this hop was made by run `stamp` ([`HopText::run_stamp`] `== stamp`).
    pub fn is_run(&self, stamp: &RunStamp) -> bool {
        self.stream_id == stamp.stream_id.as_str()
            && self.stream_created_at == stamp.stream_created_at.as_str()
            && self.cursor_changed_at_source_offset == stamp.cursor_changed_at_source_offset
    }

    /// Whether `other` names the same pair (`path`, `subscriptionKey`) and
    /// the same run as this hop: all a receiving stream's fence fold reads
    /// of a hop (§7 rule 2).
    pub fn same_pair_and_run(&self, other: &HopText<'_>) -> bool {
        self.path == other.path
            && self.subscription_key == other.subscription_key
            && self.stream_id == other.stream_id
            && self.stream_created_at == other.stream_created_at
            && self.cursor_changed_at_source_offset == other.cursor_changed_at_source_offset
    }
}

impl From<Hop> for HopText<'static> {
    fn from(hop: Hop) -> Self {
        HopText {
            project_id: Cow::Owned(hop.project_id),
            path: Cow::Owned(hop.path),
            stream_id: Cow::Owned(hop.stream_id),
            stream_created_at: Cow::Owned(hop.stream_created_at),
            offset: hop.offset,
            event_type: Cow::Owned(hop.event_type),
            created_at: Cow::Owned(hop.created_at),
            subscription_key: Cow::Owned(hop.subscription_key),
            cursor_changed_at_source_offset: hop.cursor_changed_at_source_offset,
        }
    }
}

/// The hop chain in a `source`'s JSON text, read in place ([`HopText`], no
/// tree); what does not read so is read as a tree by [`chain_of`], so both
/// give the same chain.
pub fn chain_of_text(source: &str) -> Vec<HopText<'_>> {
    #[derive(Deserialize)]
    struct Provenance<'a> {
        #[serde(rename = "copiedFrom", borrow)]
        copied_from: Vec<HopText<'a>>,
    }
    match serde_json::from_str::<Provenance>(source) {
        Ok(provenance) => provenance.copied_from,
        Err(_) => chain_of(serde_json::from_str::<Value>(source).ok().as_ref())
            .into_iter()
            .map(HopText::from)
            .collect(),
    }
}

/// The hop chain an event already carries (empty for an original event).
pub fn chain_of(source: Option<&Value>) -> Vec<Hop> {
    source
        .and_then(|source| source.get("copiedFrom"))
        .and_then(|chain| Vec::<Hop>::deserialize(chain).ok())
        .unwrap_or_default()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stamp() -> Stamp {
        Stamp {
            source_project_id: "p".to_owned(),
            source_path: "/s".to_owned(),
            subscription_key: "k".to_owned(),
            stream_id: "id".to_owned(),
            stream_created_at: "2026-01-01T00:00:00.000Z".to_owned(),
            cursor_changed_at_source_offset: 7,
        }
    }

    fn hop(path: &str, event_type: &str) -> Hop {
        Hop {
            project_id: "p".to_owned(),
            path: path.to_owned(),
            stream_id: "str_1".to_owned(),
            stream_created_at: "2026-01-01T00:00:00.000Z".to_owned(),
            offset: 9,
            event_type: event_type.to_owned(),
            created_at: "2026-01-02T00:00:00.000Z".to_owned(),
            subscription_key: "k\u{2028}".to_owned(),
            cursor_changed_at_source_offset: 3,
        }
    }

    #[test]
    fn s7_a_hop_read_in_place_is_written_and_read_as_the_owned_hop() {
        let hops = [hop("/a", "x"), hop("/b/\"q\"", "é\u{1}\\")];
        for owned in &hops {
            let text = serde_json::to_string(owned).unwrap();
            assert_eq!(serde_json::to_string(&HopText::from(owned.clone())).unwrap(), text);
            let read: HopText = serde_json::from_str(&text).unwrap();
            assert_eq!(read, HopText::from(owned.clone()));
            assert_eq!(read.run_stamp(), owned.run_stamp());
            assert!(read.is_run(&owned.run_stamp()));
        }
        // Unescaped strings are borrowed from the text; escaped ones are owned.
        let text = serde_json::to_string(&hops[1]).unwrap();
        let read: HopText = serde_json::from_str(&text).unwrap();
        assert!(matches!(read.project_id, Cow::Borrowed(_)));
        assert!(matches!(read.path, Cow::Owned(_)));
        // A chain reads as the tree reads it, whichever way it is read.
        let source = json!({"copiedFrom": hops}).to_string();
        let tree: Vec<HopText> = chain_of(Some(&serde_json::from_str(&source).unwrap()))
            .into_iter()
            .map(HopText::from)
            .collect();
        assert_eq!(chain_of_text(&source), tree);
        let repeated = format!(r#"{{"copiedFrom":[],"copiedFrom":{}}}"#, json!(hops));
        assert_eq!(chain_of_text(&repeated), tree);
        // Another generation is another run.
        assert!(!HopText::from(hop("/a", "x")).is_run(&RunStamp {
            cursor_changed_at_source_offset: 4,
            ..hop("/a", "x").run_stamp()
        }));
    }

    #[test]
    fn a_batch_serialized_from_borrowed_events_is_the_batch_itself() {
        let batch = CopyBatch {
            stamp: stamp(),
            events: vec![
                json!({"type": "x", "payload": {"é": [1, 2.5, null]}, "idempotencyKey": "copy:1"}),
                json!({"type": "y", "payload": "\u{1}\"", "source": {"copiedFrom": []}}),
            ],
        };
        let fields: Vec<JsonField> = batch.events.iter().cloned().map(JsonField::from).collect();
        let body = copy_batch_json(&batch.stamp, fields.iter()).unwrap();
        assert_eq!(body, serde_json::to_string(&batch).unwrap());
        // Wire text is written as it is.
        let texts: Vec<JsonField> = fields
            .iter()
            .map(|field| JsonField::Wire(field.to_raw().unwrap()))
            .collect();
        let body = copy_batch_json(&batch.stamp, texts.iter()).unwrap();
        assert_eq!(body, serde_json::to_string(&batch).unwrap());
        assert_eq!(serde_json::from_str::<CopyBatch>(&body).unwrap(), batch);
    }

    #[test]
    fn s7_a_run_s_keys_hashed_once_equal_keys_hashed_one_by_one() {
        let stamp = stamp();
        for form in [CopyKeyForm::First, CopyKeyForm::Ordered] {
            let keys = CopyKeys::new(form, &stamp);
            let made: Vec<String> = [1, 2, 1, u64::MAX].iter().map(|offset| keys.key(*offset)).collect();
            let alone: Vec<String> = [1, 2, 1, u64::MAX]
                .iter()
                .map(|offset| CopyKeys::new(form, &stamp).key(*offset))
                .collect();
            assert_eq!(made, alone, "{form:?}");
            assert_eq!(made[0], made[2]);
            assert_ne!(made[0], made[1]);
        }
        let mut run = blake3::Hasher::new();
        for part in ["p", "/s", "id", "k"] {
            run.update(part.as_bytes());
            run.update(&[0]);
        }
        run.update(&7u64.to_le_bytes());
        let mut first = run.clone();
        first.update(&2u64.to_le_bytes());
        assert_eq!(
            CopyKeys::new(CopyKeyForm::First, &stamp).key(2),
            format!("copy:{}", first.finalize().to_hex())
        );
        let ordered = format!("copy:{}{:016x}", &run.finalize().to_hex()[..32], 2);
        assert_eq!(CopyKeys::new(CopyKeyForm::Ordered, &stamp).key(2), ordered);
    }
}
