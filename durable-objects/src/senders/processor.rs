//! A stream's side of hosted processors (DESIGN.md §9): delivering a
//! planned batch to the instance (definition from the project object →
//! wake → fold), and `GET /-/processors/{name}`. The answers become
//! outcomes for the engine: the instance's checkpoint, a permanent failure
//! (a reducer error, an undefined processor: the subscription halts), or a
//! transient one (retried with backoff).

use crate::bindings::{PROCESSOR_BINDING, PROJECT_BINDING};
use crate::processor_object::INSTANCE_ROUTE;
use crate::project_object::PROCESSORS_PREFIX;
use crate::stream_object::StreamObject;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tributary::api::ApiResponse;
use tributary::delivery::{DeliveryPlan, Outcome};
use tributary::error::{ApiError, ErrorCode};
use tributary::processor::{Definition, FoldAnswer, FoldRequest, InstanceRow, WakeAnswer, WakeRequest};
use tributary::route::internal::PROJECT_HEADER;
use worker::{Env, Headers, Method, Request, RequestInit, Stub};

/// The project object of `project` (§14).
pub fn project_stub(env: &Env, project: &str) -> worker::Result<Stub> {
    env.durable_object(PROJECT_BINDING)?.get_by_name(project)
}

fn instance_stub(env: &Env, project: &str, name: &str, path: &str) -> worker::Result<Stub> {
    let id = serde_json::to_string(&[project, name, path]).unwrap_or_default();
    env.durable_object(PROCESSOR_BINDING)?.get_by_name(&id)
}

/// One internal call: `(status, body text)`.
async fn call(
    stub: &Stub,
    project: &str,
    method: Method,
    path: &str,
    body: Option<String>,
) -> worker::Result<(u16, String)> {
    let headers = Headers::new();
    headers.set(PROJECT_HEADER, project)?;
    let mut init = RequestInit::new();
    init.with_method(method).with_headers(headers);
    if let Some(body) = body {
        init.with_body(Some(body.into()));
    }
    let request = Request::new_with_init(&format!("https://processor.internal{path}"), &init)?;
    let mut response = stub.fetch_with_request(request).await?;
    let status = response.status_code();
    Ok((status, response.text().await.unwrap_or_default()))
}

fn parse<T: DeserializeOwned>(text: &str) -> Option<T> {
    serde_json::from_str(text).ok()
}

/// The error message of a JSON error body.
fn message_of(text: &str) -> String {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|value| {
            value
                .pointer("/error/message")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .unwrap_or_else(|| tributary::text::excerpt(text))
}

/// The definition of `name`, `Ok(None)` when the project has none (or the
/// name is not a valid processor name, so no definition can have it).
pub async fn definition(env: &Env, project: &str, name: &str) -> Result<Option<Definition>, String> {
    if tributary::processor::check_name(name).is_err() {
        return Ok(None);
    }
    let stub = project_stub(env, project).map_err(|error| error.to_string())?;
    let path = format!("{PROCESSORS_PREFIX}/{name}");
    match call(&stub, project, Method::Get, &path, None).await {
        Ok((200, text)) => parse(&text).map(Some).ok_or_else(|| "definition unreadable".to_owned()),
        Ok((404, _)) => Ok(None),
        Ok((status, text)) => Err(format!("project object answered {status}: {}", message_of(&text))),
        Err(error) => Err(format!("project object unreachable: {error}")),
    }
}

/// Delivers `plan` to the processor `expression` names (§9).
pub async fn deliver(object: &StreamObject, project: &str, expression: &Value, plan: &DeliveryPlan) -> Outcome {
    let env = object.env();
    let Some(name) = tributary::processor::name_of(expression) else {
        return Outcome::permanent("processor-wake expression must be [\"processors\", NAME, \"wake\"]");
    };
    let definition = match definition(env, project, name).await {
        Ok(Some(definition)) => definition,
        Ok(None) => {
            return Outcome::permanent(format!(
            "processor '{name}' is not defined; define it (PUT /v1/processors/{name}), then resume this subscription"
        ))
        }
        Err(error) => return Outcome::transient(error),
    };
    let stub = match instance_stub(env, project, name, &plan.stamp.source_path) {
        Ok(stub) => stub,
        Err(error) => return Outcome::transient(format!("processor instance unreachable: {error}")),
    };
    let version = definition.version;
    let wake = WakeRequest {
        definition,
        stream_id: plan.stamp.stream_id.clone(),
    };
    let woke = call(
        &stub,
        project,
        Method::Post,
        &format!("{INSTANCE_ROUTE}wake"),
        serde_json::to_string(&wake).ok(),
    )
    .await;
    let answer: WakeAnswer = match woke {
        Ok((200, text)) => match parse(&text) {
            Some(answer) => answer,
            None => return Outcome::transient("processor wake answer unreadable"),
        },
        Ok((status, text)) => {
            return Outcome::transient(format!("processor wake answered {status}: {}", message_of(&text)))
        }
        Err(error) => return Outcome::transient(format!("processor wake failed: {error}")),
    };
    if answer.checkpoint_offset != plan.after_offset {
        // The instance is elsewhere (reset, or ahead after a crash): its
        // checkpoint decides; the next batch starts there.
        return Outcome::Checkpointed {
            through: answer.checkpoint_offset,
        };
    }
    let fold = FoldRequest {
        version,
        stream_id: plan.stamp.stream_id.clone(),
        events: plan.events.iter().map(|event| event.body.clone()).collect(),
        scanned_through_offset: plan.through_offset,
    };
    let folded = call(
        &stub,
        project,
        Method::Post,
        &format!("{INSTANCE_ROUTE}fold"),
        serde_json::to_string(&fold).ok(),
    )
    .await;
    match folded {
        Ok((200, text)) => match parse::<FoldAnswer>(&text) {
            Some(answer) => Outcome::Checkpointed {
                through: answer.checkpoint_offset,
            },
            None => Outcome::transient("processor fold answer unreadable"),
        },
        Ok((422, text)) => Outcome::permanent(format!("processor '{name}': {}", message_of(&text))),
        Ok((status, text)) => Outcome::transient(format!("processor fold answered {status}: {}", message_of(&text))),
        Err(error) => Outcome::transient(format!("processor fold failed: {error}")),
    }
}

/// `GET /v1/streams/{path}/-/processors/{name}` (§9): `{name, version,
/// streamId, checkpointOffset, lag, state}`. An instance not yet woken for
/// this stream's lifetime and the current definition shows the reset it
/// will make on its next wake: `initialState` at checkpoint 0.
pub async fn state(object: &StreamObject, project: &str, name: &str) -> worker::Result<ApiResponse> {
    if let Err(error) = tributary::processor::check_name(name) {
        return Ok(ApiError::from(error).into());
    }
    let (head, stream_id, path) = {
        let slot = object.stream_slot().borrow();
        let Some(stream) = slot.as_ref() else {
            return Ok(ApiError::new(ErrorCode::Internal, "stream not open").into());
        };
        let Some(meta) = stream.lifetime() else {
            return Ok(ApiError::new(
                ErrorCode::StreamNotFound,
                format!("stream '{}' does not exist", stream.path()),
            )
            .into());
        };
        (meta.head, meta.stream_id.clone(), meta.path.clone())
    };
    let definition = match definition(object.env(), project, name).await {
        Ok(Some(definition)) => definition,
        Ok(None) => {
            return Ok(ApiError::new(ErrorCode::ProcessorNotFound, format!("no processor named '{name}'")).into())
        }
        Err(error) => return Ok(ApiError::new(ErrorCode::ProcessorUnreachable, error).into()),
    };
    let stub = instance_stub(object.env(), project, name, &path)?;
    let (status, text) = call(&stub, project, Method::Get, &format!("{INSTANCE_ROUTE}state"), None).await?;
    if status != 200 {
        return Ok(ApiError::new(ErrorCode::ProcessorUnreachable, message_of(&text)).into());
    }
    let row: Option<InstanceRow> = parse(&text).flatten();
    let current = row
        .as_ref()
        .filter(|row| row.stream_id == stream_id && row.version == definition.version);
    let (checkpoint, state) = match current {
        Some(row) => (row.checkpoint_offset, row.state.clone()),
        None => (0, definition.body.initial_state.clone()),
    };
    Ok(ApiResponse::json(
        200,
        &serde_json::json!({
            "name": name, "version": definition.version, "streamId": stream_id,
            "checkpointOffset": checkpoint, "lag": head.saturating_sub(checkpoint), "state": state,
        }),
    ))
}
