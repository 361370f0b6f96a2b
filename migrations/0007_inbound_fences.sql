-- The inbound stamp fence (docs/design.md §7 rule 2, §5 inbound), in its own table
-- instead of the reduced-state document, so one stream can take copies from
-- 10,000 sources: one row per (source_path, subscription_key) this stream
-- committed copies from, with the stamp of the last one and how many it
-- received. Part of the fold: written in the same transaction as the copy that
-- updates it, derived from committed copies only, cleared and rebuilt by a
-- state rebuild (src/state/inbound.rs). A copy's fence check reads one row.
CREATE TABLE IF NOT EXISTS inbound_fences (
  source_path TEXT NOT NULL,
  subscription_key TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  -- The stamp's lifetime as the hop wrote it (RFC 3339, compared as a time).
  stream_created_at TEXT NOT NULL,
  cursor_changed_at_source_offset INTEGER NOT NULL,
  num_events_received INTEGER NOT NULL,
  last_event_received_at_ms INTEGER NOT NULL,
  PRIMARY KEY (source_path, subscription_key)
) WITHOUT ROWID;
-- How many rows inbound_fences holds (one row, id = 1; absent means none):
-- kept with each new record, so the bound (limits.rs
-- MAX_INBOUND_FENCE_RECORDS) and stream info's count never count the table.
CREATE TABLE IF NOT EXISTS inbound_fence_count (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  records INTEGER NOT NULL
);
