-- Forks (docs/design.md §18): a stream that begins as another stream's prefix.
-- Every table is documented as a Rust type in src/fork/store.rs.

-- The fork's source (one row, id = 1), written by the creating PUT in the
-- transaction that starts the fork's lifetime. Reads at or below
-- `fork_point` go to the source; the fork's own events follow it.
-- `asked_from`, `asked_offset` and `sub_offset` are what the creating
-- request asked, for an idempotent repeat (PROTOCOL §4.2).
CREATE TABLE IF NOT EXISTS fork_origin (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  source_path TEXT NOT NULL,
  source_stream_id TEXT NOT NULL,
  fork_point INTEGER NOT NULL,
  asked_from TEXT NOT NULL,
  asked_offset INTEGER NOT NULL,
  sub_offset INTEGER NOT NULL
);

-- The source's edges: one row per fork reading this lifetime's prefix,
-- written by the fork's acquire (idempotent per fork path) and deleted by its
-- release. Retention never trims at or below a live edge's fork point; a
-- DELETE with edges soft-deletes.
CREATE TABLE IF NOT EXISTS fork_edges (
  fork_path TEXT PRIMARY KEY,
  fork_point INTEGER NOT NULL,
  acquired_at_ms INTEGER NOT NULL
);

-- A soft-deleted stream (one row, id = 1): written by a DELETE (or an
-- expiry) while forks read it; the lifetime's data stays until the last
-- edge is released, then the stream is purged.
CREATE TABLE IF NOT EXISTS fork_soft_delete (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  deleted_at_ms INTEGER NOT NULL
);

-- Releases a fork owes its source, keyed by (source, fork path). Written
-- before a fork's acquire (due only after a grace period: an acquire whose
-- creation never committed is released, so a crash leaks no edge) and in the
-- transaction that destroys a fork (due at once); the fork's creation deletes
-- its row in its own transaction. Survives the stream's deletion
-- (src/schema.rs SURVIVES_DELETION); the shell sends due rows after a request
-- and from the alarm, deleting each the source acknowledged.
CREATE TABLE IF NOT EXISTS fork_release_outbox (
  project_id TEXT NOT NULL,
  source_path TEXT NOT NULL,
  fork_path TEXT NOT NULL,
  source_stream_id TEXT,
  due_at_ms INTEGER NOT NULL,
  PRIMARY KEY (source_path, fork_path)
);
