//! The interleaving simulation (issue 9): a model of what the Durable Object
//! shell does around the engine — plan due work, send concurrently, complete
//! in any order, with client requests, clock jumps, restarts and
//! destroy-and-recreate in between — over real SQLite through the engine's
//! native driver. Used by `tests/sim_interleavings.rs`.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

pub mod chain;
pub mod chain_checks;
pub mod chain_run;
pub mod gates;
pub mod model;
pub mod rng;
pub mod shrink;
pub mod storage;
pub mod world;
