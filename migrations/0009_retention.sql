-- Retention (docs/design.md §16): how far the log was trimmed, the bytes it holds,
-- and the snapshot of the fold at the trim point, so a rebuild is the snapshot
-- plus the fold of the retained events. Every table is documented as a Rust
-- type in src/retention/ (records) and src/schema.rs.

-- One row (id = 1) once anything was counted or trimmed; absent means nothing
-- trimmed and nothing counted. Written by the trim step (src/retention/trim.rs)
-- and by an append that moves the byte count far enough (a checkpoint, so an
-- open sums only the rows after `counted_through`). `trimmed_through`: the
-- highest offset trimmed (firstOffset is one more); `retained_bytes`: the bytes
-- of the retained rows with offsets up to `counted_through`; `trimmed_events`:
-- rows deleted by retention and by ephemeral expiry over the lifetime.
CREATE TABLE IF NOT EXISTS retention_progress (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  trimmed_through INTEGER NOT NULL,
  counted_through INTEGER NOT NULL,
  retained_bytes INTEGER NOT NULL,
  trimmed_events INTEGER NOT NULL
);

-- The reduced-state document as of `through_offset` (one row, id = 1): the
-- fold of every event trimmed so far. Written in the transaction that trims
-- through `through_offset`; read by a rebuild.
CREATE TABLE IF NOT EXISTS state_snapshot (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  through_offset INTEGER NOT NULL,
  version INTEGER NOT NULL,
  state TEXT NOT NULL
);

-- The inbound fence records as of the snapshot (same shape as inbound_fences):
-- the copies trimmed so far, folded in the trim transaction. A rebuild starts
-- inbound_fences from these rows.
CREATE TABLE IF NOT EXISTS snapshot_inbound_fences (
  source_path TEXT NOT NULL,
  subscription_key TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  stream_created_at TEXT NOT NULL,
  cursor_changed_at_source_offset INTEGER NOT NULL,
  num_events_received INTEGER NOT NULL,
  last_event_received_at_ms INTEGER NOT NULL,
  PRIMARY KEY (source_path, subscription_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshot_inbound_fence_count (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  records INTEGER NOT NULL
);

-- What trimming passed, per subscription (trimPastSubscribers): how many
-- events it never got, and the last pass (the offsets of its `trimmed` fact).
-- Written in the trim transaction that moves its cursor; dropped with it.
CREATE TABLE IF NOT EXISTS retention_passes (
  subscription_key TEXT PRIMARY KEY,
  events_passed INTEGER NOT NULL,
  last_after_offset INTEGER NOT NULL,
  last_through_offset INTEGER NOT NULL,
  last_fact_offset INTEGER NOT NULL
);

-- Ephemeral rows (§3 rule 5) expire after an hour whatever the retention:
-- a partial index, so only ephemeral appends write an entry.
CREATE INDEX IF NOT EXISTS events_ephemeral ON events (event_offset) WHERE ephemeral = 1;
