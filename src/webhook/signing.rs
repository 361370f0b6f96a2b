//! Standard Webhooks signing (docs/design.md §9): `webhook-signature` is `v1,` +
//! base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the subscription's
//! secret. Secrets are derived, never stored: HMAC of the deployment's
//! `WEBHOOK_SIGNING_KEY` over the subscription coordinates.

use crate::limits::MAX_STREAM_SUBSCRIPTIONS;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::cell::RefCell;
use std::collections::HashMap;

type HmacSha256 = Hmac<Sha256>;

const SECRET_PREFIX: &str = "whsec_";

fn mac(key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    // HMAC accepts keys of any length; `new_from_slice` cannot fail for it.
    let Ok(mut mac) = HmacSha256::new_from_slice(key) else {
        return Vec::new();
    };
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().to_vec()
}

/// The `whsec_...` secret of one subscription.
pub fn subscription_secret(signing_key: &str, project_id: &str, path: &str, subscription_key: &str) -> String {
    let raw = mac(
        signing_key.as_bytes(),
        &[
            b"tributary/webhook-secret/v1\n",
            project_id.as_bytes(),
            b"\n",
            path.as_bytes(),
            b"\n",
            subscription_key.as_bytes(),
        ],
    );
    format!("{SECRET_PREFIX}{}", STANDARD.encode(raw.get(..24).unwrap_or(&raw)))
}

/// Subscription secrets as last derived, in memory only (a derivation is an
/// HMAC every webhook send paid again): each kept with the coordinates it
/// was derived from and answered only for the same ones, at most one per
/// subscription a stream may hold.
#[derive(Default)]
pub struct DerivedSecrets {
    known: RefCell<HashMap<String, Derived>>,
}

struct Derived {
    signing_key: String,
    project_id: String,
    path: String,
    secret: String,
}

impl DerivedSecrets {
    /// [`subscription_secret`], derived once for the same coordinates.
    pub fn secret(&self, signing_key: &str, project_id: &str, path: &str, subscription_key: &str) -> String {
        let remembered = self.known.try_borrow().ok().and_then(|known| {
            known
                .get(subscription_key)
                .filter(|derived| {
                    derived.signing_key == signing_key && derived.project_id == project_id && derived.path == path
                })
                .map(|derived| derived.secret.clone())
        });
        if let Some(secret) = remembered {
            return secret;
        }
        let secret = subscription_secret(signing_key, project_id, path, subscription_key);
        if let Ok(mut known) = self.known.try_borrow_mut() {
            if known.len() >= MAX_STREAM_SUBSCRIPTIONS && !known.contains_key(subscription_key) {
                known.clear();
            }
            known.insert(
                subscription_key.to_owned(),
                Derived {
                    signing_key: signing_key.to_owned(),
                    project_id: project_id.to_owned(),
                    path: path.to_owned(),
                    secret: secret.clone(),
                },
            );
        }
        secret
    }
}

/// `v1,<base64>` for one message, given a `whsec_` secret.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = STANDARD
        .decode(secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret))
        .ok()?;
    let signature = mac(
        &key,
        &[
            id.as_bytes(),
            b".",
            timestamp.to_string().as_bytes(),
            b".",
            body.as_bytes(),
        ],
    );
    Some(format!("v1,{}", STANDARD.encode(signature)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_secret_is_the_derivation_of_the_same_coordinates_only() {
        let secrets = DerivedSecrets::default();
        let derive = |signing_key: &str, path: &str, key: &str| subscription_secret(signing_key, "p", path, key);
        assert_eq!(secrets.secret("k1", "p", "/a", "hook"), derive("k1", "/a", "hook"));
        assert_eq!(secrets.secret("k1", "p", "/a", "hook"), derive("k1", "/a", "hook"));
        assert_eq!(
            secrets.secret("k2", "p", "/a", "hook"),
            derive("k2", "/a", "hook"),
            "a new signing key"
        );
        assert_eq!(
            secrets.secret("k2", "p", "/b", "hook"),
            derive("k2", "/b", "hook"),
            "another path"
        );
        assert_eq!(secrets.secret("k2", "p", "/b", "other"), derive("k2", "/b", "other"));
        assert_ne!(derive("k2", "/b", "hook"), derive("k2", "/b", "other"));
        assert_eq!(secrets.known.borrow().len(), 2);
        for i in 0..MAX_STREAM_SUBSCRIPTIONS * 3 {
            let key = format!("key-{i}");
            assert_eq!(secrets.secret("k2", "p", "/b", &key), derive("k2", "/b", &key));
            assert!(secrets.known.borrow().len() <= MAX_STREAM_SUBSCRIPTIONS);
        }
    }

    #[test]
    fn matches_the_published_standard_webhooks_vector() {
        let signature = sign(
            "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD",
            "msg_27UH4WbU6Z5A5EzD8u03UvzRbpk",
            1_649_367_553,
            r#"{"email":"test@example.com","username":"test_user"}"#,
        );
        assert_eq!(
            signature.as_deref(),
            Some("v1,tZ1I4/hDygAJgO5TYxiSd6Sd0kDW6hPenDe+bTa3Kkw=")
        );
    }

    #[test]
    fn secrets_differ_per_subscription_and_are_stable() {
        let a = subscription_secret("k", "p", "/s", "one");
        assert_eq!(a, subscription_secret("k", "p", "/s", "one"));
        assert_ne!(a, subscription_secret("k", "p", "/s", "two"));
        assert_ne!(a, subscription_secret("other", "p", "/s", "one"));
        assert!(a.starts_with("whsec_") && a.len() == 6 + 32);
    }
}
