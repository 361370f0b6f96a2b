-- A source's schema (docs/design.md §15): one Durable Object per (project, source
-- name), polling an EVM JSON-RPC endpoint and appending to a target stream.
-- Documented as Rust types in src/source/store.rs.

-- The source: exactly one row (id = 1), with its project (the alarm has no
-- request to say it) and name. `config` is the validated
-- configuration as JSON; `next_block` the next block to read (NULL until the
-- first run learns the head, when `startBlock` is absent); `finalized_block`
-- the floor: the highest block never to be read again (final, or below the
-- start; NULL below block 0) and `anchor_hash` its hash (NULL when unknown:
-- the start's parent, or after a deep reorg). `attempt` counts failed runs
-- in a row (backoff); `url_index` the RPC URL in use (rotated on failure).
-- `range_blocks` is the adaptive eth_getLogs range for finalized blocks.
CREATE TABLE IF NOT EXISTS source_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  project_id TEXT NOT NULL,
  name TEXT NOT NULL,
  config TEXT NOT NULL,
  generation INTEGER NOT NULL,
  next_block INTEGER,
  finalized_block INTEGER,
  anchor_hash TEXT,
  status TEXT NOT NULL,
  last_error TEXT,
  attempt INTEGER NOT NULL,
  next_run_at_ms INTEGER NOT NULL,
  url_index INTEGER NOT NULL,
  range_blocks INTEGER NOT NULL,
  events_appended INTEGER NOT NULL,
  invalidations INTEGER NOT NULL,
  reorgs INTEGER NOT NULL,
  deep_reorgs INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
);

-- The unfinalized window: one row per block read above finality, with the
-- target stream's offsets of the evm.log events appended for it (JSON array).
-- Rows at or below finality are pruned.
CREATE TABLE IF NOT EXISTS source_blocks (
  number INTEGER PRIMARY KEY,
  hash TEXT NOT NULL,
  parent_hash TEXT NOT NULL,
  offsets TEXT NOT NULL
);

-- Blocks a reorg invalidated, and how often: a block that comes back (the
-- reorg undone) is appended again under keys suffixed with the count, since
-- its first events are invalidated. Pruned with finality.
CREATE TABLE IF NOT EXISTS source_dead_blocks (
  hash TEXT PRIMARY KEY,
  number INTEGER NOT NULL,
  deaths INTEGER NOT NULL
);

-- A transition written ahead of its appends (an unfinalized block's logs, or
-- an invalidation): at most one row. A restart finishes it — re-appending
-- every batch (the idempotency keys collapse repeats) — before reading on.
CREATE TABLE IF NOT EXISTS source_pending (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  transition TEXT NOT NULL
);

-- The pending transition's append batches, in order; `offsets` is filled in
-- as each batch is acknowledged.
CREATE TABLE IF NOT EXISTS source_pending_batches (
  seq INTEGER PRIMARY KEY,
  body TEXT NOT NULL,
  offsets TEXT
);

-- The project's source directory (GET /v1/sources): kept by the project's
-- directory instance of the same class, one row per source name.
CREATE TABLE IF NOT EXISTS source_directory (
  name TEXT PRIMARY KEY,
  config TEXT NOT NULL,
  updated_at_ms INTEGER NOT NULL
);
