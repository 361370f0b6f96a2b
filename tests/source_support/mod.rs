//! The EVM source's native test harness (docs/design.md §15), shared by the
//! `engine_source*` test files: a seeded random generator, a scripted chain
//! (a tree of blocks with one canonical branch, forks and flip-flops), a
//! fake JSON-RPC node over it with injectable faults, and a [`Harness`]
//! that drives the source's state machine against it, appending into a real
//! engine stream over SQLite, crashing (reopening) between any two steps.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use tributary::api::ApiRequest;
use tributary::limits::MAX_SOURCE_RPC_CALLS_PER_RUN;
use tributary::path::StreamPath;
use tributary::route::Action;
use tributary::source::config::{self};
use tributary::source::{AppendAnswer, Effect, RpcAnswer, RpcCall, Source};
use tributary::storage::rusqlite_driver::RusqliteStorage;
use tributary::stream::Stream;
use tributary::Inputs;

pub const TRANSFER: &str = "Transfer(address indexed from, address indexed to, uint256 value)";
pub const TRANSFER_TOPIC: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
pub const TOKEN: [u8; 20] = [0xAA; 20];
pub const OTHER_TOKEN: [u8; 20] = [0xBB; 20];
pub const CHAIN_ID: u64 = 31337;
pub const STREAM: &str = "/chain/transfers";
pub const INVALIDATED: &str = "events.iterate.com/stream/events-invalidated";

pub mod chain;
pub mod harness;
pub mod node;

pub use chain::*;
pub use harness::*;
pub use node::*;

// ---------- randomness ----------

pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn entropy(&mut self) -> [u8; 16] {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.next().to_le_bytes());
        bytes[8..].copy_from_slice(&self.next().to_le_bytes());
        bytes
    }
}

pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::from("0x");
    for byte in bytes {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

pub fn unhex(text: &str) -> Option<[u8; 32]> {
    let digits = text.strip_prefix("0x")?;
    if digits.len() != 64 {
        return None;
    }
    let mut bytes = [0u8; 32];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(digits.get(i * 2..i * 2 + 2)?, 16).ok()?;
    }
    Some(bytes)
}

pub fn word(n: u64, tag: u8) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    bytes[0] = tag;
    bytes[24..].copy_from_slice(&n.to_be_bytes());
    bytes
}

pub fn padded(address: [u8; 20]) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    bytes[12..].copy_from_slice(&address);
    bytes
}

pub fn quantity(value: &Value) -> u64 {
    u64::from_str_radix(value.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}
