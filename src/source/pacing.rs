//! How a source's runs are paced (docs/design.md §15 "Failures"), shared by
//! every source kind: a run that went well sleeps the poll interval (or
//! goes on at once when work is left); a transient failure backs off with
//! jitter (1 s doubling to 5 min, at least the node's `Retry-After`) and
//! rotates to the next RPC URL; a permanent one stops the source, `failed`,
//! until reconfigured. Each kind's row lends its fields as a [`Health`].

use super::answers::error_text;
use super::effect::Effect;
use crate::limits::{SOURCE_BACKOFF_INITIAL_MS, SOURCE_BACKOFF_MAX_MS};
use crate::subscription::Retry;
use serde_json::{json, Value};

/// Whether the source runs. A `failed` source waits for a new PUT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Running,
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Failed => "failed",
        }
    }

    /// A stored `status` column (anything but `failed` runs).
    pub fn parse(text: &str) -> Status {
        match text {
            "failed" => Status::Failed,
            _ => Status::Running,
        }
    }
}

/// The fields of a source's row that pacing reads and moves.
pub struct Health<'a> {
    pub name: &'a str,
    pub poll_ms: u64,
    /// The `rpcUrls` a run calls in turn (rotation wraps around).
    pub rpc_urls: &'a [String],
    pub status: &'a mut Status,
    pub last_error: &'a mut Option<String>,
    /// Failed runs in a row (the backoff exponent).
    pub attempt: &'a mut u64,
    pub next_run_at_ms: &'a mut i64,
    pub url_index: &'a mut u64,
    pub updated_at_ms: &'a mut i64,
}

/// The backoff after `attempt` failed runs: 1 s doubling to 5 min, ±20%.
pub fn backoff_ms(attempt: u64, entropy: [u8; 16]) -> i64 {
    let retry = Retry {
        max_attempts: u64::MAX,
        initial_backoff_ms: SOURCE_BACKOFF_INITIAL_MS,
        max_backoff_ms: SOURCE_BACKOFF_MAX_MS,
    };
    crate::delivery::backoff_ms(&retry, attempt, entropy)
}

/// The URL a run calls: `rpcUrls[url_index]` (wrapping), and its index.
pub(super) fn current_url(urls: &[String], url_index: u64) -> (usize, String) {
    let index = usize::try_from(url_index).unwrap_or(0) % urls.len().max(1);
    (index, urls.get(index).cloned().unwrap_or_default())
}

/// A run that went well: the next is due after the poll interval when
/// `caught_up`, else at once.
pub(super) fn finish_ok(health: Health<'_>, now: i64, caught_up: bool) -> Effect {
    *health.attempt = 0;
    *health.last_error = None;
    let delay = if caught_up {
        i64::try_from(health.poll_ms).unwrap_or(i64::MAX)
    } else {
        0
    };
    *health.next_run_at_ms = now.saturating_add(delay);
    Effect::Sleep {
        at_ms: *health.next_run_at_ms,
    }
}

/// A transient failure (§15 "Failures"): back off (at least the node's
/// `Retry-After`, capped), rotate to the next RPC URL, and log it.
pub(super) fn finish_transient(
    health: Health<'_>,
    now: i64,
    entropy: [u8; 16],
    reason: &str,
    retry_after_ms: Option<u64>,
) -> (Effect, Option<Value>) {
    *health.attempt += 1;
    let retry_after = retry_after_ms
        .map(|ms| i64::try_from(ms.min(SOURCE_BACKOFF_MAX_MS)).unwrap_or(0))
        .unwrap_or(0);
    let delay = backoff_ms(*health.attempt, entropy).max(retry_after);
    let urls = u64::try_from(health.rpc_urls.len()).unwrap_or(1).max(1);
    *health.url_index = (*health.url_index + 1) % urls;
    *health.last_error = Some(error_text(reason));
    *health.next_run_at_ms = now.saturating_add(delay);
    let log = json!({
        "event": "source_retry",
        "source": health.name,
        "attempt": *health.attempt,
        "delayMs": delay,
        "error": *health.last_error,
    });
    (
        Effect::Sleep {
            at_ms: *health.next_run_at_ms,
        },
        Some(log),
    )
}

/// A source reconfigured to read what it read: it runs again now, from its
/// first RPC URL, with no failure held against it.
pub(super) fn restart(health: Health<'_>, now: i64) {
    *health.status = Status::Running;
    *health.attempt = 0;
    *health.last_error = None;
    *health.next_run_at_ms = now;
    *health.url_index = 0;
}

/// Why a run may not start now: a failed source stops; one not yet due
/// sleeps until it is. `None`: the run may start.
pub(super) fn not_due(status: Status, next_run_at_ms: i64, now: i64) -> Option<Effect> {
    if status == Status::Failed {
        return Some(Effect::Stop);
    }
    (now < next_run_at_ms).then_some(Effect::Sleep { at_ms: next_run_at_ms })
}

/// When the alarm should next fire: a running source's next run; none once failed.
pub(super) fn due_at(status: Status, next_run_at_ms: i64) -> Option<i64> {
    (status == Status::Running).then_some(next_run_at_ms)
}

/// The `status` a source's view shows (§15): `failed`, `running`, or
/// `retrying` while failed runs are backing off.
pub(super) fn status_name(status: Status, attempt: u64) -> &'static str {
    match (status, attempt) {
        (Status::Failed, _) => "failed",
        (Status::Running, 0) => "running",
        (Status::Running, _) => "retrying",
    }
}

/// A permanent failure: the source stops, `failed`, until reconfigured.
pub(super) fn finish_permanent(health: Health<'_>, reason: &str) -> (Effect, Option<Value>) {
    *health.status = Status::Failed;
    *health.last_error = Some(error_text(reason));
    let log = json!({
        "event": "source_failed",
        "source": health.name,
        "error": *health.last_error,
    });
    (Effect::Stop, Some(log))
}
