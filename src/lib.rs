//! Tributary's engine: durable, offset-ordered event streams (docs/design.md).
//!
//! Sans-I/O (docs/design.md §1): nothing here reads a clock, draws randomness or
//! touches the network. Time and entropy arrive as [`Inputs`]; storage is the
//! [`storage::Storage`] trait, implemented over `rusqlite` for native tests and
//! over the Durable Object `SqlStorage` by the shell in `durable-objects/`.

pub mod api;
pub mod auth_tokens;
pub mod catalog;
pub mod copy;
pub mod delivery;
pub mod deployment;
pub mod durable_streams;
pub mod error;
pub mod event;
pub mod fork;
pub mod header_init;
pub mod invalidation;
pub mod json_field;
pub mod json_limits;
pub mod jsonata;
pub mod limits;
pub mod live;
pub mod path;
pub mod processor;
pub mod project_metrics;
pub mod records;
pub mod reserved_keys;
pub mod retention;
pub mod route;
pub mod schema;
pub mod secrets;
pub mod source;
pub mod state;
pub mod storage;
pub mod stream;
pub mod subscribe_from;
pub mod subscription;
pub mod text;
pub mod time;
pub mod webhook;

/// What the outside world supplies to one engine call (docs/design.md §1).
#[derive(Debug, Clone, Copy)]
pub struct Inputs {
    /// Wall-clock time in Unix milliseconds, read by the shell.
    pub now_ms: i64,
    /// Platform randomness, read by the shell; used for new stream ids.
    pub entropy: [u8; 16],
}
