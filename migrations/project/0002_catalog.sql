-- The stream catalog (docs/design.md §14): one row per stream lifetime the
-- project's streams registered. Written by the project object when a stream
-- registers (creation) or unregisters (destroy); read by GET /v1/streams.
CREATE TABLE IF NOT EXISTS streams (
  path TEXT PRIMARY KEY,
  stream_id TEXT NOT NULL,
  stream_created_at_ms INTEGER NOT NULL
);
