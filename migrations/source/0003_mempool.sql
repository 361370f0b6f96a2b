-- The mempool source (docs/design.md §15.1): a source object of kind
-- "evm-mempool" keeps these tables instead of the chain source's (a source
-- object holds one kind at a time). Documented as Rust types in
-- src/source/mempool/store.rs.

-- The source: exactly one row (id = 1). `config` is the validated
-- configuration as JSON. `filter_id` is the node's pending-transaction
-- filter and `filter_url_index` the rpcUrls entry that made it (a filter is
-- one node's: another URL needs a new one); `watching_since_ms` when that
-- filter was made — what was pending before it is not replayed. `attempt`
-- counts failed runs in a row (backoff), `url_index` the URL in use.
-- Counters: `txs_seen` hashes queued, `txs_dropped` hashes dropped with the
-- queue full, `txs_vanished` hashes the node no longer had when fetched,
-- `filter_resets` filters the node forgot.
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

-- Hashes announced by the filter and not yet handled, in the order seen
-- (`seq`), with when each was first seen (`seen_at_ms`, part of its event's
-- payload). `event` is the evm.pending-tx event once the transaction was
-- fetched and matched (NULL until then); a fetched transaction that does not
-- match leaves the queue at once. A crash repeats only what is still here.
CREATE TABLE IF NOT EXISTS mempool_queue (
  seq INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  seen_at_ms INTEGER NOT NULL,
  event TEXT
);

-- Hashes handled (appended, not matching, or gone), remembered for a day
-- and up to a bound so a hash announced again is not fetched again.
CREATE TABLE IF NOT EXISTS mempool_seen (
  hash TEXT PRIMARY KEY,
  seen_at_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS mempool_seen_by_age ON mempool_seen (seen_at_ms);
