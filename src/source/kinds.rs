//! Which kind a source object is (docs/design.md §15, §15.1): the chain source
//! (`kind: "evm"`) or the mempool source (`kind: "evm-mempool"`). A PUT's
//! `kind` picks the configuration's parser; an object holds one kind at a
//! time, the one whose row it has, and a PUT of the other kind forgets the
//! first (its events stay in the stream). The shell drives either through
//! [`AnySource`], whose conversation is the same (§1: effects out, answers
//! in).

use super::config::{self, check_chain_id_answers, invalid, ConfigError, SourceConfig};
use super::effect::{AppendAnswer, Effect};
use super::machine::Source;
use super::mempool::{self, Mempool, MempoolConfig};
use super::rpc::{RpcAnswer, RpcFailure};
use crate::storage::{Storage, StorageError};
use crate::Inputs;
use serde::Serialize;
use serde_json::Value;

/// A validated configuration of either kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum AnyConfig {
    Chain(SourceConfig),
    Mempool(MempoolConfig),
}

/// Validates a `PUT /v1/sources/{name}` body (§15, §15.1) by its `kind`.
pub fn parse(name: &str, body: &[u8], allow_insecure: bool) -> Result<AnyConfig, ConfigError> {
    let fields = config::body_fields(name, body)?;
    match fields.get("kind").and_then(Value::as_str) {
        Some("evm") => config::parse_fields(&fields, allow_insecure).map(AnyConfig::Chain),
        Some(mempool::KIND) => mempool::config::parse_fields(&fields, allow_insecure).map(AnyConfig::Mempool),
        _ => Err(invalid("kind", "must be \"evm\" or \"evm-mempool\"")),
    }
}

impl AnyConfig {
    pub fn rpc_urls(&self) -> &[String] {
        match self {
            AnyConfig::Chain(config) => &config.rpc_urls,
            AnyConfig::Mempool(config) => &config.rpc_urls,
        }
    }

    /// Every endpoint's `eth_chainId` answer, in `rpcUrls` order, must be the
    /// configured chain (422 otherwise, §15).
    pub fn check_chain_ids(&self, answers: &[Result<u64, RpcFailure>]) -> Result<(), ConfigError> {
        let chain_id = match self {
            AnyConfig::Chain(config) => config.chain_id,
            AnyConfig::Mempool(config) => config.chain_id,
        };
        check_chain_id_answers(chain_id, answers)
    }

    /// The configuration as the source directory lists it.
    pub fn listed(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

enum Kind<S: Storage> {
    Chain(Box<Source<S>>),
    Mempool(Box<Mempool<S>>),
}

/// The source an object holds, of whichever kind.
pub struct AnySource<S: Storage> {
    /// Always `Some` between calls (taken only to switch kinds).
    kind: Option<Kind<S>>,
}

impl<S: Storage> AnySource<S> {
    /// Opens the kind this object holds (a chain source when it holds none).
    pub fn open(storage: S) -> Result<Self, StorageError> {
        crate::schema::migrate_with(&storage, crate::schema::SOURCE_MIGRATIONS)?;
        let kind = if mempool::store::exists(&storage)? {
            Kind::Mempool(Box::new(Mempool::open(storage)?))
        } else {
            Kind::Chain(Box::new(Source::open(storage)?))
        };
        Ok(AnySource { kind: Some(kind) })
    }

    /// Creates or replaces the configuration; a configuration of the other
    /// kind forgets this one first. Returns whether the source is new.
    pub fn configure(
        &mut self,
        project_id: &str,
        name: &str,
        config: AnyConfig,
        now_ms: i64,
    ) -> Result<bool, StorageError> {
        let existed = self.status()?.is_some();
        let kind = match (self.kind.take(), config) {
            (Some(Kind::Chain(mut source)), AnyConfig::Chain(config)) => {
                source.configure(project_id, name, config, now_ms)?;
                Kind::Chain(source)
            }
            (Some(Kind::Mempool(mut source)), AnyConfig::Mempool(config)) => {
                source.configure(project_id, name, config, now_ms)?;
                Kind::Mempool(source)
            }
            (Some(Kind::Chain(mut chain)), AnyConfig::Mempool(config)) => {
                chain.delete()?;
                let mut source = Box::new(Mempool::open((*chain).into_storage())?);
                source.configure(project_id, name, config, now_ms)?;
                Kind::Mempool(source)
            }
            (Some(Kind::Mempool(mut watcher)), AnyConfig::Chain(config)) => {
                watcher.delete()?;
                let mut source = Box::new(Source::open((*watcher).into_storage())?);
                source.configure(project_id, name, config, now_ms)?;
                Kind::Chain(source)
            }
            (None, _) => return Err(StorageError::Sql("the source is not open".to_owned())),
        };
        self.kind = Some(kind);
        Ok(!existed)
    }

    /// Forgets the source. Whether it existed.
    pub fn delete(&mut self) -> Result<bool, StorageError> {
        match &mut self.kind {
            Some(Kind::Chain(source)) => source.delete(),
            Some(Kind::Mempool(source)) => source.delete(),
            None => Ok(false),
        }
    }

    /// `GET /v1/sources/{name}`.
    pub fn status(&self) -> Result<Option<Value>, StorageError> {
        match &self.kind {
            Some(Kind::Chain(source)) => Ok(source.status()),
            Some(Kind::Mempool(source)) => source.status(),
            None => Ok(None),
        }
    }

    /// The project the source belongs to (the alarm has no request to say it).
    pub fn project_id(&self) -> Option<String> {
        match &self.kind {
            Some(Kind::Chain(source)) => source.row().map(|row| row.project_id.clone()),
            Some(Kind::Mempool(source)) => source.row().map(|row| row.project_id.clone()),
            None => None,
        }
    }

    pub fn begin_run(&mut self, inputs: &Inputs) -> Result<Effect, StorageError> {
        match &mut self.kind {
            Some(Kind::Chain(source)) => source.begin_run(inputs),
            Some(Kind::Mempool(source)) => source.begin_run(inputs),
            None => Ok(Effect::Stop),
        }
    }

    pub fn run_id(&self) -> Option<u64> {
        match &self.kind {
            Some(Kind::Chain(source)) => source.run_id(),
            Some(Kind::Mempool(source)) => source.run_id(),
            None => None,
        }
    }

    pub fn on_rpc(&mut self, run_id: u64, answer: &RpcAnswer, now_ms: i64) -> Result<Effect, StorageError> {
        match &mut self.kind {
            Some(Kind::Chain(source)) => source.on_rpc(run_id, answer, now_ms),
            Some(Kind::Mempool(source)) => source.on_rpc(run_id, answer, now_ms),
            None => Ok(Effect::Abandoned),
        }
    }

    pub fn on_append(&mut self, run_id: u64, answer: &AppendAnswer, now_ms: i64) -> Result<Effect, StorageError> {
        match &mut self.kind {
            Some(Kind::Chain(source)) => source.on_append(run_id, answer, now_ms),
            Some(Kind::Mempool(source)) => source.on_append(run_id, answer, now_ms),
            None => Ok(Effect::Abandoned),
        }
    }

    /// Log lines produced since the last call.
    pub fn take_logs(&mut self) -> Vec<Value> {
        match &mut self.kind {
            Some(Kind::Chain(source)) => source.take_logs(),
            Some(Kind::Mempool(source)) => source.take_logs(),
            None => Vec::new(),
        }
    }
}
