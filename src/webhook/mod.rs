//! webhook-post and itx-call payloads (docs/design.md §9): what is sent, how it
//! is signed, and how an HTTP answer is classified.

pub mod signing;
pub mod url_rules;

use crate::delivery::{DeliveryPlan, Outcome};
use crate::json_field::JsonField;
use crate::limits::{DEFAULT_WEBHOOK_TIMEOUT_MS, MAX_RETRY_AFTER_MS};
use serde::Serialize;
use serde_json::{json, Value};

/// One signed HTTP request, ready for the shell to send.
#[derive(Debug, Clone, PartialEq)]
pub struct WebhookRequest {
    pub url: String,
    pub body: String,
    pub headers: Vec<(String, String)>,
    pub timeout_ms: u64,
}

fn stream_fields(plan: &DeliveryPlan) -> Value {
    json!({
        "projectId": plan.stamp.source_project_id,
        "path": plan.stamp.source_path,
        "streamId": plan.stamp.stream_id,
        "streamCreatedAt": plan.stamp.stream_created_at,
    })
}

/// The §9 body as the text sent and signed: `type: "event"` with `event`
/// for one event, `"digest"` with `events` otherwise; a retraction (§13) is
/// `type: "retracted"` with the retracted delivery's `deliveryId` and
/// `offset`. An event planned as text (a plain webhook, `delivery::prepare`)
/// is written as it is stored; no tree of it is built.
pub fn body(plan: &DeliveryPlan) -> String {
    if let (Some(retraction), [retracted, ..]) = (&plan.retraction, plan.events.as_slice()) {
        let mut body = stream_fields(plan);
        if let Some(object) = body.as_object_mut() {
            object.insert("type".to_owned(), json!("retracted"));
            object.insert("subscriptionKey".to_owned(), json!(plan.subscription_key));
            object.insert(
                "deliveryId".to_owned(),
                retracted.body.tree().get("deliveryId").cloned().unwrap_or(Value::Null),
            );
            object.insert("offset".to_owned(), json!(retracted.offset));
            object.insert("invalidatedAtOffset".to_owned(), json!(retraction.invalidated_at));
            if let Some(reason) = &retraction.reason {
                object.insert("reason".to_owned(), json!(reason));
            }
            object.insert("attempt".to_owned(), json!(plan.attempt));
        }
        return body.to_string();
    }
    /// The fields in the order [`stream_fields`] and the plan give them.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Delivered<'a> {
        project_id: &'a str,
        path: &'a str,
        stream_id: &'a str,
        stream_created_at: &'a str,
        subscription_key: &'a str,
        cursor_changed_at_source_offset: u64,
        delivery_id: &'a str,
        attempt: u64,
        #[serde(rename = "type")]
        kind: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        event: Option<&'a JsonField>,
        #[serde(skip_serializing_if = "Option::is_none")]
        events: Option<Vec<&'a JsonField>>,
    }
    let (kind, event, events) = match plan.events.as_slice() {
        [single] => ("event", Some(&single.body), None),
        many => ("digest", None, Some(many.iter().map(|event| &event.body).collect())),
    };
    let delivered = Delivered {
        project_id: &plan.stamp.source_project_id,
        path: &plan.stamp.source_path,
        stream_id: &plan.stamp.stream_id,
        stream_created_at: &plan.stamp.stream_created_at,
        subscription_key: &plan.subscription_key,
        cursor_changed_at_source_offset: plan.stamp.cursor_changed_at_source_offset,
        delivery_id: &plan.delivery_id,
        attempt: plan.attempt,
        kind,
        event,
        events,
    };
    // Strings, integers and stored JSON text: nothing here fails to serialize.
    serde_json::to_string(&delivered).unwrap_or_default()
}

/// The `user-agent` of every webhook request, unless its receiver configures one (§9).
pub const USER_AGENT: (&str, &str) = ("user-agent", "Tributary-Webhooks/1");

/// The signed request of a webhook-post plan (Standard Webhooks headers),
/// to `url` with the receiver's own `extra` headers (§9; resolved, and
/// never one of the names Tributary sets: those are refused when
/// configured). A configured `user-agent` (any case) replaces ours.
pub fn request(
    plan: &DeliveryPlan,
    url: &str,
    extra: &[(String, String)],
    secret: &str,
    timeout_ms: Option<u64>,
    now_ms: i64,
) -> WebhookRequest {
    let body = body(plan);
    let timestamp = now_ms.div_euclid(1000);
    let signature = signing::sign(secret, &plan.delivery_id, timestamp, &body).unwrap_or_default();
    let mut headers = vec![
        ("content-type".to_owned(), "application/json".to_owned()),
        ("webhook-id".to_owned(), plan.delivery_id.clone()),
        ("webhook-timestamp".to_owned(), timestamp.to_string()),
        ("webhook-signature".to_owned(), signature),
    ];
    if !extra.iter().any(|(name, _)| name.eq_ignore_ascii_case(USER_AGENT.0)) {
        headers.push((USER_AGENT.0.to_owned(), USER_AGENT.1.to_owned()));
    }
    headers.extend(extra.iter().cloned());
    WebhookRequest {
        url: url.to_owned(),
        headers,
        body,
        timeout_ms: timeout_ms.unwrap_or(DEFAULT_WEBHOOK_TIMEOUT_MS),
    }
}

/// The JS RPC argument of an itx-call batch; a retraction batch (§13) has
/// `events: []` and `retracted: [{deliveryId, offset}]`.
pub fn itx_envelope(plan: &DeliveryPlan) -> Value {
    if let Some(retraction) = &plan.retraction {
        return json!({
            "stream": stream_fields(plan),
            "subscriptionKey": plan.subscription_key,
            "deliveryId": plan.delivery_id,
            "attempt": plan.attempt,
            "events": [],
            "retracted": plan.events.iter().map(|e| &e.body).collect::<Vec<_>>(),
            "invalidatedAtOffset": retraction.invalidated_at,
            "reason": retraction.reason,
        });
    }
    json!({
        "stream": stream_fields(plan),
        "subscriptionKey": plan.subscription_key,
        "deliveryId": plan.delivery_id,
        "attempt": plan.attempt,
        "events": plan.events.iter().map(|e| &e.body).collect::<Vec<_>>(),
    })
}

/// Classifies an HTTP answer (§9): 2xx delivered; 410 and other 4xx
/// permanent; 408, 429, 5xx and 3xx (redirects are not followed) transient,
/// honouring `Retry-After` as the minimum backoff.
pub fn classify(status: u16, retry_after: Option<&str>, body_prefix: &str, now_ms: i64) -> Outcome {
    let detail = crate::text::excerpt(body_prefix);
    let message = if detail.is_empty() {
        format!("HTTP {status}")
    } else {
        format!("HTTP {status}: {detail}")
    };
    match status {
        200..=299 => Outcome::Delivered,
        408 | 429 | 500..=599 | 300..=399 => Outcome::Failed {
            kind: crate::delivery::FailureKind::Transient,
            message: if (300..400).contains(&status) {
                format!("{message} (redirects are not followed)")
            } else {
                message
            },
            retry_after_ms: retry_after.and_then(|value| retry_after_ms(value, now_ms)),
        },
        _ => Outcome::permanent(message),
    }
}

/// `Retry-After` as milliseconds from `now_ms`: delta-seconds or an IMF-fixdate.
pub fn retry_after_ms(value: &str, now_ms: i64) -> Option<i64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<i64>() {
        return Some(seconds.clamp(0, MAX_RETRY_AFTER_MS / 1000) * 1000);
    }
    http_date_ms(value).map(|at| (at - now_ms).clamp(0, MAX_RETRY_AFTER_MS))
}

/// Parses `Sun, 06 Nov 1994 08:49:37 GMT`.
fn http_date_ms(value: &str) -> Option<i64> {
    let parts: Vec<&str> = value.split_whitespace().collect();
    let [_, day, month, year, time, "GMT"] = parts.as_slice() else {
        return None;
    };
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| m == month)? as i64 + 1;
    let (day, year): (i64, i64) = (day.parse().ok()?, year.parse().ok()?);
    let clock: Vec<i64> = time.split(':').map(|part| part.parse().ok()).collect::<Option<_>>()?;
    let [hours, minutes, seconds] = clock.as_slice() else {
        return None;
    };
    let (y, m) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let day_of_year = (153 * m + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era - 719_468;
    Some(((days * 86_400) + hours * 3600 + minutes * 60 + seconds) * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delivery::FailureKind;

    #[test]
    fn classification_follows_section_9() {
        assert_eq!(classify(204, None, "", 0), Outcome::Delivered);
        for (status, kind) in [
            (410, FailureKind::Permanent),
            (400, FailureKind::Permanent),
            (404, FailureKind::Permanent),
            (408, FailureKind::Transient),
            (429, FailureKind::Transient),
            (503, FailureKind::Transient),
            (302, FailureKind::Transient),
        ] {
            assert!(
                matches!(classify(status, None, "x", 0), Outcome::Failed { kind: k, .. } if k == kind),
                "{status}"
            );
        }
        assert!(matches!(
            classify(429, Some("7"), "", 0),
            Outcome::Failed {
                retry_after_ms: Some(7000),
                ..
            }
        ));
    }

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        assert_eq!(retry_after_ms("120", 0), Some(120_000));
        assert_eq!(http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT"), Some(784_111_777_000));
        assert_eq!(
            retry_after_ms("Sun, 06 Nov 1994 08:49:47 GMT", 784_111_777_000),
            Some(10_000)
        );
        assert_eq!(retry_after_ms("soon", 0), None);
    }
}
