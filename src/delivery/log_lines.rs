//! The log receiver's lines (docs/design.md §15.1, §12 "log receiver"): each
//! event of a planned batch becomes one line of JSON, which the shell writes
//! with `console.log` (Workers Logs and Logpush pick it up). Writing the
//! lines is the acknowledgement; nothing is retried. The delivery id is in
//! every line, so a batch the shell wrote but could not acknowledge before a
//! crash is recognisable when it is written again (§6 at least once).
//!
//! The platform keeps only so much of one invocation's log
//! ([`INVOCATION_LOG_BYTES`]): [`cost`] is what one line takes of it, and the
//! planner cuts a batch to the lines that fit what the turn has left.

use crate::copy::Stamp;
use crate::delivery::DeliveryPlan;
use crate::limits::INVOCATION_LOG_BYTES;
use serde_json::{json, Value};

/// The `tributary` field of every line: what to search the logs for.
pub const LOG_RECEIVER_TAG: &str = "log-receiver";

/// A delivery id of the length every delivery id has (`dlv_` and 32 hex
/// digits, [`crate::copy::delivery_id`]): the planner prices a line before
/// its batch's range, and so its id, is known.
pub const PENDING_DELIVERY_ID: &str = "dlv_00000000000000000000000000000000";

/// What every line of one batch shares.
#[derive(Debug, Clone, Copy)]
pub struct Head<'a> {
    pub delivery_id: &'a str,
    pub attempt: u64,
    pub stamp: &'a Stamp,
    pub subscription_key: &'a str,
}

impl<'a> Head<'a> {
    pub fn of(plan: &'a DeliveryPlan) -> Head<'a> {
        Head {
            delivery_id: &plan.delivery_id,
            attempt: plan.attempt,
            stamp: &plan.stamp,
            subscription_key: &plan.subscription_key,
        }
    }
}

/// One event's line: `{tributary, deliveryId, attempt, project, stream,
/// streamId, subscriptionKey, offset, event}`, `event` as the filter and
/// transform shaped it.
pub fn line(head: &Head<'_>, offset: u64, event: &Value) -> String {
    json!({
        "tributary": LOG_RECEIVER_TAG,
        "deliveryId": head.delivery_id,
        "attempt": head.attempt,
        "project": head.stamp.source_project_id,
        "stream": head.stamp.source_path,
        "streamId": head.stamp.stream_id,
        "subscriptionKey": head.subscription_key,
        "offset": offset,
        "event": event,
    })
    .to_string()
}

/// One line per event of `plan`, in offset order.
pub fn lines(plan: &DeliveryPlan) -> Vec<String> {
    let head = Head::of(plan);
    plan.events
        .iter()
        .map(|event| line(&head, event.offset, &event.body.tree()))
        .collect()
}

/// What writing `line` takes of the invocation's log budget (§12): its
/// length as a JSON string — quotes, backslashes and control characters
/// escaped, the form the platform keeps a log message in — so a payload
/// full of quotes cannot take twice what was counted.
pub fn cost(line: &str) -> usize {
    let escapes: usize = line
        .bytes()
        .map(|byte| match byte {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
            0..=0x1f => 5,
            _ => 0,
        })
        .sum();
    line.len() + escapes + 2
}

/// What writing all of `plan`'s lines takes of the log budget.
pub fn cost_of(plan: &DeliveryPlan) -> usize {
    lines(plan).iter().map(|line| cost(line)).sum()
}

/// Why a line costing `cost` is never written (§15.1): no invocation may
/// log that much, so waiting cannot help.
pub fn too_large(cost: usize) -> Option<String> {
    (cost > INVOCATION_LOG_BYTES).then(|| {
        format!(
            "its log line takes {cost} bytes, more than one invocation may log ({INVOCATION_LOG_BYTES} bytes, §12); \
             it is never written"
        )
    })
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    #[test]
    fn a_line_costs_its_length_as_a_json_string() {
        for text in [
            "plain",
            "{\"quoted\":\"x\\\\y\"}",
            "tab\there, newline\nthere, \u{1} control",
            "ünïcödé ✓",
            "",
        ] {
            let as_json_string = serde_json::to_string(&Value::String(text.to_owned())).unwrap();
            assert_eq!(cost(text), as_json_string.len(), "{text:?}");
        }
    }

    #[test]
    fn every_delivery_id_is_as_long_as_the_pending_one() {
        for (after, through) in [(0, 1), (7, 4_000_000), (u64::MAX - 1, u64::MAX)] {
            let id = crate::copy::delivery_id("stream-id", "key", after, through);
            assert_eq!(id.len(), PENDING_DELIVERY_ID.len(), "{id}");
            assert!(id.starts_with("dlv_") && id.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'_'));
        }
    }

    #[test]
    fn only_a_line_over_the_invocation_budget_is_too_large() {
        assert_eq!(too_large(INVOCATION_LOG_BYTES), None);
        let message = too_large(INVOCATION_LOG_BYTES + 1).unwrap();
        assert!(message.contains(&INVOCATION_LOG_BYTES.to_string()), "{message}");
    }
}
