-- A processor instance's schema (docs/design.md §9): one Durable Object per
-- (project, processor name, stream path). Documented as a Rust type in
-- src/processor/instance.rs.

-- The fold: exactly one row (id = 1), written in one commit per batch with
-- its checkpoint. `version` and `reducer` are the definition it folds with;
-- `stream_id` the stream lifetime it folds.
CREATE TABLE IF NOT EXISTS processor_instance (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL,
  reducer TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  checkpoint_offset INTEGER NOT NULL,
  state TEXT NOT NULL
);
