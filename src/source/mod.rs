//! Sources (DESIGN.md §15): producers Tributary runs for a project. A source
//! is a Durable Object per `(project, name)` that, driven by its alarm,
//! reads an upstream and appends to a target stream. The first kind reads
//! an Ethereum JSON-RPC endpoint and turns chain reorganisations into
//! `events-invalidated` retractions; the second (`mempool`, §15.1) watches
//! the endpoint's pending transactions. `kinds` holds whichever kind an
//! object is configured as.
//!
//! Sans-I/O like the rest of the engine (§1): [`machine::Source`] says which
//! RPC call to make and what to append ([`machine::Effect`]); the shell
//! (`durable-objects/src/source_object.rs`) performs it and feeds the answer
//! back.

pub mod abi;
mod ancestor;
mod answers;
mod batching;
pub mod config;
pub mod directory;
pub mod kinds;
pub mod lifetime;
pub mod machine;
pub mod mempool;
mod pacing;
pub mod payload;
mod reading;
pub mod rpc;
pub mod status;
pub mod store;

pub use config::{check_chain_ids, ConfigError, SourceConfig};
pub use directory::{Directory, DirectoryChange};
pub use machine::{AppendAnswer, AppendCall, Effect, Source};
pub use rpc::{RpcAnswer, RpcCall, RpcFailure};
