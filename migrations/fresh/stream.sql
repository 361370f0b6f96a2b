-- Generated from this class's migrations: every table and index they leave, as
-- sqlite_master holds it. Do not edit; to regenerate, run
-- TRIBUTARY_WRITE_FRESH_SCHEMA=1 cargo test -p tributary fresh_scripts
CREATE TABLE IF NOT EXISTS stream_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  project_id TEXT NOT NULL,
  path TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  head INTEGER NOT NULL,
  event_count INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  event_offset INTEGER PRIMARY KEY,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  metadata TEXT NOT NULL,
  idempotency_key TEXT,
  ephemeral INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  source TEXT
, body BLOB);
CREATE UNIQUE INDEX IF NOT EXISTS events_by_idempotency_key ON events (idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE TABLE IF NOT EXISTS reduced_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL,
  state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS stream_lifetimes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_created_at_ms INTEGER NOT NULL,
  lifetimes INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS subscription_runtime (
  subscription_key TEXT PRIMARY KEY,
  run_offset INTEGER NOT NULL,
  acknowledged_offset INTEGER NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  next_attempt_at_ms INTEGER,
  in_flight_deadline_at_ms INTEGER,
  last_error TEXT,
  bytes_sent INTEGER NOT NULL DEFAULT 0,
  isolating INTEGER NOT NULL DEFAULT 0
, retry_through_offset INTEGER, journal_pruned_through INTEGER NOT NULL DEFAULT 0, gate_anchor_ms INTEGER, window_scanned_through INTEGER, window_barrier_at INTEGER, send_lease INTEGER NOT NULL DEFAULT 0, journal_rows INTEGER);
CREATE TABLE IF NOT EXISTS dead_letters (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  subscription_key TEXT NOT NULL,
  event_offset INTEGER NOT NULL,
  delivery_id TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  reason TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'event',
  UNIQUE (subscription_key, delivery_id, event_offset)
);
CREATE TABLE IF NOT EXISTS catalog_registration (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  project_id TEXT NOT NULL,
  path TEXT NOT NULL,
  stream_id TEXT
);
CREATE TABLE IF NOT EXISTS gate_hits (
  subscription_key TEXT NOT NULL,
  event_offset INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (subscription_key, event_offset)
);
CREATE TABLE IF NOT EXISTS inbound_fences (
  source_path TEXT NOT NULL,
  subscription_key TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  stream_created_at TEXT NOT NULL,
  cursor_changed_at_source_offset INTEGER NOT NULL,
  num_events_received INTEGER NOT NULL,
  last_event_received_at_ms INTEGER NOT NULL,
  PRIMARY KEY (source_path, subscription_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS inbound_fence_count (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  records INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS delivery_window (
  subscription_key TEXT NOT NULL,
  run_offset INTEGER NOT NULL,
  event_offset INTEGER NOT NULL,
  delivery_id TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  next_attempt_at_ms INTEGER,
  in_flight_deadline_at_ms INTEGER,
  last_error TEXT,
  completed INTEGER NOT NULL DEFAULT 0, send_lease INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (subscription_key, event_offset)
);
CREATE TABLE IF NOT EXISTS retention_progress (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  trimmed_through INTEGER NOT NULL,
  counted_through INTEGER NOT NULL,
  retained_bytes INTEGER NOT NULL,
  trimmed_events INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS state_snapshot (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  through_offset INTEGER NOT NULL,
  version INTEGER NOT NULL,
  state TEXT NOT NULL
);
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
CREATE TABLE IF NOT EXISTS retention_passes (
  subscription_key TEXT PRIMARY KEY,
  events_passed INTEGER NOT NULL,
  last_after_offset INTEGER NOT NULL,
  last_through_offset INTEGER NOT NULL,
  last_fact_offset INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_ephemeral ON events (event_offset) WHERE ephemeral = 1;
CREATE TABLE IF NOT EXISTS protocol_face (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  content_type TEXT,
  message_type TEXT NOT NULL,
  last_stream_seq TEXT,
  expiry_deadline_ms INTEGER
);
CREATE TABLE IF NOT EXISTS protocol_producers (
  producer_id TEXT PRIMARY KEY,
  epoch INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  last_active_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS protocol_producers_by_activity ON protocol_producers (last_active_ms);
CREATE TABLE IF NOT EXISTS fork_origin (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  source_path TEXT NOT NULL,
  source_stream_id TEXT NOT NULL,
  fork_point INTEGER NOT NULL,
  asked_from TEXT NOT NULL,
  asked_offset INTEGER NOT NULL,
  sub_offset INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS fork_edges (
  fork_path TEXT PRIMARY KEY,
  fork_point INTEGER NOT NULL,
  acquired_at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS fork_soft_delete (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  deleted_at_ms INTEGER NOT NULL
, catalog_acknowledged INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS fork_release_outbox (
  project_id TEXT NOT NULL,
  source_path TEXT NOT NULL,
  fork_path TEXT NOT NULL,
  source_stream_id TEXT,
  due_at_ms INTEGER NOT NULL,
  PRIMARY KEY (source_path, fork_path)
);
CREATE TABLE IF NOT EXISTS copy_key_first_form_runs (
  subscription_key TEXT NOT NULL,
  run_offset INTEGER NOT NULL,
  PRIMARY KEY (subscription_key, run_offset)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS "delivery_journal" (
  subscription_key TEXT NOT NULL,
  event_offset INTEGER NOT NULL,
  delivery_id TEXT NOT NULL,
  retraction_dead_lettered INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (subscription_key, event_offset)
) WITHOUT ROWID;
