//! `GET /v1/streams/{path}/-/processors/{name}` (docs/design.md §9): the
//! instance's view of this stream, as the engine's wake protocol shows it.

use super::StreamObject;
use crate::internal::bindings::instance_stub;
use crate::senders::processor;
use tributary::api::ApiResponse;
use tributary::error::{ApiError, ErrorCode};
use tributary::processor::wake;
use tributary::route::internal::INSTANCE_ROUTE;
use worker::Method;

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
    let definition = match processor::definition(object.env(), project, name).await {
        Ok(Some(definition)) => definition,
        Ok(None) => {
            return Ok(ApiError::new(ErrorCode::ProcessorNotFound, format!("no processor named '{name}'")).into())
        }
        Err(error) => return Ok(ApiError::new(ErrorCode::ProcessorUnreachable, error).into()),
    };
    let stub = instance_stub(object.env(), project, name, &path)?;
    let (status, text) = processor::call(
        &stub.into(),
        project,
        Method::Get,
        &format!("{INSTANCE_ROUTE}state"),
        None,
    )
    .await?;
    if status != 200 {
        return Ok(ApiError::new(ErrorCode::ProcessorUnreachable, wake::message_of(&text)).into());
    }
    Ok(ApiResponse::json(
        200,
        &wake::state_view(name, &definition, &text, &stream_id, head),
    ))
}
