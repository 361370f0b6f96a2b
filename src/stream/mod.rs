//! One stream (docs/design.md §3): its lifetime, log, reduced state and the
//! operations the HTTP API exposes. The Durable Object holds one `Stream`.

mod append;
mod copies;
mod copy_wire;
pub mod dead_letters;
pub(crate) mod facts;
pub mod fences;
pub(crate) mod memory;
pub mod metrics;
pub mod page_json;
pub mod read;
pub(crate) mod rows;
mod runtime;

pub use append::{AppendError, AppendOutcome};
pub use copies::{CopyAccepted, CopyAnswer, CopyError};
pub use read::{RangeQuery, ReadError};

use crate::path::StreamPath;
use crate::schema::{self, LifetimeRow, ReducedStateRow, StreamMetaRow};
use crate::state::inbound::{self, InboundError};
use crate::state::{Mode, ReducedState, StoredConfiguration, STATE_VERSION};
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use crate::Inputs;

pub struct Stream<S: Storage> {
    pub(crate) storage: S,
    pub(crate) project_id: String,
    pub(crate) path: StreamPath,
    /// `None` until the first write of a lifetime (§3 rule 6).
    pub(crate) lifetime: Option<StreamMetaRow>,
    pub(crate) state: ReducedState,
    pub(crate) counters: metrics::Counters,
    /// In-memory runtime (holds, throttle windows, stats, validation, compiled
    /// expressions): reset as a whole with the lifetime.
    pub(crate) memory: memory::Memory,
    /// Open live connections (§10), fed at commit time.
    pub live: crate::live::Registry,
    /// Events committed since the shell last fanned out; kept only while
    /// live connections are open.
    pub(crate) committed: Vec<crate::event::CommittedEvent>,
    /// Retention's bookkeeping (§16): how far the log was trimmed, its bytes.
    pub(crate) retention: crate::retention::progress::Progress,
    /// What the catalog acknowledged (§14), read once: `None` until read.
    pub(crate) catalog_acknowledged: std::cell::RefCell<Option<Option<String>>>,
    /// What this deployment allows (§9); checked when configuring.
    pub(crate) deployment: crate::deployment::Deployment,
    /// The last read or write that renews a sliding expiry (§17), in
    /// memory only.
    pub(crate) last_access: crate::durable_streams::expiry::LastAccess,
    /// The head a lifetime starts at: a fork's fork point (§18), set only
    /// for the append that creates the fork.
    pub(crate) lifetime_start_head: std::cell::Cell<u64>,
    /// A release to a fork's source was recorded by this instance and not
    /// yet sent (§18): the shell sends `fork_release_outbox` after the request.
    pub(crate) owes_release: std::cell::Cell<bool>,
}

/// The lifetime row, with the head and count derived from the log itself:
/// an append writes its event rows and nothing else (the head is the
/// highest offset, found through the primary key).
/// A log trimmed to nothing (§16) keeps its head in `retention_progress`.
const SELECT_META: &str = "SELECT project_id, path, stream_id, created_at_ms, \
     MAX((SELECT COALESCE(MAX(event_offset), 0) FROM events), \
     (SELECT COALESCE(MAX(trimmed_through), 0) FROM retention_progress), \
     (SELECT COALESCE(MAX(fork_point), 0) FROM fork_origin)), (SELECT COUNT(*) FROM events) \
     FROM stream_meta WHERE id = 1";

/// The coordinates an alarm opens the stream with (any schema version).
const SELECT_COORDINATES: &str = "SELECT project_id, path FROM stream_meta WHERE id = 1";

impl<S: Storage> Stream<S> {
    /// Opens the stream held by `storage`. Writes nothing when the stream does
    /// not exist (a read of a never-written stream must not create it).
    pub fn open(storage: S, project_id: &str, path: StreamPath) -> Result<Self, StorageError> {
        let mut stream = Stream {
            storage,
            project_id: project_id.to_owned(),
            path,
            lifetime: None,
            state: ReducedState::default(),
            counters: metrics::Counters::default(),
            memory: memory::Memory::default(),
            live: crate::live::Registry::default(),
            committed: Vec::new(),
            retention: Default::default(),
            catalog_acknowledged: std::cell::RefCell::new(None),
            deployment: crate::deployment::Deployment::default(),
            last_access: Default::default(),
            lifetime_start_head: std::cell::Cell::new(0),
            owes_release: std::cell::Cell::new(false),
        };
        if schema::stream_exists(&stream.storage)? {
            schema::migrate(&stream.storage)?;
            stream.lifetime = stream.load_meta()?;
            let head = stream.lifetime.as_ref().map_or(0, |meta| meta.head);
            stream.retention = crate::retention::progress::Progress::open(&stream.storage, head)?;
            stream.state = stream.load_or_rebuild_state()?;
            if let Some(head) = stream.lifetime.as_ref().map(|meta| meta.head) {
                let state = stream.state.clone();
                stream.storage.atomically(&mut || {
                    stream.repair_runtime_rows(&state, head)?;
                    // Opening means a new object instance: nothing it knows of
                    // is in flight, so a recorded send belongs to a dead
                    // instance and is due for retry now (§6 rule 6).
                    for table in ["subscription_runtime", "delivery_window"] {
                        stream.storage.execute(
                            &format!(
                                "UPDATE {table} SET in_flight_deadline_at_ms = 0 WHERE in_flight_deadline_at_ms > 0"
                            ),
                            &[],
                        )?;
                    }
                    Ok(())
                })?;
            }
        }
        stream.revalidate_configurations();
        Ok(stream)
    }

    /// Re-checks stored configurations (once per configuration): one that
    /// no longer validates — a restored backup, an older version — refuses
    /// to run instead of running half-valid (§8), and the card says why.
    pub(crate) fn revalidate_configurations(&mut self) {
        let by_key = &self.state.subscriptions.outbound.by_key;
        self.memory.subscriptions.retain(|key, _| by_key.contains_key(key));
        for (key, subscription) in by_key {
            let memory = self.memory.of(key);
            if memory
                .validation
                .as_ref()
                .is_some_and(|validation| validation.configured_at_offset == subscription.configured_at_offset)
            {
                continue;
            }
            let problem = match &subscription.configuration {
                StoredConfiguration::Valid(configuration) => serde_json::to_value(configuration)
                    .map_err(|error| error.to_string())
                    .and_then(|value| {
                        crate::subscription::Configuration::parse(&value).map_err(|error| error.to_string())
                    })
                    .err(),
                StoredConfiguration::Unreadable(raw) => Some(match crate::subscription::Configuration::parse(raw) {
                    Err(error) => format!("stored configuration no longer validates: {error}"),
                    Ok(_) => self
                        .state
                        .processor_conflict(key, raw)
                        .unwrap_or_else(|| "stored configuration could not be read".to_owned()),
                }),
            };
            memory.validation = Some(memory::Validation {
                configured_at_offset: subscription.configured_at_offset,
                problem,
            });
        }
    }

    /// Opens the stream this storage holds, reading its coordinates from
    /// `stream_meta` (for alarms, which arrive without a request). `None`
    /// when no stream exists here.
    pub fn open_existing(storage: S) -> Result<Option<Self>, StorageError> {
        if !schema::stream_exists(&storage)? {
            return Ok(None);
        }
        let Some(row) = query_optional(&storage, SELECT_COORDINATES, &[])? else {
            return Ok(None);
        };
        let columns = Columns {
            query: SELECT_COORDINATES,
            row: &row,
        };
        let (project, raw_path) = (columns.text(0)?, columns.text(1)?);
        let path = StreamPath::parse(&raw_path).map_err(|error| StorageError::Sql(error.to_string()))?;
        Self::open(storage, &project, path).map(Some)
    }

    /// Sets what the deployment allows (webhook URL relaxation, ITX
    /// allowlist, signing key); the shell calls this after opening.
    pub fn set_deployment(&mut self, deployment: crate::deployment::Deployment) {
        self.deployment = deployment;
    }

    pub fn deployment(&self) -> &crate::deployment::Deployment {
        &self.deployment
    }

    pub fn project_id(&self) -> &str {
        &self.project_id
    }

    /// The storage back, as a crashed instance leaves it (tests).
    pub fn into_storage(self) -> S {
        self.storage
    }

    pub fn storage(&self) -> &S {
        &self.storage
    }

    pub fn path(&self) -> &StreamPath {
        &self.path
    }

    pub fn lifetime(&self) -> Option<&StreamMetaRow> {
        self.lifetime.as_ref()
    }

    pub fn state(&self) -> &ReducedState {
        &self.state
    }

    /// The stream the subscription `key` copies into, if it is a copy (§2).
    pub fn copy_target(&self, key: &str) -> Option<&str> {
        self.state
            .subscriptions
            .outbound
            .by_key
            .get(key)
            .and_then(|subscription| subscription.configuration.copy_target())
    }

    fn load_meta(&self) -> Result<Option<StreamMetaRow>, StorageError> {
        let Some(row) = query_optional(&self.storage, SELECT_META, &[])? else {
            return Ok(None);
        };
        let columns = Columns {
            query: SELECT_META,
            row: &row,
        };
        Ok(Some(StreamMetaRow {
            project_id: columns.text(0)?,
            path: columns.text(1)?,
            stream_id: columns.text(2)?,
            created_at_ms: columns.int(3)?,
            head: columns.int(4)?.max(0) as u64,
            event_count: columns.int(5)?.max(0) as u64,
        }))
    }

    fn load_cached_state(&self) -> Result<Option<ReducedStateRow>, StorageError> {
        let sql = "SELECT version, state FROM reduced_state WHERE id = 1";
        let Some(row) = query_optional(&self.storage, sql, &[])? else {
            return Ok(None);
        };
        let columns = Columns { query: sql, row: &row };
        Ok(Some(ReducedStateRow {
            version: columns.int(0)?,
            state_json: columns.text(1)?,
        }))
    }

    /// The cached state when it is of this engine's version, else a rebuild
    /// from the log (which then replaces the cache).
    fn load_or_rebuild_state(&self) -> Result<ReducedState, StorageError> {
        if let Some(cached) = self.load_cached_state()? {
            if cached.version == STATE_VERSION {
                if let Ok(state) = serde_json::from_str(&cached.state_json) {
                    return Ok(state);
                }
            }
        }
        let state = self.rebuild_state()?;
        self.write_state(&state)?;
        Ok(state)
    }

    /// Replays every retained event through the fold (§5), in one
    /// transaction, on top of the retention snapshot (§16; the empty state
    /// when nothing was trimmed): the fence table restarts from the
    /// snapshot's records and is refilled from the retained copies (§7 rule
    /// 2), and the document is returned.
    pub fn rebuild_state(&self) -> Result<ReducedState, StorageError> {
        if !schema::stream_exists(&self.storage)? {
            return Ok(ReducedState::default());
        }
        self.storage.atomically(&mut || {
            let (mut state, after) = crate::retention::snapshot::rebuild_base(&self.storage)?;
            inbound::reset_to_snapshot(&self.storage)?;
            rows::for_each_fold_input(&self.storage, after, crate::limits::MAX_SAFE_INTEGER, |event| {
                // A committed event was accepted by this same fold when it was
                // appended; an error now means the fold changed meaning, and the
                // event is skipped rather than blocking the stream (a stored
                // configuration is kept, marked invalid: `ReducedState::replay`).
                let _ = state.replay(&event);
                match inbound::fold_copy(&self.storage, &event, Mode::Replay) {
                    Err(InboundError::Storage(error)) => Err(error),
                    // Replaying, no bound refuses what was committed.
                    Ok(()) | Err(InboundError::Full(_)) => Ok(()),
                }
            })?;
            Ok(state)
        })
    }

    fn write_state(&self, state: &ReducedState) -> Result<(), StorageError> {
        self.write_state_json(&state.to_json())
    }

    fn write_state_json(&self, state_json: &str) -> Result<(), StorageError> {
        self.storage.execute(
            "INSERT INTO reduced_state (id, version, state) VALUES (1, ?, ?) \
             ON CONFLICT (id) DO UPDATE SET version = excluded.version, state = excluded.state",
            &[SqlValue::Integer(STATE_VERSION), state_json.into()],
        )
    }

    /// Starts a lifetime: schema, `stream_meta`, and a `streamCreatedAt`
    /// strictly later than any earlier lifetime's (§3 rule 6).
    fn start_lifetime(&self, inputs: &Inputs) -> Result<StreamMetaRow, StorageError> {
        schema::migrate(&self.storage)?;
        let sql = "SELECT last_created_at_ms, lifetimes FROM stream_lifetimes WHERE id = 1";
        let previous = match query_optional(&self.storage, sql, &[])? {
            Some(row) => {
                let columns = Columns { query: sql, row: &row };
                Some(LifetimeRow {
                    last_created_at_ms: columns.int(0)?,
                    lifetimes: columns.int(1)?,
                })
            }
            None => None,
        };
        let created_at_ms = match &previous {
            Some(previous) => inputs.now_ms.max(previous.last_created_at_ms + 1),
            None => inputs.now_ms,
        };
        let meta = StreamMetaRow {
            project_id: self.project_id.clone(),
            path: self.path.as_str().to_owned(),
            stream_id: format_stream_id(inputs.entropy),
            created_at_ms,
            head: self.lifetime_start_head.get(),
            event_count: 0,
        };
        self.storage.execute(
            "INSERT INTO stream_lifetimes (id, last_created_at_ms, lifetimes) VALUES (1, ?, 1) \
             ON CONFLICT (id) DO UPDATE SET last_created_at_ms = excluded.last_created_at_ms, \
             lifetimes = lifetimes + 1",
            &[SqlValue::Integer(created_at_ms)],
        )?;
        self.storage.execute(
            "INSERT INTO stream_meta (id, project_id, path, stream_id, created_at_ms, head, event_count) \
             VALUES (1, ?, ?, ?, ?, 0, 0)",
            &[
                meta.project_id.clone().into(),
                meta.path.clone().into(),
                meta.stream_id.clone().into(),
                SqlValue::Integer(created_at_ms),
            ],
        )?;
        self.write_state(&ReducedState::default())?;
        Ok(meta)
    }

    /// Destroys the stream (§3 rule 6): every table but the lifetime record.
    /// Returns whether a stream existed.
    /// A fork owes its source a release (§18), recorded in the same commit.
    pub fn destroy(&mut self) -> Result<bool, StorageError> {
        let existed = self.lifetime.is_some();
        let release = crate::fork::store::origin(&self.storage)?.map(|origin| crate::fork::store::ReleaseRow {
            project_id: self.project_id.clone(),
            source_path: origin.source_path,
            fork_path: self.path.as_str().to_owned(),
            source_stream_id: Some(origin.source_stream_id),
            due_at_ms: 0,
        });
        let catalogued = self.lifetime.as_ref().map(|meta| meta.stream_id.clone());
        self.storage.atomically(&mut || {
            if let Some(release) = &release {
                crate::fork::store::owe_release(&self.storage, release)?;
            }
            if let Some(stream_id) = &catalogued {
                crate::catalog::may_be_listed(&self.storage, &self.project_id, self.path.as_str(), stream_id)?;
            }
            schema::drop_stream_tables(&self.storage)
        })?;
        if release.is_some() {
            self.owes_release.set(true);
        }
        if let Some(stream_id) = catalogued {
            *self.catalog_acknowledged.borrow_mut() = Some(Some(stream_id));
        }
        self.lifetime = None;
        self.state = ReducedState::default();
        self.memory = memory::Memory::default();
        self.retention = Default::default();
        self.last_access = Default::default();
        Ok(existed)
    }
}

/// A 128-bit random id rendered as a UUID (version 4 layout).
pub fn format_stream_id(entropy: [u8; 16]) -> String {
    let mut bytes = entropy;
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let part = |range: std::ops::Range<usize>| hex.get(range).unwrap_or_default().to_owned();
    format!(
        "{}-{}-{}-{}-{}",
        part(0..8),
        part(8..12),
        part(12..16),
        part(16..20),
        part(20..32)
    )
}
