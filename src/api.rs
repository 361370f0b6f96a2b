//! The HTTP surface of one stream, without HTTP: the Durable Object turns a
//! request into [`ApiRequest`], calls [`Stream::handle`], and sends back the
//! [`ApiResponse`]. Keeping this in the engine makes the whole API natively
//! testable (docs/design.md §1 "the shell is thin").

use crate::error::{ApiError, ErrorCode};
use crate::event::Authority;
use crate::event::CommittedEvent;
use crate::route::Action;
use crate::storage::Storage;
use crate::stream::dead_letters::DeadLetterQuery;
use crate::stream::fences::CardQuery;
use crate::stream::AppendOutcome;
use crate::stream::{RangeQuery, Stream};
use crate::Inputs;
use serde::Serialize;

pub struct ApiRequest<'a> {
    pub action: &'a Action,
    /// URL query string without the leading `?`.
    pub query: &'a str,
    pub body: &'a [u8],
    /// The prefix the caller's token is limited to (§2 Scopes; `None`: the
    /// whole project), which the router passes on: what the stream decides
    /// about its own subscriptions (a cursor-set or resume of a copy) is
    /// checked against it.
    pub token_prefix: Option<&'a str>,
}

/// The Prometheus text format's content type (§11).
pub const PROMETHEUS_CONTENT_TYPE: &str = "text/plain; version=0.0.4";

#[derive(Debug, Clone, PartialEq)]
pub struct ApiResponse {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

impl ApiResponse {
    /// A body that is already JSON text.
    pub fn json_text(status: u16, body: String) -> Self {
        ApiResponse {
            status,
            content_type: "application/json",
            body,
        }
    }

    pub fn json(status: u16, body: &impl Serialize) -> Self {
        match serde_json::to_string(body) {
            Ok(body) => ApiResponse {
                status,
                content_type: "application/json",
                body,
            },
            Err(error) => ApiError::new(ErrorCode::Internal, error.to_string()).into(),
        }
    }

    pub fn no_content() -> Self {
        ApiResponse {
            status: 204,
            content_type: "application/json",
            body: String::new(),
        }
    }
}

impl From<ApiError> for ApiResponse {
    fn from(error: ApiError) -> Self {
        ApiResponse {
            status: error.status,
            content_type: "application/json",
            body: error.to_json(),
        }
    }
}

fn respond<T, E: Into<ApiError>>(result: Result<T, E>, ok: impl FnOnce(T) -> ApiResponse) -> ApiResponse {
    match result {
        Ok(value) => ok(value),
        Err(error) => error.into().into(),
    }
}

impl<S: Storage> Stream<S> {
    /// Serves one public request for this stream.
    pub fn handle(&mut self, request: &ApiRequest<'_>, inputs: &Inputs) -> ApiResponse {
        // A soft-deleted stream is gone on both faces (§18).
        match self.is_soft_deleted() {
            Ok(false) => {}
            Ok(true) => return crate::fork::source::gone(self.path.as_str()).into(),
            Err(error) => return ApiError::from(error).into(),
        }
        match request.action {
            Action::Info => respond(self.info(), |info| ApiResponse::json(200, &info)),
            Action::Destroy => respond(self.delete_or_soft_delete(inputs.now_ms), |_| ApiResponse::no_content()),
            Action::ReadOne(offset) => respond(self.read_one(*offset), |read| ApiResponse::json(200, &read)),
            Action::ReadRange => respond(
                RangeQuery::parse(request.query).and_then(|query| self.read_range_json(&query)),
                |read| ApiResponse::json_text(200, read.body),
            ),
            Action::Append => respond(
                self.append_body_within(request.body, Authority::Public, request.token_prefix, inputs),
                appended,
            ),
            Action::Subscriptions => match (CardQuery::parse(request.query), self.lifetime()) {
                (Err(error), _) => ApiError::from(error).into(),
                (Ok(query), Some(_)) => respond(self.subscriptions_card_page(&query), |card| {
                    ApiResponse::json(200, &card)
                }),
                (Ok(_), None) => respond(self.info().map(|_| ()), |_| ApiResponse::no_content()),
            },
            Action::SigningSecret(key) => respond(self.signing_secret(key), |secret| {
                ApiResponse::json(200, &serde_json::json!({"secret": secret}))
            }),
            Action::ListDeadLetters => respond(
                DeadLetterQuery::parse(request.query).and_then(|query| self.dead_letters(&query)),
                |letters| ApiResponse::json(200, &letters),
            ),
            Action::DiscardDeadLetters => respond(
                DeadLetterQuery::parse(request.query).and_then(|query| self.discard_dead_letters(&query)),
                |discarded| ApiResponse::json(200, &discarded),
            ),
            Action::DiscardDeadLetter(id) => respond(self.discard_dead_letter(*id), |_| ApiResponse::no_content()),
            Action::ReplayDeadLetter(_) => {
                ApiError::new(ErrorCode::Internal, "replay is served by the object's shell").into()
            }
            Action::SubscribeFrom => {
                ApiError::new(ErrorCode::Internal, "subscribe-from is served by the router").into()
            }
            Action::Live => {
                ApiError::new(ErrorCode::Internal, "live connections are served by the object's shell").into()
            }
            Action::ProcessorState(_) => {
                ApiError::new(ErrorCode::Internal, "processor state is served by the object's shell").into()
            }
            Action::Fork => ApiError::new(ErrorCode::Internal, "a fork is served by the object's shell").into(),
            Action::Metrics => ApiResponse {
                status: 200,
                content_type: PROMETHEUS_CONTENT_TYPE,
                body: self.metrics_text(),
            },
        }
    }
}

#[derive(Serialize)]
struct SingleAppended {
    event: CommittedEvent,
    deduplicated: bool,
}

#[derive(Serialize)]
struct BatchAppended {
    events: Vec<CommittedEvent>,
    deduplicated: Vec<bool>,
}

/// 201 when anything new was committed, 200 when every event was a duplicate (§3).
fn appended(outcome: AppendOutcome) -> ApiResponse {
    let status = if outcome.deduplicated.iter().all(|duplicate| *duplicate) {
        200
    } else {
        201
    };
    let AppendOutcome {
        events,
        deduplicated,
        is_batch,
    } = outcome;
    if is_batch {
        return ApiResponse::json(status, &BatchAppended { events, deduplicated });
    }
    match (events.into_iter().next(), deduplicated.first()) {
        (Some(event), Some(&deduplicated)) => ApiResponse::json(status, &SingleAppended { event, deduplicated }),
        _ => ApiError::new(ErrorCode::Internal, "append returned no event").into(),
    }
}
