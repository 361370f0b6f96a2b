//! The mempool source (docs/design.md §15.1): `kind: "evm-mempool"` watches an
//! EVM node's pending transactions and appends each one matching a filter
//! (its `to`, its function) to the target stream as `evm.pending-tx`, with
//! the calldata decoded by the chain source's ABI code. It has no finality
//! and never invalidates; its identity is the transaction (key
//! `evm-mempool:{name}:{chainId}:{hash}`), so a restart or a re-seen
//! transaction never appends twice; what was pending while it was stopped is
//! not replayed (its status says since when it has watched).
//!
//! Sans-I/O like the chain source: [`Mempool`] answers [`Effect`]s
//! (`crate::source::Effect`) that the same shell performs. The parts:
//! `config` (validation), `calldata` (matching and decoding), `answers`
//! (reading the node's answers), `payload` (the event), `store` (its rows),
//! `machine` (its run state and steps), `status` (the rows a PUT writes, the
//! status view), `kind` (the kind as the shared run skeleton sees it).

pub mod answers;
pub mod calldata;
pub mod config;
mod kind;
pub mod machine;
pub mod payload;
mod status;
pub mod store;

pub use config::{MempoolConfig, KIND};
pub use machine::Mempool;
pub use payload::PENDING_TX_TYPE;
