//! The receiver union of §5. The structure itself carries the rules:
//! `processor-wake` has no transform and no delivery; `copy-to-stream` can
//! only halt and has no throttle or aggregate; `itx-call` and `webhook-post`
//! may halt or skip.

use super::delivery::{Delivery, PolicySet};
use super::{invalid, object, optional_jsonata, ConfigError};
use crate::limits::{MAX_ITX_EXPRESSION_ITEMS, MAX_ITX_EXPRESSION_ITEM_BYTES, MAX_WEBHOOK_URL_BYTES};
use crate::path::StreamPath;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    WebhookPost {
        url: String,
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

impl Receiver {
    pub fn parse(value: &Value) -> Result<Receiver, ConfigError> {
        let action = value
            .get("action")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("receiver.action", "is required and must be a string"))?;
        match action {
            "processor-wake" => {
                let fields = object(value, "receiver", &["action", "expression"])?;
                let expression = parse_expression(fields.get("expression"), "receiver.expression")?;
                if expression.get(0).and_then(Value::as_str) != Some("processors")
                    || expression.get(2).and_then(Value::as_str) != Some("wake")
                    || expression.as_array().map(Vec::len) != Some(3)
                {
                    return Err(invalid(
                        "receiver.expression",
                        "must be [\"processors\", NAME, \"wake\"]",
                    ));
                }
                if let Some(name) = crate::processor::name_of(&expression) {
                    crate::processor::check_name(name)
                        .map_err(|error| invalid("receiver.expression", error.to_string()))?;
                }
                Ok(Receiver::ProcessorWake { expression })
            }
            "copy-to-stream" => {
                let fields = object(
                    value,
                    "receiver",
                    &["action", "receivingStreamPath", "jsonataTransform", "delivery"],
                )?;
                let path = fields
                    .get("receivingStreamPath")
                    .and_then(Value::as_str)
                    .ok_or_else(|| invalid("receiver.receivingStreamPath", "is required and must be a string"))?;
                StreamPath::parse(path).map_err(|error| invalid("receiver.receivingStreamPath", error.to_string()))?;
                Ok(Receiver::CopyToStream {
                    receiving_stream_path: path.to_owned(),
                    jsonata_transform: optional_jsonata(fields, "jsonataTransform", "receiver.jsonataTransform")?,
                    delivery: Delivery::parse(fields.get("delivery"), PolicySet::Copy)?,
                })
            }
            "itx-call" => {
                let fields = object(
                    value,
                    "receiver",
                    &["action", "expression", "jsonataTransform", "delivery"],
                )?;
                Ok(Receiver::ItxCall {
                    expression: parse_expression(fields.get("expression"), "receiver.expression")?,
                    jsonata_transform: optional_jsonata(fields, "jsonataTransform", "receiver.jsonataTransform")?,
                    delivery: Delivery::parse(fields.get("delivery"), PolicySet::Call)?,
                })
            }
            "webhook-post" => {
                let fields = object(value, "receiver", &["action", "url", "jsonataTransform", "delivery"])?;
                let url = fields
                    .get("url")
                    .and_then(Value::as_str)
                    .ok_or_else(|| invalid("receiver.url", "is required and must be a string"))?;
                if url.is_empty() || url.len() > MAX_WEBHOOK_URL_BYTES {
                    return Err(invalid(
                        "receiver.url",
                        format!("must be 1-{MAX_WEBHOOK_URL_BYTES} bytes"),
                    ));
                }
                Ok(Receiver::WebhookPost {
                    url: url.to_owned(),
                    jsonata_transform: optional_jsonata(fields, "jsonataTransform", "receiver.jsonataTransform")?,
                    delivery: Delivery::parse(fields.get("delivery"), PolicySet::Webhook)?,
                })
            }
            other => Err(invalid(
                "receiver.action",
                format!("'{other}' is not one of processor-wake, copy-to-stream, itx-call, webhook-post"),
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
            Receiver::WebhookPost { url, .. } => format!("webhook:{url}"),
        }
    }

    pub fn delivery(&self) -> Option<&Delivery> {
        match self {
            Receiver::ProcessorWake { .. } => None,
            Receiver::CopyToStream { delivery, .. }
            | Receiver::ItxCall { delivery, .. }
            | Receiver::WebhookPost { delivery, .. } => Some(delivery),
        }
    }

    pub fn jsonata_transform(&self) -> Option<&str> {
        match self {
            Receiver::ProcessorWake { .. } => None,
            Receiver::CopyToStream { jsonata_transform, .. }
            | Receiver::ItxCall { jsonata_transform, .. }
            | Receiver::WebhookPost { jsonata_transform, .. } => jsonata_transform.as_deref(),
        }
    }
}
