-- Generated from this class's migrations: every table and index they leave, as
-- sqlite_master holds it. Do not edit; to regenerate, run
-- TRIBUTARY_WRITE_FRESH_SCHEMA=1 cargo test -p tributary fresh_scripts
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
, target_stream_id TEXT);
CREATE TABLE IF NOT EXISTS source_blocks (
  number INTEGER PRIMARY KEY,
  hash TEXT NOT NULL,
  parent_hash TEXT NOT NULL,
  offsets TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS source_dead_blocks (
  hash TEXT PRIMARY KEY,
  number INTEGER NOT NULL,
  deaths INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS source_pending (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  transition TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS source_pending_batches (
  seq INTEGER PRIMARY KEY,
  body TEXT NOT NULL,
  offsets TEXT
);
CREATE TABLE IF NOT EXISTS source_directory (
  name TEXT PRIMARY KEY,
  config TEXT NOT NULL,
  updated_at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS mempool_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  project_id TEXT NOT NULL,
  name TEXT NOT NULL,
  config TEXT NOT NULL,
  generation INTEGER NOT NULL,
  status TEXT NOT NULL,
  last_error TEXT,
  attempt INTEGER NOT NULL,
  next_run_at_ms INTEGER NOT NULL,
  url_index INTEGER NOT NULL,
  filter_id TEXT,
  filter_url_index INTEGER,
  watching_since_ms INTEGER,
  last_poll_at_ms INTEGER,
  events_appended INTEGER NOT NULL,
  txs_seen INTEGER NOT NULL,
  txs_dropped INTEGER NOT NULL,
  txs_vanished INTEGER NOT NULL,
  filter_resets INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS mempool_queue (
  seq INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  seen_at_ms INTEGER NOT NULL,
  event TEXT
);
CREATE TABLE IF NOT EXISTS mempool_seen (
  hash TEXT PRIMARY KEY,
  seen_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS mempool_seen_by_age ON mempool_seen (seen_at_ms);
