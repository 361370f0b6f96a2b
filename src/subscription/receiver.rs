//! The receiver union of §5. The structure itself carries the rules:
//! `processor-wake` has no transform and no delivery; `copy-to-stream` can
//! only halt and has no throttle or aggregate; `itx-call` and `webhook-post`
//! may halt or skip; `log` (§15.1) writes each event as one structured log
//! line and takes only `start` and `onFailingEvent`.

use super::delivery::{Delivery, PolicySet};
use super::headers::{self, Headers};
use super::{invalid, object, optional_jsonata, ConfigError};
use crate::limits::{MAX_ITX_EXPRESSION_ITEMS, MAX_ITX_EXPRESSION_ITEM_BYTES, MAX_WEBHOOK_URL_BYTES};
use crate::path::StreamPath;
use crate::processor::definition::{check_name as check_processor_name, name_of as processor_name};
use crate::secrets::MaybeSecret;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum Receiver {
    ProcessorWake {
        expression: Value,
    },
    CopyToStream {
        receiving_stream_path: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        jsonata_transform: Option<String>,
        delivery: Delivery,
    },
    ItxCall {
        expression: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        jsonata_transform: Option<String>,
        delivery: Delivery,
    },
    /// `url` and each header value may name a project secret (§9).
    WebhookPost {
        url: MaybeSecret,
        #[serde(default, skip_serializing_if = "Headers::is_empty")]
        headers: Headers,
        #[serde(skip_serializing_if = "Option::is_none")]
        jsonata_transform: Option<String>,
        delivery: Delivery,
    },
    /// One structured JSON log line per event (§15.1), acknowledged at once.
    Log {
        #[serde(skip_serializing_if = "Option::is_none")]
        jsonata_transform: Option<String>,
        delivery: Delivery,
    },
}

/// An ITX expression is a JSON array of 1-8 non-empty strings (§9).
fn parse_expression(value: Option<&Value>, field: &str) -> Result<Value, ConfigError> {
    let items = value
        .and_then(Value::as_array)
        .ok_or_else(|| invalid(field, "must be an array of strings"))?;
    let valid = !items.is_empty()
        && items.len() <= MAX_ITX_EXPRESSION_ITEMS
        && items.iter().all(|item| {
            item.as_str()
                .is_some_and(|text| !text.is_empty() && text.len() <= MAX_ITX_EXPRESSION_ITEM_BYTES)
        });
    if !valid {
        return Err(invalid(
            field,
            format!("must be an array of 1-{MAX_ITX_EXPRESSION_ITEMS} non-empty strings"),
        ));
    }
    Ok(Value::Array(items.clone()))
}

/// Whether an expression has the shape `["processors", NAME, "wake"]` (§9).
fn is_wake_expression(expression: &Value) -> bool {
    expression.get(0).and_then(Value::as_str) == Some("processors")
        && expression.get(2).and_then(Value::as_str) == Some("wake")
        && expression.as_array().map(Vec::len) == Some(3)
}

/// A webhook URL is 1 to `MAX_WEBHOOK_URL_BYTES` bytes.
fn check_url(url: &str) -> Result<(), ConfigError> {
    if url.is_empty() || url.len() > MAX_WEBHOOK_URL_BYTES {
        return Err(invalid(
            "receiver.url",
            format!("must be 1-{MAX_WEBHOOK_URL_BYTES} bytes"),
        ));
    }
    Ok(())
}

/// A required string field of `receiver`, named `receiver.{name}` in errors.
fn required_str<'a>(fields: &'a Map<String, Value>, name: &str) -> Result<&'a str, ConfigError> {
    fields
        .get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(&format!("receiver.{name}"), "is required and must be a string"))
}

/// The optional `receiver.jsonataTransform`.
fn jsonata_transform(fields: &Map<String, Value>) -> Result<Option<String>, ConfigError> {
    optional_jsonata(fields, "jsonataTransform", "receiver.jsonataTransform")
}

/// `processor-wake`: no transform and no delivery (§9).
fn parse_processor_wake(value: &Value) -> Result<Receiver, ConfigError> {
    let fields = object(value, "receiver", &["action", "expression"])?;
    let expression = parse_expression(fields.get("expression"), "receiver.expression")?;
    if !is_wake_expression(&expression) {
        return Err(invalid(
            "receiver.expression",
            "must be [\"processors\", NAME, \"wake\"]",
        ));
    }
    if let Some(name) = processor_name(&expression) {
        check_processor_name(name).map_err(|error| invalid("receiver.expression", error.to_string()))?;
    }
    Ok(Receiver::ProcessorWake { expression })
}

/// `copy-to-stream`: a receiving stream path that parses; halt only.
fn parse_copy_to_stream(value: &Value) -> Result<Receiver, ConfigError> {
    let fields = object(
        value,
        "receiver",
        &["action", "receivingStreamPath", "jsonataTransform", "delivery"],
    )?;
    let path = required_str(fields, "receivingStreamPath")?;
    StreamPath::parse(path).map_err(|error| invalid("receiver.receivingStreamPath", error.to_string()))?;
    Ok(Receiver::CopyToStream {
        receiving_stream_path: path.to_owned(),
        jsonata_transform: jsonata_transform(fields)?,
        delivery: Delivery::parse(fields.get("delivery"), PolicySet::Copy)?,
    })
}

/// `itx-call`: any ITX expression (§9).
fn parse_itx_call(value: &Value) -> Result<Receiver, ConfigError> {
    let fields = object(
        value,
        "receiver",
        &["action", "expression", "jsonataTransform", "delivery"],
    )?;
    Ok(Receiver::ItxCall {
        expression: parse_expression(fields.get("expression"), "receiver.expression")?,
        jsonata_transform: jsonata_transform(fields)?,
        delivery: Delivery::parse(fields.get("delivery"), PolicySet::Call)?,
    })
}

/// `webhook-post`: a bounded URL or a secret reference, optional headers
/// (§9); the webhook policies, timeoutMs included.
fn parse_webhook_post(value: &Value) -> Result<Receiver, ConfigError> {
    let fields = object(
        value,
        "receiver",
        &["action", "url", "headers", "jsonataTransform", "delivery"],
    )?;
    let url = fields.get("url").and_then(MaybeSecret::from_json).ok_or_else(|| {
        invalid(
            "receiver.url",
            "is required: a string or {\"secret\": NAME} (a name of [A-Za-z0-9_.-])",
        )
    })?;
    if let MaybeSecret::Plain(url) = &url {
        check_url(url)?;
    }
    Ok(Receiver::WebhookPost {
        url,
        headers: headers::parse(fields.get("headers"))?,
        jsonata_transform: jsonata_transform(fields)?,
        delivery: Delivery::parse(fields.get("delivery"), PolicySet::Webhook)?,
    })
}

/// `log` (§15.1): a transform and the halt-or-skip choice; nothing to retry.
fn parse_log(value: &Value) -> Result<Receiver, ConfigError> {
    let fields = object(value, "receiver", &["action", "jsonataTransform", "delivery"])?;
    Ok(Receiver::Log {
        jsonata_transform: jsonata_transform(fields)?,
        delivery: Delivery::parse(fields.get("delivery"), PolicySet::Log)?,
    })
}

impl Receiver {
    /// A receiver of §5, one leaf per `action`.
    pub fn parse(value: &Value) -> Result<Receiver, ConfigError> {
        let action = value
            .get("action")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("receiver.action", "is required and must be a string"))?;
        match action {
            "processor-wake" => parse_processor_wake(value),
            "copy-to-stream" => parse_copy_to_stream(value),
            "itx-call" => parse_itx_call(value),
            "webhook-post" => parse_webhook_post(value),
            "log" => parse_log(value),
            other => Err(invalid(
                "receiver.action",
                format!("'{other}' is not one of processor-wake, copy-to-stream, itx-call, webhook-post, log"),
            )),
        }
    }

    /// What "the same receiver" means for the 64-per-receiver bound (§5).
    pub fn identity(&self) -> String {
        match self {
            Receiver::ProcessorWake { expression } | Receiver::ItxCall { expression, .. } => {
                format!("itx:{expression}")
            }
            Receiver::CopyToStream {
                receiving_stream_path, ..
            } => format!("stream:{receiving_stream_path}"),
            Receiver::WebhookPost { url, .. } => format!("webhook:{}", url.shown()),
            Receiver::Log { .. } => "log".to_owned(),
        }
    }

    pub fn delivery(&self) -> Option<&Delivery> {
        match self {
            Receiver::ProcessorWake { .. } => None,
            Receiver::CopyToStream { delivery, .. }
            | Receiver::ItxCall { delivery, .. }
            | Receiver::WebhookPost { delivery, .. }
            | Receiver::Log { delivery, .. } => Some(delivery),
        }
    }

    pub fn jsonata_transform(&self) -> Option<&str> {
        match self {
            Receiver::ProcessorWake { .. } => None,
            Receiver::CopyToStream { jsonata_transform, .. }
            | Receiver::ItxCall { jsonata_transform, .. }
            | Receiver::WebhookPost { jsonata_transform, .. }
            | Receiver::Log { jsonata_transform, .. } => jsonata_transform.as_deref(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_wake_expression_is_processors_name_wake() {
        assert!(is_wake_expression(&json!(["processors", "p", "wake"])));
        assert!(!is_wake_expression(&json!(["processors", "p", "sleep"])));
        assert!(!is_wake_expression(&json!(["other", "p", "wake"])));
        assert!(!is_wake_expression(&json!(["processors", "p", "wake", "x"])));
        assert!(!is_wake_expression(&json!(["processors", "p"])));
    }

    #[test]
    fn a_url_is_one_to_max_bytes() {
        assert!(check_url("https://example.com/hook").is_ok());
        assert!(check_url(&"u".repeat(MAX_WEBHOOK_URL_BYTES)).is_ok());
        for url in [String::new(), "u".repeat(MAX_WEBHOOK_URL_BYTES + 1)] {
            let error = check_url(&url).unwrap_err();
            assert_eq!(
                error,
                invalid("receiver.url", format!("must be 1-{MAX_WEBHOOK_URL_BYTES} bytes"))
            );
        }
    }

    #[test]
    fn a_required_string_names_its_receiver_field() {
        let fields = json!({"url": 3});
        let error = required_str(fields.as_object().unwrap(), "url").unwrap_err();
        assert_eq!(error, invalid("receiver.url", "is required and must be a string"));
        let fields = json!({"url": "x"});
        assert_eq!(required_str(fields.as_object().unwrap(), "url"), Ok("x"));
    }
}
