//! Reads the engine's `Deployment` from the Worker environment (§9):
//! `ALLOW_INSECURE_WEBHOOKS` ("true"/"1"), `ITX_SERVICES` (comma-separated
//! binding names), `WEBHOOK_SIGNING_KEY` (secret), `STORAGE_BUDGET_BYTES`
//! (§16; a positive integer, anything else means the default budget).

use tributary::deployment::Deployment;
use worker::Env;

/// A setting's text: a secret, else a variable of that name.
pub fn text(env: &Env, name: &str) -> Option<String> {
    env.secret(name)
        .map(|s| s.to_string())
        .or_else(|_| env.var(name).map(|v| v.to_string()))
        .ok()
}

pub fn from_env(env: &Env) -> Deployment {
    Deployment {
        allow_insecure_webhooks: text(env, "ALLOW_INSECURE_WEBHOOKS").is_some_and(|v| matches!(v.trim(), "true" | "1")),
        itx_services: text(env, "ITX_SERVICES")
            .map(|list| {
                list.split(',')
                    .map(str::trim)
                    .filter(|name| !name.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
        webhook_signing_key: text(env, "WEBHOOK_SIGNING_KEY").filter(|key| !key.is_empty()),
        storage_budget_bytes: text(env, "STORAGE_BUDGET_BYTES")
            .and_then(|raw| raw.trim().parse::<u64>().ok())
            .filter(|budget| *budget > 0),
    }
}
