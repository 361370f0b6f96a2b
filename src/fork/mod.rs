//! Forks (docs/design.md §18): a stream whose log begins as another stream's
//! prefix. The fork keeps where its prefix lives (`fork_origin`) and reads
//! below its fork point from the source through the shell; the source keeps
//! an edge per fork, so retention and deletion leave a fork's prefix alone
//! until the fork releases it.
//!
//! - [`store`]: the rows of migration `0011_forks.sql`.
//! - [`source`]: the source's side — grant, release, soft delete.
//! - [`segment`]: where a read falls — the fork's own rows or its source's.
//! - [`inherited`]: the source's data events for the fork's subscriptions.
//! - The fork's side of the protocol face is `durable_streams/face/fork.rs`.

pub mod inherited;
pub mod native;
pub mod read;
pub mod segment;
pub mod source;
pub mod store;

pub use source::{ForkAsk, ForkGrant, ForkRefusal, GrantError};
