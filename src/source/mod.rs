//! Sources (docs/design.md §15): producers Tributary runs for a project. A source
//! is a Durable Object per `(project, name)` that, driven by its alarm,
//! reads an upstream and appends to a target stream. The first kind reads
//! an Ethereum JSON-RPC endpoint and turns chain reorganisations into
//! `events-invalidated` retractions; the second (`mempool`, §15.1) watches
//! the endpoint's pending transactions. `kinds` holds whichever kind an
//! object is configured as.
//!
//! Sans-I/O like the rest of the engine (§1): a source says which RPC call
//! to make and what to append ([`Effect`]); the shell
//! (`durable-objects/src/source_object.rs`) performs it and feeds the answer
//! back. Both kinds share one run skeleton (`run.rs`: the budget, pacing,
//! answers matched to their run, configure and delete); a kind is data
//! (`run::Kind`), implemented in `chain.rs` and `mempool/kind.rs`.
//!
//! Layers, lowest first: `config_error`; `abi`; `rpc`; `config`; `effect`;
//! `answers`, `pacing`; `store`, `payload`, `search`; `run`; `machine` (the
//! chain kind's run state and dispatch); its parts `reading`, `ancestor`,
//! `batching`, `status`; `chain`; `mempool/`; `kinds`. A file imports only
//! files below it (`scripts/check-imports.mjs`).

pub mod abi;
mod ancestor;
mod answers;
mod batching;
mod chain;
pub mod config;
pub mod config_error;
pub mod directory;
pub mod effect;
pub mod kinds;
pub mod lifetime;
pub mod machine;
pub mod mempool;
mod pacing;
pub mod payload;
mod reading;
pub mod rpc;
pub mod run;
mod search;
pub mod status;
pub mod store;

pub use config::{check_chain_ids, ConfigError, SourceConfig};
pub use directory::{Directory, DirectoryChange};
pub use effect::{AppendAnswer, AppendCall, Effect};
pub use machine::Source;
pub use rpc::{RpcAnswer, RpcCall, RpcFailure};
