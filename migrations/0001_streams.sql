-- Tributary stream schema, version 1 (docs/design.md §3, §5).
-- Runs inside every stream Durable Object's SQLite (and natively under rusqlite).
-- One statement per `;`-terminated line group; no statement contains `;` itself.
-- Every table is documented as a Rust type in src/schema.rs.

-- The stream's current lifetime: exactly one row (id = 1) while the stream exists.
-- Written by the append that starts a lifetime; head and event_count are derived
-- from the events table since schema 6 (these two columns are no longer written).
CREATE TABLE IF NOT EXISTS stream_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  project_id TEXT NOT NULL,
  path TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  head INTEGER NOT NULL,
  event_count INTEGER NOT NULL
);

-- The append-only log: one row per committed event, offsets contiguous from 1.
-- Written only by the append commit; never updated.
CREATE TABLE IF NOT EXISTS events (
  event_offset INTEGER PRIMARY KEY,
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  metadata TEXT NOT NULL,
  idempotency_key TEXT,
  ephemeral INTEGER NOT NULL,
  created_at_ms INTEGER NOT NULL,
  source TEXT
);

-- Idempotency lookups (§3 rule 4). Partial, so events without a key write no
-- index entry (one SQLite row less per keyless event).
CREATE UNIQUE INDEX IF NOT EXISTS events_by_idempotency_key ON events (idempotency_key)
  WHERE idempotency_key IS NOT NULL;

-- Cache of the reduced state (§5): one row (id = 1), rewritten by a commit whose
-- events change the state. Rebuilt from the log when missing or when `version`
-- differs from the engine's fold version.
CREATE TABLE IF NOT EXISTS reduced_state (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL,
  state TEXT NOT NULL
);

-- Survives stream deletion: the creation time of the latest lifetime, so the
-- next lifetime's streamCreatedAt is strictly later (§3 rule 6, §7 fence order).
CREATE TABLE IF NOT EXISTS stream_lifetimes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_created_at_ms INTEGER NOT NULL,
  lifetimes INTEGER NOT NULL
);
