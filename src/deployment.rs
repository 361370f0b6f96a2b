//! What the deployment allows (docs/design.md §9), read by the shell from its
//! environment and handed to the engine: webhook URL relaxation, the ITX
//! service allowlist, and the webhook signing key. Checked when a
//! subscription is configured — never during replay, so a fold stays a pure
//! function of the log.

use crate::secrets::MaybeSecret;
use crate::subscription::{invalid, ConfigError, Configuration, Receiver};
use crate::webhook::url_rules;
use serde_json::Value;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Deployment {
    /// `ALLOW_INSECURE_WEBHOOKS`: http, localhost and private hosts allowed.
    pub allow_insecure_webhooks: bool,
    /// `ITX_SERVICES`: service bindings an ITX expression may name.
    pub itx_services: Vec<String>,
    /// `WEBHOOK_SIGNING_KEY`: root of every subscription's signing secret.
    pub webhook_signing_key: Option<String>,
    /// `STORAGE_BUDGET_BYTES` (§16): past it, appends of data get 507.
    pub storage_budget_bytes: Option<u64>,
}

impl Deployment {
    /// The storage budget of one stream (§16): the deployment's, else
    /// [`DEFAULT_STORAGE_BUDGET_BYTES`](crate::limits::DEFAULT_STORAGE_BUDGET_BYTES).
    pub fn storage_budget_bytes(&self) -> u64 {
        self.storage_budget_bytes
            .unwrap_or(crate::limits::DEFAULT_STORAGE_BUDGET_BYTES)
    }

    /// Refuses configurations this deployment cannot serve (422).
    pub fn check(&self, configuration: &Configuration) -> Result<(), ConfigError> {
        match &configuration.receiver {
            // A URL from a secret is checked when the router resolves it
            // at configure time, and again at every send (§9).
            Receiver::WebhookPost {
                url: MaybeSecret::Plain(url),
                ..
            } => {
                url_rules::check(url, self.allow_insecure_webhooks).map_err(|problem| invalid("receiver.url", problem))
            }
            Receiver::WebhookPost { .. } => Ok(()),
            Receiver::ItxCall { expression, .. } => {
                let parts: Vec<&str> = expression
                    .as_array()
                    .map(|items| items.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                match parts.as_slice() {
                    ["services", binding, method] if !method.is_empty() => {
                        if self.itx_services.iter().any(|allowed| allowed == binding) {
                            Ok(())
                        } else {
                            Err(invalid(
                                "receiver.expression",
                                format!("service '{binding}' is not on this deployment's ITX allowlist"),
                            ))
                        }
                    }
                    _ => Err(invalid(
                        "receiver.expression",
                        "must be [\"services\", BINDING, method]",
                    )),
                }
            }
            Receiver::CopyToStream { .. } | Receiver::ProcessorWake { .. } | Receiver::Log { .. } => Ok(()),
        }
    }
}
