//! Every limit of DESIGN.md §12, in one place.

/// Largest serialized JSON of one event (§3 rule 2).
pub const MAX_EVENT_BYTES: usize = 256 * 1024;
/// Deepest JSON nesting inside one event (§3 rule 2); the event object is depth 1.
pub const MAX_EVENT_DEPTH: usize = 64;
/// Most events in one batch append (§3 rule 2).
pub const MAX_BATCH_EVENTS: usize = 1000;
/// Largest request body of a batch append (§3 rule 2).
pub const MAX_BATCH_BYTES: usize = 2 * 1024 * 1024;
/// Longest stream path in bytes (§2).
pub const MAX_PATH_BYTES: usize = 512;
/// Most segments in a stream path (§2).
pub const MAX_PATH_SEGMENTS: usize = 16;
/// Longest event type in bytes (§3 rule 1).
pub const MAX_TYPE_BYTES: usize = 256;
/// Longest idempotency key in bytes (§3 rule 4).
pub const MAX_IDEMPOTENCY_KEY_BYTES: usize = 256;
/// Longest subscription key in bytes (§5).
pub const MAX_SUBSCRIPTION_KEY_BYTES: usize = 256;
/// Most subscriptions from one source stream to one receiving stream (§5).
pub const MAX_SUBSCRIPTIONS_PER_RECEIVER: usize = 64;
/// Largest retained reduced state, serialized (§5).
pub const MAX_REDUCED_STATE_BYTES: usize = 256 * 1024;
/// Longest copy chain (§7).
pub const MAX_COPY_HOPS: usize = 5;
/// Longest JSONata expression (§5).
pub const MAX_JSONATA_BYTES: usize = 4 * 1024;
/// Default and largest webhook timeout (§9).
pub const DEFAULT_WEBHOOK_TIMEOUT_MS: u64 = 15_000;
pub const MAX_WEBHOOK_TIMEOUT_MS: u64 = 30_000;
/// Range reads: default and largest page (§3).
pub const DEFAULT_READ_LIMIT: u64 = 100;
pub const MAX_READ_LIMIT: u64 = 1000;
/// Offsets and counters stay below 2^53 so they survive the JS boundary (§1).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;
