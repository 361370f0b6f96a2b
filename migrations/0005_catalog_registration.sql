-- What the project's catalog has acknowledged for this stream (docs/design.md §14):
-- one row (id = 1), NULL stream_id when unregistered. Survives deletion (like
-- stream_lifetimes), so a destroy can still be unregistered after a restart.
-- Written by the stream object when the project object acknowledges.
CREATE TABLE IF NOT EXISTS catalog_registration (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  project_id TEXT NOT NULL,
  path TEXT NOT NULL,
  stream_id TEXT
);
