//! The log receiver's lines (DESIGN.md §15.1): each event of a planned
//! batch becomes one line of JSON, which the shell writes with
//! `console.log` (Workers Logs and Logpush pick it up). Writing the lines is
//! the acknowledgement; nothing is retried. The delivery id is in every line,
//! so a batch the shell wrote but could not acknowledge before a crash is
//! recognisable when it is written again (§6 at least once).

use crate::delivery::DeliveryPlan;
use serde_json::json;

/// The `tributary` field of every line: what to search the logs for.
pub const LOG_RECEIVER_TAG: &str = "log-receiver";

/// One line per event, in offset order: `{tributary, deliveryId, attempt,
/// project, stream, streamId, subscriptionKey, offset, event}`, `event` as
/// the filter and transform shaped it.
pub fn lines(plan: &DeliveryPlan) -> Vec<String> {
    plan.events
        .iter()
        .map(|event| {
            json!({
                "tributary": LOG_RECEIVER_TAG,
                "deliveryId": plan.delivery_id,
                "attempt": plan.attempt,
                "project": plan.stamp.source_project_id,
                "stream": plan.stamp.source_path,
                "streamId": plan.stamp.stream_id,
                "subscriptionKey": plan.subscription_key,
                "offset": event.offset,
                "event": event.body,
            })
            .to_string()
        })
        .collect()
}
