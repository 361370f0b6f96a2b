-- Generated from this class's migrations: every table and index they leave, as
-- sqlite_master holds it. Do not edit; to regenerate, run
-- TRIBUTARY_WRITE_FRESH_SCHEMA=1 cargo test -p tributary fresh_scripts
CREATE TABLE IF NOT EXISTS processor_instance (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL,
  reducer TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  checkpoint_offset INTEGER NOT NULL,
  state TEXT NOT NULL
, folded_from_offset INTEGER);
