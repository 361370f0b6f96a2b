//! A processor instance (docs/design.md §9): one per `(project, name, stream
//! path)`, a fold that owns its checkpoint. `wake` answers where it is
//! (resetting to `initialState` at checkpoint 0 for a recreated stream or a
//! new definition version); `fold` takes a batch of the stream's events,
//! ignores offsets at or below its checkpoint, folds the rest and commits
//! state and checkpoint in one write. A batch folds all-or-nothing: a
//! reducer error changes nothing and names its offset.

use super::definition::Definition;
use crate::api::ApiResponse;
use crate::error::{details, ApiError, ApiFailure, ErrorCode};
use crate::jsonata::{self, Compiled, JsonataError, StepBudget};
use crate::limits::MAX_PROCESSOR_STATE_BYTES;
use crate::schema::{migrate_with, PROCESSOR_MIGRATIONS};
use crate::storage::{query_optional, Columns, SqlValue, Storage, StorageError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::rc::Rc;

/// Row of `processor_instance` (id = 1): the fold and what it folds with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InstanceRow {
    pub version: u64,
    pub reducer: String,
    pub stream_id: String,
    pub checkpoint_offset: u64,
    pub state: Value,
    /// The first offset `state` folded since the last reset (§16): after
    /// a trim, a refold starts at the stream's first retained event.
    /// `None` until a fold after the reset folded one.
    #[serde(default)]
    pub folded_from_offset: Option<u64>,
}

/// Stream → instance: where are you? (with the definition to reset to).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WakeRequest {
    pub definition: Definition,
    pub stream_id: String,
}

/// Instance → stream: `{streamId, checkpointOffset, version}` (§9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WakeAnswer {
    pub stream_id: String,
    pub checkpoint_offset: u64,
    pub version: u64,
}

/// Stream → instance: events after the checkpoint, in order, and how far
/// the stream scanned (past filtered-out events too).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FoldRequest {
    pub version: u64,
    pub stream_id: String,
    pub events: Vec<Value>,
    pub scanned_through_offset: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FoldAnswer {
    pub checkpoint_offset: u64,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FoldError {
    #[error("the instance was not woken for this definition version and stream lifetime; wake it first")]
    NotWoken,
    #[error("reducer failed on offset {offset}: {message}")]
    Reducer { offset: u64, message: String },
    #[error("reducer on offset {offset} produced a state of {bytes} bytes; the limit is {MAX_PROCESSOR_STATE_BYTES}")]
    StateTooLarge { offset: u64, bytes: usize },
    #[error("malformed request: {0}")]
    Malformed(String),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ApiFailure for FoldError {
    fn error_code(&self) -> ErrorCode {
        match self {
            FoldError::NotWoken => ErrorCode::ProcessorNotWoken,
            FoldError::Reducer { .. } => ErrorCode::ReducerFailed,
            FoldError::StateTooLarge { .. } => ErrorCode::ProcessorStateTooLarge,
            FoldError::Malformed(_) => ErrorCode::InvalidRequest,
            FoldError::Storage(_) => ErrorCode::Internal,
        }
    }
    fn details(&self) -> Map<String, Value> {
        match self {
            FoldError::Reducer { offset, .. } | FoldError::StateTooLarge { offset, .. } => {
                details([("offset", json!(offset))])
            }
            _ => Map::new(),
        }
    }
}

const SELECT: &str = "SELECT version, reducer, stream_id, checkpoint_offset, state, folded_from_offset \
     FROM processor_instance WHERE id = 1";

pub struct Instance<S: Storage> {
    storage: S,
    row: Option<InstanceRow>,
    /// The compiled reducer of `row.version`.
    compiled: Option<(u64, Rc<Compiled>)>,
}

impl<S: Storage> Instance<S> {
    pub fn open(storage: S) -> Result<Self, StorageError> {
        migrate_with(&storage, PROCESSOR_MIGRATIONS)?;
        let row = match query_optional(&storage, SELECT, &[])? {
            Some(row) => {
                let columns = Columns {
                    query: SELECT,
                    row: &row,
                };
                Some(InstanceRow {
                    version: columns.int(0)?.max(0) as u64,
                    reducer: columns.text(1)?,
                    stream_id: columns.text(2)?,
                    checkpoint_offset: columns.int(3)?.max(0) as u64,
                    state: serde_json::from_str(&columns.text(4)?).map_err(|_| StorageError::Decode {
                        query: SELECT.to_owned(),
                        column: 4,
                    })?,
                    folded_from_offset: match row.get(5) {
                        Some(SqlValue::Integer(offset)) => Some((*offset).max(0) as u64),
                        _ => None,
                    },
                })
            }
            None => None,
        };
        Ok(Instance {
            storage,
            row,
            compiled: None,
        })
    }

    pub fn row(&self) -> Option<&InstanceRow> {
        self.row.as_ref()
    }

    fn write(&self, row: &InstanceRow) -> Result<(), StorageError> {
        let state = serde_json::to_string(&row.state).map_err(|error| StorageError::Sql(error.to_string()))?;
        self.storage.execute(
            "INSERT INTO processor_instance (id, version, reducer, stream_id, checkpoint_offset, state, \
             folded_from_offset) VALUES (1, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET \
             version = excluded.version, reducer = excluded.reducer, stream_id = excluded.stream_id, \
             checkpoint_offset = excluded.checkpoint_offset, state = excluded.state, \
             folded_from_offset = excluded.folded_from_offset",
            &[
                row.version.into(),
                row.reducer.as_str().into(),
                row.stream_id.as_str().into(),
                row.checkpoint_offset.into(),
                SqlValue::Text(state),
                row.folded_from_offset.into(),
            ],
        )
    }

    /// Answers where the instance is; a recreated stream or a new definition
    /// version resets it to `initialState` at checkpoint 0 first (§9).
    pub fn wake(&mut self, request: &WakeRequest) -> Result<WakeAnswer, StorageError> {
        let current = self
            .row
            .as_ref()
            .is_some_and(|row| row.stream_id == request.stream_id && row.version == request.definition.version);
        if !current {
            let row = InstanceRow {
                version: request.definition.version,
                reducer: request.definition.body.reducer.clone(),
                stream_id: request.stream_id.clone(),
                checkpoint_offset: 0,
                state: request.definition.body.initial_state.clone(),
                folded_from_offset: None,
            };
            self.write(&row)?;
            self.row = Some(row);
            self.compiled = None;
        }
        let row = self
            .row
            .as_ref()
            .ok_or_else(|| StorageError::Sql("instance row missing".to_owned()))?;
        Ok(WakeAnswer {
            stream_id: row.stream_id.clone(),
            checkpoint_offset: row.checkpoint_offset,
            version: row.version,
        })
    }

    fn reducer(&mut self, row: &InstanceRow) -> Result<Rc<Compiled>, FoldError> {
        if let Some((version, compiled)) = &self.compiled {
            if *version == row.version {
                return Ok(Rc::clone(compiled));
            }
        }
        let compiled = Rc::new(jsonata::compile(&row.reducer).map_err(|error| FoldError::Reducer {
            offset: row.checkpoint_offset,
            message: error.to_string(),
        })?);
        self.compiled = Some((row.version, Rc::clone(&compiled)));
        Ok(compiled)
    }

    /// Folds a batch (§9): offsets at or below the checkpoint are ignored;
    /// state and checkpoint commit together, or nothing changes.
    pub fn fold(&mut self, request: &FoldRequest) -> Result<FoldAnswer, FoldError> {
        let Some(mut row) = self
            .row
            .clone()
            .filter(|row| row.version == request.version && row.stream_id == request.stream_id)
        else {
            return Err(FoldError::NotWoken);
        };
        let reducer = self.reducer(&row)?;
        let mut state = row.state.clone();
        let mut changed = false;
        // The JSONata steps this fold may spend (§12 "JSONata per engine
        // call"): past them it commits what it folded, and the next batch
        // starts at the event that ran out (retried, not failed).
        let mut steps = StepBudget::per_call();
        let mut stopped_before = None;
        for event in &request.events {
            let offset = event
                .get("offset")
                .and_then(Value::as_u64)
                .ok_or_else(|| FoldError::Malformed("an event without an offset".to_owned()))?;
            if offset <= row.checkpoint_offset {
                continue;
            }
            let mut bindings = Map::new();
            bindings.insert("state".to_owned(), std::mem::take(&mut state));
            bindings.insert("event".to_owned(), event.clone());
            let next = match reducer.evaluate_with_bindings_metered(Some(event), &bindings, &mut steps) {
                Err(JsonataError::CallBudgetSpent) => {
                    state = bindings.remove("state").unwrap_or_default();
                    stopped_before = Some(offset);
                    break;
                }
                other => other,
            };
            let next = next
                .map_err(|error| FoldError::Reducer {
                    offset,
                    message: error.to_string(),
                })?
                .ok_or_else(|| FoldError::Reducer {
                    offset,
                    message: "the reducer's value is undefined; it must produce the next state".to_owned(),
                })?;
            let bytes = serde_json::to_vec(&next).map_or(usize::MAX, |bytes| bytes.len());
            if bytes > MAX_PROCESSOR_STATE_BYTES {
                return Err(FoldError::StateTooLarge { offset, bytes });
            }
            state = next;
            changed = true;
            row.folded_from_offset.get_or_insert(offset);
        }
        // Every offset before the event that ran out was folded or filtered out.
        let through = stopped_before.map_or(request.scanned_through_offset, |offset| offset.saturating_sub(1));
        let checkpoint = row.checkpoint_offset.max(through);
        if changed || checkpoint != row.checkpoint_offset {
            row.state = state;
            row.checkpoint_offset = checkpoint;
            self.write(&row)?;
            self.row = Some(row);
        }
        Ok(FoldAnswer {
            checkpoint_offset: checkpoint,
        })
    }

    /// The internal routes (`wake`, `fold`, `state`), without HTTP.
    pub fn handle(&mut self, action: &str, body: &[u8]) -> ApiResponse {
        match action {
            "wake" => match serde_json::from_slice::<WakeRequest>(body) {
                Ok(request) => match self.wake(&request) {
                    Ok(answer) => ApiResponse::json(200, &answer),
                    Err(error) => ApiError::from(FoldError::from(error)).into(),
                },
                Err(error) => ApiError::from(FoldError::Malformed(error.to_string())).into(),
            },
            "fold" => match serde_json::from_slice::<FoldRequest>(body) {
                Ok(request) => match self.fold(&request) {
                    Ok(answer) => ApiResponse::json(200, &answer),
                    Err(error) => ApiError::from(error).into(),
                },
                Err(error) => ApiError::from(FoldError::Malformed(error.to_string())).into(),
            },
            "state" => ApiResponse::json(200, &self.row),
            _ => ApiError::new(ErrorCode::RouteNotFound, "no such processor route").into(),
        }
    }
}
