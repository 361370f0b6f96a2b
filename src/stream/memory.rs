//! What a stream object keeps in memory only (docs/design.md §8, §11): compiled
//! expressions and, per subscription, its aggregate hold, throttle window,
//! delivery figures, validation verdict, the webhook URL last allowed and its
//! derived signing secret. A restart starts it empty (the
//! log and the runtime rows are the durable truth); destroying the stream
//! resets all of it at once, so no per-subscription remnant outlives a
//! lifetime.

use crate::delivery::DeliveryStats;
use crate::deployment::Deployment;
use crate::jsonata::Compiled;
use crate::records::runtime_row::RuntimeRow;
use crate::secrets::MaybeSecret;
use crate::subscription::{ConfigError, Configuration, Receiver};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

#[derive(Default)]
pub(crate) struct Memory {
    /// Compiled JSONata by source text (compiled once per configuration).
    pub compiled: HashMap<String, Rc<Compiled>>,
    pub subscriptions: BTreeMap<String, SubscriptionMemory>,
    /// Whether this lifetime was soft-deleted (§18), once read.
    pub soft_deleted: std::cell::Cell<Option<bool>>,
    /// How many forks read this lifetime and their lowest fork point
    /// (§18), once read: this object writes every edge (a grant, a
    /// release), and each write clears it.
    pub fork_edges: std::cell::Cell<Option<(u64, Option<u64>)>>,
    /// A fork's inherited pages for its subscriptions (§18).
    pub inherited: crate::fork::inherited::Held,
    /// The page a planning pass shares between its scans (§12); `None`
    /// outside a pass.
    pub shared_reads: Option<crate::delivery::shared_reads::SharedReads>,
    /// The log's durable rows read ahead of the delivery scans (§12).
    pub read_ahead: crate::delivery::read_ahead::ReadAhead,
    /// The runtime rows as last read whole, and the storage generation they
    /// were read at: true while it has not moved (no write, no rollback).
    pub runtime_rows: std::cell::RefCell<Option<(u64, BTreeMap<String, RuntimeRow>)>>,
    /// `copy_key_first_form_runs` once read (§7 rule 4): the runs, by
    /// subscription key, whose copies keep the first key form.
    pub copy_key_first_form_runs: Option<BTreeMap<String, std::collections::BTreeSet<u64>>>,
    /// The webhook subscriptions' secrets as derived (§9).
    pub signing_secrets: crate::webhook::signing::DerivedSecrets,
    /// Each subscription's oldest journal offsets, as last read (§13).
    pub journal_heads: crate::delivery::journal_heads::JournalHeads,
}

/// The in-memory half of one subscription's runtime.
#[derive(Debug, Default, Clone)]
pub(crate) struct SubscriptionMemory {
    /// An aggregate holding matched events (§8): decided at `after` with the
    /// head at `head`; flushes at `flush_at_ms` unless either moves.
    pub hold: Option<Hold>,
    /// The throttle's fixed window (§8); a restart opens a fresh one.
    pub throttle: Option<ThrottleWindow>,
    /// Delivery figures since the object started (§11).
    pub stats: DeliveryStats,
    /// Whether the stored configuration still validates (§8), checked once
    /// per configuration.
    pub validation: Option<Validation>,
    /// Hits a maxOnce gate discarded in front of the batch in flight (§13):
    /// counted when that batch completes and the cursor passes them, so a
    /// retried scan never counts them twice.
    pub gate_discards: Option<PendingDiscards>,
    /// The plain webhook URL that last passed the deployment's rules, and
    /// under which relaxation (§9): a send to it again skips the parse.
    pub url_passed: Option<(String, bool)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PendingDiscards {
    pub delivery_id: String,
    pub count: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hold {
    pub after: u64,
    pub head: u64,
    pub flush_at_ms: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ThrottleWindow {
    pub started_at_ms: i64,
    pub delivered: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Validation {
    pub configured_at_offset: u64,
    /// Why the stored configuration refuses to run, if it does.
    pub problem: Option<String>,
}

impl Memory {
    pub fn of(&mut self, key: &str) -> &mut SubscriptionMemory {
        self.subscriptions.entry(key.to_owned()).or_default()
    }

    pub fn hold(&self, key: &str) -> Option<Hold> {
        self.subscriptions.get(key).and_then(|memory| memory.hold)
    }

    /// The deployment's rules for `key`'s receiver (§9), re-checked at every
    /// send; a plain webhook URL that passed is remembered, not parsed again.
    pub fn deployment_allows(
        &mut self,
        key: &str,
        deployment: &Deployment,
        configuration: &Configuration,
    ) -> Result<(), ConfigError> {
        let Receiver::WebhookPost {
            url: MaybeSecret::Plain(url),
            ..
        } = &configuration.receiver
        else {
            return deployment.check(configuration);
        };
        let relaxed = deployment.allow_insecure_webhooks;
        let passed = self
            .subscriptions
            .get(key)
            .and_then(|memory| memory.url_passed.as_ref())
            .is_some_and(|(passed, passed_relaxed)| passed == url && *passed_relaxed == relaxed);
        if !passed {
            deployment.check(configuration)?;
            self.of(key).url_passed = Some((url.clone(), relaxed));
        }
        Ok(())
    }

    /// Why `key`'s stored configuration refuses to run (§8), if it does.
    pub fn invalid(&self, key: &str) -> Option<&str> {
        self.subscriptions
            .get(key)
            .and_then(|memory| memory.validation.as_ref())
            .and_then(|validation| validation.problem.as_deref())
    }
}
